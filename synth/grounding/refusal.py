"""Refusal queries: a control plausible for the kind of page on screen, verified not to be on it, named as
the run's level names things: by its text, or (on built-in screens) by its icon.

Named controls come from `absent.json` by the page's category (an archetype's CATEGORY; "general" for
every page too). A control is named only if none of its names, in either language, is drawn on the page or
is the accessible name of an element, and no text drawn on the page is a part of a name (a "Download"
button would be a fair reading of "the Download statement button").
An icon is named only on a built-in screen, whose every icon drawing carries its key (synth.screens.icons),
when the page draws no icon of that key and none whose description shares a word with it (no "magnifier
icon" refusal beside a magnifier with a plus)."""
import json
from functools import lru_cache
from pathlib import Path

import numpy as np

from synth import screens
from synth.grounding.describe import icon_noun, phrase, role_noun
from synth.grounding.vocab import ICONS
from synth.screens.browser import RenderedPage

MIN_PART = {"en": 4, "zh": 2}     # shortest page text taken as a possible part of a name
# the refusal form that fits each instruction kind of a level
FORMS = {"text": "role_text", "role_text": "role_text", "relation": "role_text", "between": "role_text",
         "row": "role_text", "column": "role_text", "ordinal": "role_text", "field": "role_text",
         "icon": "icon", "function": "icon"}
NOT_WORDS = {"icon", "sign", "a", "an", "the", "with", "of", "in", "and", "outline"}   # no clue to a look


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


def candidates(page: RenderedPage) -> list[list[str]]:
    """The names, in the page's language, of every control of its vocabulary that the page verifiably lacks."""
    shown = drawn(page)
    lang = 1 if page.spec.lang == "zh" else 0
    vocab = vocabulary()
    return [entry[lang] for cat in dict.fromkeys([category(page), "general"]) for entry in vocab.get(cat, [])
            if absent(entry[0] + entry[1], shown)]


def icon_candidates(page: RenderedPage) -> list[str]:
    """The ICONS keys a built-in screen verifiably lacks (see the module's docstring)."""
    if page.spec.template not in screens.names():     # a folder page
        return []
    shown = set(page.shown_icons) | {e["icon"] for e in page.elements if e["icon"]}
    words = {w for k in shown if k in ICONS for w in ICONS[k][0].split()} - NOT_WORDS
    return [k for k, (en, _) in ICONS.items() if k not in shown and not (set(en.split()) - NOT_WORDS) & words]


def draw_refusal(rng: np.random.Generator, page: RenderedPage, style: str, used: set[str],
                 kinds: tuple[str, ...]) -> dict | None:
    """A refusal query's text and what it names ({"instruction", "name", "form"}), none of `used`, in a form
    that fits the level's instruction `kinds`; None if the page verifiably lacks nothing of that form."""
    lang, platform = page.spec.lang, page.spec.platform
    forms = sorted({FORMS[k] for k in kinds if k in FORMS})
    form = forms[int(rng.integers(len(forms)))]
    if form == "icon":
        keys = [k for k in icon_candidates(page) if k not in used]
        if keys:
            key = keys[int(rng.integers(len(keys)))]
            return {"instruction": phrase("icon", icon_noun(key, lang), style, lang, platform), "name": key,
                    "form": form}
    options = [names for names in candidates(page) if names[0] not in used]
    if not options:
        return None
    names = options[int(rng.integers(len(options)))]
    name = names[int(rng.integers(len(names)))]
    return {"instruction": phrase("role_text", role_noun(name, "button", lang), style, lang, platform),
            "name": names[0], "form": "role_text"}
