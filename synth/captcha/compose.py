"""Put a puzzle and its instruction into a rendered page; map puzzle pixels to image pixels."""
import re
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from synth.core.errors import Reject
from synth.core.fonts import font
from synth.screens.browser import RenderedPage
from synth.screens.pages import CHROME_INK, widget_chrome

# Chinese line breaking rules (GB/T 15834, as CSS line-break: strict): no line starts with closing punctuation
# and none ends with opening punctuation
_NO_START = set("，。、；：？！）》」』】〕”’…")
_NO_END = set("（《「『【〔“‘")
# a unit of Chinese text: a CJK character, or a run of Latin letters and digits with the spaces after it
_CJK = "\u3000-\u303f\u3400-\u9fff\uff00-\uffef“”‘’…"
_UNIT = re.compile(f"[{_CJK}]|[^\\s{_CJK}]+\\s*|\\s+")


def units(text: str) -> tuple[list[str], str]:
    """The pieces a line may break between, and what joins them: words for English; for Chinese, characters
    (Latin runs whole), each closing mark and space glued to what precedes it and each opening mark to what
    follows."""
    if not re.search(r"[\u3400-\u9fff]", text):
        return text.split(" "), " "
    out: list[str] = []
    glue = False
    for piece in _UNIT.findall(text):
        if out and (glue or piece[0] in _NO_START or piece.isspace()):
            out[-1] += piece
        else:
            out.append(piece)
        glue = piece[-1] in _NO_END or (glue and piece.isspace())
    return out, ""


def wrap(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy line breaking between units(): each line takes as many units as fit, found by bisection since a
    line only grows as units are added; a last Chinese line of one unit (a character, or a word with its
    punctuation) takes one more from the line above."""
    pieces, sep = units(text)
    ends, start = [], 0
    while start < len(pieces):
        lo, hi = start + 1, len(pieces)          # lo units always go on the line, even if too wide
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fnt.getlength(sep.join(pieces[start:mid])) <= width:
                lo = mid
            else:
                hi = mid - 1
        ends.append(lo)
        start = lo
    if not sep and len(ends) > 1 and ends[-1] - ends[-2] == 1 and len(pieces[-1].strip()) <= 2 \
            and ends[-2] - (ends[-3] if len(ends) > 2 else 0) >= 2:
        ends[-2] -= 1
    starts = [0] + ends[:-1]
    return [sep.join(pieces[a:b]).strip() for a, b in zip(starts, ends)]


def draw_instruction(rgb: np.ndarray, box: list[float], text: str, dpr: int, ink: tuple[int, int, int]) -> None:
    """Write `text` in colour `ink` inside the widget's instruction band, shrinking it until it fits in two
    lines."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    band = rgb[y0:y1, x0:x1]
    cover = instruction_mask(text, (x1 - x0, y1 - y0), dpr)
    # blend towards the ink by the coverage: ink + round((band - ink) * (255 - cover) / 255), never halfway;
    # the two signs of band - ink apart, as cv2's saturating uint8 arithmetic is ~10x faster than numpy's
    keep = cv2.merge([cv2.bitwise_not(cover)] * 3)
    ink = (*(float(v) for v in ink), 0.0)
    above = cv2.multiply(cv2.subtract(band, ink), keep, scale=1 / 255)
    below = cv2.multiply(cv2.subtract(ink, band), keep, scale=1 / 255)
    band[:] = cv2.subtract(cv2.add(above, ink), below)


def font_sizes(dpr: int) -> range:
    """The sizes an instruction is tried at, largest first, on a screen of device scale `dpr`."""
    return range(16 * dpr, 9 * dpr, -dpr)


@lru_cache(maxsize=128)
def instruction_mask(text: str, size: tuple[int, int], dpr: int) -> np.ndarray:
    """Coverage (H, W, 1) of `text` laid out in a band of `size` (cached: instructions repeat across pages)."""
    pad = 10 * dpr
    for font_size in font_sizes(dpr):
        fnt = font(font_size)
        lines = wrap(text, fnt, size[0] - 2 * pad)
        line_h = int(font_size * 1.3)
        if len(lines) <= 2 and len(lines) * line_h <= size[1] - 4 * dpr:
            break
    else:
        raise Reject("compose.instruction_too_long")
    mask = Image.new("L", size)
    d = ImageDraw.Draw(mask)
    top = (size[1] - len(lines) * line_h) // 2
    for i, line in enumerate(lines):
        d.text((pad, top + i * line_h), line, font=fnt, fill=255)
    cover = np.asarray(mask)[..., None]
    cover.flags.writeable = False
    return cover


def puzzle_origin(page: RenderedPage) -> tuple[int, int]:
    """Top-left image pixel of the puzzle area."""
    x0, y0, _, _ = page.boxes["synth-puzzle"]
    return int(round(x0)), int(round(y0))


def puzzle_size(page: RenderedPage) -> tuple[int, int]:
    """(width, height) in image pixels of the puzzle area."""
    x0, y0, x1, y1 = page.boxes["synth-puzzle"]
    return int(round(x1 - x0)), int(round(y1 - y0))


def compose(page: RenderedPage, puzzle_rgb: np.ndarray, instruction: str,
            box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """The final screenshot, or its pixels inside `box` (which must hold the puzzle and the instruction band):
    page pixels with the puzzle pasted and the instruction written."""
    h, w = page.rgb.shape[:2]
    bx0, by0, bx1, by1 = box or (0, 0, w, h)
    out = page.rgb[by0:by1, bx0:bx1].copy()
    ox, oy = puzzle_origin(page)
    ox, oy = ox - bx0, oy - by0
    ph, pw = puzzle_rgb.shape[:2]
    if ox < 0 or oy < 0 or ox + pw > out.shape[1] or oy + ph > out.shape[0]:
        raise ValueError(f"box {box} does not hold the puzzle")
    ix0, iy0, ix1, iy1 = (int(round(v)) - o for v, o in zip(page.boxes["synth-instruction"], (bx0, by0) * 2))
    if ix0 < ox + pw and ox < ix1 and iy0 < oy + ph and oy < iy1:   # the instruction is written inside its box only
        raise Reject("compose.puzzle_overwritten")
    out[oy:oy + ph, ox:ox + pw] = puzzle_rgb
    draw_instruction(out, [ix0, iy0, ix1, iy1], instruction, page.dpr, CHROME_INK[widget_chrome(page.spec)])
    return out


def at_device_scale(puzzle_rgb: np.ndarray, dpr: int) -> np.ndarray:
    """A puzzle drawn at CSS size, scaled up to a screen of device scale `dpr`, as a CAPTCHA image is."""
    if dpr == 1:
        return puzzle_rgb
    h, w = puzzle_rgb.shape[:2]
    return cv2.resize(puzzle_rgb, (w * dpr, h * dpr), interpolation=cv2.INTER_LINEAR)


def to_image(box_or_point: list[float], origin: tuple[int, int]) -> list[float]:
    """Shift puzzle-pixel coordinates ([x, y] or [x0, y0, x1, y1]) to image pixels."""
    ox, oy = origin
    return [float(v + (ox if i % 2 == 0 else oy)) for i, v in enumerate(box_or_point)]
