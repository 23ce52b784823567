"""Swap-to-three (消消乐) in two clicks: click a tile to pick it (a gold frame marks it), then click a
neighbouring tile to swap the two. Clicking the picked tile again puts it down; clicking a tile that is not
a neighbour picks that one instead. Done as soon as three alike stand in a row.

The board is one match3 plants: no three alike in a row, exactly one swap that lines up three, with its
checks on the pixels. A swap that lines up nothing is undone at once, as real match-3 games swap the tiles
back: the board never changes but for the winning swap, so that its one answer stays the answer (a kept
swap could leave a board with several answers or none)."""
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import centre, inside
from synth.core.levels import LevelTable
from synth.episodes.base import VERIFY, click
from synth.families import match3
from synth.families.kit.cards import card_alpha, over
from synth.families.kit.icon_match import MIN_MARGIN
from synth.families.kit.kinds import kind_by_key

NAME = "match3_swap"
DESCRIPTION = "match-3: click a tile, then a neighbouring tile to swap them, so that three alike line up"
COVERS = ("GeeTest:match",)
ANSWERS = ("click",)
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, False, 0.0
SLACK = 4                       # steps beyond the expert's
FRAME = (255, 196, 0)           # the picked tile's frame
NONE = -1                       # no tile picked

TABLE = LevelTable(NAME, knobs={
    "board_level_range": "match3 level whose board sampler (size, kinds, look-alike kinds, icon size, "
                         "texture) and pixel checks are used",
}, levels={
    1: {"board_level_range": (1, 1)},
    2: {"board_level_range": (2, 2)},
    3: {"board_level_range": (3, 3)},
    4: {"board_level_range": (4, 4)},
    5: {"board_level_range": (5, 5)},
})


@dataclass
class State:
    size: tuple[int, int]
    params: match3.Params       # the planted board and its look (params.board stays the board at the start)
    board: list[str]            # kind key per tile now
    picked: int = NONE
    undone: int = 0             # swaps that lined up nothing (swapped back)
    shown: tuple = ()                   # the board drawn in `plate` ...
    plate: np.ndarray | None = None     # ... the puzzle with its icons, without the frame


def _reason(r: Reject) -> Reject:
    """A match3 rejection under this task's name."""
    return Reject(f"{NAME}.{r.reason.split('.', 1)[1]}")


def swapped(board: list[str], a: int, b: int) -> list[str]:
    out = list(board)
    out[a], out[b] = out[b], out[a]
    return out


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    try:
        params = match3.sample_params(rng, int(TABLE.row(level)["board_level_range"][0]), size)
        puzzle = match3.render(params)
        match3.solve(params, puzzle)
    except Reject as r:
        raise _reason(r) from None
    after = replace(params, board=tuple(swapped(list(params.board), *params.move)))
    read, margin = match3.read_board(after, match3.render(after))      # the line, once made, reads as one
    if read != list(after.board) or margin < MIN_MARGIN:
        raise Reject(f"{NAME}.line_unreadable")
    return State(size, params, list(params.board), shown=params.board, plate=puzzle.rgb)


def tiles(state: State) -> list[tuple[int, int, int, int]]:
    return match3.layout(state.size, state.params.grid)[0]


@lru_cache(maxsize=16)
def frame_alpha(t: int) -> np.ndarray:
    """Coverage (float32 0..1) of a rounded frame along the rim of a tile card of side t, inside the card
    (clear of its icon, which keeps a tenth of the side free on every edge)."""
    w = max(3, t // 12)
    ring = card_alpha(t).copy()
    ring[w:t - w, w:t - w] -= card_alpha(t - 2 * w)
    return np.clip(ring, 0, 1)


def draw(state: State) -> np.ndarray:
    if state.shown != tuple(state.board):           # the icons change only with the winning swap
        state.shown = tuple(state.board)
        state.plate = match3.render(replace(state.params, board=state.shown)).rgb
    rgb = state.plate.copy()
    if state.picked != NONE:
        x0, y0, x1, y1 = tiles(state)[state.picked]
        region = rgb[y0:y1, x0:x1]
        region[:] = over(np.full_like(region, FRAME), region, frame_alpha(x1 - x0))
    return rgb


def instruction(state: State, lang: str) -> str:
    if lang == "zh":
        return "点击一个图案，再点击相邻的图案交换位置，使三个相同的连成一线"
    return "Click a tile, then a neighbour to swap them: line up three."


def neighbours(state: State, a: int, b: int) -> bool:
    n = state.params.grid
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return abs(ra - rb) + abs(ca - cb) == 1


def act(state: State, action: dict) -> None:
    if action["type"] != "click":
        return
    i = next((k for k, box in enumerate(tiles(state)) if inside(box, action["point"])), None)
    if i is None:
        return
    if state.picked == NONE or not neighbours(state, state.picked, i):
        state.picked = NONE if i == state.picked else i
        return
    after = swapped(state.board, state.picked, i)
    if match3.lines(after, state.params.grid):
        state.board = after
    else:
        state.undone += 1                           # nothing lines up: the tiles go back
    state.picked = NONE


def tick(state: State, seconds: float) -> None:
    pass


def done(state: State) -> bool:
    return bool(match3.lines(state.board, state.params.grid))


def failed(state: State) -> bool:
    return False


def progress(state: State) -> float:
    """1 when done; half way with one of the two tiles of the swap picked; 0 otherwise."""
    if done(state):
        return 1.0
    return 0.5 if state.picked in state.params.move else 0.0


def budget(state: State) -> int:
    return 2 + SLACK


def expert(state: State) -> dict:
    """Click the other tile of the swap when one is picked; else pick one that is not a neighbour of the
    tile picked (one of the two is not: neighbours of both would close a triangle on the grid)."""
    if done(state):
        return VERIFY
    src, dst = state.params.move
    if state.picked in (src, dst):
        nxt = dst if state.picked == src else src
    else:
        nxt = src if state.picked == NONE or not neighbours(state, state.picked, src) else dst
    return click(*centre(tiles(state)[nxt]))


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """Picking a tile outside the swap (one of the line's kind when there is one): it is framed."""
    if done(state):
        return None
    src, dst = state.params.move
    wrong = [i for i in range(len(state.board)) if i not in (src, dst, state.picked)
             and (state.picked == NONE or not neighbours(state, state.picked, i))]
    alike = [i for i in wrong if state.board[i] == state.params.target]
    pool = alike or wrong
    return click(*centre(tiles(state)[pool[int(rng.integers(len(pool)))]])) if pool else None


def truth(state: State) -> dict:
    src, dst = state.params.move
    labels = [kind_by_key(k).en for k in state.board]
    objects = [{"role": "target" if i == src else "slot" if i == dst else "tile", "label": labels[i],
                "bbox": [float(v) for v in box]} for i, box in enumerate(tiles(state))]
    return {"objects": objects,
            "state": {"grid": state.params.grid, "board": labels, "picked": state.picked,
                      "swaps_undone": state.undone, "move": [src, dst], "line": done(state)}}
