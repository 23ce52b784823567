"""Path end: crafted layouts that verification must reject, and a hand-made answer."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import path
from synth.families.kit.crossings import crossings
from synth.families.kit.kinds import COLOURS

RED, BLUE, GREY = COLOURS["red"][0], COLOURS["blue"][0], path.SAME_RGB


def line(colour, rgb, letter, a, b, c, d):
    return (colour, rgb, letter, (a, b, c, d))


def params(lines, asked=0, same=False, size=(320, 320)):
    target = lines[asked][2] if same else lines[asked][0]
    width = round(4 * min(size) / 320)
    return path.Params(size, target, asked, same, tuple(lines), width, 0.0, 0, {"crossings": 0.0})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        path.solve(p, path.render(p))
    return e.value.reason


CROSS = [line("red", RED, "A", (25.0, 60.0), (120.0, 60.0), (200.0, 200.0), (280.0, 260.0)),
         line("blue", BLUE, "B", (25.0, 260.0), (120.0, 260.0), (200.0, 120.0), (280.0, 60.0))]


def test_ends_too_close_are_rejected():
    lines = [CROSS[0], line("blue", BLUE, "B", (25.0, 260.0), (120.0, 260.0), (200.0, 260.0), (270.0, 250.0))]
    assert reject_reason(params(lines)) == "path.ends_too_close"


def test_same_coloured_lines_crossing_at_a_shallow_angle_are_rejected():
    lines = [line("", GREY, "A", (25.0, 120.0), (100.0, 120.0), (200.0, 140.0), (290.0, 150.0)),
             line("", GREY, "B", (25.0, 200.0), (100.0, 200.0), (200.0, 130.0), (290.0, 100.0))]
    assert crossings(path.polyline(lines[0][3]), path.polyline(lines[1][3]))[0][2] < path.MIN_ANGLE_SAME
    assert reject_reason(params(lines, same=True)) == "path.shallow_crossing"
    # the same pair told apart by colour is allowed to cross this flat
    lines = [line("red", RED, "A", *lines[0][3]), line("blue", BLUE, "B", *lines[1][3])]
    assert path.solve(params(lines), path.render(params(lines))).answer == {"count": 1}


def test_lines_of_one_colour_told_apart_by_colour_are_rejected():
    lines = [line("red", RED, "A", *CROSS[0][3]), line("orange", RED, "B", *CROSS[1][3])]
    assert reject_reason(params(lines)) == "path.colours_alike"


def test_a_line_passing_by_another_start_marker_is_rejected():
    lines = [CROSS[0], ("blue", BLUE, "B", ((25.0, 260.0), (30.0, 200.0), (35.0, 120.0), (42.0, 80.0), (48.0, 45.0),
                                           (150.0, 25.0), (280.0, 30.0)))]
    assert reject_reason(params(lines)) == "path.line_near_marker"


def test_the_accepted_square_is_centred_on_the_asked_end():
    for asked, end in ((0, (280, 260)), (1, (280, 60))):
        p = params(CROSS, asked)
        puzzle = path.render(p)
        task = path.solve(p, puzzle)
        ex, ey = (int(np.floor(v)) for v in path.polyline(p.lines[asked][3])[-1])
        assert (ex, ey) == end
        assert task.points == [[ex + 0.5, ey + 0.5]]
        assert task.target_boxes == [[ex + 0.5 - 15, ey + 0.5 - 15, ex + 0.5 + 15, ey + 0.5 + 15]]
        assert task.target_ids == [asked + 1] and puzzle.instances[ey, ex] == asked + 1
        assert task.checks["crossings"] == 1.0
    assert path.instruction(params(CROSS, 1), "en") == "Click where the blue line ends."
    assert path.instruction(params(CROSS, 1), "zh") == "请点击蓝色线条的终点"


def test_the_square_scales_with_the_puzzle():
    k = 600 / 320
    big = [line(c, rgb, letter, *[(x * k, y * k) for x, y in pts]) for c, rgb, letter, pts in CROSS]
    p = params(big, 0, size=(600, 600))
    task = path.solve(p, path.render(p))
    x0, y0, x1, y1 = task.target_boxes[0]
    assert x1 - x0 == pytest.approx(2 * 15 * k)


def test_level_five_lines_share_one_colour_and_are_told_apart_by_letters():
    p = path.sample_params(np.random.default_rng(3), 5, (320, 320))
    assert p.same_colour and len(p.lines) == 5 and p.target in "ABCDE"
    assert path.instruction(p, "en") == f"Click where the line starting at {p.target} ends."
