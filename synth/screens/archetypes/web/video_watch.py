"""Video: a video's watch page: player, title, channel row with subscribe, like and share, description,
comments, and an up-next list."""
import numpy as np

from synth.screens.archetypes.web._video import videos, views
from synth.screens.content import load, pick

CATEGORY = "video"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the videos shown."""
    data = load("video", lang)
    vids = videos(rng, lang, 9)
    main = dict(vids[0], live=False)
    rng.integers(120, 3000)   # a draw no longer used, kept so that a seed still gives the same page
    return {
        "site": str(rng.choice(data["sites"])),
        "video": main, "next": vids[1:1 + int(rng.integers(5, 9))],
        "subs": views(int(10 ** rng.uniform(3, 7)), lang),
        "likes": views(int(10 ** rng.uniform(2, 5.5)), lang),
        "pos": int(rng.integers(5, 80)),                 # playback position, percent
        "comments": pick(rng, data["comments"], int(rng.integers(2, 5))),
        "n_comments": f"{int(rng.integers(12, 9000)):,}",
        "comment_likes": [int(x) for x in rng.integers(0, 900, 4)],
        "comment_age": [int(x) for x in np.sort(rng.integers(1, 30, 4))],
        "chips": data["chips"][1:] if rng.random() < 0.5 else [],
        "side": str(rng.choice(["right", "right", "below"])),
        "below": str(rng.choice(["comments", "description", "both"])),
        "autoplay": bool(rng.random() < 0.5),
        "signed_in": bool(rng.random() < 0.6),
        "player_w": int(rng.choice([760, 800, 840])),
        "danmaku": lang == "zh" and bool(rng.random() < 0.7),
    }
