"""Odd one out: crafted instances that verification must reject, hand-made answers, pixel measurements."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import odd
from synth.families.base import Puzzle
from synth.families.kit import draw

SIZE = (320, 320)
RED, BLUE, GREEN = (220, 50, 47), (38, 110, 220), (40, 160, 70)
SPOTS = [(20, 20), (130, 20), (240, 20), (20, 130), (130, 130), (240, 130), (20, 240), (130, 240)]


def params(prop, named, target, shapes):
    """shapes: (role, sides, area, turn, rgb), laid out on a grid."""
    placed = tuple((*s, x, y) for s, (x, y) in zip(shapes, SPOTS))
    return odd.Params(SIZE, prop, named, target, placed, 0.0, 0, {})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        odd.solve(p, odd.render(p))
    return e.value.reason


def test_two_odd_colours_are_rejected():
    shapes = [("target", 4, 1600.0, 0.0, RED), ("distractor", 4, 1600.0, 0.0, GREEN)] + \
             [("distractor", 4, 1600.0, 0.0, BLUE)] * 3
    assert reject_reason(params("colour", False, "colour", shapes)) == "odd.no_single_odd_one"


def test_a_second_difference_is_rejected_when_the_instruction_is_generic():
    shapes = [("target", 4, 1600.0, 0.0, RED), ("distractor", 4, 2600.0, 0.0, BLUE)] + \
             [("distractor", 4, 1600.0, 0.0, BLUE)] * 3
    assert reject_reason(params("colour", False, "colour", shapes)) == "odd.second_difference"


def test_a_size_difference_too_small_to_see_is_rejected():
    shapes = [("target", 0, 1700.0, 0.0, RED)] + [("distractor", 0, 1600.0, 0.0, RED)] * 4
    assert reject_reason(params("size", True, "biggest", shapes)) == "odd.no_single_odd_one"


def test_a_triangle_not_clearly_pointing_down_is_rejected():
    shapes = [("target", -1, 1400.0, 60.0, RED)] + [("distractor", -1, 1400.0, 270.0, RED)] * 4
    assert reject_reason(params("direction", True, "down", shapes)) == "odd.no_single_odd_one"


def test_answers_from_pixels():
    shapes = [("distractor", 4, 1600.0, 5.0, RED), ("distractor", 4, 1300.0, -8.0, BLUE),
              ("target", 5, 1600.0, 0.0, GREEN), ("distractor", 4, 1900.0, 0.0, GREEN),
              ("distractor", 4, 1600.0, 0.0, RED)]
    p = params("sides", True, "pentagon", shapes)
    puzzle = odd.render(p)
    task = odd.solve(p, puzzle)
    assert task.target_ids == [3] and task.answer == {"count": 1} and not task.partial_credit
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 3
    assert odd.instruction(p, "en") == "Click the only pentagon."
    shapes = [("distractor", -1, 1400.0, 270.0, BLUE)] * 2 + [("target", -1, 1400.0, 90.0, BLUE)] + \
             [("distractor", -1, 1400.0, 0.0, BLUE), ("distractor", -1, 1400.0, 180.0, BLUE)]
    p = params("direction", True, "down", shapes)
    assert odd.solve(p, odd.render(p)).target_ids == [3]
    assert odd.instruction(p, "en") == "Click the triangle that points down."
    shapes = [("distractor", 6, 1500.0, 0.0, BLUE)] * 3 + [("target", 6, 800.0, 0.0, BLUE)]
    p = params("size", False, "smallest", shapes)
    assert odd.solve(p, odd.render(p)).target_ids == [4]


@pytest.mark.parametrize("sides", [3, 4, 5, 6, 0, -1])
def test_vertex_count_and_direction_are_measured_from_the_mask(sides):
    for side in (24, 40, 70):
        for turn in (0.0, 17.0, 90.0, 200.0):
            spr = odd.shape_sprite(sides, float(side * side), turn, RED)
            canvas = draw.Canvas(np.full((spr.shape[0] + 10, spr.shape[1] + 10, 3), 240, np.uint8))
            canvas.paste(spr, 5, 5, 1)
            puzzle = Puzzle(canvas.rgb, canvas.instances, canvas.full_area, {1: {}})
            m = odd.measure(puzzle, 1, draw.instance_boxes(canvas.instances)[1])
            assert odd.sides_class(m) == (3 if sides == -1 else sides)
            if sides == -1:
                assert odd.angle_diff(m["direction"], turn) < 6
