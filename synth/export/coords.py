"""Coordinate conventions of the models that trainers fine-tune: how a pixel of the stored image is written
in a model's answer, and back.

- `ui-venus`: 0–999 of the image on both axes (UI-Venus-2 and its CAPTCHA benchmark);
- `qwen3-vl`: 0–1000 of the image on both axes (Qwen3-VL);
- `qwen2.5-vl`: absolute pixels of the image as Qwen2.5-VL's processor resizes it (`smart_resize`, factor 28,
  `max_pixels` 1,003,520 = 14·14·4·1280 as in Qwen's fine-tuning code, an option);
- `ui-tars`: absolute pixels of the image as UI-TARS-1.5 resizes it (`smart_resize`, factor 28, up to
  16384·28·28 pixels).
Answers are integers, so a point comes back within half a unit of the convention's grid."""
import math
from dataclasses import dataclass

QWEN25_MAX_PIXELS = 14 * 14 * 4 * 1280
UI_TARS_MAX_PIXELS = 16384 * 28 * 28


def smart_resize(height: int, width: int, factor: int, min_pixels: int, max_pixels: int) -> tuple[int, int]:
    """(height, width) as the Qwen-VL processors resize an image: multiples of `factor`, aspect kept, the pixel
    count brought within [min_pixels, max_pixels]."""
    h = max(factor, round(height / factor) * factor)
    w = max(factor, round(width / factor) * factor)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h = max(factor, math.floor(height / beta / factor) * factor)
        w = max(factor, math.floor(width / beta / factor) * factor)
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h = math.ceil(height * beta / factor) * factor
        w = math.ceil(width * beta / factor) * factor
    return h, w


@dataclass(frozen=True)
class Frame:
    """One image's coordinate frame under a convention: the answer's x spans 0..sx, y spans 0..sy."""
    width: int
    height: int
    sx: float
    sy: float
    description: str

    def to_model(self, p) -> list[int]:
        return [round(p[0] / self.width * self.sx), round(p[1] / self.height * self.sy)]

    def to_pixels(self, q) -> list[float]:
        return [q[0] / self.sx * self.width, q[1] / self.sy * self.height]

    def box(self, b) -> list[int]:
        return self.to_model(b[:2]) + self.to_model(b[2:])


CONVENTIONS = ("ui-venus", "qwen3-vl", "qwen2.5-vl", "ui-tars")


def frame(convention: str, width: int, height: int, max_pixels: int | None = None) -> Frame:
    """The frame of a `width`×`height` image under `convention`; ValueError naming the allowed ones."""
    if convention == "ui-venus":
        return Frame(width, height, 999.0, 999.0, "coordinates from (0, 0) at the top-left to (999, 999) at the "
                                                  "bottom-right of the screenshot")
    if convention == "qwen3-vl":
        return Frame(width, height, 1000.0, 1000.0, "coordinates relative to the screenshot, from (0, 0) at the "
                                                    "top-left to (1000, 1000) at the bottom-right")
    if convention in ("qwen2.5-vl", "ui-tars"):
        cap = max_pixels or (QWEN25_MAX_PIXELS if convention == "qwen2.5-vl" else UI_TARS_MAX_PIXELS)
        low = 56 * 56 if convention == "qwen2.5-vl" else 100 * 28 * 28
        h, w = smart_resize(height, width, 28, low, cap)
        return Frame(width, height, float(w), float(h), f"absolute pixel coordinates of the {w}x{h} screenshot")
    raise ValueError(f"--coords must be one of {', '.join(CONVENTIONS)}, got {convention!r}")
