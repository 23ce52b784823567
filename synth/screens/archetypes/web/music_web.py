"""Music: a web music player: playlists in a side navigation, album covers in a grid or one playlist's
track table, and the player bar at the bottom."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "music"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def _duration(rng: np.random.Generator) -> int:
    """A song's length in seconds."""
    return int(rng.integers(140, 330))


def _cards(songs: list[dict]) -> list[dict]:
    """A shelf's six cards: songs and albums by turns, none shown twice (two songs of one album make one card)."""
    cards = []
    for s in songs:
        title = s["album"] if len(cards) % 2 else s["title"]
        if title not in {c["title"] for c in cards}:
            cards.append({"title": title, "sub": s["artist"], "album": s["album"]})
    return cards[:6]


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("music", lang)
    songs = [{"title": t, "artist": a, "album": al, "seconds": _duration(rng),
              "added": d["added"][int(rng.integers(len(d["added"])))],
              "liked": bool(rng.random() < 0.3)}
             for t, a, al in pick(rng, d["songs"], int(rng.integers(9, 15)))]
    for s in songs:
        s["time"] = f"{s['seconds'] // 60}:{s['seconds'] % 60:02d}"
    playing = int(rng.integers(len(songs)))
    shelves = [{"title": t, "cards": _cards(pick(rng, songs, len(songs)))} for t in pick(rng, d["shelves"], 3)]
    total = int(rng.integers(30, 260))
    playlists = pick(rng, d["playlists"], int(rng.integers(5, 9)))
    return {
        "brand": str(rng.choice(d["brands"])),
        "songs": songs, "playing": playing, "shelves": shelves,
        "playlists": playlists,
        "genres": pick(rng, d["genres"], 6), "desc": d["descs"][playlists[0]],     # the open playlist's own
        "view": str(rng.choice(["home", "playlist"])),
        "nav": str(rng.choice(["sidebar", "topbar"], p=[0.75, 0.25])),
        "queue": bool(rng.random() < 0.35),                 # a now-playing panel on the right
        "columns": int(rng.integers(5, 8)),
        "track_covers": bool(rng.random() < 0.6),
        "chips": bool(rng.random() < 0.6),
        "paused": bool(rng.random() < 0.3),
        "progress": int(rng.integers(5, 95)), "volume": int(rng.integers(30, 100)),
        "shuffle": bool(rng.random() < 0.4), "repeat": bool(rng.random() < 0.3),
        # the playlist's length at the listed songs' mean length
        "total": total, "hours": max(1, round(total * sum(s["seconds"] for s in songs) / len(songs) / 3600)),
        "density": str(rng.choice(["compact", "normal"])),
    }
