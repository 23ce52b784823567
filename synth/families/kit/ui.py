"""Shared by drag_end and oneclick: a small painter for flat web controls (panels, tracks, boxes, text) that
draws the pixels and the instance map together, at twice the size, then halves both (anti-aliased edges)."""
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from synth.core import paths

SCALE = 2
FONT = paths.font("opentype/noto/NotoSansCJK-Regular.ttc")
FONT_BOLD = paths.font("opentype/noto/NotoSansCJK-Bold.ttc")
FONT_INDEX = 2             # Noto Sans CJK SC: Latin and Chinese


@lru_cache(maxsize=24)
def font(px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The UI face at `px` puzzle pixels (drawn at SCALE times that)."""
    return ImageFont.truetype(FONT_BOLD if bold else FONT, px * SCALE, index=FONT_INDEX)


def text_width(text: str, px: int, bold: bool = False) -> float:
    """Advance width of `text` in puzzle pixels."""
    return font(px, bold).getlength(text) / SCALE


class Painter:
    """Pixels and a z-ordered instance map of one puzzle, drawn in puzzle coordinates."""

    def __init__(self, size: tuple[int, int], background: tuple[int, int, int]) -> None:
        w, h = size
        self.size = size
        self.img = Image.new("RGB", (w * SCALE, h * SCALE), background)
        self.ids = Image.new("L", (w * SCALE, h * SCALE), 0)
        self.draw = ImageDraw.Draw(self.img)
        self.draw_ids = ImageDraw.Draw(self.ids)

    @staticmethod
    def _box(box) -> list[float]:
        return [box[0] * SCALE, box[1] * SCALE, box[2] * SCALE - 1, box[3] * SCALE - 1]

    def rect(self, box, fill=None, outline=None, width: float = 1, radius: float = 0, inst: int = 0) -> None:
        """A (rounded) rectangle [x0, y0, x1, y1]; `inst` > 0 marks it in the instance map."""
        b = self._box(box)
        r = round(radius * SCALE)
        self.draw.rounded_rectangle(b, r, fill=fill, outline=outline, width=max(1, round(width * SCALE)))
        if inst:
            self.draw_ids.rounded_rectangle(b, r, fill=inst)

    def ellipse(self, box, fill=None, outline=None, width: float = 1, inst: int = 0) -> None:
        b = self._box(box)
        self.draw.ellipse(b, fill=fill, outline=outline, width=max(1, round(width * SCALE)))
        if inst:
            self.draw_ids.ellipse(b, fill=inst)

    def line(self, points, fill, width: float = 1) -> None:
        self.draw.line([(x * SCALE, y * SCALE) for x, y in points], fill=fill, width=max(1, round(width * SCALE)),
                       joint="curve")

    def text(self, xy, text: str, px: int, fill, bold: bool = False, anchor: str = "lm", inst: int = 0
             ) -> list[float]:
        """Write `text` at `xy` (anchor as Pillow's); returns its ink box in puzzle pixels. `inst` marks that box."""
        x, y = xy
        f = font(px, bold)
        self.draw.text((x * SCALE, y * SCALE), text, font=f, fill=fill, anchor=anchor)
        left, t, r, b = self.draw.textbbox((x * SCALE, y * SCALE), text, font=f, anchor=anchor)
        box = [left / SCALE, t / SCALE, r / SCALE, b / SCALE]
        if inst:
            self.draw_ids.rectangle([left, t, r - 1, b - 1], fill=inst)
        return box

    def finish(self) -> tuple[np.ndarray, np.ndarray]:
        """(rgb (h, w, 3) uint8, instances (h, w) uint8) at puzzle size."""
        w, h = self.size
        rgb = cv2.resize(np.asarray(self.img), (w, h), interpolation=cv2.INTER_AREA)
        ids = np.asarray(self.ids)[SCALE // 2::SCALE, SCALE // 2::SCALE][:h, :w]
        return rgb, np.ascontiguousarray(ids)


def luma(rgb) -> float:
    r, g, b = rgb[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b


def mean_rgb(rgb: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return np.float32(cv2.mean(rgb, mask.view(np.uint8) if mask.dtype == bool else mask)[:3])


def box_gap(p, q) -> float:
    """Gap between two boxes (negative when they overlap)."""
    return max(q[0] - p[2], p[0] - q[2], q[1] - p[3], p[1] - q[3])
