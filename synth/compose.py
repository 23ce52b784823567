"""Put a puzzle and its instruction into a rendered page; map puzzle pixels to image pixels."""
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from synth.families.base import Reject
from synth.scenes.browser import RenderedPage

FONT_FILE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
FONT_INDEX = 2   # Noto Sans CJK SC: covers Latin and Chinese


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(FONT_FILE, size, index=FONT_INDEX)
    except OSError as e:
        raise RuntimeError(f"font {FONT_FILE} is missing: install it with `apt-get install fonts-noto-cjk`") from e


def wrap(text: str, fnt: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Greedy line breaking: at spaces for English, anywhere for Chinese."""
    units = text.split(" ") if " " in text else list(text)
    sep = " " if " " in text else ""
    lines, line = [], ""
    for u in units:
        trial = f"{line}{sep}{u}" if line else u
        if fnt.getlength(trial) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = u
    return lines + [line]


def draw_instruction(rgb: np.ndarray, box: list[float], text: str, dpr: int) -> None:
    """Write `text` in white inside the widget's instruction band, shrinking it until it fits in two lines."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    rgb[y0:y1, x0:x1] = instruction_band(rgb[y0:y1, x0:x1].tobytes(), (x1 - x0, y1 - y0), text, dpr)


@lru_cache(maxsize=48)
def instruction_band(pixels: bytes, size: tuple[int, int], text: str, dpr: int) -> np.ndarray:
    """The band's pixels with `text` written on them (cached: pages and instructions repeat)."""
    band = Image.frombytes("RGB", size, pixels)
    pad = 10 * dpr
    for font_size in range(16 * dpr, 9 * dpr, -dpr):
        fnt = font(font_size)
        lines = wrap(text, fnt, size[0] - 2 * pad)
        line_h = int(font_size * 1.3)
        if len(lines) <= 2 and len(lines) * line_h <= size[1] - 4 * dpr:
            break
    else:
        raise Reject("compose.instruction_too_long")
    d = ImageDraw.Draw(band)
    top = (size[1] - len(lines) * line_h) // 2
    for i, line in enumerate(lines):
        d.text((pad, top + i * line_h), line, font=fnt, fill=(255, 255, 255))
    out = np.asarray(band)
    out.flags.writeable = False
    return out


def puzzle_origin(page: RenderedPage) -> tuple[int, int]:
    """Top-left image pixel of the puzzle area."""
    x0, y0, _, _ = page.boxes["synth-puzzle"]
    return int(round(x0)), int(round(y0))


def puzzle_size(page: RenderedPage) -> tuple[int, int]:
    """(width, height) in image pixels of the puzzle area."""
    x0, y0, x1, y1 = page.boxes["synth-puzzle"]
    return int(round(x1 - x0)), int(round(y1 - y0))


def compose(page: RenderedPage, puzzle_rgb: np.ndarray, instruction: str) -> np.ndarray:
    """The final screenshot: page pixels with the puzzle pasted and the instruction written."""
    out = page.rgb.copy()
    ox, oy = puzzle_origin(page)
    h, w = puzzle_rgb.shape[:2]
    out[oy:oy + h, ox:ox + w] = puzzle_rgb
    draw_instruction(out, page.boxes["synth-instruction"], instruction, page.dpr)
    if not np.array_equal(out[oy:oy + h, ox:ox + w], puzzle_rgb):   # the instruction must not touch the puzzle
        raise Reject("compose.puzzle_overwritten")
    return out


def to_image(box_or_point: list[float], origin: tuple[int, int]) -> list[float]:
    """Shift puzzle-pixel coordinates ([x, y] or [x0, y0, x1, y1]) to image pixels."""
    ox, oy = origin
    return [float(v + (ox if i % 2 == 0 else oy)) for i, v in enumerate(box_or_point)]
