"""The arithmetic family: results recomputed from the drawn characters, and instances it must reject."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import arithmetic
from synth.families.arithmetic import Params
from synth.families.kit.distorted_text import Glyph, Line

SIZE = (320, 320)
INK = (40, 30, 100)
NO_WAVE = (0.0, 0.0, 100.0, 0.0, 0.0)


def sum_of(expr: str, px: int = 54, lines=()) -> Params:
    """The characters of `expr` spread evenly across the puzzle."""
    xs = np.linspace(30, 290, len(expr))
    glyphs = tuple(Glyph(c, 0, px, float(x), 160.0, 0.0, 0.0, 1.0, INK) for c, x in zip(expr, xs))
    return Params(SIZE, "", glyphs, NO_WAVE, tuple(lines), 0.2, 0.0, 3, {"rotation": 0.0, "height": 0.15})


@pytest.mark.parametrize("expr, result", [("7+5=?", 12), ("12−4=?", 8), ("3×4+2=?", 14), ("9×2−18=?", 0)])
def test_result_is_computed_from_the_drawn_characters(expr, result):
    p = sum_of(expr, px=48 if len(expr) > 6 else 54)
    task = arithmetic.solve(p, arithmetic.render(p))
    assert task.rule == "type" and task.text == str(result) and task.answer == {"count": result}


def test_rejects_a_negative_result():
    p = sum_of("3−7=?")
    with pytest.raises(Reject, match="arithmetic.negative_result"):
        arithmetic.solve(p, arithmetic.render(p))


def test_rejects_a_sum_whose_reading_order_disagrees_with_precedence():
    p = sum_of("2+3×4=?", px=44)
    with pytest.raises(Reject, match="arithmetic.precedence_ambiguous"):
        arithmetic.solve(p, arithmetic.render(p))


def test_rejects_a_line_running_level_beside_a_minus():
    minus_x = float(np.linspace(30, 290, 5)[1])
    beside = Line(((minus_x - 40, 150.0), (minus_x + 40, 150.0)), 1, INK)   # just above the bar: reads as =
    p = sum_of("8−3=?", lines=[beside])
    with pytest.raises(Reject, match="arithmetic.line_along_operator"):
        arithmetic.solve(p, arithmetic.render(p))
    steep = Line(((minus_x - 10, 110.0), (minus_x + 10, 210.0)), 1, INK)
    p = sum_of("8−3=?", lines=[steep])
    assert arithmetic.solve(p, arithmetic.render(p)).text == "5"


def test_rejects_glyphs_cut_off_or_unreadable():
    p = sum_of("7+5=?")
    glyphs = tuple(Glyph(g.char, g.font, g.px, g.cx - 25, g.cy, 0.0, 0.0, 1.0, INK) for g in p.glyphs)
    shifted = Params(SIZE, "", glyphs, NO_WAVE, (), 0.2, 0.0, 3, p.knobs)
    with pytest.raises(Reject, match="arithmetic.glyph_cut_off"):
        arithmetic.solve(shifted, arithmetic.render(shifted))
    p = sum_of("7+=5?")
    with pytest.raises(Reject, match="arithmetic.unreadable_expression"):
        arithmetic.solve(p, arithmetic.render(p))


def test_evaluate_and_sampled_expressions_stay_non_negative():
    assert arithmetic.evaluate("12−4") == (8, 8)
    assert arithmetic.evaluate("3×4+2") == (14, 14)
    assert arithmetic.evaluate("2+3×4") == (14, 20)
    for seed in range(30):
        rng = np.random.default_rng(seed)
        tokens = arithmetic.expression(rng, 3, 50, 0.5, 0.5, True)
        value, ltr = arithmetic.evaluate("".join(tokens[:-2]))
        assert value == ltr >= 0 and tokens[-2:] == ["=", "?"]


def test_operators_turn_little():
    for seed in range(10):
        p = arithmetic.sample_params(np.random.default_rng(seed), 5, SIZE)
        for g in p.glyphs:
            if g.char in arithmetic.OPERATORS:
                assert abs(g.angle) <= arithmetic.OPERATOR_TILT


def test_zigzag_height_follows_the_knob():
    glyphs = sum_of("7+5=?").glyphs
    for amplitude in (0.5, 1.0):
        line = arithmetic.zigzag(np.random.default_rng(0), glyphs, 54.0, 2.0, [INK], amplitude)
        ys = np.array(line.points)[:, 1]
        assert (ys.max() - ys.min()) / 2 == pytest.approx(amplitude * 54.0, rel=0.2)
