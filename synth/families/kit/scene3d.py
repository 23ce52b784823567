"""What the 3D families (spatial3d, rotation3d, facing3d) share: colour names and how a colour is read back
from the picture, scene dressing drawn from the rng (ground, sky, sun), and a rendered scene as a Puzzle."""
from functools import cache

import cv2
import numpy as np

from synth.families.base import Puzzle
from synth.families.kit import render3d as r3

# Colours whose hues stay apart under the scenes' lighting (a shaded yellow is no brown, so there is no brown)
COLOURS = {
    "red": ((200, 40, 36), "红色"),
    "yellow": ((228, 196, 30), "黄色"),
    "green": ((46, 160, 60), "绿色"),
    "cyan": ((30, 180, 196), "青色"),
    "blue": ((36, 84, 214), "蓝色"),
    "purple": ((150, 60, 190), "紫色"),
    "grey": ((132, 132, 132), "灰色"),
}
GREY_CHROMA = 7.0        # Lab chroma below which a colour reads as grey (lit grey measures 0-3) ...
CHROMA_MIN = 12.0        # ... and above which as a hue (shaded cyan, the palest, measures 20 and more)
HUE_MARGIN = 18.0        # degrees: a measured hue this much nearer its own colour than any other


@cache
def _hues() -> dict[str, float]:
    return {name: hue_chroma(np.array(rgb, np.float32))[0] for name, (rgb, _) in COLOURS.items() if name != "grey"}


def hue_chroma(rgb: np.ndarray) -> tuple[float, float]:
    """Lab hue angle (degrees) and chroma of an RGB colour (0..255)."""
    lab = cv2.cvtColor(np.float32(rgb).reshape(1, 1, 3) / 255, cv2.COLOR_RGB2LAB)[0, 0]
    return float(np.degrees(np.arctan2(lab[2], lab[1])) % 360), float(np.hypot(lab[1], lab[2]))


def read_colour(rgb: np.ndarray, mask: np.ndarray) -> tuple[str, float]:
    """The colour name a mask's pixels show (their median, inside an eroded mask: edges and outlines left out)
    and its margin in hue degrees over the next nearest ("" when unclear: too few pixels, between grey and
    a hue, or between two hues)."""
    m = mask.view(np.uint8) if mask.dtype == bool else mask.astype(np.uint8)
    inner = cv2.erode(m, np.ones((3, 3), np.uint8))
    if cv2.countNonZero(inner) < 12:
        return "", 0.0
    hue, chroma = hue_chroma(np.median(rgb[inner.astype(bool)], axis=0))
    if chroma < GREY_CHROMA:
        return "grey", 90.0
    if chroma < CHROMA_MIN:
        return "", 0.0
    dist = sorted((abs((hue - h + 180) % 360 - 180), name) for name, h in _hues().items())
    margin = dist[1][0] - dist[0][0]
    return (dist[0][1], margin) if margin >= HUE_MARGIN else ("", margin)


def jitter(rng: np.random.Generator, rgb: tuple[int, int, int], amount: float = 10) -> tuple[int, int, int]:
    """A colour moved a little in brightness (the same hue)."""
    k = 1 + float(rng.uniform(-amount, amount)) / 100
    return tuple(int(np.clip(round(c * k), 0, 255)) for c in rgb)


def dressing(rng: np.random.Generator, camera_azimuth: float) -> dict:
    """Ground, sky and sun for one scene: pale neutral grounds, a sun high up on the camera's side (within
    100 degrees of it): from the far side, a face would mirror it into the camera and show white."""
    tone = float(rng.uniform(180, 222))
    warm = float(rng.uniform(-8, 8))
    ground = (int(tone + warm), int(tone), int(tone - warm))
    sky = tuple(int(v) for v in np.clip(np.array([218, 226, 238]) + rng.uniform(-12, 12, 3), 0, 255))
    az = np.deg2rad(camera_azimuth + float(rng.uniform(-100, 100)))
    el = np.deg2rad(float(rng.uniform(45, 70)))
    sun = (float(np.cos(el) * np.sin(az)), float(np.sin(el)), float(np.cos(el) * np.cos(az)))
    return {"ground": ground, "sky": sky, "sun": sun, "intensity": float(rng.uniform(2.1, 2.7))}


def light(sun: tuple[float, float, float], intensity: float) -> r3.Light:
    return r3.Light(direction=sun, intensity=intensity)


def puzzle(out: r3.Rendered, meta: dict[int, dict], extras: dict | None = None) -> Puzzle:
    """A rendered scene as a Puzzle: scene object k is instance k (the ground is background), its full area
    its unoccluded silhouette."""
    return Puzzle(out.rgb, out.instances(), {k: out.solo[k].area for k in meta}, meta, extras or {})
