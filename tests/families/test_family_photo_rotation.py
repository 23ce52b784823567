"""Photo rotation: the upright is checked against the quarter turns, ambiguous or upside-down pictures are
rejected, and the answer follows rotation's slider convention."""
import dataclasses

import cv2
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import photo_rotation, rotation
from synth.families.kit import photos

SIZE = (320, 320)


def base(**changes) -> photo_rotation.Params:
    p = photo_rotation.sample_params(np.random.default_rng(0), 3, SIZE)
    view = photos.View("Storm", 0.5, 0.5, 1.0, False)
    return dataclasses.replace(p, **{**{"view": view, "shown_angle": 120.0, "tolerance": 13.0}, **changes})


def reason(p: photo_rotation.Params) -> str:
    with pytest.raises(Reject) as e:
        photo_rotation.solve(p, photo_rotation.render(p))
    return e.value.reason


def sky_over_field(n: int) -> np.ndarray:
    """A smooth blue sky over a textured green field, split by a straight horizon."""
    rng = np.random.default_rng(0)
    img = np.zeros((n, n, 3), np.float32)
    sky = np.linspace(1.0, 0.8, n // 2, dtype=np.float32)[:, None, None] * np.float32([120, 170, 240])
    img[:n // 2] = sky
    img[n // 2:] = np.float32([60, 130, 50]) + rng.normal(0, 25, (n - n // 2, n, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_answer_undoes_the_shown_angle_on_rotations_slider():
    p = base()
    task = photo_rotation.solve(p, photo_rotation.render(p))
    assert task.answer == {"angle": 240.0}
    geo = rotation.layout(SIZE)
    tx0, _, tx1, _ = geo["track"]
    travel = (tx1 - tx0) - geo["knob"]
    assert task.end_points[0][0] - task.points[0][0] == pytest.approx(240 / 360 * travel)
    assert task.tolerance_px == pytest.approx(13 / 360 * travel)
    assert task.checks["upright_margin"] >= photo_rotation.MIN_UPRIGHT_MARGIN


def test_plausibility_points_at_the_sky():
    img = sky_over_field(96)
    p = photo_rotation.plausibility(img)
    assert int(np.argmax(p)) == 0 and p[0] - p[1:].max() > photo_rotation.MIN_UPRIGHT_MARGIN
    for k in (1, 2, 3):                  # turned by np.rot90, the plausible turn moves along
        q = photo_rotation.plausibility(np.ascontiguousarray(np.rot90(img, k)))
        assert int(np.argmax(q)) == (4 - k) % 4
    assert photo_rotation.level_cue(sky_over_field(128)) > photo_rotation.MIN_LEVEL_CUE


def test_a_featureless_picture_is_rejected(monkeypatch):
    monkeypatch.setattr(photos, "image", lambda view, w, h: np.full((h, w, 3), 128, np.uint8))
    assert reason(base()) == "photo_rotation.upright_ambiguous"


def test_an_upside_down_photo_is_rejected(monkeypatch):
    real = photos.image
    monkeypatch.setattr(photos, "image", lambda view, w, h: np.ascontiguousarray(real(view, w, h)[::-1]))
    assert reason(base()) == "photo_rotation.upright_ambiguous"


def test_fine_levels_need_a_straight_horizon(monkeypatch):
    def blobs(view, w, h):              # bright top, textured bottom, but no straight line anywhere
        rng = np.random.default_rng(1)
        y = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
        noise = 3 * cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 3)[..., None]
        img = 200 - 120 * y + noise * 60 * y
        return np.clip(np.broadcast_to(img, (h, w, 3)), 0, 255).astype(np.uint8).copy()
    monkeypatch.setattr(photos, "image", blobs)
    assert reason(base(tolerance=9.0)) == "photo_rotation.no_level_cue"
    coarse = base(tolerance=20.0, shown_angle=90.0)
    assert photo_rotation.solve(coarse, photo_rotation.render(coarse)).answer == {"angle": 270.0}


def test_only_listed_photos_are_drawn_and_fine_levels_keep_to_level_ones():
    for level in (1, 3, 5):
        for seed in range(15):
            p = photo_rotation.sample_params(np.random.default_rng(seed), level, SIZE)
            assert p.view.photo in photo_rotation.BOLD + photo_rotation.SUBTLE
            if p.tolerance <= photo_rotation.FINE:
                assert p.view.photo in photo_rotation.LEVEL
            assert p.shown_angle % photo_rotation.TABLE.row(level)["angle_step_range"][0] == 0
