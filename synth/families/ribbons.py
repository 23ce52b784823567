"""Illusory ribbons: closed ribbon loops woven over and under each other (each crossing drawn with a gap in the
lower ribbon); type how many separate loops there are. At higher levels all loops share one colour."""
import math
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit.crossings import pair_issue

NAME = "ribbons"
DESCRIPTION = "closed ribbon loops cross over and under each other; type how many separate loops there are"
ANSWERS = ("type",)             # synth.labels.reward step types of its tasks
COVERS = ("NextGenCAPTCHAs:Illusory_Ribbons", "VenusBench-CAPTCHA:visual_reasoning")
STAT, STAT_DIRECTION = "number of loops", +1
POINTS = 72                  # centreline points per loop
MIN_ANGLE = 50.0             # loops cross at least this steeply (degrees)
OUTLINE = 2                  # px at 320 of the dark edge on each side of a ribbon
HALO = 3                     # px at 320 of the gap the upper ribbon leaves in the lower one, each side
LONE = 0.25                  # chance that a new loop is placed anywhere rather than next to another one
MIN_CONTRAST = 40.0          # luma gap between the ribbons and the ground round them
CANDIDATES = 24              # places tried at once for a new loop
MIN_VISIBLE = 0.4            # every loop shows at least this share of itself (the rest: gaps under others)
PALETTE = ((220, 60, 50), (40, 110, 215), (40, 160, 80), (235, 170, 30), (150, 70, 190), (20, 160, 170),
           (225, 100, 160), (120, 90, 60))
EDGE = (45, 45, 52)
HALO_RGB = (250, 250, 248)

TABLE = LevelTable(NAME, knobs={
    "loops_range": "number of loops",
    "colours_range": "number of distinct ribbon colours (1: every loop looks alike)",
    "radius_range": "loop size: mean radius as a share of the puzzle's shorter side",
    "wobble_range": "how far a loop's outline departs from an ellipse (share of its radius)",
    "width_range": "ribbon width, px at 320",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"loops_range": (2, 3), "colours_range": (8, 8), "radius_range": (0.15, 0.19), "wobble_range": (0.03, 0.06),
        "width_range": (12, 13), "clutter_range": (0.0, 0.1)},
    2: {"loops_range": (3, 4), "colours_range": (3, 3), "radius_range": (0.13, 0.16), "wobble_range": (0.05, 0.08),
        "width_range": (11, 12), "clutter_range": (0.1, 0.2)},
    3: {"loops_range": (4, 5), "colours_range": (2, 2), "radius_range": (0.115, 0.135), "wobble_range": (0.06, 0.1),
        "width_range": (10, 11), "clutter_range": (0.15, 0.3)},
    4: {"loops_range": (5, 6), "colours_range": (1, 1), "radius_range": (0.1, 0.115), "wobble_range": (0.08, 0.12),
        "width_range": (9, 10), "clutter_range": (0.2, 0.35)},
    5: {"loops_range": (6, 7), "colours_range": (1, 1), "radius_range": (0.088, 0.1), "wobble_range": (0.09, 0.13),
        "width_range": (8, 9), "clutter_range": (0.25, 0.4)},
})


@dataclass(frozen=True)
class Loop:
    cx: float
    cy: float
    radius: float
    aspect: float                                   # minor / major axis
    turn: float                                     # radians
    harmonics: tuple[tuple[int, float, float], ...]  # (k, amplitude, phase) of the radius wobble
    rgb: tuple[int, int, int]


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                  # "" (the answer is a count)
    loops: tuple[Loop, ...]      # in drawing order (lowest first)
    # per crossing: (x, y, angle, lower loop, upper loop (drawing order), whether the lower one goes over there)
    crossings: tuple[tuple[float, float, float, int, int, bool], ...]
    width: int                   # ribbon fill width, px
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- geometry

def centreline(loop: Loop) -> np.ndarray:
    """(POINTS + 1, 2) points round a loop, the first repeated at the end. A polar curve with r > 0 and a
    linear map of it never crosses itself."""
    t = np.linspace(0, 2 * np.pi, POINTS + 1)
    r = np.ones_like(t)
    for k, a, p in loop.harmonics:
        r = r + a * np.sin(k * t + p)
    x, y = r * np.cos(t), loop.aspect * r * np.sin(t)
    c, s = math.cos(loop.turn), math.sin(loop.turn)
    return np.stack([loop.cx + loop.radius * (c * x - s * y), loop.cy + loop.radius * (s * x + c * y)], 1)


def total_width(width: int, side: int) -> float:
    return width + 2 * OUTLINE * side / 320


def reach(angle: float, width: int, side: int) -> float:
    """How far from a crossing's centre the two ribbons (with the gap round the upper one) overlap: the half
    diagonal of the rhombus two strips crossing at `angle` degrees make, plus a pixel or two."""
    strip = total_width(width, side) + 2 * HALO * side / 320
    return strip / 2 / math.sin(math.radians(angle) / 2) + 2


def _close(width: int, side: int) -> float:
    """pair_issue's line width for ribbons: it calls two centrelines close within 2.5 of it + 2 px."""
    return (total_width(width, side) + 2 * HALO * side / 320 + 2) / 2.5


def _opened(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two closed loops, each restarted at its point farthest from the other's middle: pair_issue reads them as
    open lines, and a stretch where they run close must not be split at a loop's first point."""
    out = []
    for loop, other in ((a, b), (b, a)):
        far = int(np.argmax(np.hypot(*(loop[:-1] - other[:-1].mean(0)).T)))
        ring = np.roll(loop[:-1], -far, axis=0)
        out.append(np.concatenate([ring, ring[:1]]))
    return out[0], out[1]


def loop_issue(c: np.ndarray, others: list[np.ndarray], found: list, width: int, side: int
               ) -> tuple[str | None, list]:
    """(reject reason or None, its crossings [(x, y, angle, other's index, len(others))]) of a loop added to
    `others` whose crossings so far are `found`: it crosses them steeply, never runs alongside or touches
    them or itself, and no third loop passes near any crossing."""
    lw = _close(width, side)
    near = 2.5 * lw + 2
    q = c[:-1:2]                       # every other point is close enough for the waist test
    d = np.hypot(*(q[:, None, :] - q[None, :, :]).transpose(2, 0, 1))
    idx = np.arange(len(q))
    apart = np.abs(idx[:, None] - idx[None, :])
    if (d[np.minimum(apart, len(q) - apart) > POINTS // 12] < near).any():
        return "pinched_loop", []
    lo, hi = c.min(0) - near, c.max(0) + near
    new = []
    for i, o in enumerate(others):
        if (o.max(0) < lo).any() or (o.min(0) > hi).any():
            continue
        reason, xs = pair_issue(*_opened(c, o), MIN_ANGLE, lw, side / 320)
        if reason:
            return reason, []
        new += [(x, y, ang, i, len(others)) for x, y, ang, _ in xs]
    wt = total_width(width, side)
    clear = wt + 2 * HALO * side / 320 + 4
    curves = others + [c]
    for x, y, _, i, j in new:
        # no third loop comes near a crossing (three ribbons never overlap in one place)
        for m, o in enumerate(curves):
            if m not in (i, j) and np.hypot(*(o - (x, y)).T).min() < clear:
                return "triple_crossing", []
    for x, y, *_ in found:       # nor does the new loop pass by an older crossing
        if np.hypot(*(c - (x, y)).T).min() < clear:
            return "triple_crossing", []
    return None, new


def close_pairs(crossings, width: int, side: int) -> list[tuple[int, int]]:
    """(a, b), a < b, of crossings of the same two loops near enough that redrawing one redraws the other."""
    out = []
    for b, cb in enumerate(crossings):
        for a, ca in enumerate(crossings[:b]):
            if (ca[3], ca[4]) == (cb[3], cb[4]) and math.hypot(ca[0] - cb[0], ca[1] - cb[1]) < \
                    reach(ca[2], width, side) + reach(cb[2], width, side) + total_width(width, side):
                out.append((a, b))
    return out


def layout_crossings(curves: list[np.ndarray], width: int, side: int) -> tuple[str | None, list]:
    """(reject reason or None, crossings [(x, y, angle, lower index, upper index)]) of loops in drawing order."""
    found: list = []
    for j in range(len(curves)):
        reason, new = loop_issue(curves[j], curves[:j], found, width, side)
        if reason:
            return reason, []
        found += new
    return None, found


# ---------------------------------------------------------------- sampling

def _reach(loop: Loop) -> tuple[float, float]:
    """(mean, largest) distance of a loop's outline from its centre (the largest an upper bound)."""
    wob = sum(a for _, a, _ in loop.harmonics)
    return loop.radius * (1 + loop.aspect) / 2, loop.radius * (1 + wob)


def _likely(d, mean_sum):
    """Whether loops whose centres lie `d` apart cross steeply: about one mean radius apart."""
    return (0.74 * mean_sum <= d) & (d <= 0.93 * mean_sum)


def spacing_ok(xy: np.ndarray, mean: float, big: float, placed: np.ndarray, near: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """For candidate centres (m, 2) of a loop with the given reaches: whether it would either cross each placed
    loop (rows cx, cy, mean, largest reach) steeply or keep well clear of it (a cheap test before the exact one),
    and how many it would cross."""
    if not len(placed):
        return np.ones(len(xy), bool), np.zeros(len(xy), int)
    d = np.hypot(xy[:, None, 0] - placed[None, :, 0], xy[:, None, 1] - placed[None, :, 1])
    likely = _likely(d, placed[None, :, 2] + mean)
    # clear: by the mean reaches (the exact test decides the close calls)
    return (likely | (d >= placed[None, :, 2] + mean + near)).all(1), likely.sum(1)


def _anchors(rng: np.random.Generator, placed: np.ndarray) -> list[tuple[int, list[float]]]:
    """The placed loops to put a new one next to, those with the fewest crossing neighbours first, each with
    the directions of the loops it crosses."""
    d = np.hypot(placed[:, None, 0] - placed[None, :, 0], placed[:, None, 1] - placed[None, :, 1])
    links = _likely(d, placed[:, None, 2] + placed[None, :, 2])
    np.fill_diagonal(links, False)
    count = links.sum(1)
    order = sorted(range(len(placed)), key=lambda a: (int(count[a]), float(rng.random())))
    return [(a, [math.atan2(placed[b, 1] - placed[a, 1], placed[b, 0] - placed[a, 0])
                 for b in np.flatnonzero(links[a])]) for a in order]


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    k = {name[:-6]: draw_knob(rng, row[name], integer=name in ("loops_range", "colours_range", "width_range"))
         for name in row}
    n = k["loops"]
    width = max(4, round(k["width"] * side / 320))
    margin = total_width(width, side) / 2 + 4
    near = 2.5 * _close(width, side) + 2
    bg_seed = int(rng.integers(2**31))
    ground = cv2.mean(cv2.cvtColor(draw.background(np.random.default_rng(bg_seed), w, h, k["clutter"]),
                                   cv2.COLOR_RGB2GRAY))[0]
    # colours that stand out from this ground
    pool = [c for c in PALETTE if abs(0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] - ground) >= 1.6 * MIN_CONTRAST]
    if not pool:
        raise Reject(f"{NAME}.low_contrast")
    colours = [pool[i] for i in rng.choice(len(pool), min(k["colours"], len(pool)), replace=False)]
    for _ in range(5):
        loops, curves, found, placed = [], [], [], np.zeros((0, 4))
        for i in range(n):
            anchors = _anchors(rng, placed) if len(loops) and level > 1 else []
            lone = bool(rng.random() < LONE)      # sometimes a loop anywhere: chains and loose loops mix
            for attempt in range(80):
                radius = side * draw_knob(rng, row["radius_range"])
                harmonics = tuple((int(rng.integers(2, 4)), round(float(rng.uniform(0.3, 1.0)) * k["wobble"], 4),
                                   round(float(rng.uniform(0, 2 * np.pi)), 4)) for _ in range(2))
                aspect = round(float(rng.uniform(0.72, 1.0)), 3)
                mean, big = radius * (1 + aspect) / 2, radius * (1 + sum(a for _, a, _ in harmonics))
                if anchors and attempt < 40 and not lone:
                    # next to a loop with few crossings, crossing it steeply, away from its neighbours
                    a, taken = anchors[(attempt // 4) % len(anchors)]
                    ox, oy, omean, _ = placed[a]
                    d = float(rng.uniform(0.8, 0.9)) * (omean + mean)
                    t = rng.uniform(0, 2 * np.pi, CANDIDATES)
                    xy = np.stack([ox + d * np.cos(t), oy + d * np.sin(t)], 1)
                    score = (np.abs((t[:, None] - np.array(taken)[None, :] + np.pi) % (2 * np.pi) - np.pi).min(1)
                             if taken else np.zeros(CANDIDATES))
                else:                         # anywhere (the first loop near the middle), clear of the others
                    lo, hi = (0.35, 0.65) if not loops and level > 2 else (0.15, 0.85)
                    xy = rng.uniform(lo, hi, (CANDIDATES, 2)) * (w, h)
                    score = np.zeros(CANDIDATES)
                lim = big + margin
                ok = (xy[:, 0] >= lim) & (xy[:, 0] <= w - lim) & (xy[:, 1] >= lim) & (xy[:, 1] <= h - lim)
                clear, crossed = spacing_ok(xy, mean, big, placed, near)
                ok &= clear & (crossed <= 1)      # one loop at most: where two cross, three ribbons would meet
                if not ok.any():
                    continue
                cx, cy = xy[int(np.argmax(np.where(ok, score, -1.0)))]
                loop = Loop(round(float(cx), 2), round(float(cy), 2), round(radius, 2), aspect,
                            round(float(rng.uniform(0, np.pi)), 4), harmonics,
                            colours[i % len(colours)] if len(colours) > 1 else colours[0])
                c = centreline(loop)
                reason, new = loop_issue(c, curves, found, width, side)
                if reason is None:
                    loops.append(loop)
                    curves.append(c)
                    found += new
                    placed = np.vstack([placed, [loop.cx, loop.cy, *_reach(loop)]])
                    break
            else:
                break
        if len(loops) == n:
            break
    else:
        raise Reject(f"{NAME}.no_layout")
    order = [int(i) for i in rng.permutation(n)]          # drawing order, and the colours shuffled with it
    loops = [loops[i] for i in order]
    pos = {o: p for p, o in enumerate(order)}
    ups = []
    for x, y, ang, i, j in found:
        lo, up = sorted((pos[i], pos[j]))
        ups.append([round(float(x), 3), round(float(y), 3), round(float(ang), 3), lo, up, bool(rng.random() < 0.5)])
    for a, b in close_pairs(ups, width, side):       # redrawn together, so both go the same way
        ups[b][5] = ups[a][5]
    ups = [tuple(u) for u in ups]
    k["crossings"] = float(len(found))
    return Params(size=size, target="", loops=tuple(loops), crossings=tuple(sorted(ups)), width=width,
                  clutter=k["clutter"],
                  bg_seed=bg_seed, knobs=k)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of loops."""
    return float(len(params.loops))


# ---------------------------------------------------------------- drawing

def _box(pts: np.ndarray, width: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The part of the puzzle a ribbon (with its edge and gap) can touch."""
    w, h = size
    pad = width / 2 + (OUTLINE + HALO) * min(w, h) / 320 + 3
    x0, y0 = (max(0, int(v - pad)) for v in pts.min(0))
    x1, y1 = (int(v + pad) + 2 for v in pts.max(0))
    return x0, y0, min(w, x1), min(h, y1)


def _strokes(box, pts: np.ndarray, width: int, side: int) -> tuple[np.ndarray, ...]:
    """Alpha planes (fill, fill + edge, fill + edge + gap) of a closed ribbon, over its box: each the band
    between the centreline pushed out and in by half its width (a loop bends far less tightly than that)."""
    x0, y0, x1, y1 = box
    p = pts[:-1] - (x0, y0)
    tangent = np.roll(p, -1, 0) - np.roll(p, 1, 0)
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], 1) / np.hypot(*tangent.T)[:, None]
    out = []
    for extra in (0.0, OUTLINE, OUTLINE + HALO):
        half = (width + 2 * extra * side / 320) / 2
        a = np.zeros((y1 - y0, x1 - x0), np.uint8)
        band = [np.round((p + s * half * normal) * 4).astype(np.int32) for s in (1, -1)]
        cv2.fillPoly(a, band, 255, cv2.LINE_AA, shift=2)      # two contours: the inner one is a hole
        out.append(a)
    return tuple(out)


def _paint(canvas: draw.Canvas, box, planes, rgb, instance: int, clip: np.ndarray | None = None) -> None:
    """Paint one ribbon (or its part inside `clip`) over its box: a light gap where it covers other ribbons,
    its dark edge, its fill; the instance map takes it wherever its edge or fill is solid."""
    x0, y0, x1, y1 = box
    region, inst = canvas.rgb[y0:y1, x0:x1], canvas.instances[y0:y1, x0:x1]
    fill, edged, halo = planes if clip is None else (cv2.min(p, clip) for p in planes)
    others = ((inst != 0) & (inst != instance)).view(np.uint8) * 255
    gap = cv2.min(halo, others)
    solid = np.empty_like(region)
    for alpha, colour in ((gap, HALO_RGB), (edged, EDGE), (fill, rgb)):
        solid[...] = colour
        region[...] = draw.blend(region, solid, alpha)
    inst[edged >= draw.ALPHA_ON] = instance
    inst[(gap >= draw.ALPHA_ON) & (edged < draw.ALPHA_ON)] = 0      # the gap is ground again


def render(params: Params) -> Puzzle:
    """Loops in drawing order (instances 1..n), then every flipped crossing's lower loop again inside a disc
    round the crossing, where the upper one lies. extras["crossings"]: (x, y, angle, lower, upper, id on top)."""
    w, h = params.size
    side = min(w, h)
    bg = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    canvas = draw.Canvas(draw.gaussian_blur(bg, 1.5 * side / 320))
    curves = [centreline(lp) for lp in params.loops]
    boxes = [_box(c, params.width, params.size) for c in curves]
    planes = [_strokes(b, c, params.width, side) for b, c in zip(boxes, curves)]
    meta = {}
    for i, (lp, box, pl) in enumerate(zip(params.loops, boxes, planes), start=1):
        _paint(canvas, box, pl, lp.rgb, i)
        canvas.full_area[i] = int(np.count_nonzero(pl[1] >= draw.ALPHA_ON))
        meta[i] = {"role": "target", "label": "ribbon loop", "kind": "loop"}
    out = []
    for x, y, ang, lo, up, flip in params.crossings:
        top = lo if flip else up
        if flip:
            x0, y0, x1, y1 = box = boxes[lo]
            clip = np.zeros((y1 - y0, x1 - x0), np.uint8)
            r = reach(ang, params.width, side)
            # a hard-edged clip: where it cuts across the lower ribbon, soft alpha would leave a seam of edge colour
            cv2.circle(clip, (round((x - x0) * 4), round((y - y0) * 4)), round(r * 4), 255, -1, cv2.LINE_8, shift=2)
            # only where the upper one lies: the lower loop's own edges stay as drawn
            ux0, uy0, ux1, uy1 = boxes[up]
            upper = np.zeros_like(clip)
            ix0, iy0, ix1, iy1 = max(x0, ux0), max(y0, uy0), min(x1, ux1), min(y1, uy1)
            if ix0 < ix1 and iy0 < iy1:
                upper[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0] = planes[up][2][iy0 - uy0:iy1 - uy0, ix0 - ux0:ix1 - ux0]
            # (grown by a pixel or two: the gap's soft edge, half painted over the lower loop, is painted again)
            upper = cv2.dilate(cv2.threshold(upper, 0, 255, cv2.THRESH_BINARY)[1], np.ones((5, 5), np.uint8))
            _paint(canvas, box, planes[lo], params.loops[lo].rgb, lo + 1, cv2.min(clip, upper))
        out.append((x, y, ang, lo, up, top + 1))
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta, extras={"crossings": out})


# ---------------------------------------------------------------- verification

def solve(params: Params, puzzle: Puzzle) -> Task:
    w, h = params.size
    side = min(w, h)
    inst = puzzle.instances
    curves = [centreline(lp) for lp in params.loops]
    reason, found = layout_crossings(curves, params.width, side)
    if reason:
        raise Reject(f"{NAME}.{reason}")
    # the crossings drawn are all the crossings there are
    if len(found) != len(params.crossings) or not all(
            any((c[3], c[4]) == (f[3], f[4]) and math.hypot(c[0] - f[0], c[1] - f[1]) < 1.0 for c in params.crossings)
            for f in found):
        raise Reject(f"{NAME}.crossings_mismatch")
    n = len(params.loops)
    areas = draw.instance_areas(inst)
    boxes = draw.instance_boxes(inst)
    worst_vis = 1.0
    for i in range(1, n + 1):
        if i not in boxes:
            raise Reject(f"{NAME}.loop_hidden")
        vis = float(areas[i]) / max(1, puzzle.full_area[i])
        worst_vis = min(worst_vis, vis)
        if vis < MIN_VISIBLE:
            raise Reject(f"{NAME}.loop_hidden")
    # the ribbons stand out from the ground
    ribbon = (inst >= 1) & (inst <= n)
    near = cv2.dilate(ribbon.view(np.uint8), np.ones((9, 9), np.uint8)) > 0
    luma = cv2.cvtColor(puzzle.rgb, cv2.COLOR_RGB2GRAY)
    ground = near & (inst == 0)
    contrast = abs(float(np.median(luma[ribbon])) - float(np.median(luma[ground]))) if ground.any() else 0.0
    if contrast < MIN_CONTRAST:
        raise Reject(f"{NAME}.low_contrast")
    # each loop shows along its whole length except where another one passes over it
    wt = total_width(params.width, side)
    xs_pts = np.array([(x, y) for x, y, *_ in puzzle.extras["crossings"]]).reshape(-1, 2)
    reaches = np.array([reach(ang, params.width, side) for _, _, ang, *_ in puzzle.extras["crossings"]])
    for i, c in enumerate(curves, start=1):
        p = np.floor(c[:-1]).astype(int)
        far = np.ones(len(p), bool) if not len(xs_pts) else \
            (np.hypot(*(c[:-1, None, :] - xs_pts[None]).transpose(2, 0, 1)) > 1.6 * reaches + 2).all(1)
        if (inst[p[far, 1], p[far, 0]] != i).any():
            raise Reject(f"{NAME}.loop_broken")
    drawn = puzzle.extras["crossings"]
    if any(drawn[a][5] != drawn[b][5] for a, b in close_pairs(drawn, params.width, side)):
        raise Reject(f"{NAME}.crossing_unclear")     # two crossings drawn as one must go the same way
    # at every crossing the upper ribbon runs through and the lower one shows a gap with both ends visible
    min_gap = np.inf
    partners = {}
    for a, b in close_pairs(drawn, params.width, side):
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    for m, (x, y, ang, lo, up, top) in enumerate(drawn):
        under = (up + 1) if top == lo + 1 else (lo + 1)
        if inst[int(y), int(x)] != top:
            raise Reject(f"{NAME}.crossing_unclear")
        c = curves[under - 1]
        k = int(np.argmin(np.hypot(*(c - (x, y)).T)))
        seg = np.r_[0, np.cumsum(np.hypot(*np.diff(np.r_[c[k:-1], c[:k + 1]], axis=0).T))]
        ring = np.r_[c[k:-1], c[:k + 1]]
        hidden = []
        r = reach(ang, params.width, side) + wt
        ahead = [r, r]          # how far to walk each way: past a partner crossing drawn with this one too
        for q in partners.get(m, []):
            px, py, pang = drawn[q][:3]
            s2 = seg[(int(np.argmin(np.hypot(*(c[:-1] - (px, py)).T))) - k) % (len(c) - 1)]
            extra = reach(pang, params.width, side) + wt
            if s2 <= seg[-1] / 2:
                ahead[0] = max(ahead[0], s2 + extra)
            else:
                ahead[1] = max(ahead[1], seg[-1] - s2 + extra)
        for (pts, arc), r in zip(((ring, seg), (ring[::-1], seg[-1] - seg[::-1])), ahead):
            # walk along the lower loop from the crossing: hidden at first, its own ribbon again before `r`
            steps = np.arange(0, r, 1.0)
            at = np.stack([np.interp(steps, arc, pts[:, 0]), np.interp(steps, arc, pts[:, 1])], 1).astype(int)
            ids = inst[at[:, 1], at[:, 0]]
            back = np.flatnonzero(ids == under)
            if ids[0] == under or not len(back):
                raise Reject(f"{NAME}.crossing_unclear")
            hidden.append(int(back[0]))
            # between the upper ribbon and where the lower one shows again lies its gap (bare ground)
            if not (ids[:back[0]] == 0).any():
                raise Reject(f"{NAME}.gap_too_small")
        min_gap = min(min_gap, min(hidden))
    objects = [{"id": i, "role": "target", "label": "ribbon loop", "bbox": boxes[i],
                "visible_fraction": round(float(areas[i]) / max(1, puzzle.full_area[i]), 4)} for i in range(1, n + 1)]
    checks = {"loops": float(n), "crossings": float(len(found)),
              "min_crossing_angle": round(min([f[2] for f in found], default=90.0), 2),
              "min_visible": round(worst_vis, 4), "min_gap_px": float(min_gap) if np.isfinite(min_gap) else -1.0,
              "contrast": round(contrast, 2)}
    return Task(rule="type", answer={"count": n}, objects=objects, text=str(n), checks=checks)


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "图中有几个彼此独立的闭合圈？请输入数字"
    return "How many separate closed loops are there? Type the number."
