"""Letter attributes: letters whose turned form reads as itself or as another letter are rejected; answers
are read from the masks."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import letter_attr
from synth.labels import reward

SIZE = (320, 320)
INK = (25, 25, 30)
SPOTS = [(20, 30), (120, 30), (220, 30), (20, 180), (120, 180), (220, 180)]


def params(task, letters, font=0):
    """letters: (role, letter, transform), laid out on a grid."""
    items = tuple((role, ch, t, x, y, 52, 0.0, INK) for (role, ch, t), (x, y) in zip(letters, SPOTS))
    return letter_attr.Params(SIZE, task, task, font, items, 0.0, 0, {})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        letter_attr.solve(p, letter_attr.render(p))
    return e.value.reason


@pytest.mark.parametrize("task,letter,transform", [
    ("mirror", "A", "mirror"),          # symmetric: a mirrored A is an A
    ("mirror", "b", "mirror"),          # a mirrored b is a d
    ("upside_down", "S", "flip"),       # an upside-down S is an S
    ("upside_down", "M", "flip"),       # an upside-down M reads as W
    ("sideways", "N", "left"),          # N on its side reads as Z
    ("mirror", "P", "mirror"),          # a mirrored P reads as an upright q (seen in a level-5 sample)
    ("upside_down", "P", "flip"),       # an upside-down P reads as an upright d
    ("sideways", "m", "left"),          # an m on its side reads as an upright E
])
def test_letters_that_read_as_another_are_rejected(task, letter, transform):
    letters = [("target", letter, transform), ("distractor", "R", "none"), ("distractor", "K", "none")]
    for font in letter_attr.FONTS:      # in both faces (Liberation's mirrored P is further from q by IoU)
        assert reject_reason(params(task, letters, font)) == "letter_attr.ambiguous_letter"
        assert not letter_attr.clear(task, font, letter, transform)


def test_an_upright_letter_that_looks_mirrored_is_rejected_as_a_distractor():
    # an upright d is exactly a mirrored b: it cannot be told from a target
    letters = [("target", "R", "mirror"), ("distractor", "d", "none"), ("distractor", "K", "none")]
    assert reject_reason(params("mirror", letters)) == "letter_attr.ambiguous_letter"


def test_answer_clicks_every_letter_with_the_attribute():
    letters = [("distractor", "R", "none"), ("target", "R", "mirror"), ("distractor", "T", "flip"),
               ("target", "J", "mirror"), ("distractor", "G", "none"), ("distractor", "F", "left")]
    p = params("mirror", letters)
    puzzle = letter_attr.render(p)
    task = letter_attr.solve(p, puzzle)
    assert task.rule == "click_set" and task.target_ids == [2, 4] and task.answer == {"count": 2}
    for tid, (x, y) in zip(task.target_ids, task.points):
        assert puzzle.instances[int(y), int(x)] == tid
    assert letter_attr.instruction(p, "en") == "Click every letter that is mirrored (flipped left to right)."
    label = {"accept": {"order_matters": False, "partial_credit": False, "neutral_regions": [],
                        "steps": [{"type": "click", "region": b} for b in task.target_boxes]}}
    clicks = [{"type": "click", "point": pt} for pt in task.points]
    assert reward.score(label, clicks[::-1]) == 1.0 and reward.score(label, clicks[:1]) == 0.0


def test_vowels_task_reads_upright_letters():
    letters = [("target", "A", "none"), ("distractor", "K", "none"), ("target", "e", "none"),
               ("distractor", "R", "none")]
    p = params("vowel", letters)
    assert letter_attr.solve(p, letter_attr.render(p)).target_ids == [1, 3]
    assert letter_attr.instruction(p, "zh") == "请点击所有元音字母（A、E、I、O、U）"


def test_shape_measure_recovers_a_tilted_letter():
    for tilt in (-15.0, 0.0, 12.0):
        rgba = letter_attr.letter_rgba("R", "mirror", 0, 44, tilt, INK)
        mask = rgba[..., 3] >= 128
        ys, xs = np.nonzero(mask)
        own, other, _ = letter_attr.ambiguity("mirror", 0, letter_attr.shown_shape(
            mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1], tilt), "R", "mirror")
        assert own >= letter_attr.MATCH_MIN and other <= letter_attr.SAME_MAX
