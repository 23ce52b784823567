"""Docs: an online document editor: title and menu bar, a toolbar of formatting buttons, the document page
with headings, paragraphs, lists and a table, and a comments or outline side panel."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "docs"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def body_font(rng: np.random.Generator, d: dict) -> dict:
    """The font the document is set in, one the machine has (content "font_css": its name and the faces that draw
    it; Liberation Sans is Arial's metric twin, Noto Sans CJK SC is Source Han Sans, 思源黑体; Chinese documents
    only in a sans face, as test_placement asks)."""
    names = list(d["font_css"])
    font = names[int(rng.integers(len(names)))]
    return {"font": font, "font_css": d["font_css"][font]}


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("docs", lang)
    doc = d["docs"][int(rng.integers(len(d["docs"])))]
    side = str(rng.choice(["comments", "outline", "none"], p=[0.5, 0.25, 0.25]))
    comments = [{"text": t, "resolved": False, "replies": int(rng.integers(0, 3)), "minutes": int(rng.integers(2, 300))}
                for t in pick(rng, doc["comments"] + d["comments"], int(rng.integers(2, 4)))]   # its own or any doc's
    return {
        "doc": doc, "comments": comments, "side": side,
        "outline": [text for kind, text in doc["blocks"] if kind in ("h1", "h2")],
        "styles": d["styles"], "fonts": d["fonts"], **body_font(rng, d),
        "saved": d["edited"][int(rng.integers(len(d["edited"])))],
        "font_size": int(rng.choice([10, 11, 12, 14])) if lang == "en" else str(rng.choice(["小四", "五号", "四号"])),
        "zoom": str(rng.choice(["100%", "90%", "125%"])),
        "menubar": bool(rng.random() < 0.75),                  # File / Edit / View ... under the title
        "ruler": bool(rng.random() < 0.5),
        "toolbar": str(rng.choice(["full", "compact"])),       # every group of buttons, or the most used ones
        "page": str(rng.choice(["centre", "left"])),           # page centred on the canvas, or beside the panel
        "highlight": int(rng.integers(1, 4)),                  # the paragraph a comment points at
        "collaborators": int(rng.integers(1, 4)),
        "toolbar_pos": str(rng.choice(["top", "floating"])),   # a full-width bar, or a rounded floating bar
    }
