"""Slider jigsaw: the gap is found from the pixels, decoys that look as dark as the gap are rejected."""
import dataclasses

import cv2
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import slider
from synth.families.kit import photos

SIZE = (320, 320)


def base(**changes) -> slider.Params:
    p = slider.sample_params(np.random.default_rng(3), 1, SIZE)
    fixed = {"body": 50, "tabs": (1, -1, 1, 0), "piece_x": 8, "gap_x": 170, "row_y": 100, "decoy_x": -1,
             "decoy_tabs": (1, -1, 1, 0), "contrast": 0.5, "outline": 0.9, "decoy_contrast": 0.0, "tolerance": 10.0,
             "view": None}
    return dataclasses.replace(p, **{**fixed, **changes})


def test_offset_and_drag_regions_on_a_hand_made_instance():
    p = base()
    task = slider.solve(p, slider.render(p))
    assert task.rule == "drag" and task.answer == {"offset": 162.0}
    (x0, y0, x1, y1), (ex0, ey0, ex1, ey1) = task.target_boxes[0], task.end_boxes[0]
    assert (ex0, ex1) == (x0 + 162, x1 + 162) and (ey0, ey1) == (y0, y1) and task.tolerance_px == 10
    assert task.end_points[0][0] - task.points[0][0] == 162.0 and task.end_points[0][1] == task.points[0][1]
    assert ex0 <= task.end_points[0][0] <= ex1


def test_decoy_as_dark_as_the_gap_is_rejected():
    p = base(gap_x=120, decoy_x=220, decoy_contrast=0.5)            # same outline, same darkening
    with pytest.raises(Reject, match="decoy_too_similar"):
        slider.solve(p, slider.render(p))
    fainter = base(gap_x=120, decoy_x=220, decoy_contrast=0.2)       # clearly fainter: accepted
    assert slider.solve(fainter, slider.render(fainter)).answer == {"offset": 112.0}


def test_a_decoy_darker_than_the_gap_is_not_labelled_as_the_gap():
    p = base(gap_x=120, decoy_x=220, decoy_contrast=0.8)
    with pytest.raises(Reject, match="gap_not_found|decoy_too_similar"):
        slider.solve(p, slider.render(p))


def test_invisible_gap_is_rejected():
    p = base(contrast=0.03, outline=0.0)
    with pytest.raises(Reject, match="gap_too_faint|gap_not_found"):
        slider.solve(p, slider.render(p))


def test_piece_shows_the_picture_cut_out_of_the_gap():
    p = base()
    puzzle = slider.render(p)
    mask = cv2.erode((puzzle.extras["mask"] >= 0.999).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0   # off the rim
    n = mask.shape[0]
    shown = puzzle.rgb[p.row_y:p.row_y + n, p.piece_x:p.piece_x + n][mask]
    hole = puzzle.extras["clean"][p.row_y:p.row_y + n, p.gap_x:p.gap_x + n][mask]
    assert np.abs(shown.astype(int) - hole.astype(int)).mean() < 2
    # and the gap area of the picture is darker than the clean picture there
    gap = puzzle.rgb[p.row_y:p.row_y + n, p.gap_x:p.gap_x + n][mask].astype(float).mean()
    assert gap < 0.7 * hole.astype(float).mean()


def test_tolerance_scales_with_the_puzzle_width_and_shrinks_with_level():
    small = [slider.sample_params(np.random.default_rng(s), 1, (320, 320)).tolerance for s in range(3)]
    big = [slider.sample_params(np.random.default_rng(s), 1, (600, 600)).tolerance for s in range(3)]
    assert small == [10.0] * 3 and big == pytest.approx([18.75] * 3)
    assert slider.sample_params(np.random.default_rng(0), 5, SIZE).tolerance <= 4


PHOTO = photos.View("aitzgorri_by_Aitzol_Berasategi", 0.3, 0.5, 1.0, False)


def test_a_share_of_the_pictures_are_photos_growing_with_the_level():
    shares = [np.mean([slider.sample_params(np.random.default_rng(s), level, SIZE).view is not None
                       for s in range(60)]) for level in (1, 5)]
    assert 0.1 < shares[0] < shares[1] < 0.9
    for s in range(10):
        p = slider.sample_params(np.random.default_rng(s), 2, SIZE)
        puzzle = slider.render(p)
        clean = slider.landscape(p.bg_seed, *SIZE, p.clutter) if p.view is None else photos.image(p.view, *SIZE)
        assert np.array_equal(puzzle.extras["clean"], clean)


def test_the_checks_hold_on_a_photo():
    p = base(view=PHOTO)
    puzzle = slider.render(p)
    task = slider.solve(p, puzzle)
    assert task.answer == {"offset": 162.0} and task.checks["edge_ratio"] >= slider.MIN_EDGE_RATIO
    mask = cv2.erode((puzzle.extras["mask"] >= 0.999).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    n = mask.shape[0]
    shown = puzzle.rgb[p.row_y:p.row_y + n, p.piece_x:p.piece_x + n][mask].astype(int)
    hole = photos.image(PHOTO, *SIZE)[p.row_y:p.row_y + n, p.gap_x:p.gap_x + n][mask].astype(int)
    assert np.abs(shown - hole).mean() < 2
    same = base(view=PHOTO, gap_x=120, decoy_x=220, decoy_contrast=0.5)
    with pytest.raises(Reject, match="decoy_too_similar"):
        slider.solve(same, slider.render(same))
    faint = base(view=PHOTO, contrast=0.03, outline=0.0)
    with pytest.raises(Reject, match="gap_too_faint|gap_not_found|gap_outline_hidden"):
        slider.solve(faint, slider.render(faint))
