"""The pattern family: shapes counted by their visible share on the instance map under an overlay."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import pattern
from synth.families.pattern import Params

SIZE = (320, 320)
SOLID, FROST = (222, 218, 206), pattern.FROST_RGB


def bar(x0, x1):
    """A vertical overlay bar from x0 to x1 across the whole height."""
    return ((float(x0), -5.0), (float(x1), -5.0), (float(x1), 325.0), (float(x0), 325.0))


def params(objects, overlay):
    return Params(SIZE, "shape:red:circle", tuple(objects), tuple(overlay), "stripes", 0.0, 4,
                  {"cover": 0.2, "size_mean": 0.12})


RED = "shape:red:circle"
OBJECTS = [("target", RED, 20, 30, 40), ("target", RED, 20, 200, 40), ("target", RED, 140, 40, 40),
           ("target", RED, 250, 140, 40),
           ("distractor", "shape:red:square", 140, 220, 40), ("distractor", "shape:blue:circle", 250, 250, 40)]


def test_counts_visible_targets_hidden_ones_do_not_count():
    overlay = [(bar(130, 190), SOLID, 1.0, True),       # hides the third red circle completely
               (bar(240, 300), FROST, 0.45, False)]     # a frosted veil over the fourth: still seen
    p = params(OBJECTS, overlay)
    task = pattern.solve(p, pattern.render(p))
    assert task.rule == "type" and task.answer == {"count": 3} and task.text == "3"
    veiled = [o for o in task.objects if o["id"] == 4]
    assert veiled and veiled[0]["visible_fraction"] == 1.0


def test_rejects_a_target_half_hidden():
    overlay = [(bar(160, 200), SOLID, 1.0, True)]        # cuts the third red circle (x 140..180) in half
    p = params(OBJECTS, overlay)
    with pytest.raises(Reject, match="pattern.ambiguous_visibility"):
        pattern.solve(p, pattern.render(p))


def test_rejects_a_decoy_of_the_target_colour_partly_hidden():
    """A red square three-quarters shown could be taken for the red circles counted; a blue one could not."""
    overlay = [(bar(170, 200), SOLID, 1.0, True)]        # hides the right quarter of the red square (x 140..180)
    p = params([o for o in OBJECTS if o[3] != 40 or o[2] != 140], overlay)
    with pytest.raises(Reject, match="pattern.decoy_unclear"):
        pattern.solve(p, pattern.render(p))
    blue = [("distractor", "shape:blue:square", *o[2:]) if o[1] == "shape:red:square" else o for o in p.objects]
    p = params(blue, overlay)
    assert pattern.solve(p, pattern.render(p)).answer == {"count": 3}


def test_rejects_a_target_cut_into_slivers():
    bars = [(bar(x, x + 7), SOLID, 1.0, True) for x in (146, 157, 168)]   # three thin bars through one circle
    p = params(OBJECTS[:3], bars)
    with pytest.raises(Reject, match="pattern.(fragmented|ambiguous_visibility)"):
        pattern.solve(p, pattern.render(p))


def test_rejects_a_colour_the_veil_washes_out():
    overlay = [(bar(0, 320), (250, 250, 250), 0.9, False)]   # nearly white frost over everything
    p = params(OBJECTS, overlay)
    with pytest.raises(Reject, match="pattern.colour_unclear"):
        pattern.solve(p, pattern.render(p))


def test_distractor_colours_stay_apart_from_the_target_colour():
    for seed in range(40):
        target, others = pattern.pick_kinds(np.random.default_rng(seed), 10, 0.8)
        _, tc, ts = target.split(":")
        for o in others:
            _, c, s = o.split(":")
            assert o != target and s in pattern.SHAPES
            hues = pattern.PALETTE_HUES
            assert c == tc or pattern.hue_gap(hues[c], hues[tc]) >= pattern.HUE_SEPARATION


def test_sampled_shapes_are_clearly_shown_or_fully_hidden():
    for seed in range(10):
        p = pattern.sample_params(np.random.default_rng(seed), 5, SIZE)
        puzzle = pattern.render(p)
        for i, m in puzzle.meta.items():
            if m["role"] in ("target", "distractor"):
                vis = (puzzle.instances == i).sum() / puzzle.full_area[i]
                assert vis == 0 or vis >= pattern.COUNTED
