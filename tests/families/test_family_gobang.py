"""Gobang: the winning-move search, crafted boards that verification must reject, stones read from pixels,
and the drag that the reward accepts."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import gobang
from synth.families.gobang import BLACK, EMPTY, WHITE
from synth.labels import reward, spec

SIZE = (320, 320)
B, W, _ = BLACK, WHITE, EMPTY


def board(*rows) -> tuple[int, ...]:
    return tuple(v for row in rows for v in row)


ONE_MOVE = board([B, B, B, B, _],
                 [_, W, _, W, _],
                 [_, _, B, _, W],
                 [W, _, _, _, _],
                 [_, W, _, _, _])


def params(cells, move, n=5, lines=False):
    return gobang.Params(SIZE, "black", n, cells, move, lines, gobang.WOODS[0], 0.0, 0, {})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        gobang.solve(p, gobang.render(p))
    return e.value.reason


def test_the_one_winning_move_is_found():
    fives, moves = gobang.analyse(ONE_MOVE, 5)
    assert fives == [] and moves == [(12, 4)]


def test_a_stone_taken_from_the_run_does_not_win():
    # five black stones, four of them in the top row: moving one of those four elsewhere completes nothing
    cells = board([B, B, B, B, _], [_] * 5, [_] * 5, [_] * 5, [_, _, _, _, B])
    assert gobang.analyse(cells, 5)[1] == [(24, 4)]


def test_an_open_four_gives_two_moves_and_a_five_is_seen():
    cells = board([_, B, B, B, B, _], [_] * 6, [_, _, B, _, _, _], [_] * 6, [_] * 6, [_] * 6)
    assert gobang.analyse(cells, 6)[1] == [(14, 0), (14, 5)]
    five = board([W, W, W, W, W], [_] * 5, [_] * 5, [_] * 5, [_] * 5)
    assert gobang.analyse(five, 5)[0]


def test_diagonal_runs_count():
    cells = board([B, _, _, _, _], [_, B, _, _, _], [_, _, _, _, _], [_, _, _, B, _], [B, W, _, _, B])
    assert gobang.analyse(cells, 5)[1] == [(20, 12)]      # the bottom-left stone goes to the centre


def test_two_winning_moves_are_rejected():
    two = board([B, B, B, B, _], [_, W, _, W, _], [_, _, B, _, W], [W, _, _, _, _], [_, W, _, _, B])
    assert reject_reason(params(two, (12, 4))) == "gobang.several_moves"


def test_a_five_on_the_board_is_rejected():
    five = board([B, B, B, B, B], [_, W, _, W, _], [_, _, _, _, W], [W, _, _, _, _], [_, W, _, _, _])
    assert reject_reason(params(five, (0, 4))) == "gobang.five_already"


def test_a_hand_made_board_is_solved():
    for lines in (False, True):
        p = params(ONE_MOVE, (12, 4), lines=lines)
        puzzle = gobang.render(p)
        task = gobang.solve(p, puzzle)
        assert task.rule == "drag" and task.answer == {"cells": [12, 4]}
        x, y = task.points[0]
        assert puzzle.instances[int(y), int(x)] == task.target_ids[0]
        assert puzzle.meta[task.target_ids[0]]["point"] == 12


@pytest.mark.parametrize("level", [1, 3, 5])
def test_stones_are_read_from_the_pixels(level):
    for seed in range(6):
        p = gobang.sample_params(np.random.default_rng(seed), level, SIZE)
        read, margin = gobang.read_board(p, gobang.render(p))
        assert read == list(p.board) and margin >= gobang.MIN_READ_MARGIN


def test_the_planted_move_is_the_only_one():
    for level in (1, 2, 3, 4, 5):
        for seed in range(10):
            p = gobang.sample_params(np.random.default_rng(seed), level, SIZE)
            assert gobang.analyse(p.board, p.grid) == ([], [p.move])
            assert sum(v == {"black": BLACK, "white": WHITE}[p.target] for v in p.board) == gobang.RUN


def test_the_reward_takes_the_drag_to_the_point_and_not_to_its_neighbour():
    p = gobang.sample_params(np.random.default_rng(3), 4, SIZE)
    task = gobang.solve(p, gobang.render(p))
    step = spec.step("drag", task.target_boxes[0], task.end_boxes[0], tolerance=task.tolerance_px)
    start, end = task.points[0], task.end_points[0]
    centres = gobang.centres(p)
    src, dst = task.answer["cells"]
    assert np.allclose(np.subtract(end, start), centres[dst] - centres[src])
    assert reward.matches(step, {"type": "drag", "start": start, "end": end})
    pitch = gobang.layout(SIZE, p.grid)[3]
    for dx, dy in ((pitch, 0), (-pitch, 0), (0, pitch), (0, -pitch)):
        near = [end[0] + dx, end[1] + dy]
        assert not reward.matches(step, {"type": "drag", "start": start, "end": near})


def test_instructions():
    p = params(ONE_MOVE, (12, 4))
    assert gobang.instruction(p, "en").startswith("Drag one stone to an empty point")
    assert gobang.instruction(p, "zh").startswith("请拖动一颗棋子")
