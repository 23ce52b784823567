"""Docs: a desktop word processor (Word, Pages, LibreOffice Writer, WPS): a ribbon or toolbar, a ruler, the page
with a document on it, an optional navigation or comments pane, and a status bar."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome
from synth.screens.archetypes.web.docs_editor import body_font
from synth.screens.content import load, pick

CATEGORY = "docs"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Toolbars, panes and the document of one word processor window."""
    d = load("docs", lang)
    doc = d["docs"][int(rng.integers(len(d["docs"])))]
    return {
        **chrome(rng, lang, "document", "文档" if lang == "zh" else "Documents"),
        "doc": doc,
        "comments": pick(rng, doc["comments"] + d["comments"], 3),      # about this document, or about any
        "fonts": d["fonts"], "styles": d["styles"],
        "toolbar": str(rng.choice(["ribbon", "toolbar"], p=[0.55, 0.45])),
        "menubar": bool(rng.random() < 0.5),
        "side": str(rng.choice(["none", "outline", "comments"], p=[0.4, 0.3, 0.3])),
        "side_left": bool(rng.random() < 0.7),   # the outline pane on the left (comments stay right)
        "ruler": bool(rng.random() < 0.8),
        "page_width": int(rng.choice([700, 760, 816])),
        "zoom": int(rng.choice([90, 100, 110, 120])),
        "style_gallery": bool(rng.random() < 0.6),
        **body_font(rng, d),
    }
