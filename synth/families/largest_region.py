"""Largest region: the puzzle is cut into Voronoi cells of several colours; click the largest (or the
smallest) region, or the largest (smallest) one of a named colour. Areas are counted on the instance map,
and the answer must beat the runner-up by a margin that narrows with the level."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, geom

NAME = "largest_region"
DESCRIPTION = "click the largest (or smallest) region of a map of coloured cells, or the largest one of a named colour"
COVERS = ("OpenCaptchaWorld:Pick_Area",)
GEOMETRIC_AUGMENT = False      # a warp changes the areas being compared
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "area margin of the answer over the runner-up", -1
REGION_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "pink", "teal")
BORDER = 2.5               # px at 320: the light lines between cells
MIN_TARGET = 0.012         # the answer region covers at least this share of the puzzle ...
MIN_BOX = 12               # ... and holds a box this many px (at 320) on each side
MIN_CELL = 0.004           # no candidate smaller than this share (a sliver would hide at the border)
SEARCH = 7                 # boost steps tried per layout ...
SEARCH_GRID = 48           # ... with areas estimated on a grid of this many points a side

TABLE = LevelTable(NAME, knobs={
    "cells_range": "number of regions",
    "colours_range": "number of colours painted on the regions",
    "margin_range": "how much larger (smaller) the answer region is than the runner-up, as a share of its area",
    "smallest_range": "probability that the task asks for the smallest region instead of the largest",
    "named_range": "probability that the task names a colour (the largest blue region)",
    "shading_range": "strength of the shading and texture laid over the regions, 0 to 1",
}, levels={
    1: {"cells_range": (5, 6), "colours_range": (4, 4), "margin_range": (0.6, 1.2), "smallest_range": (0.0, 0.0),
        "named_range": (0.0, 0.0), "shading_range": (0.0, 0.0)},
    2: {"cells_range": (7, 9), "colours_range": (4, 5), "margin_range": (0.4, 0.6), "smallest_range": (0.25, 0.25),
        "named_range": (0.2, 0.2), "shading_range": (0.0, 0.15)},
    3: {"cells_range": (9, 12), "colours_range": (5, 6), "margin_range": (0.28, 0.4), "smallest_range": (0.35, 0.35),
        "named_range": (0.4, 0.4), "shading_range": (0.15, 0.3)},
    4: {"cells_range": (12, 15), "colours_range": (5, 7), "margin_range": (0.2, 0.28), "smallest_range": (0.4, 0.4),
        "named_range": (0.55, 0.55), "shading_range": (0.3, 0.45)},
    5: {"cells_range": (15, 18), "colours_range": (6, 8), "margin_range": (0.14, 0.2), "smallest_range": (0.5, 0.5),
        "named_range": (0.7, 0.7), "shading_range": (0.45, 0.6)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # "largest" / "smallest", with the colour when named: "largest blue"
    extreme: str                # "largest" | "smallest"
    colour: str                 # "" or the named colour
    min_margin: float           # the level's least margin: verification rejects below it
    seeds: tuple[tuple[float, float], ...]     # Voronoi sites, one per region
    colours: tuple[str, ...]    # colour name of each region
    answer: int                 # index of the region sampled as the answer
    shading: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- geometry

def _subdiv(seeds, w: int, h: int) -> cv2.Subdiv2D:
    sub = cv2.Subdiv2D((-1, -1, w + 2, h + 2))
    sub.insert(np.asarray(seeds, np.float32))
    return sub


def cells(seeds, w: int, h: int, sub: cv2.Subdiv2D | None = None) -> list[np.ndarray]:
    """The Voronoi cell (convex polygon, float32 (n, 2)) of every site, clipped to the puzzle."""
    facets, _ = (sub or _subdiv(seeds, w, h)).getVoronoiFacetList([])     # in the order of the sites
    if len(facets) != len(seeds):
        raise Reject(f"{NAME}.degenerate_sites")
    rect = _rect(w, h)
    out = []
    for f in facets:
        step = np.abs(f - f[np.arange(-1, len(f) - 1)]).sum(1)
        if (step < 1e-3).any():          # co-circular sites repeat vertices
            f = f[step >= 1e-3] if (step >= 1e-3).any() else f[:1]
        if f.min() >= 0 and f[:, 0].max() <= w and f[:, 1].max() <= h:
            out.append(f)
            continue
        area, poly = cv2.intersectConvexConvex(f, rect)
        out.append(poly.reshape(-1, 2) if poly is not None and area > 0 else np.zeros((0, 2), np.float32))
    return out


@lru_cache(maxsize=4)
def _rect(w: int, h: int) -> np.ndarray:
    out = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    out.setflags(write=False)
    return out


def areas(polys) -> np.ndarray:
    return np.array([cv2.contourArea(p) if len(p) >= 3 else 0.0 for p in polys])


def neighbours(seeds, w: int, h: int, sub: cv2.Subdiv2D | None = None) -> set[tuple[int, int]]:
    """Pairs of sites joined by a Delaunay edge: every two cells that share an edge (and a few that only
    would beyond the puzzle's border)."""
    index = {(float(np.float32(x)), float(np.float32(y))): i for i, (x, y) in enumerate(seeds)}
    out = set()
    for x0, y0, x1, y1 in (sub or _subdiv(seeds, w, h)).getEdgeList():
        a, b = index.get((float(x0), float(y0))), index.get((float(x1), float(y1)))
        if a is not None and b is not None:
            out.add((min(a, b), max(a, b)))
    return out


@lru_cache(maxsize=4)
def _grid(w: int, h: int) -> np.ndarray:
    """Centres (n, 2) of a coarse grid of sample points over the puzzle (read-only)."""
    g = SEARCH_GRID
    ys, xs = np.mgrid[:g, :g]
    out = np.stack([(xs.ravel() + 0.5) * w / g, (ys.ravel() + 0.5) * h / g], 1).astype(np.float32)
    out.setflags(write=False)
    return out


def coarse_areas(seeds: np.ndarray, w: int, h: int) -> np.ndarray:
    """Cell areas (px) estimated on a coarse grid: which site each sample point is nearest to."""
    pts = _grid(w, h)
    s = seeds.astype(np.float32)
    d = (pts[:, None, 0] - s[None, :, 0]) ** 2 + (pts[:, None, 1] - s[None, :, 1]) ** 2
    return np.bincount(np.argmin(d, 1), minlength=len(seeds)) * (w * h / len(pts))


def margin(values: np.ndarray, winner: int, extreme: str) -> float:
    """How much the winner beats the runner-up: (larger / smaller) - 1, negative when it does not win."""
    rest = np.delete(values, winner)
    if extreme == "largest":
        return float(values[winner] / max(rest.max(), 1e-9) - 1)
    return float(rest.min() / max(values[winner], 1e-9) - 1)


def _boosted(seeds: np.ndarray, winner: int, extreme: str, b: float, spacing: float, w: int, h: int) -> np.ndarray:
    """Sites moved so that the winner wins by more as `b` (-1..1) rises: its cell grows as the sites round it
    are pushed out of a disc (largest, b > 0; smallest, b < 0) or shrinks as they are drawn in towards it."""
    grow = b if extreme == "largest" else -b
    out = seeds.copy()
    p = seeds[winner]
    d = out - p
    dist = np.hypot(*d.T)
    others = np.arange(len(out)) != winner
    if grow > 0:
        r = grow * 1.6 * spacing
        near = (dist < r) & others
        out[near] = p + d[near] / np.maximum(dist[near, None], 1e-6) * r
    elif grow < 0:
        near = (dist < 1.6 * spacing) & others
        out[near] = p + d[near] * (1 + 0.55 * grow)
    out[:, 0] = np.clip(out[:, 0], 1, w - 1)
    out[:, 1] = np.clip(out[:, 1], 1, h - 1)
    return out


def _colour(rng, n: int, pairs: set, palette: list[str], fixed: dict[int, str]) -> list[str] | None:
    """A colour per cell, neighbours never alike; `fixed` cells keep theirs, the others avoid those colours
    in `fixed` that are named (no new candidates appear)."""
    adj = {i: set() for i in range(n)}
    for a, b in pairs:
        adj[a].add(b)
        adj[b].add(a)
    out = dict(fixed)
    banned = set(fixed.values())
    for i in sorted((i for i in range(n) if i not in fixed), key=lambda i: -len(adj[i])):
        ok = [c for c in palette if c not in banned and all(out.get(j) != c for j in adj[i])]
        if not ok:
            return None
        out[i] = ok[int(rng.integers(len(ok)))]
    if any(out[a] == out[b] for a, b in pairs):
        return None
    return [out[i] for i in range(n)]


def _sites(rng, n: int, w: int, h: int) -> np.ndarray:
    """n sites: n slots of a grid of about n cells, each site jittered within its slot."""
    cols = max(1, round(np.sqrt(n * w / h)))
    rows = -(-n // cols)
    slots = rng.choice(cols * rows, n, replace=False)
    r, c = np.divmod(slots, cols)
    jitter = rng.uniform(-0.42, 0.42, (n, 2))
    return np.stack([(c + 0.5 + jitter[:, 0]) * w / cols, (r + 0.5 + jitter[:, 1]) * h / rows], 1)


# ---------------------------------------------------------------- sampling

def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    knobs = {k[:-6]: draw_knob(rng, v, integer=k in ("cells_range", "colours_range")) for k, v in row.items()}
    n = knobs["cells"]
    lo, hi = row["margin_range"]
    want = knobs["margin"]
    extreme = "smallest" if rng.random() < knobs["smallest"] else "largest"
    named = rng.random() < knobs["named"]
    palette = [REGION_COLOURS[i] for i in rng.choice(len(REGION_COLOURS), knobs["colours"], replace=False)]
    spacing = np.sqrt(w * h / n)
    least = (MIN_CELL if extreme == "smallest" else 0.0) * w * h
    for _ in range(12):
        seeds = _sites(rng, n, w, h)
        colour, fixed = "", {}
        if named:     # the named colour on two to four cells no two of which touch
            pairs = neighbours(seeds, w, h)
            colour = palette[0]
            order = [int(i) for i in rng.permutation(n)]
            chosen = []
            for i in order:
                if all((min(i, j), max(i, j)) not in pairs for j in chosen):
                    chosen.append(i)
                if len(chosen) == min(4, 2 + level // 2):
                    break
            if len(chosen) < 2:
                continue
            fixed = dict.fromkeys(chosen, colour)
        cand = sorted(fixed) if named else list(range(n))
        start = coarse_areas(seeds, w, h)[cand]      # the cell closest to winning already
        winner = cand[int(np.argmax(start) if extreme == "largest" else np.argmin(start))]
        # the boost that brings the margin nearest the one wanted, by bisection on coarse areas
        best, lo_b, hi_b = None, -1.0, 1.0
        for _ in range(SEARCH):
            b = (lo_b + hi_b) / 2
            moved = _boosted(seeds, winner, extreme, b, spacing, w, h)
            m = margin(coarse_areas(moved, w, h)[cand], cand.index(winner), extreme)
            if lo <= m <= hi and (best is None or abs(m - want) < abs(best[0] - want)):
                best = (m, moved)
            if abs(m - want) <= 0.3 * (hi - lo):
                break
            if m < want:
                lo_b = b
            else:
                hi_b = b
        if best is None:
            continue
        moved = best[1]
        a = areas(cells(moved, w, h))             # the exact areas must agree
        m = margin(a[cand], cand.index(winner), extreme)
        if not (lo <= m <= hi and a[winner] >= MIN_TARGET * w * h and a[cand].min() >= least):
            continue
        colours = _colour(rng, n, neighbours(moved, w, h), palette[1:] if named else palette, fixed)
        if colours is None:
            continue
        knobs["margin"] = m
        return Params(size=size, target=f"{extreme} {colour}".strip(), extreme=extreme, colour=colour,
                      min_margin=float(lo), seeds=tuple((float(x), float(y)) for x, y in moved),
                      colours=tuple(colours), answer=winner, shading=knobs["shading"],
                      bg_seed=int(rng.integers(2**31)), knobs=knobs)
    raise Reject(f"{NAME}.no_layout")


def stat(params: Params) -> float:
    """Difficulty statistic: the answer's margin over the runner-up (share of the area)."""
    return params.knobs["margin"]


def border_px(side: int) -> int:
    """Width of the light lines between cells."""
    return max(2, round(BORDER * side / 320))


@lru_cache(maxsize=4)
def _ramp(w: int, h: int) -> np.ndarray:
    """(h, w, 3) uint8 diagonal grey ramp, 64 (top left) to 192 (bottom right), read-only."""
    ramp = np.linspace(0, 0.5, w)[None, :] + np.linspace(0, 0.5, h)[:, None]
    out = cv2.cvtColor(np.uint8(np.round(64 + 128 * ramp)), cv2.COLOR_GRAY2RGB)
    out.setflags(write=False)
    return out


def render(params: Params) -> Puzzle:
    w, h = params.size
    polys = cells(params.seeds, w, h)
    rgb = np.zeros((h, w, 3), np.uint8)
    inst = np.zeros((h, w), np.uint8)
    for i, (poly, colour) in enumerate(zip(polys, params.colours), start=1):
        pts = np.round(poly * 4).astype(np.int32)
        cv2.fillPoly(rgb, [pts], geom.rgb_of(colour), cv2.LINE_8, shift=2)
        cv2.fillPoly(inst, [pts], i, cv2.LINE_8, shift=2)
    if params.shading > 0:        # a light texture and a soft diagonal light over everything
        tex = draw.background(np.random.default_rng(params.bg_seed), w, h, 1.0)
        grey = cv2.cvtColor(cv2.cvtColor(tex, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
        rgb = cv2.addWeighted(rgb, 1.0, grey, 0.25 * params.shading, -0.25 * params.shading * 128)
        rgb = cv2.addWeighted(rgb, 1.0, _ramp(w, h), 0.22 * params.shading, -0.22 * params.shading * 128)
    width = border_px(min(w, h))
    for poly in polys:
        pts = np.round(poly * 4).astype(np.int32)
        cv2.polylines(rgb, [pts], True, (250, 250, 250), width, cv2.LINE_AA, shift=2)
        cv2.polylines(inst, [pts], True, 0, width + 1, cv2.LINE_8, shift=2)
    counts = draw.instance_areas(inst)
    full = {i: int(counts[i]) for i in range(1, len(polys) + 1)}
    meta = {i: {"role": "target" if i - 1 == params.answer else "distractor", "label": f"{c} region", "kind": c}
            for i, c in enumerate(params.colours, start=1)}
    return Puzzle(rgb, inst, full, meta)


# ---------------------------------------------------------------- verification

def touching(inst: np.ndarray, reach: int) -> set[tuple[int, int]]:
    """Pairs of instances (a < b) with pixels at most `reach` apart across, along or diagonally."""
    out = set()
    for dy, dx in ((0, reach), (reach, 0), (reach, reach), (reach, -reach)):
        h, w = inst.shape
        a = inst[:h - dy, max(0, -dx):w - max(0, dx)]
        b = inst[dy:, max(0, dx):w - max(0, -dx) if dx < 0 else w]
        b = b[:, :a.shape[1]]
        on = (a != b) & (a > 0) & (b > 0)
        codes = np.unique(np.minimum(a[on], b[on]).astype(np.int32) * 256 + np.maximum(a[on], b[on]))
        out.update((int(c) // 256, int(c) % 256) for c in codes)
    return out


def solve(params: Params, puzzle: Puzzle) -> Task:
    w, h = params.size
    side = min(w, h)
    objects = geom.objects_of(puzzle)
    if len(objects) != len(puzzle.meta):
        raise Reject(f"{NAME}.region_missing")
    area = draw.instance_areas(puzzle.instances)
    seen = {}
    reach = border_px(side) + 4       # further than the widest gap a border leaves in the instance map
    means = geom.mean_colours(puzzle.rgb, puzzle.instances, 2, {o["id"]: o["bbox"] for o in objects})
    for o in objects:
        i = o["id"]
        seen[i] = geom.colour_name(means.get(i), REGION_COLOURS)
        if seen[i] != puzzle.meta[i]["kind"]:
            raise Reject(f"{NAME}.colour_unclear")
    for a, b in touching(puzzle.instances, reach):      # two touching regions of one colour would read as one
        if seen[a] == seen[b]:
            raise Reject(f"{NAME}.same_colour_neighbours")
    cand = [o["id"] for o in objects if not params.colour or seen[o["id"]] == params.colour]
    if len(cand) < 2:
        raise Reject(f"{NAME}.too_few_candidates")
    values = np.array([float(area[i]) for i in cand])
    pick = int(np.argmax(values) if params.extreme == "largest" else np.argmin(values))
    t = cand[pick]
    got = margin(values, pick, params.extreme)
    if got < params.min_margin:
        raise Reject(f"{NAME}.too_close_to_call")
    if puzzle.meta[t]["role"] != "target":
        raise Reject(f"{NAME}.role_mismatch")
    if area[t] < MIN_TARGET * w * h:
        raise Reject(f"{NAME}.target_too_small")
    target = next(o for o in objects if o["id"] == t)
    box = geom.inscribed_box(target["_mask"])
    if box is None or min(box[2] - box[0], box[3] - box[1]) < MIN_BOX * side / 320:
        raise Reject(f"{NAME}.target_too_thin")
    if not geom.boxes_clear(objects, [box]):
        raise Reject(f"{NAME}.box_covers_another")
    point = [float((int(box[0]) + int(box[2])) // 2) + 0.5, float((int(box[1]) + int(box[3])) // 2) + 0.5]
    checks = {"margin": got, "regions": float(len(objects)), "candidates": float(len(cand)),
              "target_area": float(area[t]) / (w * h)}
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[t], target_boxes=[box],
                points=[point], partial_credit=False, checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        most = "最大" if params.extreme == "largest" else "最小"
        colour = geom.colour_zh(params.colour) if params.colour else ""
        return f"请点击面积{most}的{colour}区域"
    colour = f" {params.colour}" if params.colour else ""
    return f"Click the {params.extreme}{colour} region."
