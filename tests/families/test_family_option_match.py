"""Option match: every rule at every level, crafted instances that verification must reject, and values
measured on the render (counts and pips from the instance map, icons from the pixels)."""
from dataclasses import replace

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import option_match as om
from synth.families.kit import draw
from synth.families.kit.die import Die
from synth.families.kit.icon_match import MIN_MARGIN
from synth.families.option_match import count, dice

SIZE = (320, 320)


def sample(mode, level=3, seed=0):
    return om.sample_params(np.random.default_rng(seed), level, SIZE, mode=mode)


def reject_reason(p):
    with pytest.raises(Reject) as e:
        om.solve(p, om.render(p))
    return e.value.reason


def copy_answer_to(p, k):
    """p with option k showing what the matching option shows (moved to option k's panel)."""
    geo = om.layout(SIZE, len(p.options), p.target)
    content = p.options[p.answer]
    if p.target in ("count", "dice"):
        content = om.moved(content, geo["options"][p.answer], geo["options"][k], p.target)
    options = list(p.options)
    options[k] = content
    return replace(p, options=tuple(options))


@pytest.mark.parametrize("mode", om.MODES)
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_rule_at_every_level(mode, level):
    solved = 0
    for seed in range(8):
        p = sample(mode, level, seed)
        assert len(set(map(str, p.options))) == len(p.options)
        try:
            puzzle = om.render(p)
            task = om.solve(p, puzzle)
        except Reject:
            continue
        solved += 1
        (tid,), (x, y) = task.target_ids, task.points[0]
        assert tid == p.answer + 1 and puzzle.instances[int(y), int(x)] == tid
        assert task.answer == {"count": 1, "cells": [p.answer]}
    assert solved >= 6


@pytest.mark.parametrize("mode", om.MODES)
def test_a_second_matching_option_is_rejected(mode):
    p = sample(mode, 3, 1)
    k = (p.answer + 1) % len(p.options)
    assert reject_reason(copy_answer_to(p, k)) == "option_match.several_matches"


def test_counts_come_from_the_instance_map():
    p = sample("count", 2, 2)
    puzzle = om.render(p)
    ref, values, _ = om.values(p, puzzle, draw.instance_boxes(puzzle.instances), draw.instance_areas(puzzle.instances))
    assert ref == len(p.reference) and values == [len(o) for o in p.options]
    # an object dropped on another hides part of it: the count is no longer sure
    key, x, y, s, t = p.reference[0]
    cover = (p.reference[1][0], x + s // 3, y, s, 0.0)
    crowded = replace(p, reference=p.reference + (cover,))
    assert reject_reason(crowded) == "option_match.item_hidden"


def test_pips_come_from_the_instance_map():
    p = sample("dice", 4, 3)
    puzzle = om.render(p)
    ref, values, checks = om.values(p, puzzle, draw.instance_boxes(puzzle.instances),
                                     draw.instance_areas(puzzle.instances))
    assert ref == sum(d.value for d in p.reference) and values == [sum(d.value for d in o) for o in p.options]
    assert checks["min_pip_contrast"] >= dice.MIN_PIP_CONTRAST
    # a die pushed onto its neighbour hides part of it
    a, b = p.reference
    touching = (a, Die(a.cx + a.side * 0.6, b.cy, b.side, b.angle, b.value, b.mirror, b.body, b.pip))
    assert reject_reason(replace(p, reference=touching)) == "option_match.item_hidden"


def test_icon_sequences_are_read_from_the_pixels():
    p = sample("sequence", 5, 4)
    puzzle = om.render(p)
    ref, values, checks = om.values(p, puzzle, draw.instance_boxes(puzzle.instances),
                                     draw.instance_areas(puzzle.instances))
    assert ref == p.reference and values == list(p.options) and checks["icon_margin"] >= MIN_MARGIN


def test_a_mirror_image_is_no_match():
    p = sample("rotated", 3, 5)
    cells, _, angle, rgb = p.options[p.answer]
    options = list(p.options)
    options[p.answer] = (cells, True, angle, rgb)
    assert reject_reason(replace(p, options=tuple(options))) == "option_match.no_match"


def test_wrong_counts_differ_from_each_other():
    for seed in range(50):
        rng = np.random.default_rng(seed)
        counts = count.counts(rng, int(rng.integers(1, 8)), 6, float(rng.random()))
        assert len(set(counts)) == 6 and min(counts) >= 1


def test_instructions():
    for mode in om.MODES:
        p = sample(mode)
        assert om.instruction(p, "en").startswith("Click the option")
        assert om.instruction(p, "zh").startswith("请点击")
