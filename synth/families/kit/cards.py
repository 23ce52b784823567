"""Tile cards, shared by swap and match3 (and the match3_swap episode): the rounded card of a board tile, its
soft shadow, an icon sized and tilted onto it, and alpha blending in float32."""
from functools import lru_cache

import cv2
import numpy as np

from synth.families.kit import draw

UNIT = np.arange(256, dtype=np.float32) * (1 / 255)   # alpha byte -> float32 0..1 (a lookup, same values)


@lru_cache(maxsize=16)
def card_alpha(t: int) -> np.ndarray:
    """Rounded-square coverage (float32 0..1) of one tile card."""
    q = 4
    big = np.zeros((t * q, t * q), np.uint8)
    r = int(t * q * 0.14)
    cv2.rectangle(big, (r, 0), (t * q - 1 - r, t * q - 1), 255, -1)
    cv2.rectangle(big, (0, r), (t * q - 1, t * q - 1 - r), 255, -1)
    for cx in (r, t * q - 1 - r):
        for cy in (r, t * q - 1 - r):
            cv2.circle(big, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return cv2.resize(big, (t, t), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


@lru_cache(maxsize=16)
def card_shadow(t: int) -> np.ndarray:
    """Weight (float32, 1 = untouched) of the ground under a card's soft drop shadow."""
    return 1 - cv2.GaussianBlur(card_alpha(t), (0, 0), max(1.0, t / 40)) * 0.35


def over(top: np.ndarray, under: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """`top` alpha-blended over `under` (uint8 RGB, alpha float32 0..1)."""
    return cv2.blendLinear(top, under, alpha, 1 - alpha)


def icon_sprite(key: str, t: int, share: float, tilt: float) -> tuple[np.ndarray, int]:
    """The icon as drawn on a tile of side t: sized and tilted (RGBA), and its offset from the tile's corner."""
    s = max(12, round(t * share))
    spr = draw.rotated(draw.sprite(key, s), tilt)
    if spr.shape[0] > t:
        spr = cv2.resize(spr, (t, t), interpolation=cv2.INTER_AREA)
    return spr, (t - spr.shape[0]) // 2
