"""Bingo swap: the board is read from the pixels and the swap that completes a line must be unique."""
import dataclasses

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import swap

SIZE = (320, 320)
A, B, C, D = "emoji:cat", "emoji:apple", "emoji:car", "shape:blue:star"


def board_params(board, n=3, icon=0.75, tilts=None) -> swap.Params:
    p = swap.sample_params(np.random.default_rng(0), 1 if n == 3 else 3, SIZE)
    return dataclasses.replace(p, target=A, grid=n, board=tuple(board), tilts=tilts or (0.0,) * (n * n),
                               tints=((235, 235, 240),) * (n * n), icon=icon, clutter=0.0)


def test_the_unique_swap_is_the_answer():
    board = [A, B, A,
             C, D, B,
             D, A, C]          # swapping tiles 1 and 7 fills the top row with cats
    p = board_params(board)
    puzzle = swap.render(p)
    task = swap.solve(p, puzzle)
    assert task.rule == "click_set" and task.answer == {"cells": [1, 7]} and not task.partial_credit
    assert task.target_ids == [2, 8]
    for _box, point, tid in zip(task.target_boxes, task.points, task.target_ids):
        assert puzzle.instances[int(point[1]), int(point[0])] == tid
    assert swap.read_board(p, puzzle)[0] == board


def test_two_solving_swaps_are_rejected():
    board = [A, B, A,
             C, A, B,
             D, A, C]          # tile 1 can take the cat from tile 4 or from tile 7
    assert {(1, 4), (1, 7)} <= set(swap.solving_swaps(board, 3))
    p = board_params(board)
    with pytest.raises(Reject, match="several_solutions"):
        swap.solve(p, swap.render(p))


def test_a_line_already_complete_is_rejected():
    board = [A, A, A,
             C, D, B,
             D, B, C]
    p = board_params(board)
    with pytest.raises(Reject, match="line_already_full"):
        swap.solve(p, swap.render(p))


def test_diagonals_count_as_lines():
    E = "emoji:dog"
    board = [A, A, B, C,
             D, A, E, B,
             C, D, A, E,
             B, C, D, E]       # swapping tiles 1 and 15 completes the main diagonal; nothing else does
    assert swap.solving_swaps(board, 4) == [(1, 15)]
    p = dataclasses.replace(board_params(board, n=4, icon=0.7), target=A)
    assert swap.solve(p, swap.render(p)).answer == {"cells": [1, 15]}
    assert len(swap.lines(3)) == 8 and len(swap.lines(4)) == 10


def test_look_alike_icons_are_rejected():
    board = ["shape:blue:circle", "shape:blue:hexagon", "shape:blue:circle",
             "shape:red:star", "shape:blue:circle", "shape:green:cross",
             "shape:green:cross", "shape:red:star", "shape:blue:hexagon"]
    p = dataclasses.replace(board_params(board, icon=0.3), target="shape:blue:circle")
    with pytest.raises(Reject, match="icons_confusable|icon_misread"):
        swap.solve(p, swap.render(p))


def test_generated_boards_have_exactly_one_solution_and_no_full_line():
    for level in (1, 3, 5):
        for seed in range(5):
            try:
                p = swap.sample_params(np.random.default_rng(seed), level, SIZE)
            except Reject:
                continue
            assert not swap.full_lines(p.board, p.grid) and len(swap.solving_swaps(p.board, p.grid)) == 1
            assert p.board.count(p.target) == p.grid
