"""Social: a social network's home timeline: navigation, post composer, posts with pictures and
reactions, and side panels with trends and people to follow."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "social"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the posts shown."""
    data = load("social", lang)
    n = int(rng.integers(3, 6))
    posts = [dict(p, likes=int(rng.integers(0, 5000)), comments=int(rng.integers(0, 400)),
                  shares=int(rng.integers(0, 900)), age=int(rng.integers(2, 900)),
                  images=int(rng.choice([1, 1, 1, 2, 3])) if p["image"] else 0)
             for p in pick(rng, data["posts"], n)]
    posts.sort(key=lambda p: p["age"])
    style = str(rng.choice(["columns", "topbar"]))      # left nav column, or a top bar with a shortcut column
    return {
        "network": str(rng.choice(data["networks"])),
        "posts": posts,
        "trends": pick(rng, data["trends"], int(rng.integers(4, 7))),
        "style": style,
        "composer": str(rng.choice(["full", "compact", "none"], p=[0.45, 0.4, 0.15])),
        "stories": bool(style == "topbar" and rng.random() < 0.6),
        "tabs": bool(rng.random() < 0.6),
        "right": pick(rng, ["trends", "follow", "ad"], int(rng.integers(1, 4))),
        "left": style == "columns" or bool(rng.random() < 0.7),
        "feed_w": int(rng.choice([560, 600, 640])),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "card_posts": bool(rng.random() < 0.6),        # each post in a card, or a divided list
        "actions": str(rng.choice(["icons", "labels"])),
    }
