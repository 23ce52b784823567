"""Jigsaw swap (乱序拼图): a photo cut into a grid of tiles, two of them swapped; drag the first of the two (in
reading order: the accept rule judges one drag, so the instruction names its direction) onto the other to
put the picture back together. The swap is checked on the pixels: the seams round the two misplaced tiles
must be clearly worse than the picture's correct seams, and no other swap may repair the picture nearly
as well."""
from dataclasses import dataclass

import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, photos

NAME = "jigsaw"
DESCRIPTION = "a photo cut into tiles with two tiles swapped: drag the first misplaced tile onto the other"
COVERS = ("Dingxiang:jigsaw", "NetEase-Yidun:jigsaw")
ANSWERS = ("drag",)             # synth.labels.reward step types of its tasks
GEOMETRIC_AUGMENT = False       # the drag is judged against the tile boxes, which a warp would move
STAT, STAT_DIRECTION = "accepted drop error (share of the puzzle's shorter side)", -1
LINE = (246, 246, 246)          # the light lines between the tiles
MIN_STEP = 18.0                 # across a misplaced tile's seams the picture jumps on average by this (0..255) ...
MIN_SEAM = 2.0                  # ... and by this many times what it changes over as many pixels inside the tiles ...
MIN_SEAM_RATIO = 2.0            # ... and this many times as much as across the picture's correct seams (median)
SEAM_EPS = 3.0                  # grey levels added to the inside change (a flat area has next to none)
RUNNER_UP_MAX = 0.6             # any other swap repairs at most this share of what the true swap repairs
OTHER_MAX = 0.6                 # no other tile's own seams look this bad, relative to the misplaced tiles'
# Pictures on which a swap cannot be told apart (repeating patterns, near-uniform fills) stay out; subtle
# ones (soft, blurred or finely textured everywhere) come at the higher levels.
DENY = photos.FLAT + ("OneStandsOut", "firstgeneration", "analogpattern_by_Peter_Nerlich", "Path",
                       "MilkyWay", "the-mouse")
SUBTLE = ("Elephants", "life_by_Aitzol_Berasategi", "Dune", "Kleiber_by_Lukas_Baubkus",
          "friends_by_Aitzol_Berasategi", "GreenMeadow", "FreshFlower", "greentock_by_Peter_Nerlich",
          "Dragonfly_by_Bolly", "Picture_1A_by_freespace", "Autumn", "Bridge_by_Sander_Klootwijk",
          "aitzgorri_by_Aitzol_Berasategi", "Wine_by_Jakkub_Mede", "Grey", "FallenLeaf", "Blinds")

TABLE = LevelTable(NAME, knobs={
    "rows_range": "tile rows",
    "cols_range": "tile columns",
    "subtle_range": "probability that the photo is a subtle one (soft, blurred or finely textured)",
    "decoy_range": "probability of a decoy: a correctly placed tile whose brightness is slightly off",
    "decoy_gain_range": "how far the decoy's brightness is off, share",
    "tolerance_range": "accepted drop error, share of the shorter tile side",
}, levels={
    1: {"rows_range": (2, 2), "cols_range": (3, 3), "subtle_range": (0.0, 0.0), "decoy_range": (0.0, 0.0),
        "decoy_gain_range": (0.0, 0.0), "tolerance_range": (0.4, 0.4)},
    2: {"rows_range": (3, 3), "cols_range": (3, 3), "subtle_range": (0.15, 0.15), "decoy_range": (0.0, 0.0),
        "decoy_gain_range": (0.0, 0.0), "tolerance_range": (0.38, 0.38)},
    3: {"rows_range": (3, 3), "cols_range": (4, 4), "subtle_range": (0.3, 0.3), "decoy_range": (0.3, 0.3),
        "decoy_gain_range": (0.03, 0.04), "tolerance_range": (0.36, 0.36)},
    4: {"rows_range": (4, 4), "cols_range": (4, 4), "subtle_range": (0.45, 0.45), "decoy_range": (0.5, 0.5),
        "decoy_gain_range": (0.035, 0.05), "tolerance_range": (0.34, 0.34)},
    5: {"rows_range": (4, 4), "cols_range": (4, 4), "subtle_range": (0.6, 0.6), "decoy_range": (0.8, 0.8),
        "decoy_gain_range": (0.04, 0.06), "tolerance_range": (0.32, 0.32)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # "" (the sought things are the two swapped tiles)
    view: photos.View
    rows: int
    cols: int
    swap: tuple[int, int]       # the swapped tiles (row-major); the drag goes from the first to the second
    decoy: int                  # a correctly placed tile drawn slightly brighter or darker, -1 for none
    decoy_gain: float           # its brightness factor
    tolerance: float            # pixels
    knobs: dict


def layout(size: tuple[int, int], rows: int, cols: int) -> dict:
    """Tile geometry in puzzle pixels: tile side, the grid's top-left corner and the line width."""
    w, h = size
    tw, th = w // cols, h // rows
    return {"tile": (tw, th), "origin": ((w - cols * tw) // 2, (h - rows * th) // 2),
            "line": max(1, round(min(w, h) / 160))}


def tile_box(geo: dict, cols: int, t: int) -> tuple[int, int, int, int]:
    (tw, th), (ox, oy) = geo["tile"], geo["origin"]
    x0, y0 = ox + (t % cols) * tw, oy + (t // cols) * th
    return x0, y0, x0 + tw, y0 + th


def neighbours(rows: int, cols: int) -> list[tuple[int, int, bool]]:
    """Every pair of adjacent tiles (p, q, q is right of p rather than below it), row-major."""
    out = []
    for p in range(rows * cols):
        r, c = divmod(p, cols)
        if c + 1 < cols:
            out.append((p, p + 1, True))
        if r + 1 < rows:
            out.append((p, p + cols, False))
    return out


def enclosed(rows: int, cols: int, swap: tuple[int, int]) -> bool:
    """Whether some other tile has only the two swapped tiles as neighbours (its every seam would be wrong,
    so that it would look misplaced too)."""
    adj: dict[int, set] = {}
    for p, q, _ in neighbours(rows, cols):
        adj.setdefault(p, set()).add(q)
        adj.setdefault(q, set()).add(p)
    return any(t not in swap and adj[t] <= set(swap) for t in adj)


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {"rows": draw_knob(rng, row["rows_range"], integer=True),
             "cols": draw_knob(rng, row["cols_range"], integer=True),
             "subtle": draw_knob(rng, row["subtle_range"]), "decoy": draw_knob(rng, row["decoy_range"]),
             "decoy_gain": draw_knob(rng, row["decoy_gain_range"]),
             "tolerance": draw_knob(rng, row["tolerance_range"])}
    rows, cols = knobs["rows"], knobs["cols"]
    if size[0] < size[1]:           # a tall puzzle: more rows than columns
        rows, cols = max(rows, cols), min(rows, cols)
    n = rows * cols
    subtle = rng.random() < knobs["subtle"]
    keys = photos.choices(SUBTLE, DENY) if subtle else photos.choices(None, DENY + SUBTLE)
    view = photos.sample_view(rng, keys)
    while True:
        a, b = sorted(int(v) for v in rng.choice(n, 2, replace=False))
        if not enclosed(rows, cols, (a, b)):
            break
    decoy, gain = -1, 1.0
    if rng.random() < knobs["decoy"]:
        others = [t for t in range(n) if t not in (a, b)]
        decoy = others[int(rng.integers(len(others)))]
        gain = 1.0 + knobs["decoy_gain"] * (1 if rng.random() < 0.5 else -1)
    tw, th = layout(size, rows, cols)["tile"]
    knobs.update(rows=float(rows), cols=float(cols), subtle=float(subtle), decoy=float(decoy >= 0))
    return Params(size=size, target="", view=view, rows=rows, cols=cols, swap=(a, b), decoy=decoy,
                  decoy_gain=round(gain, 4), tolerance=round(knobs["tolerance"] * min(tw, th), 2), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the accepted drop error as a share of the puzzle's shorter side (it shrinks with
    the tiles, which grow in number with the level)."""
    return params.tolerance / min(params.size)


def render(params: Params) -> Puzzle:
    w, h = params.size
    geo = layout(params.size, params.rows, params.cols)
    photo = photos.image(params.view, w, h)
    rgb = np.empty_like(photo)
    rgb[...] = LINE                             # the rim the grid leaves when the size does not divide
    inst = np.zeros((h, w), np.uint8)
    a, b = params.swap
    shows = {a: b, b: a}                        # tile position -> tile of the photo it shows
    n = params.rows * params.cols
    for t in range(n):
        x0, y0, x1, y1 = tile_box(geo, params.cols, t)
        sx0, sy0, sx1, sy1 = tile_box(geo, params.cols, shows.get(t, t))
        rgb[y0:y1, x0:x1] = photo[sy0:sy1, sx0:sx1]
        inst[y0:y1, x0:x1] = t + 1
    if params.decoy >= 0:
        x0, y0, x1, y1 = tile_box(geo, params.cols, params.decoy)
        tile = rgb[y0:y1, x0:x1].astype(np.float32) * params.decoy_gain
        rgb[y0:y1, x0:x1] = np.clip(tile + 0.5, 0, 255).astype(np.uint8)
    lw = geo["line"]
    (tw, th), (ox, oy) = geo["tile"], geo["origin"]
    for c in range(1, params.cols):
        x = ox + c * tw - lw // 2
        rgb[:, x:x + lw] = LINE
        inst[:, x:x + lw] = 0
    for r in range(1, params.rows):
        y = oy + r * th - lw // 2
        rgb[y:y + lw] = LINE
        inst[y:y + lw] = 0
    counts = draw.instance_areas(inst)
    meta = {t + 1: {"role": "target" if t in params.swap else ("distractor" if t == params.decoy else "tile"),
                    "label": "tile", "kind": ""} for t in range(n)}
    return Puzzle(rgb, inst, {i: int(counts[i]) for i in meta}, meta, extras={"layout": geo})


# ---------------------------------------------------------------- verification

def seam_costs(puzzle: Puzzle, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Seam dissimilarity between every two tiles as shown, for tile j standing right of tile i (`right[i, j]`)
    and below it (`below[i, j]`): the mean absolute difference (0..255) between the pixel columns (rows)
    that would face each other across the line, one pixel in from each tile's edge (raw), and that
    difference over the one between pixels as far apart inside each tile (normalised: about 1 across a
    correct seam, whatever the texture; SEAM_EPS keeps smooth areas from inflating it).
    Returns (right, below, right_raw, below_raw)."""
    geo = puzzle.extras["layout"]
    lw = geo["line"]
    lo, hi = lw - lw // 2, lw // 2              # pixels the lines take at a tile's start and end sides
    d = lw + 1                                  # the distance between the facing pixels
    tw, th = geo["tile"]
    iy, ix = slice(lw, th - lw), slice(lw, tw - lw)      # off the crossing lines
    tiles = [puzzle.rgb[y0:y1, x0:x1] for x0, y0, x1, y1 in (tile_box(geo, cols, t) for t in range(rows * cols))]
    def band(index) -> np.ndarray:
        return np.stack([t[index] for t in tiles]).astype(np.float32)
    left, left_in = band((iy, lo)), band((iy, lo + d))
    right, right_in = band((iy, tw - 1 - hi)), band((iy, tw - 1 - hi - d))
    top, top_in = band((lo, ix)), band((lo + d, ix))
    bottom, bottom_in = band((th - 1 - hi, ix)), band((th - 1 - hi - d, ix))
    def inner(a, b):
        return np.abs(a - b).mean(axis=(1, 2))
    right_raw = np.abs(right[:, None] - left[None]).mean(axis=(2, 3))
    below_raw = np.abs(bottom[:, None] - top[None]).mean(axis=(2, 3))
    right_n = right_raw / (0.5 * (inner(right, right_in)[:, None] + inner(left, left_in)[None]) + SEAM_EPS)
    below_n = below_raw / (0.5 * (inner(bottom, bottom_in)[:, None] + inner(top, top_in)[None]) + SEAM_EPS)
    return right_n, below_n, right_raw, below_raw


def repairs(right: np.ndarray, below: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """gain[i, j]: how much swapping tiles i and j lowers the sum of the seam costs (i < j; 0 elsewhere)."""
    n = rows * cols
    seams = neighbours(rows, cols)
    # at[x, p]: the cost of the seams round position p if tile x stood there among the tiles as shown
    at = np.zeros((n, n), np.float64)
    for p, q, h in seams:
        m = right if h else below
        at[:, p] += m[:, q]
        at[:, q] += m[p, :]
    own = np.diag(at)
    gain = own[:, None] + own[None, :] - at.T - at      # at.T[i, j] = at[j, i]: tile j moved to position i
    for p, q, h in seams:        # adjacent tiles share a seam, which the sums above count wrongly
        m = right if h else below
        old = own[p] + own[q] - m[p, q]
        new = at[q, p] - m[q, q] + at[p, q] - m[p, p] + m[q, p]
        gain[p, q] = old - new
    return np.triu(gain, 1)


def tile_objects(puzzle: Puzzle, rows: int, cols: int) -> list[dict]:
    """The tiles as the label lists them: box measured on the instance map within each tile (tiles never
    overlap, so each is wholly visible)."""
    geo = puzzle.extras["layout"]
    out = []
    for t in range(rows * cols):
        x0, y0, x1, y1 = tile_box(geo, cols, t)
        box = draw.mask_box(puzzle.instances[y0:y1, x0:x1] == t + 1)
        m = puzzle.meta[t + 1]
        out.append({"id": t + 1, "role": m["role"], "label": m["label"],
                    "bbox": [box[0] + x0, box[1] + y0, box[2] + x0, box[3] + y0], "visible_fraction": 1.0})
    return out


def solve(params: Params, puzzle: Puzzle) -> Task:
    rows, cols = params.rows, params.cols
    a, b = params.swap
    if enclosed(rows, cols, params.swap):
        raise Reject(f"{NAME}.tile_enclosed")
    right, below, right_raw, below_raw = seam_costs(puzzle, rows, cols)
    seams = [(p, q, float((right if h else below)[p, q])) for p, q, h in neighbours(rows, cols)]
    raw = [(p, q, float((right_raw if h else below_raw)[p, q])) for p, q, h in neighbours(rows, cols)]
    correct = [c for p, q, c in seams if not {p, q} & {a, b}]
    if not correct:
        raise Reject(f"{NAME}.no_correct_seam")
    typical = float(np.median(correct))
    def mean(values: list[float]) -> float:
        return sum(values) / len(values)
    misplaced = min(mean([c for p, q, c in seams if t in (p, q)]) for t in (a, b))
    step = min(mean([c for p, q, c in raw if t in (p, q)]) for t in (a, b))
    if step < MIN_STEP or misplaced < max(MIN_SEAM, MIN_SEAM_RATIO * typical):
        raise Reject(f"{NAME}.swap_not_visible")
    gains = repairs(right, below, rows, cols)
    true_gain = float(gains[a, b])
    gains[a, b] = -np.inf
    runner_up = float(gains[np.triu_indices(rows * cols, 1)].max())
    if true_gain <= 0 or runner_up > RUNNER_UP_MAX * true_gain:
        raise Reject(f"{NAME}.another_swap_fits")
    # every other tile (the decoy among them) looks in place: its seams away from the swapped tiles are fine
    other = max((mean(own) for t in range(rows * cols) if t not in (a, b)
                 for own in [[c for p, q, c in seams if t in (p, q) and not {p, q} & {a, b}]] if own), default=0.0)
    if other > OTHER_MAX * misplaced:
        raise Reject(f"{NAME}.other_tile_looks_misplaced")
    geo = puzzle.extras["layout"]
    objects = tile_objects(puzzle, rows, cols)
    start_box, end_box = (list(map(float, tile_box(geo, cols, t))) for t in (a, b))
    x0, y0, x1, y1 = tile_box(geo, cols, a)
    start = [(x0 + x1) / 2, (y0 + y1) / 2]          # a tile's centre is off the lines
    dx, dy = (end_box[0] - start_box[0]), (end_box[1] - start_box[1])
    return Task(rule="drag", answer={"cells": [a, b]}, objects=objects, target_boxes=[start_box], points=[start],
                end_boxes=[end_box], end_points=[[start[0] + dx, start[1] + dy]], tolerance_px=params.tolerance,
                checks={"misplaced_seam": round(misplaced, 3), "correct_seam": round(typical, 3),
                        "misplaced_step": round(step, 3),
                        "seam_ratio": round(misplaced / max(typical, 1e-6), 3),
                        "runner_up_share": round(runner_up / true_gain, 4),
                        "other_tile_share": round(other / misplaced, 4)})


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "两个图块互换了位置：请把靠前的一块（按阅读顺序）拖到另一块上"
    return "Two tiles are swapped: drag the first (in reading order) onto the other one."
