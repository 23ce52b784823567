"""Refusal queries: a control plausible for the kind of page on screen, verified not to be on it.

The controls come from `absent.json` by the page's category (an archetype's CATEGORY; "general" for every
page too). A control is named only if none of its names, in either language, is drawn on the page or is
the accessible name of an element, and no text drawn on the page is a part of a name (a "Download" button
would be a fair reading of "the Download statement button")."""
import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from synth import screens
from synth.grounding.describe import ROLE_NAMES, phrase
from synth.scenes.browser import RenderedPage

MIN_PART = {"en": 4, "zh": 2}     # shortest page text taken as a possible part of a name


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, list]:
    data = json.loads((Path(__file__).parent / "absent.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def category(page: RenderedPage) -> str:
    """The page's category, or "general" for pages that are not archetypes (folder pages)."""
    name = page.spec.template
    return screens.archetype(name).CATEGORY if name in screens.names() else "general"


def drawn(page: RenderedPage) -> list[str]:
    """Every text the page shows or names an element by, case-folded."""
    words = set(page.texts)
    for e in page.elements:
        words.update(w for w in (e["text"], e.get("name", ""), e.get("placeholder", "")) if w)
    return [w.casefold() for w in words]


def absent(names: list[str], shown: list[str]) -> bool:
    """Whether no name is shown, inside a shown text, or has a shown text inside it."""
    for name in (n.casefold() for n in names):
        part = MIN_PART["zh" if any("\u4e00" <= c <= "\u9fff" for c in name) else "en"]
        if any(name in t or (len(t) >= part and t in name) for t in shown):
            return False
    return True


def candidates(page: RenderedPage) -> list[tuple[str, list[str]]]:
    """(category, names in the page's language) of every control that the page verifiably lacks."""
    shown = drawn(page)
    lang = 1 if page.spec.lang == "zh" else 0
    vocab = vocabulary()
    out = []
    for cat in dict.fromkeys([category(page), "general"]):
        for entry in vocab.get(cat, []):
            if absent(entry[0] + entry[1], shown):
                out.append((cat, entry[lang]))
    return out


def draw_refusal(rng: np.random.Generator, page: RenderedPage, style: str, used: set[str]) -> dict | None:
    """A refusal query's text and what it names ({"instruction", "name", "category"}), none of `used`;
    None if the page lacks no control of its vocabulary."""
    options = [(c, names) for c, names in candidates(page) if names[0] not in used]
    if not options:
        return None
    cat, names = options[int(rng.integers(len(options)))]
    name = names[int(rng.integers(len(names)))]
    zh = page.spec.lang == "zh"
    en_role, zh_role = ROLE_NAMES["button"]
    noun = f"“{name}”{zh_role}" if zh else f'the "{name}" {en_role}'
    return {"instruction": phrase("role_text", noun, style, page.spec.lang, page.spec.platform),
            "name": names[0], "category": cat}
