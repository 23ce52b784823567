"""Tile grid: tiles are chosen from the instance map; slivers of a target are rejected; infeasible -> Skip."""
import dataclasses

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import FAMILIES, grid
from synth.families.kit import kinds

SIZE = (320, 320)


def base(objects, infeasible=False) -> grid.Params:
    p = grid.sample_params(np.random.default_rng(0), 1, SIZE)
    return dataclasses.replace(p, target="emoji:cat", grid=3, objects=tuple(objects), one_picture=False,
                               clutter=0.0, knobs={**p.knobs, "infeasible": float(infeasible)})


def inside(tile, kind="emoji:cat", role="target", s=60):
    """An object centred in a tile of the 3x3 grid."""
    x0, y0, x1, y1 = grid.tile_boxes(SIZE, 3)[tile]
    return (role, kind, (x0 + x1 - s) // 2, (y0 + y1 - s) // 2, s, 0.0)


def test_tiles_holding_a_target_are_the_answer():
    p = base([inside(0), inside(4), inside(8, "emoji:dog", "distractor")])
    puzzle = grid.render(p)
    task = grid.solve(p, puzzle)
    assert task.rule == "click_set" and task.answer["cells"] == [0, 4] and task.partial_credit
    for box, point, tid in zip(task.target_boxes, task.points, task.target_ids):
        assert puzzle.instances[int(point[1]), int(point[0])] == tid
        assert box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]
    # the first distractor listed stands in a tile that is not part of the answer
    first = next(o for o in task.objects if o["role"] == "distractor")
    assert first["label"] == "dog"


def test_target_cut_in_half_by_a_tile_edge_is_rejected():
    x0, y0, x1, y1 = grid.tile_boxes(SIZE, 3)[0]
    straddle = ("target", "emoji:cat", x1 - 30, y0 + 20, 60, 0.0)        # half in tile 0, half in tile 1
    p = base([straddle, inside(4)])
    with pytest.raises(Reject, match="sliver"):
        grid.solve(p, grid.render(p))
    barely = ("target", "emoji:cat", x1 - 60 + 1, y0 + 20, 60, 0.0)     # reaches 1 px past its tile: fine
    p = base([barely, inside(4)])
    assert grid.solve(p, grid.render(p)).answer["cells"] == [0, 4]


def test_target_mostly_hidden_by_another_object_is_rejected():
    cat = inside(4, s=60)
    cover = ("distractor", "shape:blue:square", cat[2] + 10, cat[3] + 10, 40, 0.0)   # over the middle of the cat
    p = base([cat, cover])
    with pytest.raises(Reject, match="sliver|ambiguous_visibility"):
        grid.solve(p, grid.render(p))
    whole = ("distractor", "shape:blue:square", cat[2] - 6, cat[3] - 6, 72, 0.0)   # hides it entirely
    p = base([cat, whole, inside(0)])
    assert grid.solve(p, grid.render(p)).answer["cells"] == [0]


def test_infeasible_instances_ask_for_skip():
    for seed in range(6):
        p = grid.sample_params(np.random.default_rng(seed), 3, SIZE, infeasible=True)
        assert FAMILIES["grid"].controls(p) == "skip"
        assert all(role != "target" and kind != p.target for role, kind, *_ in p.objects)
        task = grid.solve(p, grid.render(p))
        assert task.rule == "skip" and task.answer == {"cells": [-1], "feasible": False}
    feasible = grid.sample_params(np.random.default_rng(0), 3, SIZE)
    assert FAMILIES["grid"].controls(feasible) == "skip"   # shown either way
    p = base([inside(8, "emoji:dog", "distractor")], infeasible=False)
    with pytest.raises(Reject, match="no_target_visible"):
        grid.solve(p, grid.render(p))


def test_grid_sizes_follow_the_level():
    assert {grid.sample_params(np.random.default_rng(s), 1, SIZE).grid for s in range(5)} == {3}
    assert {grid.sample_params(np.random.default_rng(s), 5, SIZE).grid for s in range(5)} == {4}
    boxes = grid.tile_boxes((600, 600), 4)
    assert len(boxes) == 16 and boxes[0][0] == 0 and boxes[-1][2] == 600


def test_same_shape_in_a_nearby_hue_never_shares_a_puzzle_with_the_target():
    p = dataclasses.replace(base([inside(0, "shape:red:circle"), inside(4, "shape:orange:circle", "distractor")]),
                            target="shape:red:circle")
    with pytest.raises(Reject, match="colour_confusable"):
        grid.solve(p, grid.render(p))
    for seed in range(30):
        q = grid.sample_params(np.random.default_rng(seed), 5, SIZE)
        assert not any(kinds.colours_confusable(kind, q.target) for _, kind, *_ in q.objects)
        assert all(abs(tilt) <= kinds.max_turn(kind) for _, kind, *_, tilt in q.objects)
