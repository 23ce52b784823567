"""The face synth writes its own text in (CAPTCHA instructions, label overlays): Noto Sans CJK, which covers
Latin and Chinese, from Debian's fonts-noto-cjk."""
from functools import lru_cache

from PIL import ImageFont

from synth.core import paths

FONT_FILE = paths.font("opentype/noto/NotoSansCJK-Bold.ttc")
FONT_INDEX = 2   # Noto Sans CJK SC: covers Latin and Chinese


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The face at `size` px; RuntimeError saying how to install it if it is missing."""
    try:
        return ImageFont.truetype(FONT_FILE, size, index=FONT_INDEX)
    except OSError as e:
        raise RuntimeError(f"font {FONT_FILE} is missing: install it with `apt-get install fonts-noto-cjk`") from e
