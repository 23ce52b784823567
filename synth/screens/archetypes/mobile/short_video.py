"""Video: a short-video app's full-screen player: the frame as a photo, channel tabs at the top, a column
of actions at the right (follow, like, comment, save, share), caption and sound at the bottom, tab bar."""
import numpy as np

from synth.screens.content import compact, load

CATEGORY = "video"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Top tabs, which side actions and extras appear, the caption and counts."""
    k = load("mobile_video", lang)
    likes = int(rng.choice([800, 5000, 30000, 200000]) * rng.uniform(1, 5))
    music = str(rng.choice(k["music"]))
    return {
        "os": str(rng.choice(["ios", "android"])),
        "top_tabs": k["top_tabs"][int(rng.integers(len(k["top_tabs"])))],
        "live": bool(rng.random() < 0.5),
        "caption": k["captions"][(shown := int(rng.integers(len(k["captions"]))))],
        "user": (user := k["users"][int(rng.choice(k["caption_users"][shown]))]),   # a creator who posts such videos
        "tags": k["caption_tags"][shown][:int(rng.integers(1, 3))],     # the tags of what the caption is about
        "pics": k["caption_pics"][shown],                                # and what the frame can show
        "music": music.format(user),
        # a scenic spot's tag on a travel video only (its frame is a landscape or a sunset)
        "place": (str(rng.choice(k["places"])) if {"sunset", "landscape"} & set(k["caption_pics"][shown])
                  and rng.random() < 0.6 else ""),
        "likes": compact(likes, lang, "K"), "comments": compact(int(likes * rng.uniform(0.01, 0.06)), lang, "K"),
        "saves": compact(int(likes * rng.uniform(0.02, 0.1)), lang, "K"),
        "shares": compact(int(likes * rng.uniform(0.005, 0.04)), lang, "K"),
        "liked": bool(rng.random() < 0.3),
        "save": bool(rng.random() < 0.7),
        "progress": int(rng.integers(5, 90)),
        "date": bool(rng.random() < 0.4),
        "tabs": k["tabs"],
        "tab_style": str(rng.choice(["text", "icons"])),
        "inbox": int(rng.integers(0, 12)),
    }
