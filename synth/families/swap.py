"""Bingo swap: a 3x3 or 4x4 board of icons; click the two tiles whose swap completes a line of one kind."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.counting import pick_kinds
from synth.families.kit import draw
from synth.families.kit.cards import UNIT, card_alpha, card_shadow, icon_sprite, over
from synth.families.kit.kinds import kind_by_key, turn_limit

NAME = "swap"
DESCRIPTION = "bingo board: click the two tiles whose swap makes a full row, column or diagonal of one kind"
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
COVERS = ("OpenCaptchaWorld:Bingo",)
STAT, STAT_DIRECTION = "number of different icon kinds on the board", +1
MIN_KIND_MARGIN = 0.08    # icon read from pixels: the next-best kind must differ from the tile on this much more
#                           of the icon's area than the best kind does
DIFFERS = 32              # a pixel differs clearly when one of its channels differs by more than this
READ_SIDE = 48            # tiles are compared at (at most) this side
TRIES = 60                # boards drawn per instance before giving up

TABLE = LevelTable(NAME, knobs={
    "grid_range": "tiles per side",
    "kinds_range": "number of different icon kinds on the board",
    "similar_range": "probability that another kind looks like the line's kind (same category / shape / colour)",
    "diagonal_range": "probability that the line to complete is a diagonal",
    "icon_range": "icon size as a share of the tile side",
    "tilt_range": "largest tilt of an icon, degrees",
    "clutter_range": "texture strength of the board and the tiles, 0 to 1",
}, levels={
    1: {"grid_range": (3, 3), "kinds_range": (4, 4), "similar_range": (0.0, 0.0), "diagonal_range": (0.0, 0.0),
        "icon_range": (0.72, 0.78), "tilt_range": (0, 0), "clutter_range": (0.0, 0.15)},
    2: {"grid_range": (3, 3), "kinds_range": (4, 5), "similar_range": (0.2, 0.2), "diagonal_range": (0.0, 0.0),
        "icon_range": (0.68, 0.74), "tilt_range": (0, 5), "clutter_range": (0.15, 0.35)},
    3: {"grid_range": (4, 4), "kinds_range": (5, 5), "similar_range": (0.4, 0.4), "diagonal_range": (0.25, 0.25),
        "icon_range": (0.64, 0.7), "tilt_range": (0, 10), "clutter_range": (0.35, 0.55)},
    4: {"grid_range": (4, 4), "kinds_range": (5, 6), "similar_range": (0.6, 0.6), "diagonal_range": (0.35, 0.35),
        "icon_range": (0.6, 0.66), "tilt_range": (0, 15), "clutter_range": (0.55, 0.75)},
    5: {"grid_range": (4, 4), "kinds_range": (6, 7), "similar_range": (0.8, 0.8), "diagonal_range": (0.45, 0.45),
        "icon_range": (0.55, 0.62), "tilt_range": (0, 20), "clutter_range": (0.75, 0.95)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                         # kind key of the line to complete
    grid: int
    board: tuple[str, ...]              # kind key per tile, row-major
    tilts: tuple[float, ...]            # icon tilt per tile
    tints: tuple[tuple[int, int, int], ...]   # tile card colour per tile
    icon: float                         # icon size, share of the tile side
    clutter: float
    bg_seed: int
    knobs: dict


@lru_cache(maxsize=8)
def lines(n: int) -> tuple[tuple[int, ...], ...]:
    """Every row, column and both diagonals of an n x n board, as tile indices."""
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    return tuple(rows + cols + [tuple(i * n + i for i in range(n)), tuple(i * n + n - 1 - i for i in range(n))])


def full_lines(board, n: int) -> list[tuple[int, ...]]:
    return [ln for ln in lines(n) if len({board[i] for i in ln}) == 1]


def solving_swaps(board, n: int) -> list[tuple[int, int]]:
    """Every swap of two tiles holding different kinds after which some line is all one kind, sorted. A swap
    completes a line when the line holds one kind on all tiles but one and the swap brings that kind in
    from outside the line (a swap inside a line leaves it as it was)."""
    out = set()
    for ln in lines(n):
        for kind in {board[i] for i in ln}:
            odd = [i for i in ln if board[i] != kind]
            if len(odd) == 1:
                out.update(tuple(sorted((odd[0], j))) for j in range(n * n) if board[j] == kind and j not in ln)
    return sorted(out)


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("grid_range", "kinds_range")) for k in row}
    n, k = knobs["grid"], knobs["kinds"]
    target, others = pick_kinds(rng, k - 1, knobs["similar"])
    palette = [o.key for o in others]
    all_lines = lines(n)
    diagonal = rng.random() < knobs["diagonal"]
    choices = all_lines[-2:] if diagonal else all_lines[:-2]
    for _ in range(TRIES):
        line = choices[int(rng.integers(len(choices)))]
        hole = line[int(rng.integers(n))]
        outside = [i for i in range(n * n) if i not in line]
        spare = outside[int(rng.integers(len(outside)))]
        # the other kinds fill the remaining tiles in near-equal numbers, so that none of them is
        # common enough to make a line of its own
        rest = [i for i in range(n * n) if i != spare and (i == hole or i not in line)]
        fill = [palette[j % len(palette)] for j in range(len(rest))]
        board = [target.key] * (n * n)
        for i, j in zip(rest, rng.permutation(len(rest))):
            board[i] = fill[int(j)]
        if not full_lines(board, n) and solving_swaps(board, n) == [tuple(sorted((hole, spare)))]:
            break
    else:
        raise Reject(f"{NAME}.no_unique_board")
    tilt = row["tilt_range"][1]
    tilts = tuple(float(rng.uniform(-turn_limit(key, tilt), turn_limit(key, tilt))) if turn_limit(key, tilt) else 0.0
                  for key in board)
    base = rng.integers(215, 250, 3)
    jitter = rng.integers(-12, 13, (len(board), 3))      # one draw: the same numbers as three per tile
    tints = tuple(map(tuple, np.clip(base + jitter, 0, 255).tolist()))
    knobs["kinds"] = float(k)
    knobs["diagonal"] = float(diagonal)
    return Params(size=size, target=target.key, grid=n, board=tuple(board), tilts=tilts, tints=tints,
                  icon=knobs["icon"], clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: how many different icon kinds the board holds."""
    return float(len(set(params.board)))


def layout(size: tuple[int, int], n: int) -> tuple[list[tuple[int, int, int, int]], int]:
    """Tile boxes (x0, y0, x1, y1), row-major, centred on the puzzle, and the tile side."""
    w, h = size
    side = min(w, h)
    margin, gap = round(side * 0.05), max(3, round(side * 0.025))
    t = (side - 2 * margin - (n - 1) * gap) // n
    ox = (w - (n * t + (n - 1) * gap)) // 2
    oy = (h - (n * t + (n - 1) * gap)) // 2
    return [(ox + c * (t + gap), oy + r * (t + gap), ox + c * (t + gap) + t, oy + r * (t + gap) + t)
            for r in range(n) for c in range(n)], t


def plate(params: Params) -> tuple[np.ndarray, np.ndarray]:
    """The board without icons (uint8 RGB) and its instance map (tile id per card pixel)."""
    w, h = params.size
    boxes, t = layout(params.size, params.grid)
    ground = draw.background(np.random.default_rng(params.bg_seed), (w + 1) // 2, (h + 1) // 2, params.clutter * 0.8)
    rgb = cv2.resize(ground, (w, h), interpolation=cv2.INTER_LINEAR)          # soft ground, drawn at half size
    inst = np.zeros((h, w), np.uint8)
    a = card_alpha(t)
    on = a >= 0.5
    shadow = card_shadow(t)
    grain = draw.background(np.random.default_rng(params.bg_seed + 1), t, t, 1.0).astype(np.float32)
    grain = (grain - grain.mean()) * (0.35 * params.clutter)
    black = np.zeros((t, t, 3), np.uint8)
    d = max(1, t // 40)
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        rgb[y0 + d:y1 + d, x0 + d:x1 + d] = cv2.blendLinear(rgb[y0 + d:y1 + d, x0 + d:x1 + d], black, shadow,
                                                            1 - shadow)
        card = cv2.convertScaleAbs(cv2.add(grain, (*params.tints[i], 0)))     # grain + tint, per channel
        rgb[y0:y1, x0:x1] = over(card, rgb[y0:y1, x0:x1], a)
        inst[y0:y1, x0:x1][on] = i + 1
    return rgb, inst


def render(params: Params) -> Puzzle:
    boxes, t = layout(params.size, params.grid)
    plate_rgb, inst = plate(params)
    rgb = plate_rgb.copy()
    card_area = int((card_alpha(t) >= 0.5).sum())     # the cards do not touch: each keeps all its pixels
    meta, full = {}, {}
    for i, (x0, y0, *_) in enumerate(boxes):
        spr, o = icon_sprite(params.board[i], t, params.icon, params.tilts[i])
        s = spr.shape[0]
        region = rgb[y0 + o:y0 + o + s, x0 + o:x0 + o + s]      # blending with alpha 0 leaves the rest as it is
        region[:] = over(cv2.cvtColor(spr, cv2.COLOR_RGBA2RGB), region, UNIT[spr[..., 3]])
        kind = kind_by_key(params.board[i])
        meta[i + 1] = {"role": "tile", "label": kind.en, "kind": kind.key}
        full[i + 1] = card_area
    return Puzzle(rgb, inst, full, meta, extras={"tiles": boxes, "tile_side": t, "plate": plate_rgb})


def _differs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two RGB images differ clearly: their largest channel difference is over DIFFERS."""
    d = cv2.absdiff(a, b)
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2]) > DIFFERS


def small_tiles(rgb: np.ndarray, boxes, m: int) -> np.ndarray:
    """Every tile (equal squares) shrunk to m x m by INTER_AREA, in one resize of the tiles stacked in a column
    (each tile's output rows take source rows of that tile only: the same pixels as one resize per tile)."""
    stack = np.concatenate([rgb[y0:y1, x0:x1] for x0, y0, x1, y1 in boxes])
    return cv2.resize(stack, (m, m * len(boxes)), interpolation=cv2.INTER_AREA).reshape(len(boxes), m, m, 3)


def read_board(params: Params, puzzle: Puzzle) -> tuple[list[str], float]:
    """The kind shown on every tile, read from the pixels: each kind's icon is drawn on the empty card in the
    tile's pose and compared with the tile (at READ_SIDE pixels a side); the error is the share of the icon's
    area whose pixels differ clearly. Returns the best kind per tile and the smallest margin between the
    best and the next-best kind's error over all tiles."""
    boxes = puzzle.extras["tiles"]
    m = min(READ_SIDE, puzzle.extras["tile_side"])
    kinds = sorted(set(params.board))
    k = len(kinds)
    read, margin = [], float("inf")
    shown_all, card_all = (small_tiles(img, boxes, m) for img in (puzzle.rgb, puzzle.extras["plate"]))
    for i, (shown, card) in enumerate(zip(shown_all, card_all)):
        # every kind's icon has the same size and pose, so the same box; outside it each expected tile is the
        # bare card, so the pixels there differ alike for every kind and are counted once
        sprites = [icon_sprite(key, m, params.icon, params.tilts[i]) for key in kinds]
        o, s = sprites[0][1], sprites[0][0].shape[0]
        box = (slice(o, o + s), slice(o, o + s))
        differs_bare = _differs(shown, card)
        outside = int(differs_bare.sum()) - int(differs_bare[box].sum())
        icons = np.concatenate([spr for spr, _ in sprites])                               # (k * s, s, 4)
        expect = over(cv2.cvtColor(icons, cv2.COLOR_RGBA2RGB), np.tile(card[box], (k, 1, 1)), UNIT[icons[..., 3]])
        differs = _differs(np.tile(shown[box], (k, 1, 1)), expect).reshape(k, s * s)
        errors = (differs.sum(axis=1) + outside) / np.maximum((icons[..., 3] >= 128).reshape(k, -1).sum(axis=1), 1)
        order = np.argsort(errors)
        read.append(kinds[int(order[0])])
        margin = min(margin, float(errors[order[1]] - errors[order[0]]))
    return read, margin


def solve(params: Params, puzzle: Puzzle) -> Task:
    n = params.grid
    board, margin = read_board(params, puzzle)
    if board != list(params.board):
        raise Reject(f"{NAME}.icon_misread")
    if margin < MIN_KIND_MARGIN:
        raise Reject(f"{NAME}.icons_confusable")
    if full_lines(board, n):
        raise Reject(f"{NAME}.line_already_full")
    swaps = solving_swaps(board, n)
    if not swaps:
        raise Reject(f"{NAME}.no_solution")
    if len(swaps) > 1:
        raise Reject(f"{NAME}.several_solutions")
    cells = list(swaps[0])
    boxes, objects = {}, []
    for i, m in puzzle.meta.items():
        x0, y0, x1, y1 = puzzle.extras["tiles"][i - 1]         # a card's pixels lie inside its tile
        on = (puzzle.instances[y0:y1, x0:x1] == i).view(np.uint8)
        bx, by, bw, bh = cv2.boundingRect(on)
        boxes[i] = [float(x0 + bx), float(y0 + by), float(x0 + bx + bw), float(y0 + by + bh)]
        mask = np.zeros(puzzle.instances.shape, bool)
        mask[y0:y1, x0:x1] = on
        objects.append({"id": i, "role": "target" if i - 1 in cells else "tile", "label": m["label"],
                        "bbox": boxes[i], "visible_fraction": round(cv2.countNonZero(on) / puzzle.full_area[i], 4),
                        "_mask": mask})
    ids = [c + 1 for c in cells]
    return Task(rule="click_set", answer={"cells": cells}, objects=objects, target_ids=ids,
                target_boxes=[boxes[i] for i in ids], points=[draw.inner_point(objects[i - 1]["_mask"]) for i in ids],
                partial_credit=False,
                checks={"kind_margin": round(margin, 4), "kinds": float(len(set(board))),
                        "solving_swaps": float(len(swaps))})


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "交换两个图块，使一行、一列或一条对角线上的图案全部相同：请依次点击这两个图块"
    return "Swap two tiles to make a full row, column or diagonal of the same icon: click the two tiles."
