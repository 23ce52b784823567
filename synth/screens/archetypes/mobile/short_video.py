"""Video: a short-video app's full-screen player: the frame as a photo, channel tabs at the top, a column
of actions at the right (follow, like, comment, save, share), caption and sound at the bottom, tab bar."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "video"


def _num(n: int, lang: str) -> str:
    if lang == "zh":
        return f"{n / 10000:.1f}万" if n >= 10000 else str(n)
    return f"{n / 1000:.1f}K" if n >= 1000 else str(n)


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Top tabs, which side actions and extras appear, the caption and counts."""
    k = load("mobile_video", lang)
    user = str(rng.choice(k["users"]))
    likes = int(rng.choice([800, 5000, 30000, 200000]) * rng.uniform(1, 5))
    music = str(rng.choice(k["music"]))
    return {
        "os": str(rng.choice(["ios", "android"])),
        "top_tabs": k["top_tabs"][int(rng.integers(len(k["top_tabs"])))],
        "live": bool(rng.random() < 0.5),
        "user": user,
        "caption": str(rng.choice(k["captions"])),
        "tags": pick(rng, k["tags"], int(rng.integers(1, 4))),
        "music": music.format(user),
        "place": str(rng.choice(k["places"])) if rng.random() < 0.35 else "",
        "likes": _num(likes, lang), "comments": _num(int(likes * rng.uniform(0.01, 0.06)), lang),
        "saves": _num(int(likes * rng.uniform(0.02, 0.1)), lang), "shares": _num(int(likes * rng.uniform(0.005, 0.04)), lang),
        "liked": bool(rng.random() < 0.3),
        "save": bool(rng.random() < 0.7),
        "progress": int(rng.integers(5, 90)),
        "date": bool(rng.random() < 0.4),
        "tabs": k["tabs"],
        "tab_style": str(rng.choice(["text", "icons"])),
        "inbox": int(rng.integers(0, 12)),
    }
