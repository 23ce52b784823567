"""Match-3 (消消乐): a grid of icon tiles with no three alike in a row; exactly one swap of two neighbouring
tiles lines up three (or more) of a kind. Drag the tile that completes the line onto its neighbour."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.counting import pick_kinds
from synth.families.kit import draw
from synth.families.kit.cards import UNIT, card_alpha, icon_sprite, over
from synth.families.kit.icon_match import MIN_MARGIN, best_kinds, look_alike, read_icons
from synth.families.kit.kinds import kind_by_key

NAME = "match3"
DESCRIPTION = ("swap two neighbouring tiles to line up three alike: drag the tile that completes the line onto "
               "its neighbour")
COVERS = ("GeeTest:match",)
ANSWERS = ("drag",)             # synth.labels.reward step types of its tasks
GEOMETRIC_AUGMENT = False       # the drop point is judged by an exact displacement
STAT, STAT_DIRECTION = "number of tiles on the board", +1
RUN = 3
TOLERANCE = 0.4                 # accepted drop error, share of the tile pitch
TRIES = 40                      # boards filled per instance before giving up
TRAY = (31, 26, 47, 0)          # 65 % of the tray colour, added to 35 % of the ground

TABLE = LevelTable(NAME, knobs={
    "grid_range": "tiles per side",
    "kinds_range": "number of different icon kinds on the board",
    "similar_range": "probability that another kind looks like the line's kind (same category / shape / colour)",
    "icon_range": "icon size as a share of the tile side",
    "clutter_range": "texture strength of the board and the tiles, 0 to 1",
}, levels={
    1: {"grid_range": (3, 4), "kinds_range": (4, 4), "similar_range": (0.0, 0.0), "icon_range": (0.74, 0.8),
        "clutter_range": (0.0, 0.15)},
    2: {"grid_range": (5, 5), "kinds_range": (5, 5), "similar_range": (0.2, 0.2), "icon_range": (0.73, 0.79),
        "clutter_range": (0.15, 0.3)},
    3: {"grid_range": (6, 6), "kinds_range": (5, 6), "similar_range": (0.4, 0.4), "icon_range": (0.72, 0.78),
        "clutter_range": (0.3, 0.5)},
    4: {"grid_range": (7, 7), "kinds_range": (6, 6), "similar_range": (0.6, 0.6), "icon_range": (0.71, 0.77),
        "clutter_range": (0.45, 0.65)},
    5: {"grid_range": (8, 8), "kinds_range": (6, 7), "similar_range": (0.8, 0.8), "icon_range": (0.7, 0.76),
        "clutter_range": (0.6, 0.8)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                         # kind key of the line the move makes
    grid: int
    board: tuple[str, ...]              # kind key per tile, row-major
    move: tuple[int, int]               # the planted answer: (tile dragged, tile it is dropped on)
    tilts: tuple[float, ...]            # icon tilt per tile (0: match-3 icons stand upright)
    tints: tuple[tuple[int, int, int], ...]   # tile card colour per tile
    icon: float                         # icon size, share of the tile side
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- rules

@lru_cache(maxsize=8)
def runs(n: int) -> np.ndarray:
    """(k, RUN) tile indices of every run of RUN tiles in a row or column of an n x n board."""
    out = [[r * n + c + k for k in range(RUN)] for r in range(n) for c in range(n - RUN + 1)]
    out += [[(r + k) * n + c for k in range(RUN)] for r in range(n - RUN + 1) for c in range(n)]
    return np.array(out, np.int64).reshape(-1, RUN)


@lru_cache(maxsize=8)
def patterns(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every way one swap can make a run: (k, 3) tiles that must hold one kind (the run's two other tiles
    and the tile moved in), the tile moved (k,) and the tile it moves onto, the run's gap (k,)."""
    same, mover, gap = [], [], []
    for run in runs(n).tolist():
        for x in run:
            r, c = divmod(x, n)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                m = rr * n + cc
                if 0 <= rr < n and 0 <= cc < n and m not in run:
                    same.append([i for i in run if i != x] + [m])
                    mover.append(m)
                    gap.append(x)
    return np.array(same, np.int64), np.array(mover, np.int64), np.array(gap, np.int64)


def lines(board, n: int) -> list[int]:
    """Indices (into runs(n)) of the runs already all one kind."""
    b = np.asarray(board)
    v = b[runs(n)]
    return np.nonzero((v[:, 0] == v[:, 1]) & (v[:, 1] == v[:, 2]))[0].tolist()


def moves(board, n: int) -> list[tuple[int, int]]:
    """Every (tile dragged, tile dropped on) of two neighbours whose swap makes a run of the dragged tile's kind."""
    b = np.asarray(board)
    same, mover, gap = patterns(n)
    v = b[same]
    hit = (v[:, 0] == v[:, 1]) & (v[:, 1] == v[:, 2]) & (b[gap] != v[:, 0])
    return sorted(set(zip(mover[hit].tolist(), gap[hit].tolist())))


@lru_cache(maxsize=8)
def _constraints(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per tile, the pairs of other tiles that, holding its kind too, would make a run or a move."""
    out = [set() for _ in range(n * n)]
    triples = runs(n).tolist() + patterns(n)[0].tolist()
    for t in triples:
        for i in t:
            a, b = (j for j in t if j != i)
            out[i].add((a, b))
    return tuple(tuple(sorted(s)) for s in out)


def fill(rng: np.random.Generator, n: int, kinds: int) -> tuple[list[int], tuple[int, int]]:
    """A board of kind indices 0..kinds-1 (0 is the line's kind) with no run and exactly one move: one
    pattern is planted, then every other tile, in random order, takes a random kind that completes no run
    and no other move with the tiles set before it."""
    same, mover, gap = patterns(n)
    cons = _constraints(n)
    for _ in range(TRIES):
        k = int(rng.integers(len(mover)))
        board = [-1] * (n * n)
        for i in same[k]:
            board[i] = 0
        board[gap[k]] = int(rng.integers(1, kinds))
        planted = {frozenset(same[k].tolist())}
        order = [i for i in rng.permutation(n * n).tolist() if board[i] < 0]
        for i in order:
            banned = {board[a] for a, b in cons[i] if board[a] >= 0 and board[a] == board[b]
                      and frozenset((a, b, i)) not in planted}
            free = [v for v in range(kinds) if v not in banned]
            if not free:
                break
            board[i] = free[int(rng.integers(len(free)))]
        else:
            move = (int(mover[k]), int(gap[k]))
            if not lines(board, n) and moves(board, n) == [move]:
                return board, move
    raise Reject(f"{NAME}.no_unique_board")


# ---------------------------------------------------------------- sampling

def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("grid_range", "kinds_range")) for k in row}
    n, k = knobs["grid"], knobs["kinds"]
    for _ in range(20):
        target, others = pick_kinds(rng, k - 1, knobs["similar"])
        palette = [target.key] + [o.key for o in others]
        if not any(look_alike(a, b) for i, a in enumerate(palette) for b in palette[i + 1:]):
            break
    else:
        raise Reject(f"{NAME}.look_alike_kinds")
    cells, move = fill(rng, n, k)
    board = tuple(palette[v] for v in cells)
    base = rng.integers(215, 250, 3)
    jitter = rng.integers(-12, 13, (n * n, 3))
    tints = tuple(map(tuple, np.clip(base + jitter, 0, 255).tolist()))
    knobs["kinds"] = float(k)
    return Params(size=size, target=target.key, grid=n, board=board, move=move, tilts=(0.0,) * (n * n),
                  tints=tints, icon=knobs["icon"], clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)),
                  knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of tiles on the board."""
    return float(params.grid ** 2)


# ---------------------------------------------------------------- drawing

def layout(size: tuple[int, int], n: int) -> tuple[list[tuple[int, int, int, int]], int, int]:
    """Tile boxes (x0, y0, x1, y1), row-major, centred on the puzzle, the tile side and the pitch."""
    w, h = size
    side = min(w, h)
    margin, gap = round(side * 0.05), max(2, round(side * 0.012))
    t = (side - 2 * margin - (n - 1) * gap) // n
    p = t + gap
    ox, oy = (w - (n * t + (n - 1) * gap)) // 2, (h - (n * t + (n - 1) * gap)) // 2
    return [(ox + c * p, oy + r * p, ox + c * p + t, oy + r * p + t) for r in range(n) for c in range(n)], t, p


def plate(params: Params) -> tuple[np.ndarray, np.ndarray]:
    """The board without icons (uint8 RGB) and its instance map (tile id per card pixel): a dark tray
    holding the cards, on a textured ground."""
    w, h = params.size
    boxes, t, _ = layout(params.size, params.grid)
    ground = draw.background(np.random.default_rng(params.bg_seed), (w + 1) // 2, (h + 1) // 2, params.clutter)
    rgb = cv2.resize(ground, (w, h), interpolation=cv2.INTER_LINEAR)
    x0, y0 = boxes[0][:2]
    x1, y1 = boxes[-1][2:]
    pad = max(3, t // 6)
    tray = rgb[max(0, y0 - pad):y1 + pad, max(0, x0 - pad):x1 + pad]
    tray[:] = cv2.add(cv2.convertScaleAbs(tray, alpha=0.35), TRAY)
    inst = np.zeros((h, w), np.uint8)
    a = card_alpha(t)
    on = a >= 0.5
    grain = draw.background(np.random.default_rng(params.bg_seed + 1), t, t, 1.0).astype(np.float32)
    grain = (grain - grain.mean()) * (0.15 * params.clutter)      # faint: the degradations add their own grain
    # every card into one layer, blended onto the tray at once
    cards = np.zeros((h, w, 3), np.uint8)
    cover = np.zeros((h, w), np.float32)
    for i, (bx0, by0, bx1, by1) in enumerate(boxes):
        cards[by0:by1, bx0:bx1] = cv2.convertScaleAbs(cv2.add(grain, (*params.tints[i], 0)))
        cover[by0:by1, bx0:bx1] = a
        inst[by0:by1, bx0:bx1][on] = i + 1
    return over(cards, rgb, cover), inst


def render(params: Params) -> Puzzle:
    w, h = params.size
    boxes, t, _ = layout(params.size, params.grid)
    plate_rgb, inst = plate(params)
    card_area = int((card_alpha(t) >= 0.5).sum())     # the cards do not touch: each keeps all its pixels
    meta, full = {}, {}
    icons = np.zeros((h, w, 3), np.uint8)
    cover = np.zeros((h, w), np.float32)
    drawn = {}
    for i, (x0, y0, *_) in enumerate(boxes):
        key = params.board[i]
        if key not in drawn:
            spr, o = icon_sprite(key, t, params.icon, 0.0)
            drawn[key] = cv2.cvtColor(spr, cv2.COLOR_RGBA2RGB), UNIT[spr[..., 3]], o
        rgb, a, o = drawn[key]
        s = rgb.shape[0]
        icons[y0 + o:y0 + o + s, x0 + o:x0 + o + s] = rgb
        cover[y0 + o:y0 + o + s, x0 + o:x0 + o + s] = a
        kind = kind_by_key(key)
        role = "target" if i == params.move[0] else ("slot" if i == params.move[1] else "tile")
        meta[i + 1] = {"role": role, "label": kind.en, "kind": kind.key}
        full[i + 1] = card_area
    rgb = over(icons, plate_rgb, cover)
    return Puzzle(rgb, inst, full, meta, extras={"tiles": boxes, "tile_side": t, "plate": plate_rgb})


# ---------------------------------------------------------------- verification

def read_board(params: Params, puzzle: Puzzle) -> tuple[list[str], float]:
    """The kind shown on every tile, read from the pixels (see _icons.read_icons), and the smallest margin
    between the best and the next-best kind over all tiles."""
    kinds = sorted(set(params.board))
    t = puzzle.extras["tile_side"]
    sprites = [icon_sprite(key, t, params.icon, 0.0) for key in kinds]
    o, s = sprites[0][1], sprites[0][0].shape[0]
    boxes = [(x0 + o, y0 + o) for x0, y0, _, _ in puzzle.extras["tiles"]]
    shown = np.stack([puzzle.rgb[y:y + s, x:x + s] for x, y in boxes])
    ground = np.stack([puzzle.extras["plate"][y:y + s, x:x + s] for x, y in boxes])
    best, margin = best_kinds(read_icons(shown, ground, np.stack([spr for spr, _ in sprites])))
    return [kinds[j] for j in best], margin


def solve(params: Params, puzzle: Puzzle) -> Task:
    n = params.grid
    if any(t != 0 for t in params.tilts):
        raise ValueError("match3 reads upright icons only")
    board, margin = read_board(params, puzzle)
    if board != list(params.board):
        raise Reject(f"{NAME}.icon_misread")
    if margin < MIN_MARGIN:
        raise Reject(f"{NAME}.icons_confusable")
    if lines(board, n):
        raise Reject(f"{NAME}.line_already_there")
    found = moves(board, n)
    if not found:
        raise Reject(f"{NAME}.no_solution")
    if len({frozenset(m) for m in found}) > 1:
        raise Reject(f"{NAME}.several_swaps")
    if len(found) > 1:          # the swap lines up both tiles: either could be the one dragged
        raise Reject(f"{NAME}.both_tiles_match")
    src, dst = found[0]
    if (src, dst) != params.move:
        raise Reject(f"{NAME}.move_mismatch")
    boxes, objects = {}, []
    masks = {}
    for i, m in puzzle.meta.items():
        x0, y0, x1, y1 = puzzle.extras["tiles"][i - 1]         # a card's pixels lie inside its tile
        on = (puzzle.instances[y0:y1, x0:x1] == i).view(np.uint8)
        bx, by, bw, bh = cv2.boundingRect(on)
        boxes[i] = [float(x0 + bx), float(y0 + by), float(x0 + bx + bw), float(y0 + by + bh)]
        masks[i] = (x0, y0, on)
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(cv2.countNonZero(on) / puzzle.full_area[i], 4)})
    a, b = src + 1, dst + 1
    x0, y0, on = masks[a]
    mask = np.zeros(puzzle.instances.shape, bool)
    mask[y0:y0 + on.shape[0], x0:x0 + on.shape[1]] = on.view(bool)
    start = draw.inner_point(mask)
    dx, dy = boxes[b][0] - boxes[a][0], boxes[b][1] - boxes[a][1]
    box = boxes[a]
    pitch = layout(params.size, n)[2]
    return Task(rule="drag", answer={"cells": [src, dst]}, objects=objects, target_ids=[a], target_boxes=[box],
                points=[start], end_boxes=[boxes[b]], end_points=[[start[0] + dx, start[1] + dy]],
                tolerance_px=TOLERANCE * pitch,
                checks={"kind_margin": round(margin, 4), "kinds": float(len(set(board))), "moves": float(len(found))})


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请把一个图案拖到相邻的图案上（两者互换位置），使拖动的图案与两个相同的图案连成一线"
    return ("Drag one icon onto a neighbouring icon (the two swap places) so that the dragged icon lines up "
            "three of a kind.")
