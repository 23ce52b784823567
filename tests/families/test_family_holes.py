"""The holes family: holes counted on the rendered mask topology; tiny or fragile holes are rejected."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import holes
from synth.families.holes import Params, Shape

SIZE = (320, 320)


def params(shapes, task="count", target="holes"):
    return Params(SIZE, task, target, tuple(shapes), 0.0, 9, {"size_mean": 0.25})


RING = Shape("ring", 80, 80, 45, 0.0, "red", (1.0, 0.45), ())
TWO = Shape("disc", 230, 90, 50, 0.0, "blue", (0.95,), ((-0.4, 0.0, 0.25, 1.0, 0.0), (0.4, 0.0, 0.25, 0.9, 1.0)))
NONE = Shape("square", 90, 230, 45, 20.0, "green", (), ())
LETTER_B = Shape("glyph", 235, 235, 48, 0.0, "orange", ("B", 0), ())
OPEN = Shape("open_ring", 235, 235, 45, 0.0, "purple", (1.0, 0.45, 0.0, 0.4), ())


def test_total_holes_are_counted_on_the_pixels():
    p = params([RING, TWO, NONE, LETTER_B])
    task = holes.solve(p, holes.render(p))
    assert task.rule == "type" and task.answer == {"count": 5} and task.text == "5"
    labels = sorted(o["label"] for o in task.objects)
    assert "orange letter B with 2 holes" in labels and "red ring with 1 hole" in labels


def test_an_open_ring_has_no_hole():
    p = params([RING, TWO, NONE, OPEN])
    assert holes.solve(p, holes.render(p)).answer == {"count": 3}


def test_click_the_shape_with_two_holes():
    p = params([RING, TWO, NONE, OPEN], task="click", target="holes:2")
    puzzle = holes.render(p)
    task = holes.solve(p, puzzle)
    assert task.rule == "click_set" and not task.partial_credit and task.answer == {"count": 2}
    (tid,), (point,) = task.target_ids, task.points
    assert puzzle.meta[tid]["kind"] == "disc"
    assert puzzle.instances[int(point[1]), int(point[0])] == tid
    p = params([RING, TWO, NONE, LETTER_B], task="click", target="holes:2")   # two shapes with 2 holes
    with pytest.raises(Reject, match="holes.target_not_unique"):
        holes.solve(p, holes.render(p))


def test_rejects_a_hole_too_small_to_see():
    pin = Shape("disc", 160, 160, 50, 0.0, "blue", (1.0,), ((0.0, 0.0, 0.045, 1.0, 0.0),))
    p = params([pin])
    with pytest.raises(Reject, match="holes.hole_too_small"):
        holes.solve(p, holes.render(p))


def test_rejects_a_hair_thin_wall():
    # the hole reaches within a pixel of the rim: one blur or warp away from becoming a notch
    thin = Shape("disc", 160, 160, 60, 0.0, "green", (1.0,), ((0.55, 0.0, 0.43, 1.0, 0.0),))
    p = params([thin])
    with pytest.raises(Reject, match="holes.fragile_topology"):
        holes.solve(p, holes.render(p))


def test_rejects_overlapping_shapes():
    a = Shape("disc", 140, 160, 50, 0.0, "red", (1.0,), ())
    b = Shape("ring", 190, 160, 50, 0.0, "blue", (1.0, 0.4), ())
    p = params([a, b])
    with pytest.raises(Reject, match="holes.shape_covered"):
        holes.solve(p, holes.render(p))


def test_topology_counts_inner_contours():
    m = np.zeros((60, 60), np.uint8)
    m[5:55, 5:55] = 1
    m[15:25, 15:25] = 0
    m[35:45, 35:45] = 0
    m[30, 10] = 0            # a one-pixel pinhole
    assert holes.topology(m, 20) == (1, 2, 1)


def test_click_instances_have_exactly_one_target():
    for seed in range(20):
        p = holes.sample_params(np.random.default_rng(seed), 4, SIZE)
        if p.task != "click":
            continue
        try:
            task = holes.solve(p, holes.render(p))
        except Reject:
            continue
        assert len(task.target_ids) == 1 and sum(o["role"] == "target" for o in task.objects) == 1
