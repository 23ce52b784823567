"""The reward function on hand-made labels: partial credit, neutral clicks, drags, typing."""
import pytest

from synth.labels import reward, spec

VERIFY = [500.0, 500.0, 560.0, 530.0]


def label(steps, partial=False, order=False, neutral=(VERIFY,)):
    return {"accept": {"order_matters": order, "partial_credit": partial, "steps": steps,
                       "neutral_regions": [list(b) for b in neutral]}}


def click(x, y):
    return {"type": "click", "point": [float(x), float(y)]}


CLICKS = label([spec.step("click", [0, 0, 10, 10]), spec.step("click", [20, 0, 30, 10])], partial=True)


def test_click_set_f1():
    assert reward.score(CLICKS, [click(5, 5), click(25, 5)]) == 1.0
    assert reward.score(CLICKS, [click(25, 5), click(5, 5), click(530, 510)]) == 1.0   # order free, Verify ignored
    assert reward.score(CLICKS, [click(5, 5)]) == 2 / 3
    assert reward.score(CLICKS, [click(5, 5), click(6, 6)]) == 0.5                    # one target twice
    assert reward.score(CLICKS, [click(5, 5), click(25, 5), click(100, 100)]) == 0.8
    assert reward.score(CLICKS, [click(100, 100)]) == 0.0


def test_overlapping_regions_use_a_maximum_matching():
    lab = label([spec.step("click", [0, 0, 20, 10]), spec.step("click", [10, 0, 30, 10])], partial=True)
    assert reward.score(lab, [click(15, 5), click(5, 5)]) == 1.0


def test_ordered_steps():
    lab = label(CLICKS["accept"]["steps"], order=True)
    assert reward.score(lab, [click(5, 5), click(25, 5)]) == 1.0
    assert reward.score(lab, [click(25, 5), click(5, 5)]) == 0.0


def test_type_step():
    lab = label([spec.step("type", [0, 0, 100, 30], text="4")], neutral=([0, 0, 100, 30], VERIFY))
    ok = [click(50, 15), {"type": "type", "text": " 4 "}, click(530, 510)]
    assert reward.score(lab, ok) == 1.0
    assert reward.score(lab, [{"type": "type", "text": "5"}]) == 0.0
    assert reward.score(lab, [click(300, 300), {"type": "type", "text": "4"}]) == 0.0   # a stray click


def test_drag_step_is_judged_by_its_displacement():
    lab = label([spec.step("drag", [0, 0, 20, 20], [90, 0, 110, 20], tolerance=5)])      # move by 90 px, ±5
    def drag(sx, ex, ey=10.0):
        return reward.score(lab, [{"type": "drag", "start": [sx, 10.0], "end": [ex, ey]}])
    assert drag(10.0, 100.0) == 1.0 and drag(2.0, 94.0) == 1.0 and drag(18.0, 112.0) == 1.0
    assert drag(10.0, 106.0) == 0.0 and drag(2.0, 100.0) == 0.0          # right end point, wrong distance
    assert drag(40.0, 130.0) == 0.0                                       # grabbed outside the piece
    assert drag(10.0, 100.0, ey=30.0) == 0.0                              # dragged off the track


def test_malformed_actions_score_zero_and_do_not_crash():
    for bad in ([{"type": "click"}], [{"type": "click", "point": "x"}], ["junk"], [{"type": "fly"}]):
        assert reward.score(CLICKS, bad) == 0.0


def venus_label(steps, actions=(), order=False, neutral=(VERIFY,)):
    lab = label(steps, order=order, neutral=neutral)
    return lab | {"image": {"width": 1000, "height": 1000}, "actions": list(actions)}


def test_venus_rules_count_every_action_and_compare_text_exactly():
    lab = venus_label(CLICKS["accept"]["steps"])
    assert reward.score(lab, [click(25, 5), click(5, 5)], rules="venus") == 1.0
    assert reward.score(lab, [click(5, 5), click(25, 5), click(530, 510)], rules="venus") == 0.0   # Verify counts
    assert reward.score(lab, [click(5, 5)], rules="venus") == 0.0                                   # no partial credit
    field = [0, 0, 100, 30]
    typed = venus_label([spec.step("type", field, text="aB3")], neutral=(field, VERIFY))
    assert reward.score(typed, [click(50, 15), {"type": "type", "text": "aB3"}], rules="venus") == 1.0
    assert reward.score(typed, [click(50, 15), {"type": "type", "text": "ab3"}], rules="venus") == 0.0
    assert reward.score(typed, [{"type": "type", "text": "aB3"}], rules="venus") == 0.0             # no focus click
    assert reward.score(typed, [{"type": "type", "text": "ab3"}]) == 1.0                           # synth's rules


def test_venus_drag_within_five_percent_and_five_pixels():
    ref = spec.action("drag", point=[10, 10], end=[110, 10])
    lab = venus_label([spec.step("drag", [0, 0, 20, 20], [100, 0, 120, 20], tolerance=20)], actions=[ref])
    def drag(sx, ex, ey=10.0):
        return reward.score(lab, [{"type": "drag", "start": [sx, 10.0], "end": [ex, ey]}], rules="venus")
    assert drag(10, 110) == 1.0 and drag(5, 109) == 1.0
    assert drag(10, 116) == 0.0 and drag(10, 110, ey=16) == 0.0 and drag(30, 130) == 0.0
    with pytest.raises(ValueError, match="rules must be one of synth, venus"):
        reward.score(lab, [], rules="nope")
