"""Spliced JPEGs must be byte-identical to encoding the whole composed screenshot."""
import cv2
import numpy as np
import pytest

from synth.core import jpeg


def page(width: int, height: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = np.linspace(0, 220, width * 3).reshape(1, width, 3) + rng.normal(0, 25, (height, width, 3))
    return cv2.GaussianBlur(np.clip(base, 0, 255).astype(np.uint8), (5, 5), 0)


@pytest.mark.parametrize("width,height", [(1280, 800), (780, 1688), (1440, 900)])
@pytest.mark.parametrize("box", [(270, 180, 610, 572), (0, 0, 37, 21), (-1, -1, -1, -1)])   # -1: at the far corner
def test_spliced_jpeg_equals_full_encode(width, height, box):
    rgb = page(width, height, 1)
    if box[0] < 0:
        box = (width - 333, height - 250, width, height)
    x0, y0, x1, y1 = jpeg.block_box(box, width, height)
    assert x0 <= box[0] and y0 <= box[1] and x1 >= box[2] and y1 >= box[3]
    encoder = jpeg.PageEncoder(rgb, (x0, y0, x1, y1), 90)
    for seed in (2, 3):
        composed = rgb.copy()
        composed[y0:y1, x0:x1] = np.random.default_rng(seed).integers(0, 256, (y1 - y0, x1 - x0, 3), np.uint8)
        data = encoder.encode(composed[y0:y1, x0:x1])
        assert data == jpeg.encode(composed, 90)
        decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        assert decoded.shape == (height, width, 3)


def test_misaligned_box_and_wrong_patch_are_refused():
    rgb = page(320, 160, 4)
    with pytest.raises(ValueError, match="aligned"):
        jpeg.PageEncoder(rgb, (8, 0, 64, 64), 90)
    encoder = jpeg.PageEncoder(rgb, (16, 16, 64, 64), 90)
    with pytest.raises(ValueError, match="patch"):
        encoder.encode(rgb[:10, :10])
