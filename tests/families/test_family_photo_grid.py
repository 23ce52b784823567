"""Photo tile grid: the selected tiles are the ones the object covers on the instance map, slivers and objects
that blend into the photo are rejected, distractors select nothing."""
import dataclasses

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import photo_grid
from synth.families.jigsaw import layout, tile_box
from synth.families.kit import draw, photos
from synth.families.kit.kinds import kind_by_key

SIZE = (320, 320)
BUS = "emoji:bus"


def base(objects, grid=3, **changes) -> photo_grid.Params:
    p = photo_grid.sample_params(np.random.default_rng(0), 1, SIZE)
    view = photos.View("Storm", 0.5, 0.5, 1.0, False)
    return dataclasses.replace(p, **{"view": view, "grid": grid, "target": BUS, "objects": tuple(objects), **changes})


def reason(p: photo_grid.Params) -> str:
    with pytest.raises(Reject) as e:
        photo_grid.solve(p, photo_grid.render(p))
    return e.value.reason


def expected_cells(key: str, x: int, y: int, s: int, n: int) -> list[int]:
    """Tiles the sprite's opaque pixels cover at least IN_SHARE of, counted on the sprite itself."""
    mask = np.zeros((SIZE[1], SIZE[0]), bool)
    mask[y:y + s, x:x + s] = draw.sprite(key, s)[..., 3] >= draw.ALPHA_ON
    geo = layout(SIZE, n, n)
    return [t for t, share in enumerate(photo_grid.tile_shares(mask, geo, n)) if share >= photo_grid.IN_SHARE]


def test_the_tiles_the_object_covers_are_selected():
    p = base([("target", BUS, 60, 60, 150)])          # the bus sits across the middle of the 3 x 3 grid
    puzzle = photo_grid.render(p)
    task = photo_grid.solve(p, puzzle)
    cells = expected_cells(BUS, 60, 60, 150, 3)
    assert task.rule == "click_set" and task.answer == {"cells": cells} and len(cells) >= 4
    assert task.partial_credit and not task.target_ids
    geo = layout(SIZE, 3, 3)
    for t, box, (px, py) in zip(cells, task.target_boxes, task.points):
        x0, y0, x1, y1 = tile_box(geo, 3, t)
        assert x0 <= box[0] <= px <= box[2] <= x1 and y0 <= box[1] <= py <= box[3] <= y1
    assert photo_grid.instruction(p, "en") == "Select all squares with buses, then click Verify."
    assert photo_grid.instruction(p, "zh") == "请选择所有包含公交车的方格，然后点击验证"


def test_a_sliver_of_the_object_in_a_tile_is_rejected():
    geo = layout(SIZE, 3, 3)
    s = 120
    _, summed = photo_grid._footprint(BUS, s)
    for x in range(0, 200):                 # slide the bus right until it pokes a little into the next column
        shares = photo_grid._shares_at(summed, x, 100, geo, 3)
        if ((shares > 0.01) & (shares < 0.03)).any():
            break
    else:
        pytest.fail("no sliver position found")
    assert reason(base([("target", BUS, x, 100, s)])) == "photo_grid.borderline_tile"


def test_an_object_that_blends_into_the_photo_is_rejected(monkeypatch):
    rgba = draw.sprite(BUS, 150)
    on = rgba[..., 3] >= draw.ALPHA_ON
    colour = rgba[..., :3][on].mean(axis=0).astype(np.uint8)
    monkeypatch.setattr(photos, "image", lambda view, w, h: np.broadcast_to(colour, (h, w, 3)).copy())
    assert reason(base([("target", BUS, 60, 60, 150)])) == "photo_grid.object_blends_in"


def clean_spot(key: str, s: int, n: int, spots) -> tuple[int, int]:
    """The first of `spots` where the sprite's tile shares keep clear of the ambiguous band."""
    geo = layout(SIZE, n, n)
    _, summed = photo_grid._footprint(key, s)
    for x, y in spots:
        shares = photo_grid._shares_at(summed, x, y, geo, n)
        if not ((shares > photo_grid.OUT_SHARE) & (shares < photo_grid.IN_SHARE)).any():
            return x, y
    raise AssertionError("no clean spot")


def test_tiles_holding_only_a_distractor_are_not_selected():
    x, y = clean_spot(BUS, 130, 3, [(x, y) for y in range(0, 40, 3) for x in range(0, 40, 3)])
    objects = [("target", BUS, x, y, 130), ("distractor", "emoji:car", 200, 200, 110)]
    p = base(objects)
    task = photo_grid.solve(p, photo_grid.render(p))
    assert task.answer == {"cells": expected_cells(BUS, x, y, 130, 3)}
    assert 8 not in task.answer["cells"]                   # the bottom-right tile holds the car only
    first_distractor = next(o for o in task.objects if o["role"] == "distractor")
    assert first_distractor["label"] == "car"


def test_sampled_targets_keep_clear_of_the_ambiguous_band():
    for level in (1, 3, 5):
        for seed in range(8):
            p = photo_grid.sample_params(np.random.default_rng(seed), level, SIZE)
            kinds = {k for r, k, *_ in p.objects if r == "distractor"}
            assert p.target not in kinds and kind_by_key(p.target).en in photo_grid.TARGETS
            try:
                task = photo_grid.solve(p, photo_grid.render(p))
            except Reject as e:
                assert e.reason != "photo_grid.borderline_tile"
                continue
            assert task.checks["min_selected_share"] >= photo_grid.IN_SHARE
            assert task.checks["max_unselected_share"] <= photo_grid.OUT_SHARE
