"""Illusory ribbons: the count is the number of loops drawn; every crossing shows its over/under gap on the
instance map; touching, shallow and three-way crossings are rejected."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import ribbons
from synth.families.kit.crossings import crossings
from synth.families.ribbons import Loop

SIZE = (320, 320)
RED, BLUE, GREEN = (220, 60, 50), (40, 110, 215), (40, 160, 80)
ROUND = ((2, 0.0, 0.0),)


def params(loops, flips=None, width=11):
    """Loops as given (drawing order); crossings found as sampling finds them, flipped as asked."""
    curves = [ribbons.centreline(lp) for lp in loops]
    reason, found = ribbons.layout_crossings(curves, width, 320)
    flips = flips if flips is not None else [False] * len(found)
    crossings = tuple(sorted((round(float(x), 3), round(float(y), 3), round(float(a), 3), i, j, bool(f))
                             for (x, y, a, i, j), f in zip(found, flips)))
    return ribbons.Params(SIZE, "", tuple(loops), crossings, width, 0.0, 4, {}), reason


def test_counts_two_woven_loops_and_a_lone_one():
    loops = [Loop(110, 120, 50, 1.0, 0.0, ROUND, RED), Loop(185, 120, 50, 1.0, 0.0, ROUND, BLUE),
             Loop(160, 250, 40, 0.8, 0.3, ROUND, GREEN)]
    p, reason = params(loops, flips=[True, False])
    assert reason is None and len(p.crossings) == 2
    puzzle = ribbons.render(p)
    task = ribbons.solve(p, puzzle)
    assert task.rule == "type" and task.text == "3" and task.answer == {"count": 3}
    assert task.checks["crossings"] == 2 and task.checks["min_crossing_angle"] > 60
    # the flipped crossing has the lower loop (drawn first) on top there, the other one the upper
    tops = sorted((round(x), round(y), top) for x, y, _, lo, up, top in puzzle.extras["crossings"])
    for x, y, top in tops:
        assert puzzle.instances[y, x] == top
    assert {t for _, _, t in tops} == {1, 2}
    assert ribbons.instruction(p, "en") == "How many separate closed loops are there? Type the number."
    assert ribbons.instruction(p, "zh") == "图中有几个彼此独立的闭合圈？请输入数字"


def test_weaving_changes_only_the_crossing():
    loops = [Loop(110, 160, 50, 1.0, 0.0, ROUND, RED), Loop(185, 160, 50, 1.0, 0.0, ROUND, BLUE)]
    plain, _ = params(loops, flips=[False, False])
    woven, _ = params(loops, flips=[True, False])
    a, b = ribbons.render(plain), ribbons.render(woven)
    changed = np.argwhere(a.instances != b.instances)
    x, y, ang = next(c for c in woven.crossings if c[5])[:3]
    assert len(changed) > 50
    assert np.hypot(changed[:, 1] + 0.5 - x, changed[:, 0] + 0.5 - y).max() <= ribbons.reach(ang, 11, 320) + 1.5


def test_loops_that_touch_are_rejected():
    # 2 * 50 apart: the outlines meet tangentially
    loops = [Loop(100, 160, 50, 1.0, 0.0, ROUND, RED), Loop(203, 160, 50, 1.0, 0.0, ROUND, BLUE)]
    p, reason = params(loops)
    assert reason in ("lines_touch", "parallel_run", "shallow_crossing")
    with pytest.raises(Reject, match="ribbons.(lines_touch|parallel_run|shallow_crossing)"):
        ribbons.solve(p, ribbons.render(p))


def test_a_third_loop_by_a_crossing_is_rejected():
    loops = [Loop(110, 120, 50, 1.0, 0.0, ROUND, RED), Loop(185, 120, 50, 1.0, 0.0, ROUND, BLUE)]
    p, _ = params(loops)
    x, y = p.crossings[0][:2]
    third = Loop(x, y + 57, 45, 1.0, 0.0, ROUND, GREEN)         # its outline runs 12 px below that crossing
    # it crosses each loop cleanly: only the crossing it passes by is wrong, in either drawing order
    assert params([loops[0], third])[1] is None and params([loops[1], third])[1] is None
    assert params(loops + [third])[1] == params([third] + loops)[1] == "triple_crossing"
    p, _ = params(loops + [third])
    with pytest.raises(Reject, match="ribbons.triple_crossing"):
        ribbons.solve(p, ribbons.render(p))


def test_nearly_concentric_loops_are_rejected():
    assert params([Loop(160, 160, 60, 1.0, 0.0, ROUND, RED), Loop(168, 160, 56, 1.0, 0.0, ROUND, BLUE)])[1] \
        == "shallow_crossing"        # outlines 4 px apart meet at a glancing angle
    assert params([Loop(160, 160, 60, 1.0, 0.0, ROUND, RED), Loop(240, 160, 56, 1.0, 0.0, ROUND, BLUE)])[1] is None


def test_a_crossing_drawn_without_its_gap_is_rejected():
    loops = [Loop(110, 160, 50, 1.0, 0.0, ROUND, RED), Loop(185, 160, 50, 1.0, 0.0, ROUND, BLUE)]
    p, _ = params(loops)
    puzzle = ribbons.render(p)
    x, y, ang, lo, up, top = puzzle.extras["crossings"][0]
    r = int(ribbons.reach(ang, p.width, 320))
    patch = puzzle.instances[int(y) - r:int(y) + r, int(x) - r:int(x) + r]
    patch[patch == 0] = lo + 1          # the lower loop fills its gap: it would seem to merge with the upper
    with pytest.raises(Reject, match="ribbons.(crossing_unclear|gap_too_small)"):
        ribbons.solve(p, puzzle)


def test_sampled_loops_never_cross_themselves():
    for seed in range(6):
        p = ribbons.sample_params(np.random.default_rng(seed), 5, SIZE)
        for lp in p.loops:
            c = ribbons.centreline(lp)
            assert not crossings(c, c, same=True)
