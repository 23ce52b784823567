"""Category content in English and Chinese, from data files: `<category>.json` in this folder holds
{"en": {...}, "zh": {...}} with the same keys in both languages, written as sites of each language write
them (Chinese sites: ¥, 年月日 dates, their own labels), not translated word for word."""
import json
from functools import cache
from importlib import resources


@cache
def load(category: str, lang: str) -> dict:
    """The content of `category` in `lang`; FileNotFoundError naming the file."""
    path = resources.files(__name__) / f"{category}.json"
    if not path.is_file():
        raise FileNotFoundError(f"no content file {category}.json in synth/screens/content/")
    return json.loads(path.read_text(encoding="utf-8"))[lang]


def pick(rng, items: list, k: int) -> list:
    """`k` items drawn without repetition (all of them, shuffled, when there are fewer)."""
    order = rng.permutation(len(items))[:k]
    return [items[int(i)] for i in order]


def compact(n: int, lang: str, thousands: str = "k") -> str:
    """A count as apps print it: 1.2万 in Chinese, 1.2k (or `thousands`) otherwise."""
    if lang == "zh":
        return f"{n / 10000:.1f}万" if n >= 10000 else str(n)
    return f"{n / 1000:.1f}{thousands}" if n >= 1000 else str(n)
