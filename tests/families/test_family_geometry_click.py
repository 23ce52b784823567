"""Geometry click: descriptions fitting one shape (colour, kind, size, inside / overlapping), crafted instances
that verification must reject, and the shape classifier on rendered masks."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import geometry_click as gc
from synth.families.kit import geom

SIZE = (320, 320)
S = 28.0          # scale: side of a small shape's square of equal area


def params(shapes, colour, kind, size_word="", relation="", rel_colour="", rel_kind=""):
    """shapes: (role, kind, colour, area in units of S², turn, centre x, centre y)."""
    placed = tuple((r, k, c, a * S * S, t, float(x), float(y)) for r, k, c, a, t, x, y in shapes)
    return gc.Params(SIZE, "", colour, kind, size_word, relation, rel_colour, rel_kind, S, placed, 0.0, 0, {})


def solve(p):
    return gc.solve(p, gc.render(p))


def reject_reason(p):
    with pytest.raises(Reject) as e:
        solve(p)
    return e.value.reason


def test_two_shapes_fitting_the_description_are_rejected():
    shapes = [("target", "triangle", "red", 1.0, 0.0, 60, 60), ("distractor", "triangle", "red", 1.0, 0.0, 200, 60),
              ("distractor", "square", "blue", 1.0, 0.0, 120, 220)]
    assert reject_reason(params(shapes, "red", "triangle")) == "geometry_click.not_unique"


def test_a_look_alike_too_hidden_to_tell_makes_the_description_ambiguous():
    # a second red shape mostly under a big green square: its kind cannot be seen, it might be a triangle
    shapes = [("target", "triangle", "red", 1.0, 0.0, 60, 60), ("distractor", "triangle", "red", 1.0, 0.0, 205, 205),
              ("distractor", "square", "green", 4.0, 0.0, 220, 215)]
    assert reject_reason(params(shapes, "red", "triangle")) == "geometry_click.ambiguous_shape"


def test_inside_is_measured_on_the_masks():
    container = ("distractor", "circle", "blue", 14.0, 0.0, 100, 110)
    inner = ("target", "triangle", "red", 1.0, 0.0, 100 - (geom.radius("triangle", S * S) + 3), 110)
    outside = ("distractor", "triangle", "red", 1.0, 0.0, 250, 250)
    p = params([container, inner, outside], "red", "triangle", relation="inside", rel_colour="blue",
               rel_kind="circle")
    puzzle = gc.render(p)
    task = gc.solve(p, puzzle)
    assert task.target_ids == [2] and task.rule == "click_set" and task.answer == {"count": 1}
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 2
    assert gc.instruction(p, "en") == "Click the red triangle inside the blue circle."
    assert gc.instruction(p, "zh") == "请点击蓝色圆形里的红色三角形"
    # without the relation the two red triangles are alike
    assert reject_reason(params([container, inner, outside], "red", "triangle")) == "geometry_click.not_unique"


def test_overlapping_and_size_words():
    under = ("distractor", "square", "green", 4.0, 0.0, 100, 100)
    over = ("target", "star", "red", 1.0, 0.0, 100 + 2 * S * 0.5 + 0.1 * S + 6, 100)
    alone = ("distractor", "star", "red", 1.0, 0.0, 240, 240)
    p = params([under, over, alone], "red", "star", relation="overlaps", rel_colour="green", rel_kind="square")
    assert solve(p).target_ids == [2]
    assert gc.instruction(p, "en") == "Click the red star that overlaps the green square."
    assert gc.instruction(p, "zh") == "请点击与绿色正方形重叠的红色五角星"
    small = ("target", "triangle", "purple", 1.0, 0.0, 70, 70)
    large = ("distractor", "triangle", "purple", 2.25, 0.0, 220, 200)
    p = params([small, large], "purple", "triangle", size_word="small")
    assert solve(p).target_ids == [1]
    assert gc.instruction(p, "zh") == "请点击紫色小三角形"
    p = params([("distractor", *small[1:]), ("target", *large[1:])], "purple", "triangle", size_word="large")
    assert solve(p).target_ids == [2]
    assert gc.instruction(p, "en") == "Click the large purple triangle."


def test_a_shape_whose_mask_reads_as_another_kind_is_rejected(monkeypatch):
    shapes = [("target", "hexagon", "red", 1.0, 20.0, 60, 60), ("distractor", "square", "blue", 1.0, 0.0, 200, 200)]
    p = params(shapes, "red", "hexagon")
    assert solve(p).target_ids == [1]
    monkeypatch.setattr(geom, "classify_shape", lambda mask: "pentagon")
    assert reject_reason(p) == "geometry_click.kind_unclear"


@pytest.mark.parametrize("kind", geom.KINDS)
def test_the_classifier_reads_every_kind_from_its_mask(kind):
    for side in (24, 30, 44, 70):
        for turn in (0.0, 13.0, 31.0, 90.0, 200.0):
            spr = geom.shape_sprite(kind, float(side * side), turn, (200, 60, 60))
            assert geom.classify_shape(spr[..., 3] >= 128) == kind, (kind, side, turn)


def test_sampled_descriptions_need_every_word_they_use():
    for seed in range(30):
        try:
            p = gc.sample_params(np.random.default_rng(seed), 5, SIZE)
            solve(p)
        except Reject:
            continue
        if p.size_word:      # dropping the size word makes it ambiguous
            q = gc.Params(**{**p.__dict__, "size_word": ""})
            with pytest.raises(Reject):
                solve(q)
        if p.relation:
            q = gc.Params(**{**p.__dict__, "relation": "", "rel_colour": "", "rel_kind": ""})
            with pytest.raises(Reject):
                solve(q)
