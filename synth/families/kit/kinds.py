"""The kinds of object the puzzles draw and name: emoji sprites and coloured shapes, with their names in
English and Chinese. Sprites of them: synth.families.kit.draw; wording: synth.families.kit.grammar."""
import json
from dataclasses import dataclass
from functools import lru_cache

from synth.core.paths import ASSETS
from synth.families.kit import grammar

SHAPE_NAMES = {"circle": "圆形", "square": "正方形", "triangle": "三角形", "star": "五角星",
               "hexagon": "六边形", "diamond": "菱形", "cross": "十字"}
COLOURS = {"red": ((220, 50, 47), "红色"), "blue": ((38, 110, 220), "蓝色"), "green": ((40, 160, 70), "绿色"),
           "yellow": ((235, 190, 30), "黄色"), "purple": ((140, 70, 190), "紫色"), "orange": ((240, 130, 30), "橙色")}


@dataclass(frozen=True)
class Kind:
    """A kind of object the puzzles draw: an emoji sprite or a coloured shape."""
    key: str            # "emoji:cat" or "shape:red:star"
    en: str             # plural-ready English noun phrase, e.g. "cat" / "red star"
    zh: str
    category: str       # groups look-alikes: emoji category, or "shape"

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def measure_word(self) -> str:
        """The Chinese measure word for counting objects of this kind (只 for animals, 辆 for vehicles, 颗 for
        stars)."""
        return grammar.MEASURE_WORDS.get(self.en) or {"animal": "只", "vehicle": "辆"}.get(self.category, "个")

    def singular(self, lang: str) -> str:
        """One object of this kind: "bunch of grapes", or the Chinese name."""
        return self.zh if lang == "zh" else grammar.singular(self.en)

    def plural(self, lang: str) -> str:
        """Several objects of this kind: the English plural, or the Chinese name (Chinese nouns do not inflect)."""
        return self.zh if lang == "zh" else grammar.plural(self.en)


@lru_cache(maxsize=1)
def emoji_kinds() -> tuple[Kind, ...]:
    index = json.loads((ASSETS / "emoji" / "index.json").read_text())
    return tuple(Kind(f"emoji:{k}", v["en"], v["zh"], v["category"]) for k, v in sorted(index.items()))


@lru_cache(maxsize=1)
def shape_kinds() -> tuple[Kind, ...]:
    return tuple(Kind(f"shape:{c}:{s}", f"{c} {s}", cz + sz, "shape")
                 for c, (_, cz) in COLOURS.items() for s, sz in SHAPE_NAMES.items())


# colours whose hues lie within the colour jitter of the degradations (up to +-20 degrees at level 5): a red
# and an orange of the same shape could swap names, so they never share a puzzle that names a colour
CLOSE_HUES = ({"red", "orange"}, {"orange", "yellow"})


def colours_confusable(a: str, b: str) -> bool:
    """Two shape kinds of one shape whose colours a hue shift could mix up."""
    if not (a.startswith("shape:") and b.startswith("shape:")):
        return False
    _, ca, sa = a.split(":")
    _, cb, sb = b.split(":")
    return sa == sb and {ca, cb} in CLOSE_HUES


@lru_cache(maxsize=1)
def _kinds_by_key() -> dict[str, Kind]:
    return {k.key: k for k in emoji_kinds() + shape_kinds()}


def kind_by_key(key: str) -> Kind:
    return _kinds_by_key()[key]
