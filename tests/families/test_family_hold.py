"""Press and hold: the target button is measured from the pixels (colour, visibility, caption)."""
import dataclasses

import numpy as np
import pytest

from synth.captcha import recipe
from synth.core.errors import Reject
from synth.families import hold

SIZE = (320, 320)
RED, BLUE = hold.PALETTE["red"][0], hold.PALETTE["blue"][0]


def base(buttons, target_index=0, style="round", seconds=3) -> hold.Params:
    p = hold.sample_params(np.random.default_rng(0), 3, SIZE)
    return dataclasses.replace(p, target=buttons[target_index][0], style=style, buttons=tuple(buttons),
                               target_index=target_index, seconds=seconds, clutter=0.0)


def test_long_press_on_the_named_button_for_the_stated_seconds():
    p = base([("red", RED, 80, 140, 100, 100), ("blue", BLUE, 240, 140, 100, 100)], target_index=1, seconds=4)
    puzzle = hold.render(p)
    task = hold.solve(p, puzzle)
    assert task.rule == "long_press" and task.duration == 4.0 and task.answer == {"count": 4}
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 2 and task.target_ids == [2]
    x0, y0, x1, y1 = task.target_boxes[0]
    assert 185 <= x0 and x1 <= 295 and 85 <= y0 and y1 <= 195          # the blue disc on the right
    assert hold.instruction(p, "en") == "Press and hold the blue button for 4 seconds."
    assert "蓝色" in hold.instruction(p, "zh") and "4" in hold.instruction(p, "zh")


def test_single_button_instruction_needs_no_colour():
    p = base([("green", hold.PALETTE["green"][0], 160, 140, 130, 130)], seconds=2)
    task = hold.solve(p, hold.render(p))
    assert task.answer == {"count": 2}
    assert hold.instruction(p, "en") == "Press and hold the button for 2 seconds."


def test_decoy_of_nearly_the_same_colour_is_rejected():
    near_red = (225, 60, 52)
    p = base([("red", RED, 80, 140, 100, 100), ("orange", near_red, 240, 140, 100, 100)])
    with pytest.raises(Reject, match="decoy_too_similar|colour_misnamed"):
        hold.solve(p, hold.render(p))


def test_button_whose_colour_reads_as_another_name_is_rejected():
    p = base([("green", BLUE, 80, 140, 100, 100), ("red", RED, 240, 140, 100, 100)])
    with pytest.raises(Reject, match="colour_misnamed"):
        hold.solve(p, hold.render(p))


def test_caption_running_off_the_puzzle_is_rejected():
    p = base([("red", RED, 160, 262, 100, 100)])               # the caption below the disc leaves the puzzle
    with pytest.raises(Reject, match="label_overflow"):
        hold.solve(p, hold.render(p))


def test_overlapping_buttons_are_rejected():
    p = base([("red", RED, 120, 140, 100, 100), ("blue", BLUE, 170, 140, 100, 100)])
    with pytest.raises(Reject, match="button_hidden|layout_overlap"):
        hold.solve(p, hold.render(p))


def test_pill_text_fits_inside_the_pill():
    for seed in range(8):
        p = hold.sample_params(np.random.default_rng(seed), 4, SIZE)
        p = dataclasses.replace(p, style="pill", buttons=tuple(
            (n, c, cx, cy, bw, bh) for (n, c, _, _, _, _), (cx, cy, bw, bh)
            in zip(p.buttons, hold.slots(SIZE, "pill", len(p.buttons), round(0.28 * 320)))))
        puzzle = hold.render(p)
        hold.solve(p, puzzle)
        for ink in puzzle.extras["texts"].values():
            assert ink[4] <= ink[0] and ink[2] <= ink[6] and ink[5] <= ink[1] and ink[3] <= ink[7]


def test_decoy_whose_hue_a_colour_shift_could_swap_is_rejected():
    # red and orange are clearly different, but a 20-degree hue shift of the whole image could make the
    # orange decoy look redder than the red target
    p = base([("red", RED, 80, 140, 100, 100), ("orange", hold.PALETTE["orange"][0], 240, 140, 100, 100)])
    with pytest.raises(Reject, match="hue_too_close"):
        hold.solve(p, hold.render(p))
    for seed in range(20):
        q = hold.sample_params(np.random.default_rng(seed), 5, SIZE)
        assert all(c in hold.partners()[q.target] for c, *_ in q.buttons if c != q.target)


def test_the_caption_is_in_the_pages_language():
    # the pipeline hands the page's language to the family, and the buttons' caption follows it
    p = recipe.sample_params(hold, np.random.default_rng(3), 3, SIZE, "zh")
    assert p.lang == "zh"
    zh, en = hold.render(p), hold.render(dataclasses.replace(p, lang="en"))
    for box in zh.extras["texts"].values():
        x0, y0, x1, y1 = box[:4]
        assert (zh.rgb[y0:y1, x0:x1] != en.rgb[y0:y1, x0:x1]).any()
    outside = np.ones(zh.rgb.shape[:2], bool)
    for box in list(zh.extras["texts"].values()) + list(en.extras["texts"].values()):
        outside[box[5] - 2:box[7] + 2, box[4] - 2:box[6] + 2] = False
    assert (zh.rgb[outside] == en.rgb[outside]).all()
