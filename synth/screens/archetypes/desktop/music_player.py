"""Music: a desktop music player (Spotify, Apple Music, NetEase Cloud Music): library sidebar, an album grid or a
track list, and the now-playing bar."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome
from synth.screens.content import load, pick

CATEGORY = "music"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sidebar, main view and player bar of one music player window."""
    d = load("desktop_music", lang)
    albums = pick(rng, d["albums"], 14)
    n_tracks = int(rng.integers(12, 18))
    view = str(rng.choice(["albums", "tracks", "album_page"], p=[0.35, 0.3, 0.35]))   # grid, list, or one album's page
    spread = 1 if view == "album_page" else 5            # an album's page lists its own tracks; recent ones, 5 albums'
    tracks = [{"title": title, "artist": albums[i % spread][1], "album": albums[i % spread][0],
               "time": f"{int(rng.integers(2, 6))}:{int(rng.integers(0, 60)):02d}", "liked": bool(rng.random() < 0.3),
               "plays": int(rng.integers(1000, 900000))}
              for i, title in enumerate(pick(rng, d["tracks"], n_tracks))]
    return {
        **chrome(rng, lang, "music", "音乐" if lang == "zh" else "Music"),
        "albums": albums, "tracks": tracks, "playlists": pick(rng, d["playlists"], int(rng.integers(4, 8))),
        "genres": d["genres"],
        "view": view,
        "brand": str(rng.choice(["green", "red", "accent"])),   # Spotify-, NetEase-like or the theme colour
        "dark_app": bool(rng.random() < 0.55),
        "side_width": int(rng.choice([210, 230, 250])),
        "cols": int(rng.choice([5, 6])),
        "queue": bool(rng.random() < 0.35),   # a queue / lyrics pane on the right
        "playing": int(rng.integers(0, 6)),
        "progress": int(rng.integers(10, 90)),
        "volume": int(rng.integers(30, 90)),
    }
