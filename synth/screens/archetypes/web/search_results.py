"""Search: a search engine's results page: query box, vertical tabs, result snippets, with ads, a
knowledge panel, "people also ask", image strips and related searches as variants."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "search"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the query and its results."""
    data = load("search", lang)
    query = pick(rng, data["queries"], 1)[0]
    n = int(rng.integers(4, len(query["results"]) + 1))
    results = pick(rng, query["results"][:3], 3) + query["results"][3:n]
    panel = bool("panel" in query and rng.random() < 0.85)
    side = "panel" if panel else str(rng.choice(["related", "trending", "none"]))
    return {
        "engine": str(rng.choice(data["engines"])),
        "q": query["q"],
        "results": results,
        "ads": pick(rng, query["results"][n:], int(rng.choice([0, 0, 1, 2]))),
        "panel": query["panel"] if panel else None,
        "side": side,
        "ask": query["ask"][: int(rng.integers(3, 5))] if rng.random() < 0.55 else [],
        "ask_at": int(rng.integers(1, 4)),
        # an image strip only for a query whose subjects pictures can show ("pics" in its content)
        "images": int(rng.choice([0, 0, 5, 6])) * ("pics" in query),
        "pics": query.get("pics", []),
        "images_at": int(rng.integers(1, 4)),
        "related": query["related"],
        "related_at": "none" if side == "related" else str(rng.choice(["bottom", "none"])),
        "sitelinks": bool(rng.random() < 0.4),
        "favicon": bool(rng.random() < 0.7),
        "count": f"{int(rng.integers(1, 999)):,},{int(rng.integers(0, 999)):03d},000",
        "secs": f"{rng.uniform(0.2, 0.8):.2f}",
        "stats": bool(rng.random() < 0.7),
        "tabs_style": str(rng.choice(["tabs", "links"])),
        "indent": int(rng.choice([24, 120, 160, 180])),
        "main_w": int(rng.choice([600, 640, 680])),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "paging": str(rng.choice(["pages", "more"])),
        "user": bool(rng.random() < 0.5),
        "dates": bool(rng.random() < 0.7),
    }
