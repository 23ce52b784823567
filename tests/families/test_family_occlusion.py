"""Occlusion: a partly hidden object that could be another kind in the puzzle is rejected, as is an object a warp
cuts at the picture's edge; a fully shown object of another kind is never mistaken."""
import dataclasses

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import occlusion

SIZE = (320, 320)


def one_card(target: str, other: str) -> occlusion.Params:
    """A target and an object of `other` kind; a solid card hides the object's right half."""
    p = occlusion.sample_params(np.random.default_rng(0), 1, SIZE)
    objects = (("target", target, 40, 120, 64), ("distractor", other, 200, 120, 64))
    x, y, s = 200, 120, 64
    card = (x + s // 2, y - 20, x + s + 20, y + s + 20, (200, 200, 200), 1.0)
    return dataclasses.replace(p, task="count", objects=objects, cards=(card,),
                               clutter=0.0)


def test_a_half_hidden_circle_could_be_a_hexagon_of_its_colour():
    """A blue circle with its right half behind a card shows a half-disc; a blue hexagon would show nearly the
    same there: either could be behind the card."""
    p = one_card("shape:blue:hexagon", "shape:blue:circle")
    assert occlusion.mistakable(p, occlusion.render(p))
    with pytest.raises(Reject) as e:
        occlusion.solve(p, occlusion.render(p))
    assert e.value.reason == "occlusion.kind_unclear"


def test_another_colour_or_an_unhidden_object_tells_the_kind():
    red = one_card("shape:blue:hexagon", "shape:red:circle")
    assert not occlusion.mistakable(red, occlusion.render(red))       # the colour tells it
    shown = dataclasses.replace(one_card("shape:blue:hexagon", "shape:blue:circle"), cards=())
    assert not occlusion.mistakable(shown, occlusion.render(shown))   # all of it shows


def test_an_object_cut_at_the_edge_by_a_warp_is_rejected():
    p = one_card("shape:blue:hexagon", "shape:red:circle")
    puzzle = occlusion.render(p)
    task = occlusion.solve(p, puzzle)
    assert occlusion.legible(p, puzzle, task, puzzle.rgb)["min_object_kept"] == 1.0
    shifted = np.zeros_like(puzzle.instances)
    shifted[:, :-100] = puzzle.instances[:, 100:]          # as a warp that moves the picture 100 px left
    for o in task.objects:
        o["_mask"] = shifted == o["id"]
    with pytest.raises(Reject) as e:
        occlusion.legible(p, puzzle, task, puzzle.rgb)
    assert e.value.reason == "occlusion.cut_at_edge"
