"""Slide to restore: the strip shows the photo further right, the fit of its edges peaks at the offset, and
shifts that cannot be told (a smooth sky, a repeating pattern) are rejected."""
import dataclasses

import cv2
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import restore
from synth.families.kit import photos
from synth.labels import reward, spec

SIZE = (320, 320)


def base(**changes) -> restore.Params:
    p = restore.sample_params(np.random.default_rng(0), 2, SIZE)
    view = photos.View("picosdeeuropa_by_Aitzol_Berasategi", 0.5, 0.5, 1.0, False)
    fixed = {"view": view, "strips": 3, "moving": 1, "offset": 100, "tolerance": 8.0}
    return dataclasses.replace(p, **{**fixed, **changes})


def reason(p: restore.Params) -> str:
    with pytest.raises(Reject) as e:
        restore.solve(p, restore.render(p))
    return e.value.reason


def test_the_strip_shows_the_photo_offset_px_further_right():
    p = base()
    puzzle = restore.render(p)
    geo = puzzle.extras["layout"]
    px0, py0, px1, py1 = geo["picture"]
    pw = px1 - px0
    wide = photos.image(p.view, pw + geo["travel"], py1 - py0)
    y0, y1 = geo["rows"][1], geo["rows"][2]
    lw = geo["line"]
    inside = puzzle.rgb[y0 + lw:y1 - lw, px0:px1]
    assert np.array_equal(inside, wide[y0 + lw - py0:y1 - lw - py0, 100:100 + pw])
    assert np.array_equal(puzzle.rgb[py0:y0, px0:px1], wide[:y0 - py0, :pw])      # the rest stays in place
    assert (puzzle.instances[y0:y1, px0:px1] == restore.STRIP).all()


def test_the_fit_is_best_at_the_offset_and_the_drag_moves_the_knob_by_it():
    p = base()
    puzzle = restore.render(p)
    fit = restore.fit_profile(puzzle, p)
    assert abs(int(np.argmin(fit)) - 100) <= 2 and fit[0] > fit[100] + restore.MIN_STEP
    task = restore.solve(p, puzzle)
    assert task.rule == "drag" and task.answer == {"offset": 100.0} and task.tolerance_px == 8.0
    (x0, y0, x1, y1), (ex0, ey0, ex1, ey1) = task.target_boxes[0], task.end_boxes[0]
    assert (ex0 - x0, ex1 - x1, ey0, ey1) == (100.0, 100.0, y0, y1)
    tx0, ty0, _, ty1 = restore.layout(SIZE, 3)["track"]
    assert task.target_boxes[0] == [tx0, ty0, tx0 + restore.layout(SIZE, 3)["knob"], ty1]      # the knob
    step = spec.step("drag", task.target_boxes[0], task.end_boxes[0], tolerance=task.tolerance_px)
    for dx, ok in ((100, True), (107, True), (110, False), (80, False)):
        action = spec.action("drag", point=task.points[0], end=[task.points[0][0] + dx, task.points[0][1]])
        assert reward.matches(step, action) is ok


def test_a_shift_on_a_smooth_sky_is_rejected(monkeypatch):
    def sky(view, w, h):                 # varies from top to bottom only: every shift looks the same
        ramp = np.linspace(80, 230, h, dtype=np.float32)[:, None, None]
        return np.broadcast_to(ramp * np.float32([0.5, 0.7, 1.0]), (h, w, 3)).astype(np.uint8).copy()
    monkeypatch.setattr(photos, "image", sky)
    assert reason(base()) in ("restore.shift_not_visible", "restore.offset_not_found")


def test_a_repeating_pattern_is_rejected(monkeypatch):
    def stripes(view, w, h):             # vertical stripes 40 px apart: 60 and 140 fit as well as 100
        x = np.arange(w, dtype=np.float32)
        row = 128 + 100 * np.sin(2 * np.pi * x / 40)
        return np.broadcast_to(row[None, :, None], (h, w, 3)).astype(np.uint8).copy()
    monkeypatch.setattr(photos, "image", stripes)
    assert reason(base()) in ("restore.other_offset_fits", "restore.offset_not_found")


def test_an_edge_strip_has_one_seam_and_still_solves():
    p = base(moving=0, strips=3, offset=60)
    assert restore.solve(p, restore.render(p)).answer == {"offset": 60.0}


def test_levels_move_the_strip_to_the_middle_and_shrink_the_tolerance():
    for seed in range(10):
        p = restore.sample_params(np.random.default_rng(seed), 5, SIZE)
        assert p.moving == p.strips // 2 and p.tolerance == 4.0
    wide = restore.sample_params(np.random.default_rng(0), 1, (640, 320))
    assert wide.tolerance == 20.0


def test_the_fit_floor_holds_on_the_picture_as_shown():
    """The clean picture passes its own floor; blurred past recognition, the shift can no longer be found."""
    p = base()
    puzzle = restore.render(p)
    task = restore.solve(p, puzzle)
    shown = restore.legible(p, puzzle, task, puzzle.rgb)
    assert shown["shown_fit_at_offset"] + restore.MIN_STEP <= shown["shown_fit_unmoved"]
    blurred = cv2.GaussianBlur(puzzle.rgb, (0, 0), 6)
    with pytest.raises(Reject) as e:
        restore.legible(p, puzzle, task, blurred)
    assert e.value.reason.endswith("_when_degraded")
