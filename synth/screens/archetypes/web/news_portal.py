"""News: a news site's front page: masthead, section navigation, top story, section columns, most-read
list and ads."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "news"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the stories shown."""
    data = load("news", lang)
    stories = [dict(s, age=int(a)) for s, a in zip(pick(rng, data["stories"], len(data["stories"])),
                                                  np.sort(rng.integers(3, 600, len(data["stories"]))))]
    by_section = {}
    for s in stories[5:]:
        by_section.setdefault(s["section"], []).append(s)
    columns = [{"name": k, "stories": v[:3]} for k, v in by_section.items() if len(v) >= 2]
    return {
        "paper": str(rng.choice(data["papers"])),
        "date": str(rng.choice(data["date"])),
        "sections": data["sections"][: int(rng.integers(7, len(data["sections"]) + 1))],
        "top": stories[0],
        "second": stories[1:5],
        "columns": columns[: int(rng.integers(2, 5))],
        "trending": pick(rng, stories, 6),
        "masthead": str(rng.choice(["center", "navbar", "left"])),
        "lead": str(rng.choice(["split", "three", "overlay"])),
        "side": str(rng.choice(["right", "right", "left", "none"])),
        "ad": str(rng.choice(["side", "banner", "none"])),
        "breaking": stories[-1]["title"] if rng.random() < 0.35 else "",
        "hl_first": bool(rng.random() < 0.4),
        "serif": bool(rng.random() < 0.6),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "thumbs": bool(rng.random() < 0.6),
        "width": int(rng.choice([0, 1180, 1240])),
        "weather": bool(rng.random() < 0.5),
        "temp": int(rng.integers(8, 32)),
    }
