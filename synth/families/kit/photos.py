"""Photographs for the photo families (jigsaw, restore, photo_grid, photo_rotation, slider): the installed
pictures of synth.screens.imagery named by a short key, curated lists of them by what they show, and views
(a window of a photo at the puzzle's size) drawn from an rng.

A view is plain data (`View`), so that a family's Params stay hashable and its render pure; the pixels of a
photo are read once per process and size (imagery caches its decoded copies; this module the scaled ones)."""
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from synth.screens import imagery

MAX_ZOOM = 1.25        # views enlarge a photo at most this much (beyond, its 640 px copy shows its pixels)

# What the pictures show, judged by eye (keys: file stem, or folder name of a KDE wallpaper); the families
# keep their own lists beside these. Names not installed on a machine are skipped.
# Near-uniform fills, soft gradients, fog, starry skies and repeating patterns: a swap, a shift or a gap is
# hard to see on them, or a pattern repeats it elsewhere.
FLAT = ("city", "desert", "fluent-color", "umang_by_Abhishek_Mudgal", "Ubuntu-Mate-Cold-no-logo",
        "Ubuntu-Mate-Radioactive-no-logo", "Ubuntu-Mate-Warm-no-logo", "Kite", "MilkyWay", "Elarun", "Opal",
        "PastelHills", "Kokkini", "rollpaper", "Fossa_by_Jasper_Roks", "adwaita-d", "adwaita-l", "grid-d",
        "grid-l", "licorice-d", "licorice-l", "truchet-d", "truchet-l", "wood-d", "wood-l", "pixels-d",
        "pixels-l", "Wood", "DarkestHour")
# Pictures of animals, vehicles and the like: not behind objects that a puzzle asks to find.
HAS_OBJECTS = ("Kleiber_by_Lukas_Baubkus", "friends_by_Aitzol_Berasategi", "free_by_Peter_Nerlich", "goldfish",
               "the-mouse", "FlyingKonqui", "firstgeneration", "Elephants", "EveningGlow", "Kite", "SafeLanding",
               "Wine_by_Jakkub_Mede", "LadyBird", "Dragonfly_by_Bolly", "Bridge_by_Sander_Klootwijk")


def key(path: Path) -> str:
    """A picture's short name: its file stem, or the wallpaper's folder name for a KDE wallpaper."""
    return path.parents[2].name if path.parent.name == "images" and path.parent.parent.name == "contents" else path.stem


@lru_cache(maxsize=1)
def installed() -> dict[str, Path]:
    """Every installed picture by key."""
    return {key(p): p for p in imagery.photos()}


@lru_cache(maxsize=32)
def choices(allow: tuple[str, ...] | None = None, deny: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The installed keys in `allow` (all installed if None) and not in `deny`, sorted; FileNotFoundError
    naming the lists when none is installed."""
    have = installed()
    out = tuple(sorted(k for k in have if (allow is None or k in allow) and k not in deny))
    if not out:
        raise FileNotFoundError(f"none of the pictures {allow or 'installed'} (less {deny}) is installed under "
                                f"{', '.join(map(str, imagery.picture_folders()))}: run scripts/setup.sh")
    return out


@dataclass(frozen=True)
class View:
    """A window of a photo: where it sits (x, y: 0..1 across the room left), how much it enlarges the photo
    (1 = the photo just covers the puzzle) and whether it is mirrored left to right."""
    photo: str
    x: float
    y: float
    zoom: float
    flip: bool


def sample_view(rng: np.random.Generator, keys: tuple[str, ...], zoom: tuple[float, float] = (1.0, 1.15),
                flip: bool = True) -> View:
    """A random view of one of `keys` (four draws from rng, five with `flip`)."""
    if not 1.0 <= zoom[0] <= zoom[1] <= MAX_ZOOM:
        raise ValueError(f"zoom={zoom}: must be (lo, hi) with 1 <= lo <= hi <= {MAX_ZOOM}")
    photo = keys[int(rng.integers(len(keys)))]
    x, y = (round(float(v), 4) for v in rng.random(2))
    z = round(float(rng.uniform(*zoom)), 4) if zoom[1] > zoom[0] else float(zoom[0])
    return View(photo, x, y, z, bool(flip and rng.random() < 0.5))


@lru_cache(maxsize=256)
def _aspect(photo: str) -> float:
    with Image.open(installed()[photo]) as im:
        return im.width / im.height


@lru_cache(maxsize=96)    # 96 photos at 320 px: about 50 MB
def _cover(photo: str, w: int, h: int) -> np.ndarray:
    """The whole photo scaled to just cover w x h (read-only)."""
    a = _aspect(photo)
    cw, ch = (w, max(h, round(w / a))) if w / h >= a else (max(w, round(h * a)), h)
    out = np.asarray(imagery.crop(installed()[photo], cw, ch).convert("RGB"))
    out.flags.writeable = False
    return out


def image(view: View, w: int, h: int) -> np.ndarray:
    """The view at w x h (RGB uint8, a fresh array)."""
    cover = _cover(view.photo, w, h)
    ch, cw = cover.shape[:2]
    ww, wh = w / view.zoom, h / view.zoom              # the window, in cover pixels
    x0, y0 = view.x * (cw - ww), view.y * (ch - wh)
    if view.zoom == 1.0:
        xi, yi = round(x0), round(y0)
        out = cover[yi:yi + h, xi:xi + w].copy()
    else:       # the whole pixels round the window, enlarged (faster than a sub-pixel warp)
        xi, yi = int(x0), int(y0)
        xe, ye = min(cw, int(np.ceil(x0 + ww))), min(ch, int(np.ceil(y0 + wh)))
        out = cv2.resize(cover[yi:ye, xi:xe], (w, h), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(out[:, ::-1]) if view.flip else out
