"""The text family: crafted instances its verification must reject, and answers read back from the pixels."""
import colorsys

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import text
from synth.families.kit import distorted_text
from synth.families.kit.distorted_text import Glyph, Line
from synth.families.text import Params
from synth.labels import reward

SIZE = (320, 320)
INK = (30, 30, 90)
NO_WAVE = (0.0, 0.0, 100.0, 0.0, 0.0)


def word(chars, xs, y=160.0, px=70, angle=0.0, ink=INK, hollow=0, hatch=0):
    return tuple(Glyph(c, 0, px, float(x), y, angle, 0.0, 1.0, ink, hollow, hatch) for c, x in zip(chars, xs))


def params(glyphs, lines=(), wave=NO_WAVE, **knobs):
    return Params(SIZE, "", glyphs, wave, tuple(lines), 0.2, 0.0, 7, {"height": 0.2, **knobs})


def test_reads_the_characters_left_to_right_from_the_pixels():
    glyphs = word("KEY3", [70, 130, 190, 250])
    shuffled = (glyphs[2], glyphs[0], glyphs[3], glyphs[1])     # drawing order must not matter
    for g in (glyphs, shuffled):
        p = params(g)
        task = text.solve(p, text.render(p))
        assert task.rule == "type" and task.text == "KEY3" and task.answer == {"text": "KEY3"}


def test_rejects_overlapping_glyphs():
    p = params(word("MW", [140, 165]))
    with pytest.raises(Reject, match="text.glyphs_overlap"):
        text.solve(p, text.render(p))


def test_rejects_a_glyph_cut_off_at_the_border():
    p = params(word("HAT", [10, 100, 190]))
    with pytest.raises(Reject, match="text.glyph_cut_off"):
        text.solve(p, text.render(p))


def test_rejects_confusable_glyphs():
    for bad in ("0", "O", "1", "I", "5", "S", "2", "Z", "8", "B", "6", "G", "4", "X", "F", "7"):
        p = params(word(["A", bad, "E"], [90, 160, 230]))
        with pytest.raises(Reject, match="text.confusable_glyph"):
            text.solve(p, text.render(p))


def test_rejects_a_line_hiding_much_of_a_glyph():
    heavy = Line(((0.0, 150.0), (320.0, 150.0)), 30, (200, 30, 30))
    p = params(word("HEN", [100, 160, 220]), [heavy])
    with pytest.raises(Reject, match="text.line_covers_glyph"):
        text.solve(p, text.render(p))
    thin = Line(((0.0, 150.0), (320.0, 170.0)), 2, (200, 30, 30))
    p = params(word("HEN", [100, 160, 220]), [thin])
    task = text.solve(p, text.render(p))
    assert task.text == "HEN" and 0 < task.checks["max_line_cover"] < distorted_text.MAX_LINE_COVER


def test_rejects_a_line_nearly_as_thick_as_a_stroke():
    # a line as wide as the strokes could pass for one, or hide one completely
    thick = Line(((0.0, 120.0), (320.0, 200.0)), 7, INK)
    p = params(word("HEN", [100, 160, 220]), [thick])
    with pytest.raises(Reject, match="text.line_too_thick"):
        text.solve(p, text.render(p))


def test_rejects_faint_glyphs():
    pale = tuple(Glyph(g.char, g.font, g.px, g.cx, g.cy, 0.0, 0.0, 1.0, (225, 225, 225))
                 for g in word("HEN", [100, 160, 220]))
    p = params(pale)
    with pytest.raises(Reject, match="text.low_contrast"):
        text.solve(p, text.render(p))


def test_hatched_and_hollow_characters_read_back():
    solid = text.render(params(word("HEN", [100, 160, 220]))).full_area[1]
    for style in ({"hatch": 12}, {"hollow": 4}):
        p = params(word("HEN", [100, 160, 220], **style))
        puzzle = text.render(p)
        assert text.solve(p, puzzle).text == "HEN"
        assert puzzle.full_area[1] < 0.8 * solid, "only stripes or an outline of the shape are inked"
    hatched = text.render(params(word("HEN", [100, 160, 220], hatch=12)))
    assert hatched.extras["hatched"] == [1, 2, 3]
    assert hatched.extras["glyphs"][0][3].sum() >= solid, "the checks see the whole shape, not just its stripes"


def test_hatched_characters_need_more_contrast():
    # stripes of a mid-dark ink read fainter than the same ink filling the whole shape
    mid = (150, 150, 170)
    solid = params(word("HEN", [100, 160, 220], ink=mid))
    assert text.solve(solid, text.render(solid)).text == "HEN"
    striped = params(word("HEN", [100, 160, 220], ink=mid, hatch=12))
    with pytest.raises(Reject, match="text.low_contrast"):
        text.solve(striped, text.render(striped))


def test_overlap_limit_comes_from_the_level():
    touching = word("HN", [135, 175])
    p = params(touching)
    with pytest.raises(Reject, match="text.glyphs_overlap"):
        text.solve(p, text.render(p))
    p = params(touching, overlap=0.2)
    task = text.solve(p, text.render(p))
    assert task.text == "HN" and 0.05 < task.checks["max_glyph_overlap"] <= 0.2


def test_neighbouring_colours_differ_in_hue():
    for seed in range(20):
        colours = distorted_text.ink_colours(np.random.default_rng(seed), 7, one=False)
        hues = [colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] for rgb in colours]
        for a, b in zip(hues, hues[1:]):
            assert min(abs(a - b), 1 - abs(a - b)) >= distorted_text.MIN_HUE_STEP - 0.02


def test_alphabet_has_no_confusable_glyph_and_no_lower_case():
    confusable = set("0Oo1lIij5Ss2Zz8B6bG9gquvVQD4XF7")
    assert not confusable & set(text.ALPHABET)
    assert text.ALPHABET == text.ALPHABET.upper()


def test_typed_answer_is_case_insensitive():
    for seed in range(6):
        p = text.sample_params(np.random.default_rng(seed), 3, SIZE)
        try:
            task = text.solve(p, text.render(p))
        except Reject:
            continue
        step = {"type": "type", "text": task.text}
        assert reward.matches(step, {"type": "type", "text": task.text.lower()})
        assert not reward.matches(step, {"type": "type", "text": task.text[:-1]})


def test_level_five_is_harder_than_level_one():
    def mean(level, key):
        return np.mean([text.sample_params(np.random.default_rng(s), level, SIZE).knobs[key] for s in range(20)])
    assert mean(5, "length") > mean(1, "length")
    assert mean(5, "rotation") > mean(1, "rotation")
    assert mean(5, "lines") > mean(1, "lines")
    assert mean(5, "height") < mean(1, "height")
    assert mean(5, "hatch") > mean(3, "hatch") > mean(1, "hatch")
