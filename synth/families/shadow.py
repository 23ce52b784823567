"""Shadow direction: blocks seen from above, lit by one sun (shown at the edge, or only implied by the shadows);
every block casts its shadow away from the sun except one; click that block, or that shadow."""
import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit.kinds import COLOURS

NAME = "shadow"
DESCRIPTION = "one light casts every shadow the same way except one; click the block (or the shadow) that is wrong"
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
COVERS = ("NextGenCAPTCHAs:Shadow_Direction", "NextGenCAPTCHAs:Shadow_Plausible", "VenusBench-CAPTCHA:visual_reasoning")
GEOMETRIC_AUGMENT = False      # angles are the answer; a wrong shadow is accepted on part of its instance only
STAT, STAT_DIRECTION = "angle between the wrong shadow and the others (degrees)", -1
KINDS = ("circle", "square", "hexagon", "triangle", "star", "cross")
CONVEX = {"circle", "square", "hexagon", "triangle"}
SHADOW_ALPHA = 0.5          # how dark a shadow is drawn
SAME = 14.0                 # the right shadows point within this many degrees of their mean ...
WRONG = 38.0                # ... the wrong one at least this far from it
SUN_AGREES = 18.0           # the shown sun lies within this many degrees of the way the shadows point away from
MIN_SHADOW_CONTRAST = 22.0  # luma gap between a shadow and the ground next to it
GAP = 5                     # px at 320 between the boxes of two blocks with their shadows

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of blocks",
    "offset_range": "how far the wrong shadow turns from the right way, degrees",
    "sun_range": "probability that the sun is drawn (otherwise the other shadows show the light's way)",
    "length_range": "shadow length as a share of the block size (varies block to block)",
    "size_range": "block size as a share of the puzzle's shorter side",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"count_range": (3, 4), "offset_range": (160, 180), "sun_range": (1.0, 1.0), "length_range": (1.1, 1.3),
        "size_range": (0.12, 0.13), "clutter_range": (0.0, 0.1)},
    2: {"count_range": (4, 5), "offset_range": (110, 150), "sun_range": (1.0, 1.0), "length_range": (1.0, 1.4),
        "size_range": (0.11, 0.12), "clutter_range": (0.1, 0.25)},
    3: {"count_range": (5, 6), "offset_range": (80, 110), "sun_range": (0.7, 0.7), "length_range": (0.9, 1.5),
        "size_range": (0.10, 0.11), "clutter_range": (0.2, 0.4)},
    4: {"count_range": (6, 7), "offset_range": (65, 85), "sun_range": (0.4, 0.4), "length_range": (0.8, 1.5),
        "size_range": (0.09, 0.10), "clutter_range": (0.3, 0.5)},
    5: {"count_range": (7, 8), "offset_range": (55, 65), "sun_range": (0.2, 0.2), "length_range": (0.8, 1.6),
        "size_range": (0.085, 0.09), "clutter_range": (0.4, 0.6)},
})


@dataclass(frozen=True)
class Block:
    kind: str          # one of KINDS
    rgb: tuple[int, int, int]
    cx: float          # footprint centre, puzzle pixels
    cy: float
    size: float        # side of a square of the footprint's extent
    turn: float        # degrees clockwise
    shadow: float      # the way its shadow points, image degrees (0 = right, 90 = down)
    length: float      # shadow length, pixels
    wrong: bool


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                # "object" (click the block) or "shadow" (click the wrong shadow)
    light: float               # where the light comes from, image degrees
    sun: tuple[float, float, float]   # sun centre and radius (radius 0: not drawn)
    blocks: tuple[Block, ...]
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- geometry

def footprint(kind: str, size: float, turn: float) -> np.ndarray:
    """Outline (n, 2) of a block seen from above, centred on 0, about `size` across."""
    r = size / 2
    if kind == "circle":
        a = np.linspace(0, 2 * np.pi, 48, endpoint=False)
        pts = np.stack([r * np.cos(a), r * np.sin(a)], 1)
    elif kind == "square":
        s = r * 0.86
        pts = np.array([(-s, -s), (s, -s), (s, s), (-s, s)])
    elif kind == "hexagon":
        a = np.arange(6) * np.pi / 3
        pts = np.stack([r * np.cos(a), r * np.sin(a)], 1)
    elif kind == "triangle":
        a = -np.pi / 2 + np.arange(3) * 2 * np.pi / 3
        pts = np.stack([r * np.cos(a), r * np.sin(a) + r * 0.2], 1)
    elif kind == "star":
        a = -np.pi / 2 + np.arange(10) * np.pi / 5
        rad = np.where(np.arange(10) % 2 == 0, r, r * 0.48)
        pts = np.stack([rad * np.cos(a), rad * np.sin(a)], 1)
    else:       # cross
        a, b = r * 0.36, r * 0.95
        pts = np.array([(-a, -b), (a, -b), (a, -a), (b, -a), (b, a), (a, a), (a, b), (-a, b), (-a, a), (-b, a),
                        (-b, -a), (-a, -a)])
    t = math.radians(turn)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return pts @ rot.T


def shadow_vector(b: Block) -> np.ndarray:
    t = math.radians(b.shadow)
    return np.array([math.cos(t), math.sin(t)]) * b.length


def extent(b: Block) -> tuple[float, float, float, float]:
    """Box (x0, y0, x1, y1) of a block and its shadow."""
    pts = footprint(b.kind, b.size, b.turn) + (b.cx, b.cy)
    both = np.concatenate([pts, pts + shadow_vector(b)])
    return (*both.min(0), *both.max(0))


def angle_diff(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def circular_mean(angles) -> float:
    a = np.deg2rad(np.asarray(angles, np.float64))
    return float(np.degrees(np.arctan2(np.sin(a).mean(), np.cos(a).mean())) % 360)


# ---------------------------------------------------------------- sampling

def sun_spot(w: int, h: int, light: float, r: float) -> tuple[float, float]:
    """Where the sun sits: on the ray from the centre towards the light, just inside the edge."""
    t = math.radians(light)
    dx, dy = math.cos(t), math.sin(t)
    m = r * 2.0 + 3
    reach = min((w / 2 - m) / abs(dx) if abs(dx) > 1e-9 else np.inf,
                (h / 2 - m) / abs(dy) if abs(dy) > 1e-9 else np.inf)
    return w / 2 + dx * reach, h / 2 + dy * reach


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    k = {name[:-6]: draw_knob(rng, row[name], integer=name == "count_range") for name in row}
    n = k["count"]
    light = float(rng.choice([0, 45, 90, 135, 180, 225, 270, 315]) + rng.uniform(-12, 12)) % 360
    away = (light + 180) % 360
    wrong_way = (away + k["offset"] * (1 if rng.random() < 0.5 else -1)) % 360
    show_sun = bool(rng.random() < k["sun"])
    r_sun = 0.055 * side if show_sun else 0.0
    sun = (*sun_spot(w, h, light, 0.055 * side), r_sun)
    taken = []
    if show_sun:
        sx, sy, _ = sun
        rr = r_sun * 2.0
        taken.append((sx - rr, sy - rr, sx + rr, sy + rr))
    gap = GAP * side / 320
    blocks = []
    colours = [rgb for rgb, _ in COLOURS.values()]
    for i in range(n):
        wrong = i == 0
        kind = KINDS[int(rng.integers(len(KINDS)))]
        sz = side * k["size"] * float(rng.uniform(0.9, 1.1))
        length = sz * float(rng.uniform(*row["length_range"]))
        rgb = colours[int(rng.integers(len(colours)))]
        turn = float(rng.uniform(0, 360))
        for _ in range(200):
            b = Block(kind, rgb, 0.0, 0.0, round(sz, 2), round(turn, 2), round(wrong_way if wrong else away, 3),
                      round(length, 2), wrong)
            x0, y0, x1, y1 = extent(b)
            cx = float(rng.uniform(4 - x0, w - 4 - x1))
            cy = float(rng.uniform(4 - y0, h - 4 - y1))
            box = (x0 + cx, y0 + cy, x1 + cx, y1 + cy)
            if all(box[2] + gap <= t[0] or t[2] + gap <= box[0] or box[3] + gap <= t[1] or t[3] + gap <= box[1]
                   for t in taken):
                taken.append(box)
                blocks.append(Block(kind, rgb, round(cx, 2), round(cy, 2), b.size, b.turn, b.shadow, b.length, wrong))
                break
        else:
            raise Reject(f"{NAME}.no_room")
    order = rng.permutation(n)
    return Params(size=size, target="object" if rng.random() < 0.6 else "shadow", light=round(light, 3),
                  sun=tuple(round(v, 2) for v in sun), blocks=tuple(blocks[i] for i in order),
                  clutter=k["clutter"], bg_seed=int(rng.integers(2**31)), knobs=k)


def stat(params: Params) -> float:
    """Difficulty statistic: how far the wrong shadow turns from the right way."""
    return params.knobs["offset"]


# ---------------------------------------------------------------- drawing

def _layer(poly_fn, box, shape) -> tuple[int, int, np.ndarray]:
    x0, y0 = (int(math.floor(v)) - 2 for v in box[:2])
    x1, y1 = (int(math.ceil(v)) + 3 for v in box[2:])
    a = np.zeros((y1 - y0, x1 - x0), np.uint8)
    poly_fn(a, (x0, y0))
    return x0, y0, a


def _fill(a: np.ndarray, pts: np.ndarray, origin) -> None:
    cv2.fillPoly(a, [np.round((pts - origin) * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)


def shadow_alpha(b: Block) -> tuple[int, int, np.ndarray]:
    """(x0, y0, alpha) of a block's shadow: its footprint swept along the shadow (a Minkowski sum with the
    segment), without the footprint itself (the block stands on that)."""
    pts = footprint(b.kind, b.size, b.turn) + (b.cx, b.cy)
    v = shadow_vector(b)

    def paint(a, origin):
        if b.kind in CONVEX:        # the sum of a convex outline and a segment: the hull of both ends
            _fill(a, cv2.convexHull(np.concatenate([pts, pts + v]).astype(np.float32))[:, 0, :], origin)
            return
        _fill(a, pts + v, origin)
        for p, q in zip(pts, np.roll(pts, -1, 0)):
            _fill(a, np.array([p, q, q + v, p + v]), origin)

    x0, y0, a = _layer(paint, extent(b), None)
    a = draw.gaussian_blur(a, max(0.6, b.size / 40))
    foot = np.zeros_like(a)
    _fill(foot, pts, (x0, y0))          # drawn as the block will be: what it covers is not shadow
    a[foot >= draw.ALPHA_ON] = 0
    return x0, y0, a


def block_rgba(b: Block) -> tuple[int, int, np.ndarray]:
    """(x0, y0, RGBA) of a block seen from above: its colour, a darker rim, a lighter top on the sun side."""
    pts = footprint(b.kind, b.size, b.turn) + (b.cx, b.cy)
    box = (*pts.min(0), *pts.max(0))
    x0, y0, alpha = _layer(lambda a, o: _fill(a, pts, o), box, None)
    rgb = np.zeros((*alpha.shape, 3), np.uint8)
    rgb[...] = b.rgb
    dark = tuple(int(c * 0.62) for c in b.rgb)
    cv2.polylines(rgb, [np.round((pts - (x0, y0)) * 4).astype(np.int32)], True, dark,
                  max(1, round(b.size / 18)), cv2.LINE_AA, shift=2)
    return x0, y0, np.dstack([rgb, alpha])


@lru_cache(maxsize=8)
def sun_rgba(r: int) -> np.ndarray:
    n = 4 * r + 4
    out = np.zeros((n, n, 4), np.uint8)
    c = n / 2
    rays = 12
    for i in range(rays):
        t = 2 * math.pi * i / rays
        p = (c + 1.3 * r * math.cos(t), c + 1.3 * r * math.sin(t))
        q = (c + 1.85 * r * math.cos(t), c + 1.85 * r * math.sin(t))
        cv2.line(out, (round(p[0] * 4), round(p[1] * 4)), (round(q[0] * 4), round(q[1] * 4)), (245, 170, 20, 255),
                 max(2, r // 5), cv2.LINE_AA, shift=2)
    cv2.circle(out, (round(c * 4), round(c * 4)), r * 4, (255, 205, 40, 255), -1, cv2.LINE_AA, shift=2)
    cv2.circle(out, (round(c * 4), round(c * 4)), r * 4, (235, 150, 20, 255), max(1, r // 8), cv2.LINE_AA, shift=2)
    out.flags.writeable = False
    return out


def render(params: Params) -> Puzzle:
    """Shadows (n + 1 .. 2n), then blocks (1..n), then the sun (2n + 1) if shown."""
    w, h = params.size
    bg = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    canvas = draw.Canvas(draw.gaussian_blur(bg, 2.0 * min(w, h) / 320))
    n = len(params.blocks)
    meta = {}
    black = np.zeros(3, np.uint8)
    names = {rgb: name for name, (rgb, _) in COLOURS.items()}
    for i, b in enumerate(params.blocks, start=1):
        x0, y0, a = shadow_alpha(b)
        rgba = np.dstack([np.broadcast_to(black, (*a.shape, 3)), a])
        canvas.paste(rgba, x0, y0, n + i, opacity=SHADOW_ALPHA)
        meta[n + i] = {"role": "target" if (b.wrong and params.target == "shadow") else "shadow",
                       "label": f"shadow of the {names[b.rgb]} {b.kind}",
                       "kind": "shadow"}
    for i, b in enumerate(params.blocks, start=1):
        x0, y0, rgba = block_rgba(b)
        canvas.paste(rgba, x0, y0, i)
        meta[i] = {"role": "target" if (b.wrong and params.target == "object") else "distractor",
                   "label": f"{names[b.rgb]} {b.kind}", "kind": b.kind}
    sx, sy, r = params.sun
    if r > 0:
        spr = sun_rgba(int(round(r)))
        canvas.paste(spr, int(round(sx - spr.shape[1] / 2)), int(round(sy - spr.shape[0] / 2)), 2 * n + 1)
        meta[2 * n + 1] = {"role": "sun", "label": "sun", "kind": "sun"}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


# ---------------------------------------------------------------- verification

def solve(params: Params, puzzle: Puzzle) -> Task:
    inst = puzzle.instances
    h, w = inst.shape
    n = len(params.blocks)
    boxes = draw.instance_boxes(inst)
    areas = draw.instance_areas(inst)
    luma = cv2.cvtColor(puzzle.rgb, cv2.COLOR_RGB2GRAY)
    dirs, crops, worst_contrast = {}, {}, 255.0
    for i in range(1, n + 1):
        s = n + i
        for j in (i, s):
            if j not in boxes:
                raise Reject(f"{NAME}.hidden")
            # blocks and shadows never cover one another (a shadow only loses what its own block stands on)
            if areas[j] < 0.995 * puzzle.full_area[j]:
                raise Reject(f"{NAME}.overlap")
            x0, y0, x1, y1 = boxes[j]
            if x0 < 2 or y0 < 2 or x1 > w - 2 or y1 > h - 2:
                raise Reject(f"{NAME}.cut_off")
        cents = []
        for j in (i, s):
            x0, y0, x1, y1 = (int(v) for v in boxes[j])
            crops[j] = inst[y0:y1, x0:x1] == j
            ys, xs = np.nonzero(crops[j])
            cents.append((xs.mean() + x0, ys.mean() + y0))
        (bx, by), (px, py) = cents
        dirs[i] = math.degrees(math.atan2(py - by, px - bx)) % 360
        # the shadow shows against the ground round it
        x0, y0, x1, y1 = (int(v) for v in boxes[s])
        X0, Y0, X1, Y1 = max(0, x0 - 6), max(0, y0 - 6), min(w, x1 + 6), min(h, y1 + 6)
        sm = np.zeros((Y1 - Y0, X1 - X0), np.uint8)
        sm[y0 - Y0:y1 - Y0, x0 - X0:x1 - X0] = crops[s]
        core = cv2.erode(sm, np.ones((3, 3), np.uint8), iterations=2) > 0
        ring = (cv2.dilate(sm, np.ones((9, 9), np.uint8)) > 0) & (inst[Y0:Y1, X0:X1] == 0) \
            & ~(cv2.dilate(sm, np.ones((5, 5), np.uint8)) > 0)
        if core.sum() < 10 or ring.sum() < 10:
            raise Reject(f"{NAME}.low_contrast")
        c = float(np.median(luma[Y0:Y1, X0:X1][ring]) - np.median(luma[Y0:Y1, X0:X1][core]))
        worst_contrast = min(worst_contrast, c)
        if c < MIN_SHADOW_CONTRAST:
            raise Reject(f"{NAME}.low_contrast")
    ids = list(dirs)
    # exactly one shadow points away from the way all the others agree on
    odd = None
    for cand in ids:
        rest = [dirs[i] for i in ids if i != cand]
        mean = circular_mean(rest)
        if max(angle_diff(d, mean) for d in rest) <= SAME and angle_diff(dirs[cand], mean) >= WRONG:
            if odd is not None:
                raise Reject(f"{NAME}.ambiguous")
            odd, consensus = cand, mean
    if odd is None:
        raise Reject(f"{NAME}.no_single_wrong_shadow")
    if not params.blocks[odd - 1].wrong:
        raise Reject(f"{NAME}.role_mismatch")
    checks = {"blocks": float(n), "spread": round(max(angle_diff(dirs[i], consensus) for i in ids if i != odd), 2),
              "wrong_offset": round(angle_diff(dirs[odd], consensus), 2),
              "min_shadow_contrast": round(worst_contrast, 2)}
    sx, sy, r = params.sun
    if r > 0:
        sun_id = 2 * n + 1
        if sun_id not in boxes or areas[sun_id] < 0.995 * puzzle.full_area[sun_id]:
            raise Reject(f"{NAME}.sun_hidden")
        # the sun sits on the side the right shadows point away from
        x0, y0, x1, y1 = boxes[sun_id]
        towards_sun = math.degrees(math.atan2((y0 + y1) / 2 - h / 2, (x0 + x1) / 2 - w / 2)) % 360
        checks["sun_error"] = round(angle_diff(towards_sun, (consensus + 180) % 360), 2)
        if checks["sun_error"] > SUN_AGREES:
            raise Reject(f"{NAME}.sun_disagrees")
    target = odd if params.target == "object" else odd + n
    objects = []
    for i, m in puzzle.meta.items():
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(float(areas[i]) / max(1, puzzle.full_area[i]), 4)})
    t = next(o for o in objects if o["id"] == target)
    t["_mask"] = box_mask(inst.shape, t["bbox"]) & (inst == target)
    if t["role"] != "target":
        raise Reject(f"{NAME}.role_mismatch")
    box = t["bbox"]
    if params.target == "shadow":
        box = far_part(t["_mask"], params.blocks[odd - 1])
        if box is None:
            raise Reject(f"{NAME}.shadow_too_short")
        t["_mask"] = t["_mask"] & box_mask(inst.shape, box)
    # a click in the middle of any other block or shadow must not count
    for o in objects:
        if o["id"] != target and o["role"] != "sun":
            cx, cy = (o["bbox"][0] + o["bbox"][2]) / 2, (o["bbox"][1] + o["bbox"][3]) / 2
            if o["id"] == odd and params.target == "shadow":
                cx, cy = params.blocks[odd - 1].cx, params.blocks[odd - 1].cy
            elif o["id"] == odd + n:
                continue        # the wrong block's own shadow starts under it
            if box[0] <= cx <= box[2] and box[1] <= cy <= box[3]:
                raise Reject(f"{NAME}.boxes_overlap")
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[target], target_boxes=[box],
                points=[draw.inner_point(t["_mask"])], partial_credit=False, checks=checks)


def far_part(mask: np.ndarray, b: Block) -> list[float] | None:
    """Box of the part of a shadow that lies beyond its block (where a click means the shadow, not the block)."""
    x0, y0, bw, bh = cv2.boundingRect(mask.view(np.uint8))
    ys, xs = np.nonzero(mask[y0:y0 + bh, x0:x0 + bw])
    d = shadow_vector(b) / b.length
    along = (xs + x0 + 0.5 - b.cx) * d[0] + (ys + y0 + 0.5 - b.cy) * d[1]
    keep = along >= 0.8 * b.size
    if keep.sum() < 20:
        return None
    return [float(xs[keep].min() + x0), float(ys[keep].min() + y0), float(xs[keep].max() + x0 + 1),
            float(ys[keep].max() + y0 + 1)]


def box_mask(shape: tuple[int, int], box) -> np.ndarray:
    m = np.zeros(shape, bool)
    x0, y0, x1, y1 = (int(v) for v in box)
    m[y0:y1, x0:x1] = True
    return m


def instruction(params: Params, lang: str) -> str:
    sun = params.sun[2] > 0
    if params.target == "object":
        if lang == "zh":
            return "所有影子都由同一光源投下。请点击影子方向错误的那个物体" if not sun else \
                "阳光从太阳所在方向照来。请点击影子方向错误的那个物体"
        return ("The sunlight comes from where the sun is. Click the object whose shadow points the wrong way."
                if sun else "One light casts all the shadows. Click the object whose shadow points the wrong way.")
    if lang == "zh":
        return "所有影子都由同一光源投下。请点击方向错误的那个影子" if not sun else \
            "阳光从太阳所在方向照来。请点击方向错误的那个影子"
    return ("The sunlight comes from where the sun is. Click the shadow that points the wrong way."
            if sun else "One light casts all the shadows. Click the shadow that points the wrong way.")
