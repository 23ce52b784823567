"""Misleading click: the decoy is never the answer, text must be legible, and arrows must point at one shape."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import misleading_click as mc
from synth.families.kit import geom
from synth.labels import reward

SIZE = (320, 320)


def params(mode, items, arrows=(), target="", script="latin", glow=0.0):
    return mc.Params(SIZE, target, mode, script, tuple(items), tuple(arrows), glow, 0.0, 0, {})


def solve(p):
    return mc.solve(p, mc.render(p))


def reject_reason(p):
    with pytest.raises(Reject) as e:
        solve(p)
    return e.value.reason


def button(role, text, y, decoy=False, fill="grey", ink="dark"):
    x0, x1, h = (50, 270, 60) if decoy else (80, 240, 40)
    px = geom.fit_px(text, (x1 - x0) * 0.78, h * 0.62, round(h * 0.55))
    return (role, text, x0, y, x1, y + h, "orange" if decoy else fill, "white" if decoy else ink, decoy, px)


def test_the_button_that_does_not_say_the_word():
    items = [button("distractor", "Continue", 20, decoy=True), button("target", "Cancel", 110),
             button("distractor", "Continue", 170), button("distractor", "Continue", 230)]
    arrows = [(10.0, 50.0, 44.0, 50.0, 8.0, 0, True)]
    p = params("button", items, arrows, target="Continue", glow=0.6)
    task = solve(p)
    assert task.target_ids == [2] and task.answer == {"count": 1}
    assert task.objects[0]["id"] == 1, "the decoy is the first distractor the label lists"
    assert mc.instruction(p, "en") == 'Click the button that does not say "Continue".'
    assert mc.instruction(p, "zh") == "请点击文字不是“Continue”的按钮"
    label = {"accept": {"order_matters": False, "partial_credit": False, "neutral_regions": [],
                        "steps": [{"type": "click", "region": b} for b in task.target_boxes]}}
    decoy_centre = geom.centre(task.objects[0]["bbox"])
    assert reward.score(label, [{"type": "click", "point": list(decoy_centre)}]) == 0.0
    assert reward.score(label, [{"type": "click", "point": task.points[0]}]) == 1.0


def test_pale_text_is_rejected():
    items = [button("distractor", "Next", 20, decoy=True), button("target", "Back", 110, fill="grey"),
             button("distractor", "Next", 170)]
    pale = list(items[1])
    pale[7] = "white"         # white text on a pale button
    items[1] = tuple(pale)
    assert reject_reason(params("button", items, target="Next")) == "misleading_click.low_contrast"


def test_an_arrow_covering_a_button_is_rejected():
    items = [button("distractor", "Next", 20, decoy=True), button("target", "Back", 110),
             button("distractor", "Next", 170)]
    arrows = [(60.0, 130.0, 200.0, 130.0, 8.0, 0, True)]       # across the Back button
    assert reject_reason(params("button", items, arrows, target="Next")) == "misleading_click.item_hidden"


def test_words_that_are_not_colours():
    def word(role, text, x, y, ink, decoy=False):
        px = 40 if decoy else 24
        w, h = geom.text_size(text, px)
        return (role, text, x, y, x + w + 8, y + h + 8, "", ink, decoy, px)
    items = [word("distractor", "GREEN", 40, 30, "red", decoy=True), word("target", "TABLE", 40, 150, "blue"),
             word("distractor", "BLUE", 180, 150, "green"), word("target", "RIVER", 100, 240, "purple")]
    p = params("word", items, target="colour")
    task = solve(p)
    assert sorted(task.target_ids) == [2, 4] and task.partial_credit
    assert mc.instruction(p, "en") == "Click every word that is not a colour."
    assert mc.instruction(p, "zh") == "请点击所有不是颜色名称的词"


def shape(role, kind, cx, cy, r, decoy=False, fill="blue"):
    return (role, kind, cx - r, cy - r, cx + r, cy + r, fill, "", decoy, 0)


def test_the_shape_no_arrow_points_to():
    items = [shape("distractor", "circle", 100, 100, 40, decoy=True, fill="red"),
             shape("distractor", "square", 240, 100, 22), shape("target", "triangle", 240, 240, 22),
             shape("distractor", "star", 80, 250, 22)]
    arrows = [(100.0, 190.0, 100.0, 150.0, 5.0, 0, True),      # up at the decoy
              (240.0, 175.0, 240.0, 132.0, 5.0, 1, False),     # up at the square
              (160.0, 250.0, 112.0, 250.0, 5.0, 3, False)]     # left at the star
    p = params("arrow", items, arrows, target="arrow")
    task = solve(p)
    assert task.target_ids == [3]
    assert mc.instruction(p, "en") == "Click the shape that no arrow points to."
    assert mc.instruction(p, "zh") == "请点击没有箭头指向的图形"
    hits = mc.pointed(p, mc.render(p))
    assert hits == [{1}, {2}, {4}]
    # an arrow aimed between two shapes points at neither
    arrows[2] = (160.0, 170.0, 200.0, 170.0, 5.0, 3, False)
    assert reject_reason(params("arrow", items, arrows, target="arrow")) == "misleading_click.arrow_unclear"


def test_sampled_decoys_are_never_answers():
    for level in (1, 5):
        for seed in range(10):
            try:
                p = mc.sample_params(np.random.default_rng(seed), level, SIZE)
                task = solve(p)
            except Reject:
                continue
            decoys = [i for i, it in enumerate(p.items, start=1) if it[8]]
            assert len(decoys) == 1 and decoys[0] not in task.target_ids
