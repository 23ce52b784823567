"""Match-3: the swap search, crafted boards that verification must reject, icons read from pixels, and the
drag direction the reward accepts."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import match3
from synth.labels import reward, spec

SIZE = (320, 320)
KEYS = ("emoji:apple", "emoji:cat", "emoji:car", "emoji:bell")


def params(cells, move, n=3):
    board = tuple(KEYS[v] for v in cells)
    tints = ((235, 235, 240),) * (n * n)
    return match3.Params(SIZE, KEYS[0], n, board, move, (0.0,) * (n * n), tints, 0.75, 0.0, 0, {})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        match3.solve(p, match3.render(p))
    return e.value.reason


ONE = [0, 1, 0,
       2, 0, 3,
       3, 2, 1]


def test_the_one_swap_is_found():
    assert match3.lines(ONE, 3) == [] and match3.moves(ONE, 3) == [(4, 1)]    # the centre apple goes up


def test_a_line_already_there_and_moves_along_a_line():
    assert match3.lines([0, 0, 0, 1, 2, 3, 2, 3, 1], 3) == [0]
    # x x _ x in a row of four: the far tile slides in along the row
    four = [0, 0, 1, 0] + [1, 2, 3, 2] + [2, 3, 1, 3] + [3, 1, 2, 1]
    assert (3, 2) in match3.moves(four, 4)


def test_a_hand_made_board_is_solved():
    p = params(ONE, (4, 1))
    puzzle = match3.render(p)
    task = match3.solve(p, puzzle)
    assert task.rule == "drag" and task.answer == {"cells": [4, 1]} and task.target_ids == [5]
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 5


def test_two_swaps_are_rejected():
    assert reject_reason(params([0, 1, 0, 2, 0, 3, 3, 0, 1], (4, 1))) == "match3.several_swaps"


def test_a_swap_that_lines_up_both_tiles_is_rejected():
    # the apple going up and the cat going down both make a row: either could be the tile dragged
    assert reject_reason(params([0, 1, 0, 1, 0, 1, 2, 3, 2], (4, 1))) == "match3.both_tiles_match"


def test_a_board_with_a_line_is_rejected():
    assert reject_reason(params([0, 0, 0, 1, 2, 3, 2, 3, 1], (0, 3))) == "match3.line_already_there"


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_filled_boards_have_exactly_one_move(n):
    for seed in range(8):
        board, move = match3.fill(np.random.default_rng(seed), n, 5 if n > 3 else 4)
        assert match3.lines(board, n) == [] and match3.moves(board, n) == [move]
        assert move[1] in (move[0] - 1, move[0] + 1, move[0] - n, move[0] + n)


@pytest.mark.parametrize("level", [1, 3, 5])
def test_icons_are_read_from_the_pixels(level):
    for seed in range(6):
        p = match3.sample_params(np.random.default_rng(seed), level, SIZE)
        read, margin = match3.read_board(p, match3.render(p))
        assert read == list(p.board) and margin >= match3.MIN_MARGIN


def test_the_reward_takes_the_tile_that_completes_the_line_onto_its_neighbour():
    """The convention: the drag starts on the tile that moves into the line and ends on the tile it swaps
    with. The reverse drag makes the same swap in a game but is not accepted by the one drag step."""
    p = match3.sample_params(np.random.default_rng(4), 4, SIZE)
    task = match3.solve(p, match3.render(p))
    step = spec.step("drag", task.target_boxes[0], task.end_boxes[0], tolerance=task.tolerance_px)
    start, end = task.points[0], task.end_points[0]
    assert reward.matches(step, {"type": "drag", "start": start, "end": end})
    assert not reward.matches(step, {"type": "drag", "start": end, "end": start})
    pitch = match3.layout(SIZE, p.grid)[2]
    dx, dy = end[0] - start[0], end[1] - start[1]
    assert sorted((abs(dx), abs(dy))) == [0, pitch]
    past = [end[0] + dx, end[1] + dy]                # two tiles on
    assert not reward.matches(step, {"type": "drag", "start": start, "end": past})


def test_instructions():
    p = params(ONE, (4, 1))
    assert "three of a kind" in match3.instruction(p, "en")
    assert match3.instruction(p, "zh").startswith("请把一个图案拖到相邻的图案上")


def test_look_alike_kinds_never_share_a_board():
    from synth.families.kit.icon_match import look_alike
    assert look_alike("shape:purple:circle", "shape:purple:hexagon")
    assert look_alike("shape:red:star", "shape:orange:star")
    assert not look_alike("shape:red:circle", "shape:red:star") and not look_alike("emoji:cat", "emoji:dog")
    for seed in range(30):
        board = sorted(set(match3.sample_params(np.random.default_rng(seed), 5, SIZE).board))
        assert not any(look_alike(a, b) for i, a in enumerate(board) for b in board[i + 1:])
