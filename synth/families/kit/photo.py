"""Shared by word_order and icon_click: installed photographs as puzzle backgrounds, and how well a drawn
object stands out from the picture around it.

A background is a window of one photo (synth.screens.imagery), zoomed, placed and maybe mirrored, drawn from
the sample's generator as a plain tuple so that render stays pure. Each photo is decoded once per process into
a small square copy (BASE px, kept for the life of the process), from which every window is resampled in
well under a millisecond."""
from functools import cache, lru_cache

import cv2
import numpy as np
from PIL import Image

from synth.screens import imagery

BASE = 320                 # side of the cached square copy of a photo (at most 88 x 300 kB per process)
ZOOM = (0.75, 1.0)         # the window's side as a share of that copy


@lru_cache(maxsize=1)
def count() -> int:
    """How many photographs are installed."""
    return len(imagery.photos())


@cache
def _base(index: int) -> np.ndarray:
    """The centre square of photo `index`, BASE px, decoded from imagery's JPEG copy at a reduced scale
    (imagery.crop would decode the copy at 640 px and keep that in its own cache: ~5x the time and memory)."""
    with Image.open(imagery._copy(imagery.photos()[index])) as im:
        im.draft("RGB", (BASE, BASE))                 # JPEG: decode at 1/2 .. 1/8 scale
        im = im.convert("RGB")
        s = min(im.size)
        box = ((im.width - s) // 2, (im.height - s) // 2, (im.width + s) // 2, (im.height + s) // 2)
        rgb = np.asarray(im.resize((BASE, BASE), Image.Resampling.LANCZOS, box=box, reducing_gap=2.0))
    rgb.flags.writeable = False
    return rgb


def sample_window(rng: np.random.Generator) -> tuple[int, float, float, float, bool]:
    """(photo index, zoom, window centre x and y as shares of the free range, mirrored)."""
    return (int(rng.integers(count())), round(float(rng.uniform(*ZOOM)), 4), round(float(rng.random()), 4),
            round(float(rng.random()), 4), bool(rng.random() < 0.5))


def backdrop(window: tuple[int, float, float, float, bool], w: int, h: int) -> np.ndarray:
    """A fresh (h, w, 3) uint8 picture: the window of the photo, resampled to w x h."""
    index, zoom, fx, fy, flip = window
    base = _base(index)
    side = BASE * zoom
    cw, ch = (side, side * h / w) if w >= h else (side * w / h, side)
    x0, y0 = round((BASE - cw) * fx), round((BASE - ch) * fy)
    x1, y1 = min(BASE, x0 + max(1, round(cw))), min(BASE, y0 + max(1, round(ch)))
    out = cv2.resize(base[y0:y1, x0:x1], (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.flip(out, 1) if flip else out


def luminance(rgb: np.ndarray) -> np.ndarray:
    """Rec. 601 luma (float32) of an RGB image."""
    out = cv2.transform(rgb.astype(np.float32), np.float32([[0.299, 0.587, 0.114]]))
    return out if out.ndim == 2 else out[..., 0]          # one output channel comes back as a 2-D array


def ring(mask: np.ndarray, width: int) -> np.ndarray:
    """Boolean ring of `width` px just outside a boolean mask."""
    m = mask.view(np.uint8)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * width + 1, 2 * width + 1))
    return (cv2.dilate(m, k) > 0) & ~mask


def core(mask: np.ndarray, depth: float) -> np.ndarray:
    """The pixels of a boolean mask deeper than `depth` px inside it (its deepest third when none are)."""
    dist = cv2.distanceTransform(cv2.copyMakeBorder(mask.view(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0),
                                 cv2.DIST_L2, 3)[1:-1, 1:-1]
    inner = dist > depth
    if np.count_nonzero(inner) < 5:
        inner = dist >= 0.67 * dist.max()
    return inner


def crop_box(box: list[float], pad: int, w: int, h: int) -> tuple[int, int, int, int]:
    """An instance box grown by `pad` px and clipped to the image, as ints."""
    x0, y0, x1, y1 = (int(v) for v in box)
    return max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
