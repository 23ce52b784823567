"""Gobang (五子棋): a board with black and white stones; exactly one move of one stone to an empty point
puts five stones of one colour in a row (across, down or diagonally). Drag that stone to that point."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw

NAME = "gobang"
DESCRIPTION = "move one stone to an empty point so that five stones of one colour stand in a row; drag it there"
COVERS = ("GeeTest:winlinze", "GeeTest:gobang")
ANSWERS = ("drag",)             # synth.labels.reward step types of its tasks
GEOMETRIC_AUGMENT = False       # the drop point is judged by an exact displacement
STAT, STAT_DIRECTION = "number of stones on the board", +1
EMPTY, BLACK, WHITE = 0, 1, 2
COLOURS = {BLACK: ("black", "黑"), WHITE: ("white", "白")}
RUN = 5                         # stones in a row that win
STONE = 0.42                    # stone radius, share of the point pitch (two stones never touch)
TOLERANCE = 0.4                 # accepted drop error, share of the pitch (the next point is a pitch away)
READ = 0.5                      # stones are read from a square of this share of the radius (half side)
MIN_READ_MARGIN = 40.0          # RGB distance by which the read state must beat the next-best one
SHADOW = 0.4                    # darkening under a stone's shadow
TRIES = 40                      # boards drawn per instance before giving up
WOODS = ((224, 186, 128), (214, 172, 108), (232, 198, 146), (206, 160, 98), (198, 170, 130))

TABLE = LevelTable(NAME, knobs={
    "grid_range": "points per side of the board",
    "stones_range": "number of stones of the other colour (the winning colour always has five)",
    "diagonal_range": "probability that the row to complete is a diagonal",
    "decoy_range": "number of blocked fours of the other colour (four in a row that cannot become five)",
    "lines_range": "probability that stones sit on line crossings (Go style) rather than in squares",
    "clutter_range": "texture strength of the board and its surroundings, 0 to 1",
}, levels={
    1: {"grid_range": (5, 5), "stones_range": (3, 5), "diagonal_range": (0.0, 0.0), "decoy_range": (0, 0),
        "lines_range": (0.0, 0.0), "clutter_range": (0.0, 0.15)},
    2: {"grid_range": (6, 6), "stones_range": (6, 8), "diagonal_range": (0.2, 0.2), "decoy_range": (0, 1),
        "lines_range": (0.3, 0.3), "clutter_range": (0.15, 0.3)},
    3: {"grid_range": (7, 7), "stones_range": (9, 12), "diagonal_range": (0.35, 0.35), "decoy_range": (1, 1),
        "lines_range": (0.5, 0.5), "clutter_range": (0.3, 0.5)},
    4: {"grid_range": (8, 8), "stones_range": (12, 16), "diagonal_range": (0.45, 0.45), "decoy_range": (1, 2),
        "lines_range": (0.6, 0.6), "clutter_range": (0.45, 0.65)},
    5: {"grid_range": (9, 9), "stones_range": (16, 21), "diagonal_range": (0.5, 0.5), "decoy_range": (2, 2),
        "lines_range": (0.7, 0.7), "clutter_range": (0.6, 0.8)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # colour of the row to complete: "black" or "white"
    grid: int                   # points per side
    board: tuple[int, ...]      # EMPTY / BLACK / WHITE per point, row-major
    move: tuple[int, int]       # the planted answer: (point of the stone, point it goes to)
    lines: bool                 # stones on line crossings (else in squares)
    wood: tuple[int, int, int]
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- rules

@lru_cache(maxsize=8)
def windows(n: int) -> np.ndarray:
    """(k, RUN) point indices of every run of RUN points in a row, column or diagonal of an n x n board."""
    out = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (RUN - 1), c + dc * (RUN - 1)
                if 0 <= end_r < n and 0 <= end_c < n:
                    out.append([(r + dr * k) * n + c + dc * k for k in range(RUN)])
    return np.array(out, np.int64).reshape(-1, RUN)


@lru_cache(maxsize=8)
def runs_through(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per point, the runs (as tuples of point indices) that pass through it."""
    out = [[] for _ in range(n * n)]
    for w in windows(n).tolist():
        for i in w:
            out[i].append(tuple(w))
    return tuple(tuple(r) for r in out)


def analyse(board, n: int) -> tuple[list[int], list[tuple[int, int]]]:
    """(windows already holding five of one colour, every winning move (from, to) sorted). Moving a stone of
    colour c to an empty point p wins exactly when some run through p, not through the stone, holds four
    stones of colour c besides p: taking a stone away never completes a run."""
    b = np.asarray(board)
    win = windows(n)
    vals = b[win]
    empty = (vals == EMPTY).sum(1)
    fives, moves = [], set()
    for colour in COLOURS:
        count = (vals == colour).sum(1)
        fives += np.nonzero(count == RUN)[0].tolist()
        stones = np.nonzero(b == colour)[0]
        for k in np.nonzero((count == RUN - 1) & (empty == 1))[0]:
            run = win[k]
            dst = int(run[vals[k] == EMPTY][0])
            moves.update((int(s), dst) for s in stones if s not in run)
    return sorted(fives), sorted(moves)


def open_fours(board, n: int, colour: int) -> list[np.ndarray]:
    """Every run holding RUN - 1 stones of `colour` and one empty point."""
    b = np.asarray(board)
    win = windows(n)
    vals = b[win]
    hit = ((vals == colour).sum(1) == RUN - 1) & ((vals == EMPTY).sum(1) == 1)
    return [win[k] for k in np.nonzero(hit)[0]]


def _block_four(rng: np.random.Generator, board: list[int], n: int, ours: list[int], hole: int, other: int,
                fixed: set[int]) -> None:
    """One decoy, in up to six tries: four stones of `other` in a run whose fifth point is one of `ours` (not
    through `hole`), left only if no open four of `other` results; its points join `fixed`."""
    for _ in range(6):
        q = ours[int(rng.integers(len(ours)))]
        through = [w for w in runs_through(n)[q]
                   if hole not in w and all(board[i] == EMPTY for i in w if i != q)]
        if not through:
            continue
        w = through[int(rng.integers(len(through)))]
        for i in w:
            if i != q:
                board[i] = other
        if open_fours(board, n, other):     # the four must stay blocked
            for i in w:
                if i != q:
                    board[i] = EMPTY
            continue
        fixed.update(int(i) for i in w)
        return


def plant(rng: np.random.Generator, n: int, colour: int, others: int, diagonal: bool, decoys: int
          ) -> tuple[list[int], tuple[int, int]]:
    """A board on which one move, and only that one, makes five of `colour`: four of them in a run with one
    gap, the fifth elsewhere, about `others` stones of the other colour, among them `decoys` blocked fours
    (four in a run whose fifth point holds a stone of the winning colour). Other winning moves are repaired
    away: a stone of the other colour on their point, or one of its loose stones taken out of the run."""
    other = WHITE if colour == BLACK else BLACK
    win = windows(n)
    step = win[:, 1] - win[:, 0]
    pool = np.nonzero((step != 1) & (step != n) if diagonal else (step == 1) | (step == n))[0]
    for _ in range(TRIES):
        run = win[pool[int(rng.integers(len(pool)))]].tolist()
        hole = run[int(rng.integers(RUN))]
        board = [EMPTY] * (n * n)
        for i in run:
            if i != hole:
                board[i] = colour
        free = [i for i in range(n * n) if i not in run]
        src = free[int(rng.integers(len(free)))]
        board[src] = colour
        if analyse(board, n)[0]:
            continue
        fixed = {src, hole, *run}
        ours = [i for i in range(n * n) if board[i] == colour]
        for _ in range(decoys):
            _block_four(rng, board, n, ours, hole, other, fixed)
        empties = [i for i in range(n * n) if board[i] == EMPTY and i not in fixed]
        missing = max(0, others - sum(b == other for b in board))
        for i in rng.permutation(len(empties))[:missing]:
            board[empties[int(i)]] = other
        for _ in range(12):
            fives, moves = analyse(board, n)
            if fives or (src, hole) not in moves:
                break
            extra = [m for m in moves if m != (src, hole)]
            if not extra:
                return board, (src, hole)
            if not _repair(rng, board, n, colour, other, extra, fixed):
                break
    raise Reject(f"{NAME}.no_unique_board")


def _repair(rng: np.random.Generator, board: list[int], n: int, colour: int, other: int,
            extra: list[tuple[int, int]], fixed: set) -> bool:
    """Undo unwanted winning moves in place; False when one cannot be undone."""
    for s, d in extra:
        if board[s] == colour:       # a second way to five of the winning colour: block its point
            if d in fixed:
                return False
            board[d] = other
            continue
        loose = sorted({int(i) for w in open_fours(board, n, other) if d in w
                        for i in w if board[i] == other and i not in fixed})
        if not loose:
            return False
        board[loose[int(rng.integers(len(loose)))]] = EMPTY
    return True


# ---------------------------------------------------------------- sampling

def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("grid_range", "stones_range", "decoy_range"))
             for k in row}
    n = knobs["grid"]
    colour = (BLACK, WHITE)[int(rng.integers(2))]
    diagonal = bool(rng.random() < knobs["diagonal"])
    board, move = plant(rng, n, colour, knobs["stones"], diagonal, knobs["decoy"])
    knobs["diagonal"] = float(diagonal)
    lines = bool(rng.random() < knobs["lines"])
    knobs["lines"] = float(lines)
    wood = WOODS[int(rng.integers(len(WOODS)))]
    return Params(size=size, target=COLOURS[colour][0], grid=n, board=tuple(board), move=move, lines=lines,
                  wood=wood, clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of stones on the board."""
    return float(sum(b != EMPTY for b in params.board))


# ---------------------------------------------------------------- drawing

def layout(size: tuple[int, int], n: int) -> tuple[tuple[int, int, int, int], float, float, float]:
    """(board box, x and y of the first point's centre, pitch between points), in puzzle pixels. Points sit
    at the centres of n x n squares (in squares style) or on n x n line crossings half a pitch in."""
    w, h = size
    side = min(w, h)
    board = round(side * 0.94)
    x0, y0 = (w - board) // 2, (h - board) // 2
    pad = max(3, round(side * 0.02))
    pitch = (board - 2 * pad) / n
    return (x0, y0, x0 + board, y0 + board), x0 + pad + pitch / 2, y0 + pad + pitch / 2, pitch


def centres(params: Params) -> np.ndarray:
    """(n * n, 2) pixel centre (x, y) of every point, row-major."""
    n = params.grid
    _, cx, cy, pitch = layout(params.size, n)
    r, c = np.divmod(np.arange(n * n), n)
    return np.stack([cx + c * pitch, cy + r * pitch], 1)


@lru_cache(maxsize=32)
def stone_sprite(colour: int, radius: int) -> np.ndarray:
    """RGBA stone of `radius` px: a disc shaded like a glossy stone lit from the top left (cached)."""
    q = 4
    n = 2 * radius + 4
    big = np.zeros((n * q, n * q), np.uint8)
    cv2.circle(big, (n * q // 2, n * q // 2), radius * q, 255, -1, cv2.LINE_AA)
    alpha = cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA)
    yy, xx = np.mgrid[:n, :n].astype(np.float32) + 0.5 - n / 2
    d = np.hypot(xx, yy) / radius
    hx, hy = xx + 0.38 * radius, yy + 0.38 * radius
    glow = np.exp(-(hx * hx + hy * hy) / (2 * (0.32 * radius) ** 2))
    if colour == BLACK:
        v = 26 + 80 * glow + 10 * (1 - d)
        rgb = np.stack([v, v, v + 4], -1)
    else:
        v = 246 - 52 * np.clip(d, 0, 1) ** 3 + 9 * glow
        rgb = np.stack([v, v, v - 6], -1)
    return cv2.merge([*cv2.split(np.clip(rgb, 0, 255).astype(np.uint8)), alpha])


@lru_cache(maxsize=32)
def shadow_alpha(radius: int) -> np.ndarray:
    """Soft shadow coverage (uint8 0..255) of a stone, on the stone sprite's square."""
    return draw.gaussian_blur(stone_sprite(BLACK, radius)[..., 3], max(1.0, radius / 8))


def board_image(params: Params) -> np.ndarray:
    """The empty board on its surroundings (uint8 RGB): wood with a grain from the texture, grid lines."""
    w, h = params.size
    rng = np.random.default_rng(params.bg_seed)
    rgb = draw.background(rng, w, h, params.clutter)
    (bx0, by0, bx1, by1), cx, cy, pitch = layout(params.size, params.grid)
    grain = cv2.cvtColor(draw.background(rng, bx1 - bx0, by1 - by0, 1.0), cv2.COLOR_RGB2GRAY)
    k = (0.08 + 0.3 * params.clutter) / 128
    shade = cv2.convertScaleAbs(grain, alpha=k * 255 / 2, beta=128 - k * 255 / 2 * float(cv2.mean(grain)[0]))
    # shade is 128 at the mean grain: each channel of the wood scaled by shade / 128
    wood = cv2.merge([cv2.convertScaleAbs(shade, alpha=v / 128) for v in params.wood])
    # a soft shadow under the board, then the board
    d = max(2, round(min(w, h) / 100))
    region = rgb[by0 + d:min(by1 + d, h), bx0 + d:min(bx1 + d, w)]
    region[:] = (region * 0.7).astype(np.uint8)
    rgb[by0:by1, bx0:bx1] = wood
    ink = (70, 48, 26)
    n = params.grid
    t = max(1, round(min(w, h) / 320))
    q = 4         # sub-pixel line ends
    if params.lines:
        first, last = (cx, cy), (cx + (n - 1) * pitch, cy + (n - 1) * pitch)
        for i in range(n):
            x, y = cx + i * pitch, cy + i * pitch
            cv2.line(rgb, (round(x * q), round(first[1] * q)), (round(x * q), round(last[1] * q)), ink, t,
                     cv2.LINE_AA, shift=2)
            cv2.line(rgb, (round(first[0] * q), round(y * q)), (round(last[0] * q), round(y * q)), ink, t,
                     cv2.LINE_AA, shift=2)
    else:
        left, top = cx - pitch / 2, cy - pitch / 2
        for i in range(n + 1):
            x, y = left + i * pitch, top + i * pitch
            width = 2 * t if i in (0, n) else t
            cv2.line(rgb, (round(x * q), round(top * q)), (round(x * q), round((top + n * pitch) * q)), ink, width,
                     cv2.LINE_AA, shift=2)
            cv2.line(rgb, (round(left * q), round(y * q)), (round((left + n * pitch) * q), round(y * q)), ink, width,
                     cv2.LINE_AA, shift=2)
    return rgb


def radius(params: Params) -> int:
    return max(4, int(layout(params.size, params.grid)[3] * STONE))


def render(params: Params) -> Puzzle:
    plate = board_image(params)
    canvas = draw.Canvas(plate.copy())
    r = radius(params)
    xy = centres(params)
    meta = {}
    sid = 0
    off = max(1, r // 7)
    stones = [(i, colour) for i, colour in enumerate(params.board) if colour != EMPTY]
    s = stone_sprite(BLACK, r).shape[0]
    corners = [(int(round(xy[i, 0] - s / 2)), int(round(xy[i, 1] - s / 2))) for i, _ in stones]
    # every stone's soft shadow in one layer, darkening the board once
    h, w = plate.shape[:2]
    dark = np.zeros((h + s + off, w + s + off), np.uint8)
    blur = shadow_alpha(r)
    for x, y in corners:
        part = dark[y + off:y + off + s, x + off:x + off + s]
        np.maximum(part, blur, out=part)
    shade = cv2.merge([dark[:h, :w]] * 3)
    canvas.rgb = cv2.subtract(canvas.rgb, cv2.multiply(canvas.rgb, shade, scale=SHADOW / 255))
    for (i, colour), (x, y) in zip(stones, corners):
        sid += 1
        canvas.paste(stone_sprite(colour, r), x, y, sid)
        name = COLOURS[colour][0]
        meta[sid] = {"role": "target" if i == params.move[0] else "stone", "label": f"{name} stone",
                     "kind": name, "point": i}
    canvas.full_area.pop(0, None)
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta, extras={"plate": plate, "radius": r})


# ---------------------------------------------------------------- verification

def _square_means(rgb: np.ndarray, xy: np.ndarray, half: int) -> np.ndarray:
    """(len(xy), 3) mean colour of the (2 half + 1)-px square around every point, from an integral image."""
    s = cv2.integral(rgb)      # (h + 1, w + 1, 3), float64 sums
    x, y = np.round(xy[:, 0] - 0.5).astype(int), np.round(xy[:, 1] - 0.5).astype(int)
    x0, x1, y0, y1 = x - half, x + half + 1, y - half, y + half + 1
    total = s[y1, x1] - s[y0, x1] - s[y1, x0] + s[y0, x0]
    return total / float((2 * half + 1) ** 2)


def read_board(params: Params, puzzle: Puzzle) -> tuple[list[int], float]:
    """The state of every point read from the pixels: the mean colour of a small square at the point,
    nearest to the empty board there, a black stone or a white stone. Returns the states and the smallest
    margin (RGB distance) between the nearest and the next-nearest state."""
    r = puzzle.extras["radius"]
    half = max(1, int(r * READ))
    xy = centres(params)
    shown = _square_means(puzzle.rgb, xy, half)
    bare = _square_means(puzzle.extras["plate"], xy, half)
    refs = []
    for colour in COLOURS:
        spr = stone_sprite(colour, r)
        c = spr.shape[0] // 2
        refs.append(spr[c - half:c + half + 1, c - half:c + half + 1, :3].reshape(-1, 3).astype(np.float64).mean(0))
    dist = np.stack([np.linalg.norm(shown - bare, axis=1)] + [np.linalg.norm(shown - ref, axis=1) for ref in refs], 1)
    order = np.sort(dist, axis=1)
    return [int(v) for v in dist.argmin(1)], float((order[:, 1] - order[:, 0]).min())


def solve(params: Params, puzzle: Puzzle) -> Task:
    n = params.grid
    ids = sorted(puzzle.meta)
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    if any(i not in boxes or areas[i] < puzzle.full_area[i] * 0.999 for i in ids):
        raise Reject(f"{NAME}.stones_overlap")
    board, margin = read_board(params, puzzle)
    if margin < MIN_READ_MARGIN:
        raise Reject(f"{NAME}.stone_unreadable")
    if board != list(params.board):
        raise Reject(f"{NAME}.board_misread")
    fives, moves = analyse(board, n)
    if fives:
        raise Reject(f"{NAME}.five_already")
    if not moves:
        raise Reject(f"{NAME}.no_solution")
    if len(moves) > 1:
        raise Reject(f"{NAME}.several_moves")
    src, dst = moves[0]
    if (src, dst) != params.move:
        raise Reject(f"{NAME}.move_mismatch")
    stone = next(i for i in ids if puzzle.meta[i]["point"] == src)
    x0, y0, x1, y1 = (int(v) for v in boxes[stone])
    mask = np.zeros(puzzle.instances.shape, bool)
    mask[y0:y1, x0:x1] = puzzle.instances[y0:y1, x0:x1] == stone
    start = draw.inner_point(mask)
    xy = centres(params)
    # the stone's centre as drawn (its mask's centroid) and the target point's centre
    ys, xs = np.nonzero(mask[y0:y1, x0:x1])
    drawn = np.array([x0 + xs.mean() + 0.5, y0 + ys.mean() + 0.5])
    if np.hypot(*(drawn - xy[src])) > 1.0:
        raise Reject(f"{NAME}.stone_off_point")
    dx, dy = (float(v) for v in xy[dst] - xy[src])
    box = boxes[stone]
    objects = [{"id": i, "role": puzzle.meta[i]["role"], "label": puzzle.meta[i]["label"], "bbox": boxes[i],
                "visible_fraction": round(float(areas[i]) / puzzle.full_area[i], 4)} for i in ids]
    pitch = layout(params.size, n)[3]
    return Task(rule="drag", answer={"cells": [src, dst]}, objects=objects, target_ids=[stone],
                target_boxes=[box], points=[start], end_boxes=[[box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy]],
                end_points=[[start[0] + dx, start[1] + dy]], tolerance_px=TOLERANCE * pitch,
                checks={"read_margin": round(margin, 2), "winning_moves": float(len(moves)),
                        "stones": float(len(ids)), "drag_px": round(float(np.hypot(dx, dy)), 2)})


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请拖动一颗棋子到空位上，使五颗同色棋子连成一线（横、竖或斜均可）"
    return ("Drag one stone to an empty point so that five stones of the same colour form a line "
            "(across, down or diagonally).")
