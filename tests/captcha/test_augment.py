"""Degradations: the same seed gives the same pixels, and each transform is drawn independently."""
import json

import numpy as np

from synth.captcha.augment import LEVELS, degrade


def _degrade(seed: int, level: int = 3):
    rgb = np.random.default_rng(0).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    instances = np.zeros((64, 64), np.uint8)
    instances[16:48, 16:48] = 1
    return degrade(rgb, instances, level, True, seed)


def test_same_seed_same_pixels():
    (a, ia, na), (b, ib, nb) = _degrade(7), _degrade(7)
    assert np.array_equal(a, b) and np.array_equal(ia, ib) and na == nb


def test_transforms_are_applied_independently():
    """Each transform applies at its own rate, whatever the others do. (Seeding every transform alike made
    them draw the same numbers: blur then applied only together with every likelier transform.)"""
    runs = [set(_degrade(seed)[2]) for seed in range(400)]
    blur = sum("GaussianBlur" in a for a in runs) / len(runs)
    hsv = sum("HueSaturationValue" in a for a in runs) / len(runs)
    both = sum({"GaussianBlur", "HueSaturationValue"} <= a for a in runs) / len(runs)
    assert abs(blur - LEVELS[3]["blur_p"]) < 0.07
    assert abs(both - blur * hsv) < 0.05
    assert len({frozenset(a) for a in runs}) > 30


def test_a_family_that_must_stay_sharp_is_never_blurred():
    """rotation3d's ~12 px cubes are told apart by their edges (BLUR_AUGMENT = False): its samples skip the
    blur, which level 5 applies to half of the others, and keep the other degradations."""
    from synth.engine.config import RunConfig
    from synth.engine.generator import Generator

    rgb = np.random.default_rng(0).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    runs = [set(degrade(rgb, np.zeros((64, 64), np.uint8), 5, False, seed, blur=False)[2]) for seed in range(200)]
    assert not any("GaussianBlur" in a for a in runs) and any("Grain" in a for a in runs)
    gen = Generator(RunConfig(difficulty=5, n=8, seed=3, families=("rotation3d",)))
    try:
        applied = [json.loads(gen.sample(i)[1]["json"])["params"]["augment"]["applied"] for i in range(8)]
    finally:
        gen.close()
    assert not any("GaussianBlur" in a for a in applied) and any("Grain" in a for a in applied)
