"""Layer stack: the stacking order read from where cards are seen to go under one another, and ranks or
colours that the visible overlaps do not settle."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import layer_stack as ls

SIZE = (320, 320)
W, H = 130.0, 90.0


def params(mode, cards, answer, colour=""):
    """cards: (centre x, centre y, turn, colour), from the bottom up."""
    placed = tuple((float(x), float(y), W, H, float(t), c) for x, y, t, c in cards)
    return ls.Params(SIZE, f"{mode} {colour}".strip(), mode, colour, placed, answer, 0.0, 0, {})


def solve(p):
    return ls.solve(p, ls.render(p))


def reject_reason(p):
    with pytest.raises(Reject) as e:
        solve(p)
    return e.value.reason


# a staircase: every card lies over the one before it, shifted down and right
STAIRS = [(100, 100, 0, "red"), (140, 140, 5, "blue"), (180, 180, -5, "green"), (220, 220, 0, "yellow")]


def test_ranks_follow_the_chain_of_overlaps():
    for mode, answer in (("bottom", 0), ("top", 3), ("second_top", 2), ("second_bottom", 1)):
        p = params(mode, STAIRS, answer)
        puzzle = ls.render(p)
        task = ls.solve(p, puzzle)
        assert task.target_ids == [answer + 1], mode
        x0, y0, x1, y1 = (int(v) for v in task.target_boxes[0])
        assert (puzzle.instances[y0:y1, x0:x1] == answer + 1).all(), "the accept box lies on the card's visible part"
    pairs, _ = ls.above_pairs(params("top", STAIRS, 3), ls.render(params("top", STAIRS, 3)))
    assert pairs == {(2, 1), (3, 2), (4, 3)}
    assert ls.instruction(params("bottom", STAIRS, 0), "en") == "Click the card at the bottom of the stack."
    assert ls.instruction(params("second_top", STAIRS, 2), "zh") == "请点击从上往下数第二张卡片"


def test_cards_that_never_visibly_overlap_leave_the_bottom_unknown():
    # two cards side by side, a third across both: which of the two lies lower cannot be seen
    cards = [(90, 160, 0, "red"), (230, 160, 0, "blue"), (160, 150, 0, "green")]
    assert reject_reason(params("bottom", cards, 0)) == "layer_stack.order_not_visible"
    assert solve(params("top", cards, 2)).target_ids == [3]


def test_an_overlap_hidden_under_a_third_card_is_no_evidence():
    # red under blue only where green covers both: red shows, blue shows, but never red going under blue
    p = params("bottom", [(110, 110, 0, "red"), (190, 110, 0, "blue"), (150, 110, 0, "green")], 0)
    pairs, _ = ls.above_pairs(p, ls.render(p))
    assert (3, 1) in pairs and (3, 2) in pairs and (2, 1) not in pairs
    assert reject_reason(p) == "layer_stack.order_not_visible"


def test_topmost_of_a_colour_and_hidden_cards():
    cards = [(100, 100, 0, "red"), (140, 140, 5, "blue"), (180, 180, -5, "red"), (220, 220, 0, "yellow")]
    p = params("top_colour", cards, 2, colour="red")
    assert solve(p).target_ids == [3]
    assert ls.instruction(p, "en") == "Click the topmost red card in the stack."
    assert ls.instruction(p, "zh") == "请点击最上面的那张红色卡片"
    p = params("bottom_colour", cards, 0, colour="red")
    assert solve(p).target_ids == [1]
    # a card almost wholly under another one does not count as shown
    hidden = [(100, 100, 0, "red"), (104, 102, 0, "blue"), (220, 220, 0, "green")]
    assert reject_reason(params("bottom", hidden, 0)) == "layer_stack.card_hidden"


def test_closure_is_transitive():
    m = ls.closure(4, {(2, 1), (3, 2), (4, 3)})
    assert m[4, 1] and m[3, 1] and not m[1, 4]


def test_sampled_piles_keep_every_card_in_view():
    for level in (1, 5):
        for seed in range(6):
            p = ls.sample_params(np.random.default_rng(seed), level, SIZE)
            try:
                task = solve(p)
            except Reject:
                continue
            assert task.checks["min_visible"] >= ls.MIN_SHOWN
