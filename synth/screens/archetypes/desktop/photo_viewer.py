"""Photos: a desktop photo library (Windows Photos, Apple Photos, Shotwell): albums sidebar, a toolbar, a grid
of photos grouped by day, and an optional info panel for the selected photo."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome
from synth.screens.content import load, pick

CATEGORY = "photos"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sidebar, view, thumbnail size and info panel of one photo library window."""
    base = chrome(rng, lang, "image", "照片" if lang == "zh" else "Photos")
    d = load("desktop_photos", lang)
    month = int(rng.integers(0, 12))
    days = sorted(rng.choice(np.arange(1, 29), 4, replace=False).tolist(), reverse=True)
    groups = [{"date": d["date"].format(m=d["months"][month], d=int(day)),
               "place": d["places"][int(rng.integers(len(d["places"])))],
               "n": int(rng.integers(5, 15))} for day in days]
    view = str(rng.choice(["grid", "justified"], p=[0.55, 0.45]))
    thumb = int(rng.choice([110, 140, 170]))
    headers = bool(rng.random() < 0.75)                                                 # day headers between groups
    if not headers:   # one continuous grid, enough photos to fill the window
        groups = [{**groups[0], "n": {110: 48, 140: 36, 170: 28}[thumb]}]
    album_counts = [int(n) for n in rng.integers(6, 400, 8)]
    shown = sum(g["n"] for g in groups)
    return {
        **base, "groups": groups, "albums": pick(rng, d["albums"], int(rng.integers(4, 8))),
        "album_counts": album_counts,
        # the whole library: the grid shows its newest photos; every album is part of it
        "library": int(rng.integers(max(album_counts) + shown, 6000)),
        "camera": d["cameras"][int(rng.integers(len(d["cameras"])))], "sample": d["sample"],
        "iso": int(rng.choice([50, 100, 200, 400, 800])), "fnum": float(rng.choice([1.8, 2.8, 4.0, 5.6, 8.0])),
        "shutter": int(rng.choice([60, 125, 250, 500, 1000])), "mp": int(rng.choice([12, 24, 48, 50])),
        "view": view,   # square crops, or rows of mixed widths
        "thumb": thumb,                                                                 # thumbnail size (zoom level)
        # aspect ratios for the justified view
        "widths": [int(w) for w in rng.choice([1, 1, 1.5, 1.5, 0.75], 40) * 100],
        "sidebar": str(rng.choice(["left", "none"], p=[0.85, 0.15])),
        "info": bool(rng.random() < 0.45),
        "selected": int(rng.integers(0, 4)),
        "toolbar": str(rng.choice(["labels", "icons"], p=[0.45, 0.55])),
        "headers": headers,
        "side_width": int(rng.choice([200, 220, 240])),
        "status": bool(rng.random() < 0.4),
    }
