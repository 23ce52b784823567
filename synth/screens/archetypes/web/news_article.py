"""News: an article page: headline, standfirst, byline, lead image, body paragraphs, share bar, related
stories and, as a variant, reader comments."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "news"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the article shown."""
    data = load("news", lang)
    article = pick(rng, data["articles"], 1)[0]
    others = [s for s in data["stories"] if s["title"] != article["title"]]
    return {
        "paper": str(rng.choice(data["papers"])),
        "date": str(rng.choice(data["date"])),
        "sections": data["sections"][: int(rng.integers(6, 10))],
        "article": article,
        "related": sorted(pick(rng, others, len(others)), key=lambda s: s["section"] != article["section"])[:5],
        "comments": [{"text": t, "likes": int(k), "age": int(a)} for t, k, a in
                     zip(pick(rng, data["comments"], 3), rng.integers(0, 240, 3), np.sort(rng.integers(4, 500, 3)))],
        "n_comments": int(rng.integers(12, 900)),
        "read_min": int(rng.integers(3, 9)),
        "header": str(rng.choice(["navbar", "search", "center"])),
        "image": str(rng.choice(["top", "below", "none"], p=[0.3, 0.5, 0.2])),
        "share": str(rng.choice(["top", "left", "bottom"])),
        "side": str(rng.choice(["related", "newsletter", "both", "none"])),
        "comments_at": str(rng.choice(["below", "none"])),
        "related_at": str(rng.choice(["below", "none"])),
        "serif": bool(rng.random() < 0.6),
        "body_w": int(rng.choice([640, 680, 720])),
        "breadcrumb": bool(rng.random() < 0.5),
        "avatar": bool(rng.random() < 0.6),
        "tag": bool(rng.random() < 0.5),
    }
