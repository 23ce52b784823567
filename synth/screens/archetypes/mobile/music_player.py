"""Music: a music app's now-playing screen: album art (square or on a record), song and artist, optional
lyrics, a progress bar with times, playback controls and a row of extra actions."""
import numpy as np

from synth.screens.content import load

CATEGORY = "music"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Art style, background, what appears below the art, the song and where playback is."""
    k = load("mobile_music", lang)
    total = int(rng.integers(150, 300))
    at = int(total * rng.uniform(0.05, 0.9))
    lyrics = k["lyrics"][int(rng.integers(len(k["lyrics"])))]
    return {
        "os": str(rng.choice(["ios", "android"])),
        "song": k["songs"][int(rng.integers(len(k["songs"])))],
        "source": str(rng.choice(k["sources"])),
        "playlist": str(rng.choice(k["playlists"])),
        "art": str(rng.choice(["square", "square", "disc"])),
        "background": str(rng.choice(["tint", "dark", "plain"])),
        "lyrics": lyrics if rng.random() < 0.4 else [],
        "lyric_at": int(rng.integers(0, 3)),
        "total": total, "at": at,
        "playing": bool(rng.random() < 0.7),
        "liked": bool(rng.random() < 0.4),
        "shuffle": bool(rng.random() < 0.3),
        "extras": str(rng.choice(["device", "icons"])),
        "device": str(rng.choice(k["devices"])) if rng.random() < 0.3 else k["device"],
        "comments": int(rng.integers(10, 20000)),
        "tabs": bool(rng.random() < 0.5),
    }
