"""Shared by word_order and letter_attr: characters drawn from cached master masks.

A character is drawn once per typeface at MASTER px (Pillow), its ink centred in a square, and kept; a glyph
of any size is that master resized (OpenCV, a fraction of a millisecond), filled with a colour and ringed by a
rim made by dilating its coverage. Drawing every glyph with Pillow at its own size would load a font and
rasterise it again for each one (a CJK face takes milliseconds to load)."""
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from synth.core import paths
from synth.families.kit import draw

MASTER = 128               # px the master masks are drawn at
PAD = 1.3                  # side of a glyph's square as a multiple of its font size
LATIN = (paths.font("truetype/dejavu/DejaVuSans-Bold.ttf"),
         paths.font("truetype/dejavu/DejaVuSerif-Bold.ttf"),
         paths.font("truetype/liberation/LiberationSans-Bold.ttf"),
         paths.font("truetype/liberation/LiberationMono-Bold.ttf"))
HANZI = (paths.font("opentype/noto/NotoSansCJK-Bold.ttc"),
         paths.font("opentype/noto/NotoSerifCJK-Bold.ttc"))
HANZI_INDEX = 2            # the Simplified Chinese face in the Noto CJK collections

# pairs a reader can mix up (or that turn into each other under a tilt); never shown together
CONFUSABLE = ["0OQD", "1IlL7", "5S", "2Z", "8B", "69G", "MW", "NZ", "UV", "EF", "PR", "KX", "木米本末未", "日目田曰",
              "土士工", "人入八", "大太犬天", "己已巳", "刀力", "口日", "牛午"]
CONFUSABLE_PAIRS = frozenset((a, b) for g in CONFUSABLE for a in g for b in g)


def fonts(script: str) -> tuple[str, ...]:
    """The typefaces of a script: "latin" or "hanzi"."""
    return HANZI if script == "hanzi" else LATIN


@lru_cache(maxsize=8)
def _font(path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, MASTER, index=HANZI_INDEX if path.endswith(".ttc") else 0)


@lru_cache(maxsize=2048)   # 2048 x 27 kB at most
def master(ch: str, path: str) -> np.ndarray:
    """Coverage (uint8, side round(PAD * MASTER)) of one character, its ink box centred (cached: do not modify)."""
    n = round(PAD * MASTER)
    img = Image.new("L", (2 * n, 2 * n), 0)
    ImageDraw.Draw(img).text((n, n), ch, font=_font(path), fill=255, anchor="mm")
    a = np.asarray(img)
    x, y, w, h = cv2.boundingRect(a)
    out = np.zeros((n, n), np.uint8)
    if w == 0:
        return out
    w, h = min(w, n), min(h, n)
    ox, oy = (n - w) // 2, (n - h) // 2
    out[oy:oy + h, ox:ox + w] = a[y:y + h, x:x + w]
    out.flags.writeable = False
    return out


def coverage(ch: str, path: str, px: int) -> np.ndarray:
    """Coverage of a character at font size `px`, on a square of side round(PAD * px)."""
    n = max(4, round(PAD * px))
    return cv2.resize(master(ch, path), (n, n), interpolation=cv2.INTER_AREA)


def rim_width(px: int) -> int:
    return max(1, round(px / 16))


def paint(cover: np.ndarray, rgb: tuple, rim_rgb: tuple | None, rim: int) -> np.ndarray:
    """RGBA of a coverage mask filled with `rgb`, ringed `rim` px wide in `rim_rgb` (None: no rim). The square
    grows by the rim on every side."""
    a = cv2.copyMakeBorder(cover, rim, rim, rim, rim, cv2.BORDER_CONSTANT, value=0)
    fill = np.empty((*a.shape, 3), np.uint8)
    fill[:] = rgb
    if rim_rgb is None:
        return np.dstack([fill, a])
    # dilating the anti-aliased coverage keeps its soft edge for the rim's outer edge
    outer = cv2.dilate(a, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rim + 1, 2 * rim + 1)))
    under = np.empty_like(fill)
    under[:] = rim_rgb
    return np.dstack([draw.blend(under, fill, a), outer])


def glyph(ch: str, path: str, px: int, rgb: tuple, rim_rgb: tuple | None = (255, 255, 255)) -> np.ndarray:
    """RGBA of one character of font size `px` in colour `rgb` with a rim (side round(PAD * px) + 2 * rim)."""
    return paint(coverage(ch, path, px), rgb, rim_rgb, rim_width(px))


def glyph_side(px: int, rim: bool = True) -> int:
    """Side of the square `glyph` returns."""
    return max(4, round(PAD * px)) + (2 * rim_width(px) if rim else 0)


def scatter(rng: np.random.Generator, w: int, h: int, sides: list[int], gap: int, margin: int = 3
            ) -> list[tuple[int, int]] | None:
    """Top-left corners of squares of `sides` inside (w, h) that keep `gap` px apart: the area is cut into a
    grid of cells as large as the largest square (plus the gap), the squares go into distinct random cells,
    each at a random place inside its cell. None when there are fewer cells than squares."""
    cell = max(sides) + gap
    cols, rows = (w - 2 * margin + gap) // cell, (h - 2 * margin + gap) // cell
    if cols * rows < len(sides):
        return None
    # spread the spare room between the cells too, so that the grid spans the whole area
    sx = (w - 2 * margin + gap - cols * cell) / cols
    sy = (h - 2 * margin + gap - rows * cell) / rows
    cells = rng.choice(cols * rows, len(sides), replace=False)
    out = []
    for s, c in zip(sides, cells):
        r, q = divmod(int(c), cols)
        x0 = margin + q * (cell + sx)
        y0 = margin + r * (cell + sy)
        room_x, room_y = cell + sx - gap - s, cell + sy - gap - s
        out.append((int(x0 + rng.uniform(0, max(room_x, 0))), int(y0 + rng.uniform(0, max(room_y, 0)))))
    return out


def confusable(a: str, b: str) -> bool:
    """Whether two characters belong to one confusable group (or are equal)."""
    return a == b or (a, b) in CONFUSABLE_PAIRS
