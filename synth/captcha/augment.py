"""Degradations real CAPTCHAs use (noise, blur, JPEG, colour, warps), per level, through albumentations.

They are applied to the puzzle before it is pasted into the page; geometric ones move the instance
map with the pixels, so boxes are re-measured afterwards."""
import random
import warnings
from functools import lru_cache

import cv2
import numpy as np

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import albumentations as A

# per level: noise std (share of 255), blur probability, JPEG quality range, colour shift, warp probability.
# Grain, blur and JPEG stop rising at level 3 (a legibility floor for every family): levels 4 and 5 are harder
# through more objects, decoys, overlap and clutter, not through pixels a person cannot read (at the former
# level 5, grain of std up to 0.10 x 255 and JPEG quality 40 hid subway letters and rotation3d's cube edges).
LEVELS = {
    1: {"noise_range": (0.0, 0.01), "blur_p": 0.0, "jpeg_range": (90, 95), "color": 0.05, "warp_p": 0.0},
    2: {"noise_range": (0.01, 0.03), "blur_p": 0.1, "jpeg_range": (80, 95), "color": 0.1, "warp_p": 0.2},
    3: {"noise_range": (0.02, 0.05), "blur_p": 0.25, "jpeg_range": (65, 90), "color": 0.15, "warp_p": 0.4},
    4: {"noise_range": (0.02, 0.05), "blur_p": 0.25, "jpeg_range": (65, 90), "color": 0.2, "warp_p": 0.6},
    5: {"noise_range": (0.02, 0.05), "blur_p": 0.25, "jpeg_range": (65, 90), "color": 0.25, "warp_p": 0.8},
}
FILL = 200   # grey shown where a warp pulls in pixels from outside the puzzle


class Grain(A.ImageOnlyTransform):
    """Grey Gaussian grain: one normal value per pixel (std a share of 255) added to every channel, saturating.
    Like GaussNoise(per_channel=False), in 16-bit integers with OpenCV at under half its cost."""

    def __init__(self, std_range: tuple[float, float], p: float = 0.5) -> None:
        super().__init__(p=p)
        self.std_range = std_range

    def get_params_dependent_on_data(self, params: dict, data: dict) -> dict:
        return {"sigma": self.py_random.uniform(*self.std_range) * 255, "seed": self.py_random.randrange(2**31)}

    def apply(self, img: np.ndarray, sigma: float, seed: int, **params) -> np.ndarray:
        cv2.setRNGSeed(seed)
        noise = np.empty(img.shape[:2], np.int16)
        cv2.randn(noise, 0, sigma)
        return cv2.add(img, cv2.merge([noise] * img.shape[2]), dtype=cv2.CV_8U)


@lru_cache(maxsize=32)
def pipeline(level: int, geometric: bool, blur: bool = True) -> A.Compose:
    """The degradation pipeline of one level; `geometric` adds affine and grid warps, `blur` Gaussian blur."""
    k = LEVELS[level]
    steps = [
        A.RandomBrightnessContrast(brightness_limit=k["color"], contrast_limit=k["color"], p=0.7),
        # no hue shift: instructions name colours ("the orange button"), which must stay true
        A.HueSaturationValue(hue_shift_limit=0, sat_shift_limit=int(60 * k["color"]), val_shift_limit=0, p=0.5),
        *([A.GaussianBlur(blur_limit=(3, 5), p=k["blur_p"])] if blur else []),
        Grain(std_range=k["noise_range"], p=0.8),
        A.ImageCompression(quality_range=k["jpeg_range"], p=0.7),
    ]
    if geometric and k["warp_p"] > 0:
        steps.insert(0, A.OneOf([
            A.Affine(scale=(1.02, 1.06), rotate=(-3 * level / 5, 3 * level / 5), shear=(-2, 2),
                     border_mode=cv2.BORDER_CONSTANT, fill=FILL, fill_mask=0, p=1.0),
            A.GridDistortion(num_steps=5, distort_limit=0.05 * level / 5, border_mode=cv2.BORDER_CONSTANT,
                             fill=FILL, fill_mask=0, p=1.0),
        ], p=k["warp_p"]))
    return A.Compose(steps, strict=True, save_applied_params=True)


def degrade(rgb: np.ndarray, instances: np.ndarray, level: int, geometric: bool, seed: int, blur: bool = True
            ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Apply the level's pipeline, seeded per sample; returns (rgb, instances, names of applied transforms).
    Its transforms draw from one pair of generators: seeded each alike (set_random_seed), they would all draw
    the same numbers, so that each one applied exactly when those with a higher probability did."""
    pipe = pipeline(level, geometric, blur)
    pipe.set_random_state(np.random.default_rng(seed), random.Random(seed))
    out = pipe(image=rgb, mask=instances)
    return out["image"], out["mask"], sorted(name for name, _ in out["applied_transforms"])


def degrade_puzzle(family, puzzle, level: int, seed: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """`degrade` a family's puzzle (synth.families.base.Family) as the family allows: warps if its
    GEOMETRIC_AUGMENT, blur if its BLUR_AUGMENT."""
    return degrade(puzzle.rgb, puzzle.instances, level, family.GEOMETRIC_AUGMENT, seed,
                   blur=family.BLUR_AUGMENT)
