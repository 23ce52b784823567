"""Video: a video site's home page: side navigation, category chips and a grid of video thumbnails."""
import numpy as np

from synth.screens.archetypes.web._video import RECENT_DAYS, videos, views
from synth.screens.content import load, pick

CATEGORY = "video"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")
RECENT_CHIP = 10           # "Recently uploaded" in the content's chips


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the videos shown."""
    data = load("video", lang)
    columns = int(rng.choice([3, 4, 4, 5]))
    site = str(rng.choice(data["sites"]))
    chips = data["chips"][: int(rng.integers(8, len(data["chips"]) + 1))]
    # the selected chip is borne out by the videos: "All", or "Recently uploaded" over recent videos only
    recent = int(rng.choice([0, 0, 0, 1, 3])) > 0 and len(chips) > RECENT_CHIP
    return {
        "site": site,
        "chips": chips,
        "chip": RECENT_CHIP if recent else 0,
        "videos": videos(rng, lang, 12, RECENT_DAYS if recent else 900),
        "columns": columns,
        "nav": str(rng.choice(["full", "mini", "none"], p=[0.5, 0.3, 0.2])),
        "banner": bool(rng.random() < 0.3),
        "shelf": bool(rng.random() < 0.4),           # a row of short videos under the first grid row
        # shorts of their own: a minute or less (the grid's "3 hour mix" is no short), none also in the grid
        "shorts": [{**v, "views": views(int(10 ** rng.uniform(3, 6.5)), lang)} for v in pick(rng, data["shorts"], 6)],
        "avatars": bool(rng.random() < 0.75),
        "signed_in": bool(rng.random() < 0.6),
        "gap": int(rng.choice([12, 16, 20])),
        "subs": [str(x) for x in rng.integers(1, 9, 4)],
    }
