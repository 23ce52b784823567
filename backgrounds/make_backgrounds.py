"""Generate the puzzle background textures in this folder (run once; outputs are committed).

Each texture is 512x512, drawn from a fixed seed: multi-octave value noise in a
two-colour palette, optionally with stripes, dots or soft blobs on top.
"""
from pathlib import Path

import cv2
import numpy as np

OUT = Path(__file__).parent
SIZE = 512


def value_noise(rng: np.random.Generator, octaves: int = 5) -> np.ndarray:
    out = np.zeros((SIZE, SIZE), np.float32)
    for o in range(octaves):
        cells = 4 * 2 ** o
        grid = rng.random((cells, cells)).astype(np.float32)
        out += cv2.resize(grid, (SIZE, SIZE), interpolation=cv2.INTER_CUBIC) / 2 ** o
    out -= out.min()
    return out / out.max()


def texture(rng: np.random.Generator, style: str) -> np.ndarray:
    c0, c1 = rng.integers(40, 230, 3), rng.integers(40, 230, 3)
    t = value_noise(rng)[..., None]
    img = (c0 * (1 - t) + c1 * t).astype(np.float32)
    if style == "stripes":
        angle = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[:SIZE, :SIZE]
        s = np.sin((xx * np.cos(angle) + yy * np.sin(angle)) / rng.uniform(6, 20))[..., None]
        img += 18 * s
    elif style == "dots":
        for _ in range(300):
            c = tuple(int(v) for v in rng.integers(0, 256, 3))
            cv2.circle(img, tuple(int(v) for v in rng.integers(0, SIZE, 2)), int(rng.integers(2, 9)), c, -1)
    elif style == "blobs":
        layer = np.zeros_like(img)
        for _ in range(25):
            c = tuple(int(v) for v in rng.integers(0, 256, 3))
            cv2.circle(layer, tuple(int(v) for v in rng.integers(0, SIZE, 2)), int(rng.integers(20, 70)), c, -1)
        img = 0.7 * img + 0.3 * cv2.GaussianBlur(layer, (0, 0), 12)
    return np.clip(img, 0, 255).astype(np.uint8)


def main() -> None:
    styles = ["plain", "stripes", "dots", "blobs"]
    for i in range(16):
        rng = np.random.default_rng(1000 + i)
        img = texture(rng, styles[i % len(styles)])
        cv2.imwrite(str(OUT / f"texture-{i:02d}.jpg"), img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 88])


if __name__ == "__main__":
    main()
