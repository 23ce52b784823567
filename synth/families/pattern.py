"""Pattern: coloured shapes under stripes, a grid or a band (opaque and frosted parts); count one colour-and-shape."""
import colorsys
import math
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, grammar
from synth.families.kit.kinds import COLOURS, kind_by_key

NAME = "pattern"
DESCRIPTION = "count the shapes of one colour and shape under stripes, a grid or a band that hides parts of them"
ANSWERS = ("type",)             # synth.labels.reward step types of its tasks
COVERS = ("VenusBench-CAPTCHA:visual_reasoning",)
STAT, STAT_DIRECTION = "share of the puzzle hidden by the opaque overlay", +1
# no hexagon (it reads as a circle), no diamond (a turned square)
SHAPES = ("circle", "square", "triangle", "star", "cross")
COUNTED = 0.65      # a shape counts when at least this share of it shows (opaque overlay parts hide) ...
GONE = 0.04         # ... and is gone below this; anything between is ambiguous and rejected
FRAGMENT = 0.3      # a counted shape's largest visible piece holds at least this share of it
DECOY_SHOWN = 0.9   # a shape of the target's colour but another kind shows this share of itself: with its
                    # points or arms hidden, a star reads as a cross (a level-5 sample counted by eye as 7, not 6)
HUE_SEPARATION = 40.0   # colours shown next to the target colour differ from it by at least this hue (degrees)
HUE_TOLERANCE = 18.0    # a shape's measured hue lies this close to its own colour, and nearer it than any other
MIN_VISIBLE_PX = 60     # (at 320 px; scales with the area)
GROUND_GREY = 0.8       # share of the background's colour taken out
OVERLAY_RGB = ((236, 236, 240), (222, 218, 206), (205, 210, 218), (228, 226, 220), (190, 196, 204))
FROST_RGB = (246, 247, 250)
FROST_BLUR = 1.2       # blur (px at 320) behind the frosted parts
# RGB -> (1 - GROUND_GREY) * RGB + GROUND_GREY * luma (BT.601), as one colour matrix
GREYING = ((1 - GROUND_GREY) * np.eye(3) + GROUND_GREY * np.array([[0.299, 0.587, 0.114]] * 3)).astype(np.float32)

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of target shapes drawn (some may end up hidden)",
    "distractors_range": "number of other shapes",
    "similar_range": "share of the other shapes that share the target's colour or shape",
    "size_range": "shape size as a share of the puzzle's shorter side",
    "cover_range": "share of the puzzle the opaque overlay parts hide",
    "frost_range": "opacity of the frosted (see-through) overlay parts",
    "clutter_range": "background texture strength, 0 to 1",
}, levels={
    1: {"count_range": (1, 3), "distractors_range": (2, 3), "similar_range": (0.3, 0.3), "size_range": (0.14, 0.16),
        "cover_range": (0.1, 0.14), "frost_range": (0.2, 0.24), "clutter_range": (0.0, 0.1)},
    2: {"count_range": (2, 4), "distractors_range": (3, 5), "similar_range": (0.5, 0.5), "size_range": (0.125, 0.14),
        "cover_range": (0.15, 0.19), "frost_range": (0.24, 0.28), "clutter_range": (0.1, 0.3)},
    3: {"count_range": (2, 5), "distractors_range": (4, 6), "similar_range": (0.6, 0.6), "size_range": (0.11, 0.125),
        "cover_range": (0.2, 0.24), "frost_range": (0.28, 0.32), "clutter_range": (0.3, 0.5)},
    4: {"count_range": (3, 6), "distractors_range": (5, 8), "similar_range": (0.7, 0.7), "size_range": (0.1, 0.11),
        "cover_range": (0.25, 0.29), "frost_range": (0.32, 0.36), "clutter_range": (0.5, 0.7)},
    5: {"count_range": (3, 7), "distractors_range": (6, 9), "similar_range": (0.8, 0.8), "size_range": (0.09, 0.1),
        "cover_range": (0.3, 0.34), "frost_range": (0.36, 0.4), "clutter_range": (0.7, 0.9)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                                            # kind key, e.g. "shape:red:circle"
    objects: tuple[tuple[str, str, int, int, int], ...]    # (role, kind key, x, y, size) in z-order
    overlay: tuple[tuple[tuple[tuple[float, float], ...], tuple[int, int, int], float, bool], ...]
    #          (polygon, rgb, opacity, hides): opaque parts hide (instance map), frosted parts do not;
    #          all opaque parts share one colour, all frosted parts one opacity
    style: str                                             # stripes | grid | band
    clutter: float
    bg_seed: int
    knobs: dict


def hue_of(rgb) -> float:
    return colorsys.rgb_to_hsv(*(v / 255 for v in rgb))[0] * 360


def hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return min(d, 360 - d)


PALETTE_HUES = {c: hue_of(rgb) for c, (rgb, _) in COLOURS.items()}
_TURN = np.arange(256, dtype=np.float32) / 256 * 2 * np.pi
HUE_SIN_COS = np.stack([np.sin(_TURN), np.cos(_TURN)])    # of every 8-bit hue (COLOR_RGB2HSV_FULL)


def _bar(cx: float, cy: float, angle: float, length: float, width: float) -> tuple:
    """Corners of a bar centred at (cx, cy), `length` along `angle` (radians), `width` across."""
    dx, dy = math.cos(angle), math.sin(angle)
    def r2(v):
        return round(v * 100) / 100      # 2 decimals, faster than round(v, 2)
    return tuple((r2(cx + sx * dx * length / 2 - sy * dy * width / 2),
                  r2(cy + sx * dy * length / 2 + sy * dx * width / 2))
                 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))


def sample_overlay(rng: np.random.Generator, size: tuple[int, int], cover: float, frost: float) -> tuple[str, tuple]:
    """An overlay whose opaque parts hide about `cover` of the puzzle; frosted parts only veil."""
    w, h = size
    side, diag = min(w, h), float(np.hypot(w, h))
    style = ("stripes", "grid", "band")[int(rng.integers(3))]
    solid = OVERLAY_RGB[int(rng.integers(len(OVERLAY_RGB)))]
    parts = []
    cx, cy = w / 2, h / 2
    if style == "stripes":        # opaque bars, a frosted bar in every other gap
        angle = float(rng.choice([0.0, np.pi / 2, np.pi / 4, -np.pi / 4])) + float(rng.uniform(-0.15, 0.15))
        period = float(rng.uniform(0.3, 0.4)) * side
        bar = cover * period
        n = np.array([-np.sin(angle), np.cos(angle)])
        shift = float(rng.uniform(0, period))
        for j in range(-int(diag / period) - 1, int(diag / period) + 2):
            off = j * period + shift
            parts.append((_bar(cx + n[0] * off, cy + n[1] * off, angle, diag * 1.2, bar), solid, 1.0, True))
            if j % 2 == 0:
                mid = off + period / 2
                parts.append((_bar(cx + n[0] * mid, cy + n[1] * mid, angle, diag * 1.2, (period - bar) * 0.45),
                              FROST_RGB, frost, False))
    elif style == "grid":         # opaque lines both ways, a frosted pane over one region
        period = float(rng.uniform(0.3, 0.4)) * side
        bar = period * (1 - np.sqrt(1 - cover))
        angle = float(rng.uniform(-0.2, 0.2))
        for a in (angle, angle + np.pi / 2):
            n = np.array([-np.sin(a), np.cos(a)])
            shift = float(rng.uniform(0, period))
            for j in range(-int(diag / period) - 1, int(diag / period) + 2):
                off = j * period + shift
                parts.append((_bar(cx + n[0] * off, cy + n[1] * off, a, diag * 1.2, bar), solid, 1.0, True))
        fx, fy = float(rng.uniform(0.2, 0.8)) * w, float(rng.uniform(0.2, 0.8)) * h
        parts.insert(0, (_bar(fx, fy, angle, 0.5 * side, 0.4 * side), FROST_RGB, frost, False))
    else:                         # one or two bands: an opaque core between frosted edges
        bands = int(rng.integers(1, 3))
        angle = float(rng.uniform(-0.5, 0.5)) + (np.pi / 2 if rng.random() < 0.5 else 0.0)
        n = np.array([-np.sin(angle), np.cos(angle)])
        core = cover * side / bands
        edge = float(rng.uniform(0.06, 0.1)) * side
        offs = [float(rng.uniform(-0.15, 0.15)) * side] if bands == 1 else \
            [float(rng.uniform(-0.35, -0.2)) * side, float(rng.uniform(0.2, 0.35)) * side]
        for off in offs:
            for sgn in (-1, 1):
                o = off + sgn * (core + edge) / 2
                parts.append((_bar(cx + n[0] * o, cy + n[1] * o, angle, diag * 1.2, edge), FROST_RGB, frost, False))
            parts.append((_bar(cx + n[0] * off, cy + n[1] * off, angle, diag * 1.2, core), solid, 1.0, True))
    return style, tuple(parts)


def overlay_alpha(polys, w: int, h: int) -> np.ndarray:
    """Anti-aliased coverage (uint8) of the union of overlay polygons, each drawn straight onto the puzzle
    (cost follows a polygon's area, not its box: a diagonal bar's box is the whole puzzle)."""
    alpha = np.zeros((h, w), np.uint8)
    for poly in polys:
        cv2.fillPoly(alpha, [np.round(np.array(poly) * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    return alpha


def opaque_mask(overlay: tuple, w: int, h: int) -> np.ndarray:
    """Pixels the opaque overlay parts take in the instance map."""
    return overlay_alpha([poly for poly, _, _, hides in overlay if hides], w, h) >= draw.ALPHA_ON


def pick_kinds(rng: np.random.Generator, n: int, similar: float) -> tuple[str, list[str]]:
    """A target kind and `n` distractor kinds; colours unlike the target's stay HUE_SEPARATION away from it."""
    colours = list(COLOURS)
    tc, ts = colours[int(rng.integers(len(colours)))], SHAPES[int(rng.integers(len(SHAPES)))]
    far = [c for c in colours if hue_gap(PALETTE_HUES[c], PALETTE_HUES[tc]) >= HUE_SEPARATION]
    other_shapes = [s for s in SHAPES if s != ts]
    out = []
    for _ in range(n):
        if rng.random() < similar:
            if rng.random() < 0.5:
                c, s = tc, other_shapes[int(rng.integers(len(other_shapes)))]
            else:
                c, s = far[int(rng.integers(len(far)))], ts
        else:
            c, s = far[int(rng.integers(len(far)))], other_shapes[int(rng.integers(len(other_shapes)))]
        out.append(f"shape:{c}:{s}")
    return f"shape:{tc}:{ts}", out


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    k = {name[:-6]: draw_knob(rng, row[name], integer=name in ("count_range", "distractors_range")) for name in row}
    style, overlay = sample_overlay(rng, size, k["cover"], k["frost"])
    hidden = opaque_mask(overlay, w, h)
    target, others = pick_kinds(rng, k["distractors"], k["similar"])
    roles = [("target", target)] * k["count"] + [("distractor", o) for o in others]
    objects, boxes = [], []
    for role, key in roles:
        s = max(16, round(side * draw_knob(rng, row["size_range"])))
        on = draw.sprite(key, s)[..., 3] >= draw.ALPHA_ON
        full = int(on.sum())
        for _ in range(200):   # somewhere free, and clearly shown or clearly hidden (the pixels decide later)
            x, y = int(rng.integers(2, w - s - 1)), int(rng.integers(2, h - s - 1))
            if any(x < bx + bs + 3 and bx < x + s + 3 and y < by + bs + 3 and by < y + s + 3 for bx, by, bs in boxes):
                continue
            vis = 1 - float((on & hidden[y:y + s, x:x + s]).sum()) / full
            if vis >= COUNTED + 0.08 or (vis == 0.0 and rng.random() < 0.3):
                break
        else:
            raise Reject(f"{NAME}.no_room")
        boxes.append((x, y, s))
        objects.append((role, key, x, y, s))
    order = rng.permutation(len(objects))
    k["size_mean"] = float(np.mean([s for *_, s in objects])) / side
    k["hidden_share"] = np.count_nonzero(hidden) / hidden.size
    return Params(size=size, target=target, objects=tuple(objects[i] for i in order), overlay=overlay, style=style,
                  clutter=k["clutter"], bg_seed=int(rng.integers(2**31)), knobs=k)


def stat(params: Params) -> float:
    """Difficulty statistic: the share of the puzzle the opaque overlay parts hide."""
    return params.knobs["cover"]


def render(params: Params) -> Puzzle:
    w, h = params.size
    ground = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    # a mostly grey ground: coloured blobs in a texture must not pass for the coloured shapes
    canvas = draw.Canvas(cv2.transform(ground, GREYING))
    meta = {}
    for i, (role, key, x, y, s) in enumerate(params.objects, start=1):
        canvas.paste(draw.sprite(key, s), x, y, i)
        meta[i] = {"role": role, "label": kind_by_key(key).en, "kind": key}
    # the frosted parts first (one veil), then the opaque parts (one occluder) over everything
    nid = len(params.objects) + 1
    for hides in (False, True):
        parts = [p for p in params.overlay if p[3] == hides]
        if not parts:
            continue
        alpha = overlay_alpha([p[0] for p in parts], w, h)
        rgb, opacity = parts[0][1], parts[0][2]
        if hides:     # solid bars with a faint darker edge, so they read as a layer on top
            on = alpha >= draw.ALPHA_ON
            canvas.instances[on] = nid
            canvas.full_area[nid] = int(np.count_nonzero(on))
            box = _changed_box(alpha, 1)      # the edge test reads 1 px around
            edge = cv2.morphologyEx(on[box].view(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
            # per channel: rgb where edge is 0, int(0.8 * rgb) where it is 1
            shade = np.hstack([np.diag([int(v * 0.8) - v for v in rgb]), np.array(rgb)[:, None]]).astype(np.float32)
            colour = cv2.transform(cv2.cvtColor(edge, cv2.COLOR_GRAY2RGB), shade)
            canvas.rgb[box] = draw.blend(canvas.rgb[box], colour, alpha[box])
        else:         # frosted glass: what is behind is blurred, then veiled
            # a mild blur: a shape behind the glass must keep its outline
            sigma = FROST_BLUR * min(w, h) / 320
            box = _changed_box(alpha, int(np.ceil(4 * sigma)) + 1)     # the blur reads this far around
            blurred = draw.gaussian_blur(canvas.rgb[box], sigma)
            veil = np.hstack([np.eye(3) * (1 - opacity), np.array(rgb)[:, None] * opacity]).astype(np.float32)
            canvas.rgb[box] = draw.blend(canvas.rgb[box], cv2.transform(blurred, veil), alpha[box])
        meta[nid] = {"role": "occluder" if hides else "veil", "label": "overlay" if hides else "frosted overlay",
                     "kind": params.style}
        nid += 1
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


def _changed_box(alpha: np.ndarray, margin: int) -> tuple[slice, slice]:
    """Slices of the box where `alpha` is not 0, grown by `margin` px (within the puzzle): an overlay
    changes pixels only there, so its work can be done on that crop."""
    x, y, bw, bh = cv2.boundingRect(alpha)
    h, w = alpha.shape
    return slice(max(0, y - margin), min(h, y + bh + margin)), slice(max(0, x - margin), min(w, x + bw + margin))


def measured_hue(rgb: np.ndarray) -> float | None:
    """Circular median-ish hue (degrees) of the coloured pixels among `rgb` (N, 3), or None if too grey."""
    hsv = cv2.cvtColor(rgb.reshape(-1, 1, 3).astype(np.uint8), cv2.COLOR_RGB2HSV_FULL).reshape(-1, 3)
    hue = hsv[hsv[:, 1] >= 60, 0]
    if len(hue) < max(10, 0.3 * len(hsv)):
        return None
    sin, cos = np.median(HUE_SIN_COS[:, hue], axis=1)
    return float(np.degrees(np.arctan2(sin, cos)) % 360)


def solve(params: Params, puzzle: Puzzle) -> Task:
    inst = puzzle.instances
    h, w = inst.shape
    scale = w * h / (320 * 320)
    boxes = draw.instance_boxes(inst)
    areas = draw.instance_areas(inst)
    objects, counted = [], []
    worst_band, worst_hue, worst_piece = 1.0, 0.0, 1.0
    for i, m in puzzle.meta.items():
        if m["role"] not in ("target", "distractor"):
            continue
        full = puzzle.full_area[i]
        vis = float(areas[i]) / full if full else 0.0
        if i not in boxes or vis < GONE:
            continue
        if vis < COUNTED:
            raise Reject(f"{NAME}.ambiguous_visibility")
        worst_band = min(worst_band, vis)
        if areas[i] < MIN_VISIBLE_PX * scale:
            raise Reject(f"{NAME}.too_small")
        _, colour, shape = m["kind"].split(":")
        _, tc, ts = params.target.split(":")
        if colour == tc and shape != ts and vis < DECOY_SHOWN:
            raise Reject(f"{NAME}.decoy_unclear")
        if colour == tc or shape == ts:      # anything that shares a trait with the target must read clearly
            x0, y0, x1, y1 = (int(v) for v in boxes[i])
            mask = inst[y0:y1, x0:x1] == i
            n, lab, stats, _ = cv2.connectedComponentsWithStats(mask.view(np.uint8), connectivity=8)
            piece = float(stats[1:, cv2.CC_STAT_AREA].max()) / full
            worst_piece = min(worst_piece, piece)
            if piece < FRAGMENT:
                raise Reject(f"{NAME}.fragmented")
            hue = measured_hue(puzzle.rgb[y0:y1, x0:x1][mask])
            if hue is None:
                raise Reject(f"{NAME}.colour_unclear")
            own = hue_gap(hue, PALETTE_HUES[colour])
            nearest = min(hue_gap(hue, v) for c, v in PALETTE_HUES.items() if c != colour)
            worst_hue = max(worst_hue, own)
            if own > HUE_TOLERANCE or own >= nearest:
                raise Reject(f"{NAME}.colour_unclear")
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(vis, 4)})
        if m["kind"] == params.target:
            counted.append(i)
    if not counted:
        raise Reject(f"{NAME}.no_target_visible")
    for i, m in puzzle.meta.items():
        if m["role"] in ("occluder", "veil") and i in boxes:
            objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i], "visible_fraction": 1.0})
    checks = {"targets_counted": float(len(counted)),
              "targets_drawn": float(sum(r == "target" for r, *_ in params.objects)),
              "min_counted_visible": round(worst_band, 4), "max_hue_error": round(worst_hue, 2),
              "min_largest_piece": round(worst_piece, 4),
              "hidden_share": round(float(areas[[i for i, m in puzzle.meta.items() if m["role"] == "occluder"]].sum())
                                    / (w * h), 4)}
    return Task(rule="type", answer={"count": len(counted)}, objects=objects, text=str(len(counted)), checks=checks)


def instruction(params: Params, lang: str) -> str:
    kind = kind_by_key(params.target)
    if lang == "zh":
        return f"你能看到几{kind.measure_word()}{kind.zh}？请输入数字"
    return f"How many {grammar.plural(kind.en)} can you see? Type the number."
