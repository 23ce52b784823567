"""Slide to the end: the drop is the right end of the measured track; faint or cramped sliders are rejected."""
import pytest

from synth.core.errors import Reject
from synth.families import drag_end
from synth.labels import reward

SIZE = (320, 320)
BLUE = (24, 144, 255)


def params(track=(20, 150, 300, 190), knob="square", knob_w=40, accent=BLUE, track_rgb=(222, 224, 228),
           panel=(255, 255, 255), decoys=()):
    return drag_end.Params(SIZE, "", "en", "Slide to verify", "Security check", track, knob, knob_w, accent,
                           track_rgb, panel, decoys, 12.0, {"tolerance": 0.05})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        drag_end.solve(p, drag_end.render(p))
    return e.value.reason


def test_the_drop_is_the_right_end_of_the_track():
    p = params(decoys=(("done", (20, 240, 240, 280)), ("arrow", (20, 80, 60, 120))))
    puzzle = drag_end.render(p)
    task = drag_end.solve(p, puzzle)
    assert task.rule == "drag" and task.answer["offset"] == 300 - 60
    (sx, sy), (ex, ey) = task.points[0], task.end_points[0]
    assert puzzle.instances[int(sy), int(sx)] == drag_end.KNOB and ex - sx == 240 and ey == sy
    assert task.end_boxes[0][2] == 300
    step = {"type": "drag", "region": task.target_boxes[0], "end_region": task.end_boxes[0], "tolerance": 12.0}
    label = {"accept": {"order_matters": False, "partial_credit": False, "neutral_regions": [], "steps": [step]}}
    full = {"type": "drag", "start": [sx, sy], "end": [ex, ey]}
    half = {"type": "drag", "start": [sx, sy], "end": [sx + 120, sy]}
    assert reward.score(label, [full]) == 1.0 and reward.score(label, [half]) == 0.0
    assert drag_end.instruction(p, "en").startswith("Drag the knob of the slider that is not yet verified")
    assert drag_end.instruction(params(), "zh") == "请按住滑块，拖动到轨道最右端"


def test_a_knob_that_melts_into_a_faint_track_is_rejected():
    p = params(accent=(248, 248, 248), track_rgb=(250, 250, 250))
    assert reject_reason(p) == "drag_end.knob_low_contrast"


def test_a_track_with_no_room_to_slide_is_rejected():
    assert reject_reason(params(track=(20, 150, 120, 190))) == "drag_end.track_too_short"


def test_a_decoy_on_the_track_is_rejected():
    p = params(decoys=(("arrow", (200, 152, 236, 188)),))
    assert reject_reason(p) in ("drag_end.decoy_too_close", "drag_end.label_over_knob")
