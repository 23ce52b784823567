"""Jigsaw swap: the swap is measured on the seams, invisible or ambiguous swaps are rejected, the drag is judged
on the tiles; plus the photo views the photo families share."""
import dataclasses

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import jigsaw
from synth.families.kit import photos
from synth.labels import reward, spec

SIZE = (320, 320)


def base(**changes) -> jigsaw.Params:
    p = jigsaw.sample_params(np.random.default_rng(0), 2, SIZE)
    view = photos.View("sunset_by_Aitzol_Berasategi", 0.5, 0.5, 1.0, False)
    fixed = {"view": view, "rows": 3, "cols": 3, "swap": (1, 7), "decoy": -1, "decoy_gain": 1.0, "tolerance": 30.0}
    return dataclasses.replace(p, **{**fixed, **changes})


def reason(p: jigsaw.Params) -> str:
    with pytest.raises(Reject) as e:
        jigsaw.solve(p, jigsaw.render(p))
    return e.value.reason


def smooth_picture(w: int, h: int) -> np.ndarray:
    """A vertical sky gradient: every tile of a row looks like its neighbours."""
    ramp = np.linspace(90, 230, h, dtype=np.float32)[:, None, None]
    return np.broadcast_to(ramp * np.float32([0.6, 0.8, 1.0]), (h, w, 3)).astype(np.uint8).copy()


def test_the_swapped_tiles_show_each_others_picture():
    p = base()
    puzzle = jigsaw.render(p)
    photo = photos.image(p.view, *SIZE)
    geo = puzzle.extras["layout"]
    lw = geo["line"]
    for shown, source in ((1, 7), (7, 1), (0, 0)):
        x0, y0, x1, y1 = jigsaw.tile_box(geo, 3, shown)
        sx0, sy0, sx1, sy1 = jigsaw.tile_box(geo, 3, source)
        inner = (slice(lw, -lw), slice(lw, -lw))        # off the lines
        assert np.array_equal(puzzle.rgb[y0:y1, x0:x1][inner], photo[sy0:sy1, sx0:sx1][inner])


def test_drag_from_the_first_misplaced_tile_onto_the_other():
    p = base()
    task = jigsaw.solve(p, jigsaw.render(p))
    geo = jigsaw.layout(SIZE, 3, 3)
    assert task.rule == "drag" and task.answer == {"cells": [1, 7]}
    assert task.target_boxes[0] == list(map(float, jigsaw.tile_box(geo, 3, 1)))
    assert task.end_boxes[0] == list(map(float, jigsaw.tile_box(geo, 3, 7)))
    step = spec.step("drag", task.target_boxes[0], task.end_boxes[0], tolerance=task.tolerance_px)
    good = spec.action("drag", point=task.points[0], end=task.end_points[0])
    short = spec.action("drag", point=task.points[0], end=[task.end_points[0][0], task.end_points[0][1] - 60])
    assert reward.matches(step, good) and not reward.matches(step, short)
    assert task.checks["seam_ratio"] >= jigsaw.MIN_SEAM_RATIO and task.checks["runner_up_share"] <= jigsaw.RUNNER_UP_MAX


def test_a_swap_on_a_smooth_picture_is_rejected(monkeypatch):
    monkeypatch.setattr(photos, "image", lambda view, w, h: smooth_picture(w, h))
    assert reason(base(swap=(0, 2))) == "jigsaw.swap_not_visible"      # two tiles of one row: identical


def test_a_picture_with_a_second_swap_is_rejected(monkeypatch):
    real = photos.image

    def swapped(view, w, h):            # the photo itself already has tiles 0 and 8 swapped
        img = real(view, w, h)
        geo = jigsaw.layout((w, h), 3, 3)
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = (jigsaw.tile_box(geo, 3, t) for t in (0, 8))
        a = img[ay0:ay1, ax0:ax1].copy()
        img[ay0:ay1, ax0:ax1] = img[by0:by1, bx0:bx1]
        img[by0:by1, bx0:bx1] = a
        return img
    monkeypatch.setattr(photos, "image", swapped)
    assert reason(base()) in ("jigsaw.another_swap_fits", "jigsaw.other_tile_looks_misplaced")


def test_a_decoy_as_visible_as_the_swap_is_rejected():
    assert reason(base(decoy=3, decoy_gain=1.6)) == "jigsaw.other_tile_looks_misplaced"
    faint = base(decoy=3, decoy_gain=1.03)
    assert jigsaw.solve(faint, jigsaw.render(faint)).answer == {"cells": [1, 7]}


def test_a_tile_whose_only_neighbours_are_swapped_is_avoided():
    assert jigsaw.enclosed(2, 3, (1, 3))            # tile 0 touches only tiles 1 and 3
    assert reason(base(rows=2, cols=3, swap=(1, 3))) == "jigsaw.tile_enclosed"
    for seed in range(30):
        p = jigsaw.sample_params(np.random.default_rng(seed), 1, SIZE)
        assert not jigsaw.enclosed(p.rows, p.cols, p.swap) and p.swap[0] < p.swap[1]


def test_repairs_match_the_seam_sums():
    rng = np.random.default_rng(1)
    right, below = rng.random((9, 9)), rng.random((9, 9))
    gains = jigsaw.repairs(right, below, 3, 3)
    seams = jigsaw.neighbours(3, 3)

    def total(at):
        return sum((right if h else below)[at[p], at[q]] for p, q, h in seams)
    for i, j in [(0, 1), (0, 4), (2, 6), (4, 5), (3, 8)]:
        at = list(range(9))
        at[i], at[j] = j, i
        assert gains[i, j] == pytest.approx(total(list(range(9))) - total(at))


def test_photo_views_are_deterministic_and_sized():
    rng = np.random.default_rng(4)
    view = photos.sample_view(rng, photos.choices())
    a, b = photos.image(view, 300, 200), photos.image(view, 300, 200)
    assert a.shape == (200, 300, 3) and a.dtype == np.uint8 and np.array_equal(a, b)
    flipped = photos.image(dataclasses.replace(view, flip=not view.flip), 300, 200)
    assert np.array_equal(flipped, a[:, ::-1])
    with pytest.raises(ValueError, match="zoom"):
        photos.sample_view(rng, photos.choices(), zoom=(1.0, 2.0))
    assert "sunset_by_Aitzol_Berasategi" in photos.choices()
    assert not set(photos.choices(None, photos.FLAT)) & set(photos.FLAT)
