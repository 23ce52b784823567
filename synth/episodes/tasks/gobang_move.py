"""Move-one-stone gobang (五子棋) in two clicks: click a stone to pick it up (a ring marks it), then click an
empty point to move it there. Clicking another stone picks that one instead; clicking the picked stone
puts it down. Done as soon as five stones of one colour stand in a row.

The board is one gobang plants: exactly one move makes five, with its checks on the pixels. A wrong move
is made as asked (the stone goes there and the board shows it), as on a real board: the puzzle goes on,
and the expert either finds a move that wins on the new board or moves the last stone moved back, which
restores the board before it, so that some board on the way back always has a winning move."""
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable
from synth.episodes.base import VERIFY, click
from synth.families import gobang

NAME = "gobang_move"
DESCRIPTION = "gobang: click a stone, then an empty point to move it there, so that five of one colour stand in a row"
COVERS = ("GeeTest:winlinze", "GeeTest:gobang")
ANSWERS = ("click",)
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, False, 0.0
SLACK = 4                       # steps beyond the expert's
RING = (235, 45, 35)            # the picked stone's ring
NONE = -1                       # no stone picked

TABLE = LevelTable(NAME, knobs={
    "board_level_range": "gobang level whose board sampler (size, stones, diagonals, blocked fours, style, "
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
    params: gobang.Params       # the planted board and its look (params.board stays the board at the start)
    board: list[int]            # EMPTY / BLACK / WHITE per point now
    picked: int = NONE          # point of the picked stone
    history: list[tuple[int, int]] = field(default_factory=list)   # moves (from, to) since the start; a move
    #                                                                 back takes the last one off
    shown: tuple = ()                   # the board drawn in `plate` ...
    plate: np.ndarray | None = None     # ... the puzzle with its stones, without the ring


def _reason(r: Reject) -> Reject:
    """A gobang rejection under this task's name."""
    return Reject(f"{NAME}.{r.reason.split('.', 1)[1]}")


def _check_every_point(params: gobang.Params) -> None:
    """Every point reads right with every content (empty, black, white) at gobang's margin, so that every
    board the moves reach is as plain as the first (a stone's shadow never reaches a neighbour's centre)."""
    n2 = params.grid ** 2
    for colour in (gobang.EMPTY, gobang.BLACK, gobang.WHITE):
        full = replace(params, board=(colour,) * n2)
        board, margin = gobang.read_board(full, gobang.render(full))
        if board != list(full.board) or margin < gobang.MIN_READ_MARGIN:
            raise Reject(f"{NAME}.point_unreadable")


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    try:
        params = gobang.sample_params(rng, int(TABLE.row(level)["board_level_range"][0]), size)
        puzzle = gobang.render(params)
        gobang.solve(params, puzzle)
    except Reject as r:
        raise _reason(r) from None
    _check_every_point(params)
    return State(size, params, list(params.board), shown=params.board, plate=puzzle.rgb)


def draw(state: State) -> np.ndarray:
    if state.shown != tuple(state.board):           # the stones change only when one moves
        state.shown = tuple(state.board)
        state.plate = gobang.render(replace(state.params, board=state.shown)).rgb
    rgb = state.plate.copy()
    if state.picked != NONE:
        x, y = gobang.centres(state.params)[state.picked]
        r = gobang.radius(state.params)
        q = 4                                           # sub-pixel centre
        cv2.circle(rgb, (round(x * q), round(y * q)), round((r + 2.5) * q), RING, max(2, r // 6), cv2.LINE_AA,
                   shift=2)
    return rgb


def instruction(state: State, lang: str) -> str:
    if lang == "zh":
        return "点击一颗棋子，再点击一个空位把它移过去，使五子连成一线"
    return "Click a stone, then a free point, to get five in a row."


def point_at(state: State, p) -> int | None:
    """The point whose cell (a pitch square round it) holds p, or None off the board."""
    n = state.params.grid
    _, cx, cy, pitch = gobang.layout(state.size, n)
    c, r = round((p[0] - cx) / pitch), round((p[1] - cy) / pitch)
    return r * n + c if 0 <= r < n and 0 <= c < n else None


def _move(state: State, src: int, dst: int) -> None:
    state.board[dst], state.board[src] = state.board[src], gobang.EMPTY
    if state.history and state.history[-1] == (dst, src):
        state.history.pop()                             # the last move, taken back
    else:
        state.history.append((src, dst))


def act(state: State, action: dict) -> None:
    if action["type"] != "click":
        return
    i = point_at(state, action["point"])
    if i is None:
        return
    if state.board[i] != gobang.EMPTY:
        state.picked = NONE if i == state.picked else i
    elif state.picked != NONE:
        _move(state, state.picked, i)
        state.picked = NONE


def tick(state: State, seconds: float) -> None:
    pass


def done(state: State) -> bool:
    return bool(gobang.analyse(state.board, state.params.grid)[0])


def failed(state: State) -> bool:
    return False


def plan(state: State) -> tuple[int, int] | None:
    """The expert's next move (from, to): a winning one (the picked stone's first), else the last move taken
    back; None when five already stand in a row."""
    if done(state):
        return None
    wins = gobang.analyse(state.board, state.params.grid)[1]
    if wins:
        return next((m for m in wins if m[0] == state.picked), wins[0])
    src, dst = state.history[-1]
    return dst, src


def progress(state: State) -> float:
    """1 when done; half way with the stone of a winning move picked; 0 otherwise."""
    if done(state):
        return 1.0
    wins = gobang.analyse(state.board, state.params.grid)[1]
    return 0.5 if any(m[0] == state.picked for m in wins) else 0.0


def budget(state: State) -> int:
    return 2 + SLACK


def _click_point(state: State, i: int) -> dict:
    x, y = gobang.centres(state.params)[i]
    return click(float(x), float(y))


def expert(state: State) -> dict:
    move = plan(state)
    if move is None:
        return VERIFY
    src, dst = move
    return _click_point(state, dst if state.picked == src else src)


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """Picking a stone that no winning move moves (one of the row's colour when there is one)."""
    move = plan(state)
    if move is None:
        return None
    colour = state.board[move[0]]
    wrong = [i for i, b in enumerate(state.board) if b != gobang.EMPTY and i not in (move[0], state.picked)]
    alike = [i for i in wrong if state.board[i] == colour]
    pool = alike or wrong
    return _click_point(state, pool[int(rng.integers(len(pool)))]) if pool else None


def truth(state: State) -> dict:
    xy = gobang.centres(state.params)
    r = gobang.radius(state.params)
    pitch = gobang.layout(state.size, state.params.grid)[3]
    move = plan(state) or (NONE, NONE)
    objects = [{"role": "target" if i == move[0] else "stone", "label": f"{gobang.COLOURS[b][0]} stone",
                "bbox": [float(xy[i, 0] - r), float(xy[i, 1] - r), float(xy[i, 0] + r), float(xy[i, 1] + r)]}
               for i, b in enumerate(state.board) if b != gobang.EMPTY]
    if move[1] != NONE:
        x, y = xy[move[1]]
        half = pitch / 2
        objects.append({"role": "goal", "label": "empty point",
                        "bbox": [float(x - half), float(y - half), float(x + half), float(y + half)]})
    return {"objects": objects,
            "state": {"target": state.params.target, "grid": state.params.grid, "board": list(state.board),
                      "picked": state.picked, "moves_to_undo": len(state.history), "next_move": list(move)}}
