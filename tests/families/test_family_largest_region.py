"""Largest region: areas counted on the instance map, margins that are too close to call, and colours."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import largest_region as lr

SIZE = (320, 320)


def params(seeds, colours, extreme="largest", colour="", answer=0, min_margin=0.2):
    return lr.Params(SIZE, f"{extreme} {colour}".strip(), extreme, colour, min_margin, tuple(seeds), tuple(colours),
                     answer, 0.0, 0, {"margin": 0.0})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        lr.solve(p, lr.render(p))
    return e.value.reason


GRID = [(40.0, 40.0), (160.0, 40.0), (280.0, 40.0), (40.0, 160.0), (160.0, 160.0), (280.0, 160.0),
        (40.0, 280.0), (160.0, 280.0), (280.0, 280.0)]
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "pink", "teal", "red"]


def test_equal_regions_are_too_close_to_call():
    # the middle cell is 120 x 120 px, the edge cells 100 x 120: a margin of 0.2, too little at 0.3
    assert reject_reason(params(GRID, COLOURS, answer=4, min_margin=0.3)) == "largest_region.too_close_to_call"


def test_the_largest_region_is_counted_on_the_instance_map():
    seeds = list(GRID)
    seeds[1], seeds[3] = (160.0, 20.0), (20.0, 160.0)      # the middle cell grows up and left
    seeds[4] = (185.0, 185.0)
    p = params(seeds, COLOURS, answer=4)
    puzzle = lr.render(p)
    area = np.bincount(puzzle.instances.ravel(), minlength=10)[1:10]
    assert int(np.argmax(area)) == 4
    task = lr.solve(p, puzzle)
    assert task.target_ids == [5] and task.answer == {"count": 1}
    x0, y0, x1, y1 = (int(v) for v in task.target_boxes[0])
    assert (puzzle.instances[y0:y1, x0:x1] == 5).all(), "the accept box lies inside the region"
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 5
    assert lr.instruction(p, "en") == "Click the largest region."
    assert lr.instruction(p, "zh") == "请点击面积最大的区域"


def test_a_named_colour_restricts_the_candidates():
    seeds = list(GRID)
    seeds[4] = (170.0, 170.0)         # the middle cell, the largest of all, is purple
    seeds[8] = (305.0, 305.0)         # the bottom-right red cell shrinks
    p = params(seeds, COLOURS, colour="red", answer=0)
    task = lr.solve(p, lr.render(p))
    assert task.target_ids == [1]
    assert lr.instruction(p, "en") == "Click the largest red region."
    assert lr.instruction(p, "zh") == "请点击面积最大的红色区域"
    p = params(seeds, COLOURS, extreme="smallest", colour="red", answer=8)
    assert lr.solve(p, lr.render(p)).target_ids == [9]
    assert lr.instruction(p, "en") == "Click the smallest red region."


def test_touching_regions_of_one_colour_are_rejected():
    colours = list(COLOURS)
    colours[1] = "red"                # next to the red top-left cell
    assert reject_reason(params(GRID, colours, answer=4, min_margin=-1)) == "largest_region.same_colour_neighbours"


def test_touching_pairs_are_found_across_borders():
    inst = np.zeros((12, 12), np.uint8)
    inst[:, :5] = 1
    inst[:, 7:] = 2
    inst[10:, :] = 3
    assert lr.touching(inst, 3) == {(1, 2), (1, 3), (2, 3)}
    assert lr.touching(inst, 1) == {(1, 3), (2, 3)}


def test_sampled_margins_narrow_with_the_level():
    for level in (1, 5):
        lo = lr.TABLE.row(level)["margin_range"][0]
        for seed in range(8):
            try:
                p = lr.sample_params(np.random.default_rng(seed), level, SIZE)
                task = lr.solve(p, lr.render(p))
            except Reject:
                continue
            assert task.checks["margin"] >= lo
