"""One click: the named checkbox (or button) is the answer; look-alikes with the same label, or a box too
small to hit, are rejected."""
import pytest

from synth.core.errors import Reject
from synth.families import oneclick
from synth.labels import reward

SIZE = (320, 320)
BLUE = (26, 115, 232)


def params(rows, mode="checkbox", target="I'm not a robot", box=26, dark=False):
    return oneclick.Params(SIZE, target, mode, "en", "Sign in", dark, BLUE, box, tuple(rows), {"look_alikes": 1.0})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        oneclick.solve(p, oneclick.render(p))
    return e.value.reason


def test_the_named_checkbox_is_the_answer_not_the_other_one():
    rows = [("field", "Email", ""), ("widget", "I'm not a robot", ""), ("checkbox", "Remember me", ""),
            ("links", "Privacy|Help", "")]
    p = params(rows)
    puzzle = oneclick.render(p)
    task = oneclick.solve(p, puzzle)
    assert task.rule == "click_set" and task.target_ids == [oneclick.TARGET]
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == oneclick.TARGET
    decoy = next(o for o in task.objects if o["label"] == "Remember me")
    label = {"accept": {"order_matters": False, "partial_credit": False, "neutral_regions": [],
                        "steps": [{"type": "click", "region": task.target_boxes[0]}]}}
    centre = [(decoy["bbox"][0] + decoy["bbox"][2]) / 2, (decoy["bbox"][1] + decoy["bbox"][3]) / 2]
    assert reward.score(label, [{"type": "click", "point": task.points[0]}]) == 1.0
    assert reward.score(label, [{"type": "click", "point": centre}]) == 0.0
    assert oneclick.instruction(p, "en") == "Tick the \"I'm not a robot\" checkbox."
    assert oneclick.instruction(p, "zh") == "请勾选“I'm not a robot”复选框"


def test_a_look_alike_with_the_same_label_is_rejected():
    rows = [("widget", "I'm not a robot", ""), ("checkbox", "I'm not a robot", "")]
    assert reject_reason(params(rows)) == "oneclick.label_not_unique"


def test_a_box_too_small_to_hit_is_rejected():
    assert reject_reason(params([("widget", "I'm not a robot", "")], box=9)) == "oneclick.target_too_small"


def test_the_one_tap_button_is_the_answer():
    rows = [("field", "Email", ""), ("field", "Password", ""), ("widget", "Tap to verify", ""),
            ("submit", "Sign in", "")]
    p = params(rows, mode="button", target="Tap to verify", dark=True)
    puzzle = oneclick.render(p)
    task = oneclick.solve(p, puzzle)
    assert puzzle.meta[oneclick.TARGET]["kind"] == "button" and task.answer == {"count": 1}
    assert oneclick.instruction(p, "en") == "Click the \"Tap to verify\" button to verify."


def test_no_target_reads_as_the_widget_s_own_buttons():
    """The one-tap button's text is never the widget's own Verify (or Skip): "Click the "Verify" button" would
    fit both."""
    from synth.screens.content.common import WIDGET_TEXT
    for lang in ("en", "zh"):
        own = {str(v).casefold() for v in WIDGET_TEXT[lang].values()}
        for t in oneclick.BUTTON[lang] + oneclick.CHECK[lang]:
            assert t.casefold() not in own, (lang, t)
