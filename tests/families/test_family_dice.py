"""The dice family: the pip sum is counted on the rendered pip map; covered or merged pips are rejected."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import dice
from synth.families.dice import Params
from synth.families.kit.die import BODIES, Die

SIZE = (320, 320)


def params(dies, distractors=()):
    return Params(SIZE, "pips", tuple(dies), tuple(distractors), 0.0, 5, {"size_mean": 0.2})


def test_sum_of_pips_is_counted_on_the_pixels():
    dies = [Die(70, 70, 70, 0.0, 3, False, "white", 0.1), Die(220, 90, 70, 30.0, 5, True, "red", 0.1),
            Die(150, 240, 64, -40.0, 6, False, "black", 0.09)]
    p = params(dies, [("dot", 260, 230, 12, 0.0), ("shape:blue:star", 20, 250, 30, 10.0)])
    task = dice.solve(p, dice.render(p))
    assert task.rule == "type" and task.answer == {"count": 14} and task.text == "14"
    assert sorted(o["label"] for o in task.objects if o["role"] == "target") == \
        ["die showing 3", "die showing 5", "die showing 6"]


@pytest.mark.parametrize("value", range(1, 7))
def test_every_face_turned_any_way_reads_its_value(value):
    for angle in (0.0, 17.0, 45.0, -30.0):
        for mirror in (False, True):
            p = params([Die(160, 160, 80, angle, value, mirror, "ivory", 0.1)])
            assert dice.solve(p, dice.render(p)).answer == {"count": value}


def test_rejects_overlapping_dice():
    p = params([Die(120, 160, 80, 0.0, 2, False, "white", 0.1), Die(180, 160, 80, 20.0, 4, False, "blue", 0.1)])
    with pytest.raises(Reject, match="dice.dice_overlap"):
        dice.solve(p, dice.render(p))


def test_rejects_a_distractor_lying_on_a_die():
    die = Die(160, 160, 80, 0.0, 4, False, "white", 0.1)
    p = params([die], [("dot", 150, 150, 14, 0.0)])      # a loose dot in the middle of a 4 would read as a 5
    with pytest.raises(Reject, match="dice.die_covered"):
        dice.solve(p, dice.render(p))


def test_rejects_merged_pips_and_dice_cut_off():
    p = params([Die(160, 160, 60, 0.0, 6, False, "white", 0.13)])   # pips so big that neighbours touch
    with pytest.raises(Reject, match="dice.pips_merge"):
        dice.solve(p, dice.render(p))
    p = params([Die(20, 160, 70, 0.0, 2, False, "white", 0.1)])
    with pytest.raises(Reject, match="dice.die_cut_off"):
        dice.solve(p, dice.render(p))


def test_rejects_pips_that_do_not_stand_out(monkeypatch):
    monkeypatch.setitem(BODIES, "grey", ((120, 120, 120), (100, 100, 100)))
    p = params([Die(160, 160, 80, 0.0, 3, False, "grey", 0.1)])
    with pytest.raises(Reject, match="dice.low_contrast"):
        dice.solve(p, dice.render(p))


def test_level_five_has_more_smaller_dice():
    def mean(level, f):
        return np.mean([f(dice.sample_params(np.random.default_rng(s), level, SIZE)) for s in range(20)])
    assert mean(5, lambda p: len(p.dice)) > mean(1, lambda p: len(p.dice)) + 2
    assert mean(5, lambda p: len(p.distractors)) > mean(1, lambda p: len(p.distractors))
    assert mean(5, dice.stat) < mean(1, dice.stat)
