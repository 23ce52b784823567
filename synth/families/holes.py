"""Holes: shapes, rings, letters and open decoys; count all the holes, or click the shape with N holes."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit.distorted_text import glyph_alpha
from synth.families.kit.kinds import COLOURS
from synth.families.kit.placement import place

NAME = "holes"
DESCRIPTION = "count the holes in shapes, rings and letters (open decoys have none), or click the shape with N holes"
ANSWERS = ("click", "type")     # synth.labels.reward step types of its tasks
COVERS = ("VenusBench-CAPTCHA:visual_reasoning",)
STAT, STAT_DIRECTION = "shape size (share of the puzzle's shorter side)", -1
MIN_HOLE_PX = 36           # every hole at least this many pixels (at 320 px; scales with the area)
ROBUST_PX = 2              # topology must survive eroding and dilating the shape by this much (at 320 px)
MIN_HOLE_CONTRAST = 45.0   # colour distance between a hole's inside and the shape around it
BORDER = 2
ONE_HOLE, TWO_HOLES, NO_HOLES = "ADOPR069", "B8", "EFHKLMNTUWXYZ12357"
GLYPH_FONTS = (0, 2)       # the sans-serif bold fonts: serifs and mono strokes break under the robustness check

TABLE = LevelTable(NAME, knobs={
    "shapes_range": "number of shapes",
    "size_range": "shape diameter as a share of the puzzle's shorter side",
    "max_holes_range": "most holes in one shape",
    "hole_size_range": "hole radius as a share of the shape radius",
    "tilt_range": "largest turn of a shape, degrees",
    "decoys_range": "probability that a shape is an open decoy (a broken ring or a bitten disc: no hole)",
    "letters_range": "probability that a shape is a bold letter or digit",
    "clutter_range": "background texture strength, 0 to 1",
}, levels={
    1: {"shapes_range": (3, 3), "size_range": (0.27, 0.3), "max_holes_range": (2, 2), "hole_size_range": (0.25, 0.35),
        "tilt_range": (0, 0), "decoys_range": (0, 0), "letters_range": (0, 0), "clutter_range": (0.0, 0.1)},
    2: {"shapes_range": (3, 4), "size_range": (0.24, 0.27), "max_holes_range": (2, 2), "hole_size_range": (0.22, 0.32),
        "tilt_range": (0, 20), "decoys_range": (0.1, 0.1), "letters_range": (0, 0), "clutter_range": (0.1, 0.3)},
    3: {"shapes_range": (4, 5), "size_range": (0.21, 0.24), "max_holes_range": (3, 3), "hole_size_range": (0.19, 0.29),
        "tilt_range": (0, 45), "decoys_range": (0.2, 0.2), "letters_range": (0.15, 0.15), "clutter_range": (0.3, 0.5)},
    4: {"shapes_range": (5, 6), "size_range": (0.185, 0.21), "max_holes_range": (3, 3), "hole_size_range": (0.17, 0.27),
        "tilt_range": (0, 90), "decoys_range": (0.3, 0.3), "letters_range": (0.25, 0.25), "clutter_range": (0.5, 0.7)},
    5: {"shapes_range": (6, 7), "size_range": (0.16, 0.185), "max_holes_range": (3, 3), "hole_size_range": (0.17, 0.25),
        "tilt_range": (0, 180), "decoys_range": (0.35, 0.35), "letters_range": (0.3, 0.3), "clutter_range": (0.7, 0.9)},
})


@dataclass(frozen=True)
class Shape:
    kind: str              # disc | square | blob | ring | open_ring | bite | glyph
    cx: float
    cy: float
    radius: float          # pixels
    angle: float           # clockwise degrees
    colour: str            # key of COLOURS
    outer: tuple           # kind-specific outline parameters (see outline())
    holes: tuple[tuple[float, float, float, float, float], ...]   # (u, v, r, aspect, tilt) in units of the radius


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    task: str                                # "count" | "click"
    target: str                              # "holes:N" for click (N holes sought), "holes" for count
    shapes: tuple[Shape, ...]
    clutter: float
    bg_seed: int
    knobs: dict


_OUTLINE_T = np.linspace(0, 2 * np.pi, 96, endpoint=False)     # angles of the points of round outlines
_ELLIPSE_T = np.linspace(0, 2 * np.pi, 40, endpoint=False)     # ... and of ellipses
_ELLIPSE_COS, _ELLIPSE_SIN = np.cos(_ELLIPSE_T), np.sin(_ELLIPSE_T)


def _ellipse(u: float, v: float, r: float, aspect: float, tilt: float) -> np.ndarray:
    x, y = r * _ELLIPSE_COS, r * aspect * _ELLIPSE_SIN
    c, s = np.cos(tilt), np.sin(tilt)
    return np.stack([u + c * x - s * y, v + s * x + c * y], 1)


def outline(shape: Shape) -> tuple[np.ndarray, list[np.ndarray]]:
    """(outer polygon, [cut-out polygons]) in units of the radius, before turning."""
    t = _OUTLINE_T
    cuts = [_ellipse(*h) for h in shape.holes]
    if shape.kind in ("disc", "ring", "open_ring", "bite"):
        aspect = shape.outer[0]
        outer = np.stack([np.cos(t), aspect * np.sin(t)], 1)
        if shape.kind in ("ring", "open_ring"):
            cuts.append(_ellipse(0, 0, shape.outer[1], aspect, 0.0))
        if shape.kind == "open_ring":      # a wedge from the centre through the rim
            d, half = shape.outer[2], shape.outer[3]
            cuts.append(np.array([[0, 0], [1.6 * np.cos(d - half), 1.6 * np.sin(d - half)],
                                  [1.6 * np.cos(d + half), 1.6 * np.sin(d + half)]]))
        if shape.kind == "bite":           # a round bite out of the rim
            d, r = shape.outer[1], shape.outer[2]
            cuts.append(_ellipse(np.cos(d), aspect * np.sin(d), r, 1.0, 0.0))
    elif shape.kind == "square":
        h, rr, pts = 0.88, 0.28, []
        for cx, cy, a0 in ((h - rr, -h + rr, -90), (h - rr, h - rr, 0), (-h + rr, h - rr, 90), (-h + rr, -h + rr, 180)):
            for a in np.deg2rad(np.linspace(a0, a0 + 90, 8)):
                pts.append((cx + rr * np.cos(a), cy + rr * np.sin(a)))
        outer = np.array(pts)
    else:  # blob: a radius wobbling with three harmonics, scaled to stay inside the unit circle
        a2, p2, a3, p3, a4, p4 = shape.outer
        r = 1 + a2 * np.sin(2 * t + p2) + a3 * np.sin(3 * t + p3) + a4 * np.sin(4 * t + p4)
        r = r / (1 + abs(a2) + abs(a3) + abs(a4))
        outer = np.stack([r * np.cos(t), r * np.sin(t)], 1)
    return outer, cuts


def inner_radius(kind: str, outer: tuple) -> float:
    """Radius of a centred circle that surely lies inside the outline (units of the radius)."""
    if kind in ("disc", "bite"):
        return outer[0]
    if kind == "square":
        return 0.88
    if kind == "blob":
        a = abs(outer[0]) + abs(outer[2]) + abs(outer[4])
        return (1 - a) / (1 + a)
    return 0.0


def shape_alpha(shape: Shape) -> tuple[int, int, np.ndarray]:
    """(x0, y0, coverage uint8) of a shape on a local square."""
    n = int(np.ceil(2 * shape.radius * 1.42)) + 6
    x0, y0 = int(round(shape.cx - n / 2)), int(round(shape.cy - n / 2))
    ox, oy = shape.cx - x0, shape.cy - y0
    if shape.kind == "glyph":
        char, font = shape.outer
        src = glyph_alpha(char, int(font), max(8, int(round(2 * shape.radius / 0.78))))
        h, w = src.shape
        s = 2 * shape.radius / max(h, w)
        m = cv2.getRotationMatrix2D((w / 2, h / 2), -shape.angle, s)
        m[:, 2] += [ox - w / 2, oy - h / 2]
        return x0, y0, cv2.warpAffine(src, m, (n, n), flags=cv2.INTER_LINEAR, borderValue=0)
    t = np.deg2rad(shape.angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) * shape.radius
    outer, cuts = outline(shape)
    a = np.zeros((n, n), np.uint8)
    to_px = lambda p: np.round((p @ rot.T + [ox, oy]) * 4).astype(np.int32)   # noqa: E731
    cv2.fillPoly(a, [to_px(outer)], 255, cv2.LINE_AA, shift=2)
    for c in cuts:
        cv2.fillPoly(a, [to_px(c)], 0, cv2.LINE_AA, shift=2)
    return x0, y0, a


def _holes(rng: np.random.Generator, count: int, room: float, size_range: tuple, wall: float) -> tuple:
    """`count` round or oval holes spread on a circle inside a centred disc of radius `room`, at least
    `wall` apart from each other and from the rim (units of the shape radius)."""
    if count == 0:
        return ()
    s = np.sin(np.pi / count) if count > 1 else 1.0
    fit = (2 * (room - wall) * s - wall) / (2 * s + 2) if count > 1 else room - wall
    r = min(float(rng.uniform(*size_range)), fit)
    far = max(0.0, room - r - wall)                              # keeps the rim wall
    near = min(far, (2 * r + wall) / (2 * s)) if count > 1 else 0.0   # keeps the walls between holes
    rho = float(rng.uniform(near, far)) if count > 1 else far * float(rng.uniform(0, 0.6))
    phi0 = float(rng.uniform(0, 2 * np.pi))
    out = []
    for j in range(count):
        phi = phi0 + 2 * np.pi * j / count
        out.append((round(rho * np.cos(phi), 4), round(rho * np.sin(phi), 4),
                    round(r * float(rng.uniform(0.85, 1.0)), 4), round(float(rng.uniform(0.8, 1.0)), 3),
                    round(float(rng.uniform(0, np.pi)), 3)))
    return tuple(out)


def make_shape(rng: np.random.Generator, holes: int, radius: float, k: dict, wall: float, row: dict) -> Shape:
    """A shape meant to have `holes` holes (the rendered pixels decide)."""
    colour = tuple(COLOURS)[int(rng.integers(len(COLOURS)))]
    angle = float(rng.uniform(-k["tilt"], k["tilt"]))
    aspect = round(float(rng.uniform(0.8, 1.0)), 3)
    hs = row["hole_size_range"]
    if holes == 0 and rng.random() < k["decoys"]:
        if rng.random() < 0.5:
            return Shape("open_ring", 0, 0, radius, angle, colour,
                         (aspect, round(float(rng.uniform(0.4, 0.55)), 3), round(float(rng.uniform(0, 6.28)), 3),
                          round(float(rng.uniform(0.3, 0.45)), 3)), ())
        return Shape("bite", 0, 0, radius, angle, colour,
                     (aspect, round(float(rng.uniform(0, 6.28)), 3), round(float(rng.uniform(0.35, 0.5)), 3)), ())
    if holes <= 2 and rng.random() < k["letters"]:
        pool = {0: NO_HOLES, 1: ONE_HOLE, 2: TWO_HOLES}[holes]
        return Shape("glyph", 0, 0, radius, float(rng.uniform(-min(k["tilt"], 30), min(k["tilt"], 30))), colour,
                     (pool[int(rng.integers(len(pool)))], GLYPH_FONTS[int(rng.integers(len(GLYPH_FONTS)))]), ())
    if holes == 1 and rng.random() < 0.35:
        return Shape("ring", 0, 0, radius, angle, colour, (aspect, round(float(rng.uniform(0.35, 0.55)), 3)), ())
    kind = ("disc", "square", "blob")[int(rng.integers(3))]
    outer = ((aspect,) if kind == "disc" else () if kind == "square" else
             tuple(round(float(v), 3) for v in (rng.uniform(-0.1, 0.1), rng.uniform(0, 6.28), rng.uniform(-0.08, 0.08),
                                                 rng.uniform(0, 6.28), rng.uniform(-0.05, 0.05), rng.uniform(0, 6.28))))
    return Shape(kind, 0, 0, radius, angle, colour, outer,
                 _holes(rng, holes, inner_radius(kind, outer), hs, wall))


def ink_box(shape: Shape) -> tuple[float, float, float, float]:
    """Box of a shape's drawn pixels relative to its centre."""
    x0, y0, a = shape_alpha(shape)
    ys, xs = np.nonzero(a >= draw.ALPHA_ON)
    return (float(x0 + xs.min() - shape.cx), float(y0 + ys.min() - shape.cy),
            float(x0 + xs.max() + 1 - shape.cx), float(y0 + ys.max() + 1 - shape.cy))


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    ints = ("shapes_range", "max_holes_range")
    k = {name[:-6]: draw_knob(rng, row[name], integer=name in ints) for name in row}
    n, most = k["shapes"], k["max_holes"]
    task = "count" if rng.random() < 0.5 else "click"
    counts = [int(rng.integers(0, most + 1)) for _ in range(n)]
    wanted = -1
    if task == "click":
        wanted = int(rng.integers(0, most + 1))
        others = [c for c in range(most + 1) if c != wanted]
        counts = [wanted] + [others[int(rng.integers(len(others)))] for _ in range(n - 1)]
    elif sum(counts) == 0:
        counts[0] = 1
    radii = [side * draw_knob(rng, row["size_range"]) / 2 for _ in range(n)]
    shapes = [make_shape(rng, c, r, k, max(0.12, 5 * side / 320 / r), row) for c, r in zip(counts, radii)]
    gap = max(4, round(0.02 * side))
    extents = [ink_box(s) for s in shapes]       # the drawn shape's box around its centre
    boxes = [int(np.ceil(max(e[2] - e[0], e[3] - e[1]))) + gap for e in extents]
    spots = place(rng, w, h, boxes, [0] * n, 0.0, f"{NAME}.no_room")
    placed = [Shape(s.kind, round(x + b / 2 - (e[0] + e[2]) / 2, 2), round(y + b / 2 - (e[1] + e[3]) / 2, 2),
                    round(s.radius, 2), round(s.angle, 2), s.colour, s.outer, s.holes)
              for s, e, (x, y, b) in zip(shapes, extents, spots)]
    order = rng.permutation(n)
    k["size_mean"] = float(np.mean(radii)) * 2 / side
    return Params(size=size, task=task, target=f"holes:{wanted}" if task == "click" else "holes",
                  shapes=tuple(placed[i] for i in order), clutter=k["clutter"],
                  bg_seed=int(rng.integers(2**31)), knobs=k)


def stat(params: Params) -> float:
    """Difficulty statistic: mean shape diameter as a share of the puzzle's shorter side."""
    return params.knobs["size_mean"]


def controls(params: Params) -> str:
    return "input" if params.task == "count" else "none"


SQUARE3 = np.ones((3, 3), np.uint8)


@lru_cache(maxsize=64)
def shading(colour: str, n: int) -> np.ndarray:
    """A shape's fill on an n x n square: its colour lit from the top left (uint8 RGB)."""
    base = np.array(COLOURS[colour][0], np.float32)
    ramp = np.linspace(1.12, 0.88, n, dtype=np.float32)
    return np.clip(base[None, None] * ((ramp[None, :] + ramp[:, None]) / 2)[..., None], 0, 255).astype(np.uint8)


def rim_rgb(colour: str) -> np.ndarray:
    """The darker colour of a shape's outline."""
    return (np.array(COLOURS[colour][0], np.float32) * 0.55).astype(np.uint8)


def render(params: Params) -> Puzzle:
    w, h = params.size
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    meta = {}
    for i, s in enumerate(params.shapes, start=1):
        x0, y0, a = shape_alpha(s)
        n = a.shape[0]
        # a soft drop shadow on the ground, which also shows inside the holes
        off = max(2, int(s.radius) // 10)
        sx0, sy0 = x0 + off, y0 + off
        ax0, ay0, ax1, ay1 = max(0, sx0), max(0, sy0), min(w, sx0 + n), min(h, sy0 + n)
        if ax0 < ax1 and ay0 < ay1:
            shadow = draw.gaussian_blur(a, max(1.0, s.radius / 14)).astype(np.float32) / 255 * 0.4
            keep = 1 - shadow[ay0 - sy0:ay1 - sy0, ax0 - sx0:ax1 - sx0] * (canvas.instances[ay0:ay1, ax0:ax1] == 0)
            # float32 products as numpy's broadcast gives them, truncated to uint8
            canvas.rgb[ay0:ay1, ax0:ax1] = cv2.multiply(canvas.rgb[ay0:ay1, ax0:ax1], cv2.merge([keep] * 3),
                                                        dtype=cv2.CV_32F).astype(np.uint8)
        rgb = shading(s.colour, n).copy()
        solid = (a >= draw.ALPHA_ON).view(np.uint8)
        rgb[solid > cv2.erode(solid, SQUARE3)] = rim_rgb(s.colour)
        canvas.paste(cv2.merge([rgb, a]), x0, y0, i)
        label = f"letter {s.outer[0]}" if s.kind == "glyph" else \
            {"open_ring": "broken ring", "bite": "bitten disc"}.get(s.kind, s.kind)
        meta[i] = {"role": "shape", "label": f"{s.colour} {label}", "kind": s.kind}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


def topology(mask: np.ndarray, min_hole: float) -> tuple[int, int, int]:
    """(outer parts, holes of at least `min_hole` px, smaller holes) of a binary mask, via RETR_CCOMP."""
    contours, hier = cv2.findContours(mask.astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return 0, 0, 0
    outer = big = small = 0
    scratch = np.zeros(mask.shape, np.uint8)
    for c, (_, _, _, parent) in zip(contours, hier[0]):
        if parent < 0:
            outer += 1
            continue
        # the hole's own pixels: inside its contour (which runs on the shape's pixels) and not the shape
        x, y, w, h = cv2.boundingRect(c)
        scratch[y:y + h, x:x + w] = 0
        cv2.drawContours(scratch, [c], -1, 1, -1)
        area = int((scratch[y:y + h, x:x + w] & (mask[y:y + h, x:x + w] == 0)).sum())
        if area >= min_hole:
            big += 1
        else:
            small += 1
    return outer, big, small


def _median_rgb(px: np.ndarray) -> np.ndarray:
    """np.median(px, axis=0) of (n, 3) uint8 pixels as float32, found by counting each channel's values."""
    return np.array([draw.median_of_counts(np.bincount(c, minlength=256)) for c in px.T], np.float32)


def solve(params: Params, puzzle: Puzzle) -> Task:
    inst = puzzle.instances
    h, w = inst.shape
    scale = w * h / (320 * 320)
    k = max(1, int(round(ROBUST_PX * min(w, h) / 320)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    boxes = draw.instance_boxes(inst)
    areas = draw.instance_areas(inst)
    objects, holes, masks = [], {}, {}
    min_contrast = 255.0
    for i, m in puzzle.meta.items():
        if i not in boxes or areas[i] < puzzle.full_area[i]:
            raise Reject(f"{NAME}.shape_covered")
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        if x0 < BORDER or y0 < BORDER or x1 > w - BORDER or y1 > h - BORDER:
            raise Reject(f"{NAME}.shape_cut_off")
        pad = k + 2
        crop = np.zeros((y1 - y0 + 2 * pad, x1 - x0 + 2 * pad), np.uint8)
        crop[pad:-pad, pad:-pad] = inst[y0:y1, x0:x1] == i
        outer, n_holes, tiny = topology(crop, MIN_HOLE_PX * scale)
        if outer != 1:
            raise Reject(f"{NAME}.shape_in_pieces")
        if tiny:
            raise Reject(f"{NAME}.hole_too_small")
        # the count must not hinge on a hair-thin wall or a hair-wide gap
        for changed in (cv2.erode(crop, kernel), cv2.dilate(crop, kernel)):
            if topology(changed, 1.0)[:2] != (1, n_holes):
                raise Reject(f"{NAME}.fragile_topology")
        if n_holes:   # each hole must stand out from the shape around it
            filled = np.zeros_like(crop)
            contours, _ = cv2.findContours(crop, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            cv2.drawContours(filled, contours, -1, 1, -1)
            inside = (filled > 0) & (crop == 0)
            body = crop.astype(bool) & cv2.dilate(inside.astype(np.uint8), kernel, iterations=2).astype(bool)
            rgb = puzzle.rgb[y0:y1, x0:x1]     # inside and body lie off the padding
            contrast = float(np.linalg.norm(_median_rgb(rgb[inside[pad:-pad, pad:-pad]])
                                            - _median_rgb(rgb[body[pad:-pad, pad:-pad]])))
            min_contrast = min(min_contrast, contrast)
            if contrast < MIN_HOLE_CONTRAST:
                raise Reject(f"{NAME}.hole_low_contrast")
        holes[i] = n_holes
        mask = np.zeros(inst.shape, bool)
        mask[y0:y1, x0:x1] = inst[y0:y1, x0:x1] == i
        masks[i] = mask
        label = f"{m['label']} with {n_holes} hole{'s' if n_holes != 1 else ''}"
        objects.append({"id": i, "role": "shape", "label": label, "bbox": boxes[i], "visible_fraction": 1.0,
                        "_mask": mask})
    checks = {"shapes": float(len(holes)), "holes": float(sum(holes.values())),
              "min_hole_contrast": round(min_contrast, 2)}
    if params.task == "count":
        return Task(rule="type", answer={"count": sum(holes.values())}, objects=objects,
                    text=str(sum(holes.values())), checks=checks)
    wanted = int(params.target.split(":")[1])
    hits = [i for i, n in holes.items() if n == wanted]
    if len(hits) != 1:
        raise Reject(f"{NAME}.target_not_unique")
    t = hits[0]
    for o in objects:
        o["role"] = "target" if o["id"] == t else "distractor"
    box = boxes[t]
    for o in objects:
        cx, cy = (o["bbox"][0] + o["bbox"][2]) / 2, (o["bbox"][1] + o["bbox"][3]) / 2
        if o["id"] != t and box[0] <= cx <= box[2] and box[1] <= cy <= box[3]:
            raise Reject(f"{NAME}.target_box_holds_distractor")
    return Task(rule="click_set", answer={"count": wanted}, objects=objects, target_ids=[t], target_boxes=[box],
                points=[draw.inner_point(masks[t])], partial_credit=False, checks=checks)


def instruction(params: Params, lang: str) -> str:
    if params.task == "count":
        return ("图中所有图形一共有几个洞？请输入数字" if lang == "zh"
                else "How many holes are there in all the shapes together? Type the number.")
    n = int(params.target.split(":")[1])
    if lang == "zh":
        return ("请点击没有洞的图形" if n == 0 else f"请点击恰好有{n}个洞的图形") + "，然后点击验证"
    if n == 0:
        return "Click the shape that has no holes, then press Verify."
    return f"Click the shape with exactly {n} hole{'s' if n > 1 else ''}, then press Verify."
