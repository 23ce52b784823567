"""Mirror image: a reference character, icon or shape beside a dashed mirror line, and four to six tiles;
exactly one shows the reference reflected in that line, the others show it turned or show something else;
click the reflection. References whose reflection equals one of their own turns are measured and rejected.
(The `match` family asks for the turned copies and counts reflections as wrong; this one is its converse.)"""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families import match
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, geom

NAME = "mirror"
DESCRIPTION = "click the tile showing the reference reflected in the dashed line; turned copies and others are wrong"
COVERS = ("VenusBench-CAPTCHA:visual_reasoning",)
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "share of the wrong tiles drawn from the reference itself (turned, unchanged, ...)", +1
SAME, DIFFERENT = 0.88, 0.82     # soft IoU of normalised silhouettes: the same shape / not the same shape
CHIRAL = 0.80                    # a reference whose reflection matches one of its turns this well is rejected
HALF_TURN = 0.77                 # no tile reflected in the other axis when the half-turned reference is this alike
# drawings whose reflection is clearly none of their turns (chirality() at most CHIRAL - 0.02, measured):
# most icons look alike in their mirror image and drop out, polyominoes make up for them
LATIN = "FJLNPSZ257"
HANZI = "的你他好说以地时年可这过对么之后能没方"
EMOJI = ("bird", "horse", "banana")
POLY_CELLS = 6           # cells of a polyomino drawing
INKS = ((35, 60, 150), (150, 35, 45), (30, 110, 60), (90, 50, 140), (20, 20, 25), (160, 80, 20))
SOFT = 1.0                                       # blur (px of the normalised frame) before comparing silhouettes
TURN_STEP = 6                                    # degrees: the reference's turns are tried every 2 steps, then
                                                 # one step either side of the best
INK = 24                                         # a tile pixel is drawn on when it differs this much from the tile
ANGLE_TRIES = range(-8, 9, 4)                    # degrees: a wrong tile must not be the reflection slightly turned

TABLE = LevelTable(NAME, knobs={
    "options_range": "number of tiles",
    "alike_range": "share of the wrong tiles drawn from the reference (turned, and from level 3 unchanged, from "
                   "level 4 reflected in the other axis); the rest show other characters",
    "angle_step_range": "turns are multiples of this many degrees",
    "horizontal_range": "probability that the mirror line is horizontal (the reflection turns upside down)",
    "source_range": "where references come from: 0 Latin letters, 1 also polyominoes and icons, 2 also Chinese "
                    "characters",
    "scale_jitter_range": "largest relative change of a tile's drawing size",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"options_range": (4, 4), "alike_range": (0.34, 0.34), "angle_step_range": (180, 180),
        "horizontal_range": (0.0, 0.0), "source_range": (0, 0), "scale_jitter_range": (0.0, 0.0),
        "clutter_range": (0.0, 0.1)},
    2: {"options_range": (4, 4), "alike_range": (0.67, 0.67), "angle_step_range": (90, 90),
        "horizontal_range": (0.2, 0.2), "source_range": (0, 1), "scale_jitter_range": (0.0, 0.03),
        "clutter_range": (0.1, 0.2)},
    3: {"options_range": (5, 5), "alike_range": (0.75, 0.75), "angle_step_range": (90, 90),
        "horizontal_range": (0.4, 0.4), "source_range": (0, 2), "scale_jitter_range": (0.0, 0.04),
        "clutter_range": (0.2, 0.35)},
    4: {"options_range": (6, 6), "alike_range": (0.8, 0.8), "angle_step_range": (45, 45),
        "horizontal_range": (0.5, 0.5), "source_range": (0, 2), "scale_jitter_range": (0.0, 0.05),
        "clutter_range": (0.35, 0.5)},
    5: {"options_range": (6, 6), "alike_range": (1.0, 1.0), "angle_step_range": (15, 15),
        "horizontal_range": (0.5, 0.5), "source_range": (0, 2), "scale_jitter_range": (0.0, 0.06),
        "clutter_range": (0.5, 0.6)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # the reference, e.g. "R", "我" or "emoji:cat"
    axis: str                   # "vertical" (reflect left-right) | "horizontal" (reflect top-bottom)
    ink: tuple[int, int, int]   # colour of characters
    # per tile, in grid order: (role, what, kind, angle clockwise, scale, tile rgb); kind "mirror" (the answer),
    # "turned", "same" (the reference unchanged), "flip" (reflected in the other axis) or "other" (another drawing)
    tiles: tuple[tuple[str, str, str, float, float, tuple], ...]
    cols: int
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- drawing

def poly_key(cells) -> str:
    return "poly:" + ";".join(f"{x},{y}" for x, y in cells)


def glyph(what: str, px: int, ink: tuple) -> np.ndarray:
    """RGBA sprite (square, drawing centred) of a character or polyomino ("poly:x,y;...") in `ink` or of an
    icon, about `px` high."""
    if what.startswith("emoji:"):
        return draw.sprite(what, px)
    if what.startswith("poly:"):
        cells = [tuple(int(v) for v in c.split(",")) for c in what[5:].split(";")]
        cw, ch = max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1
        cell = max(3, px // max(cw, ch))
        n = max(cw, ch) * cell + 4
        out = np.zeros((n, n, 4), np.uint8)
        ox, oy = (n - cw * cell) // 2, (n - ch * cell) // 2
        for x, y in cells:
            out[oy + y * cell: oy + (y + 1) * cell, ox + x * cell: ox + (x + 1) * cell] = (*ink, 255)
        return out
    a = geom.text_alpha(what, px)
    n = max(a.shape) + 4
    out = np.zeros((n, n, 4), np.uint8)
    y, x = (n - a.shape[0]) // 2, (n - a.shape[1]) // 2
    out[y:y + a.shape[0], x:x + a.shape[1], :3] = ink
    out[y:y + a.shape[0], x:x + a.shape[1], 3] = a
    return out


def shown(what: str, px: int, ink: tuple, kind: str, axis: str, angle: float) -> np.ndarray:
    """The sprite a tile shows: the drawing reflected in the axis (kind "mirror") or in the other one ("flip"),
    or turned clockwise."""
    spr = glyph(what, px, ink)
    if kind in ("mirror", "flip"):
        vertical = (axis == "vertical") == (kind == "mirror")
        return np.ascontiguousarray(spr[:, ::-1] if vertical else spr[::-1, :])
    return draw.rotated(spr, angle)


def layout(size: tuple[int, int], n: int, cols: int, axis: str) -> dict:
    """Boxes (x0, y0, x1, y1): the reference panel, the reference drawing's square inside it, the mirror
    line (x0, y0, x1, y1), the '?' square, and the tiles."""
    w, h = size
    m = round(min(w, h) * 0.03)
    ph = round(h * (0.34 if axis == "vertical" else 0.44))
    panel = (m, m, w - m, m + ph)
    cx, cy = w // 2, m + ph // 2
    if axis == "vertical":
        s = round(ph * 0.84)
        gap = round(ph * 0.12)
        ref = (cx - gap - s, cy - s // 2, cx - gap, cy - s // 2 + s)
        ask = (cx + gap, ref[1], cx + gap + s, ref[3])
        line = (cx, m + 4, cx, m + ph - 4)
    else:
        s = round(ph * 0.42)
        gap = round(ph * 0.05)
        ref = (cx - s // 2, cy - gap - s, cx - s // 2 + s, cy - gap)
        ask = (ref[0], cy + gap, ref[2], cy + gap + s)
        line = (m + round(w * 0.18), cy, w - m - round(w * 0.18), cy)
    rows = -(-n // cols)
    top = panel[3] + m
    cw, chh = (w - m * (cols + 1)) / cols, (h - top - m * rows) / rows
    tiles = []
    for i in range(n):
        r, c = divmod(i, cols)
        x0, y0 = m + c * (cw + m), top + r * (chh + m)
        tiles.append((round(x0), round(y0), round(x0 + cw), round(y0 + chh)))
    return {"panel": panel, "reference": ref, "ask": ask, "line": line, "tiles": tiles}


# ---------------------------------------------------------------- sampling

def silhouette(rgb: np.ndarray, box) -> np.ndarray:
    """The drawing's silhouette inside a tile, from the pixels alone: those differing from the tile's own
    colour (the median of a row just inside its top edge) by more than INK, holes filled, the tile's edge
    band left out."""
    x0, y0, x1, y1 = box
    crop = rgb[y0:y1, x0:x1]
    inset = max(4, (y1 - y0) // 12)
    ground = np.median(crop[inset, inset:-inset], axis=0)
    b, g, r = cv2.split(cv2.absdiff(crop, tuple(float(v) for v in ground) + (0.0,)))
    diff = cv2.max(cv2.max(b, g), r) > INK
    diff[:inset, :] = diff[-inset:, :] = False
    diff[:, :inset] = diff[:, -inset:] = False
    return geom.fill_holes(diff)


def soft(mask: np.ndarray) -> np.ndarray:
    """A silhouette normalised (match.normalise: area, centroid) and blurred, float32 NORM x NORM."""
    return cv2.GaussianBlur(match.normalise(mask).astype(np.float32), (0, 0), SOFT)


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Soft IoU of two soft silhouettes: sum of the minimum over sum of the maximum."""
    return float(np.minimum(a, b).sum() / max(float(np.maximum(a, b).sum()), 1e-6))


def turned(a: np.ndarray, angle: float) -> np.ndarray:
    c = (match.NORM - 1) / 2
    return cv2.warpAffine(a, cv2.getRotationMatrix2D((c, c), -angle, 1.0), (match.NORM, match.NORM),
                          flags=cv2.INTER_LINEAR)


def reflected(a: np.ndarray, axis: str) -> np.ndarray:
    return np.ascontiguousarray(a[:, ::-1] if axis == "vertical" else a[::-1, :])


def chirality_of(ref: np.ndarray) -> float:
    """Best soft IoU of a soft silhouette's reflection with any of its turns (high: not chiral)."""
    flipped = reflected(ref, "vertical")      # the other reflection is this one turned half round
    coarse = {a: similarity(turned(ref, a), flipped) for a in range(0, 360, 2 * TURN_STEP)}
    best = max(coarse, key=coarse.get)
    return max([coarse[best]] + [similarity(turned(ref, best + d), flipped) for d in (-TURN_STEP, TURN_STEP)])


@lru_cache(maxsize=128)
def _plain(what: str) -> np.ndarray:
    """The soft silhouette of a drawing measured on a plain tile, at about the size tiles show it."""
    spr = glyph(what, 36, (20, 20, 20))
    tile = np.full((60, 60, 3), 245, np.uint8)
    y = x = (60 - spr.shape[0]) // 2
    region = tile[y:y + spr.shape[0], x:x + spr.shape[1]]
    region[...] = draw.blend(region, spr[..., :3], spr[..., 3])
    return soft(silhouette(tile, (0, 0, 60, 60)))


@lru_cache(maxsize=128)
def chirality(what: str) -> float:
    """chirality_of a drawing, measured once on a plain tile (sampling uses it to skip symmetric ones)."""
    return chirality_of(_plain(what))


@lru_cache(maxsize=128)
def half_turn(what: str) -> float:
    """Soft IoU of a drawing with itself turned half round (high: its two reflections look alike)."""
    a = _plain(what)
    return similarity(a, np.ascontiguousarray(a[::-1, ::-1]))


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  reference: str | None = None) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, v, integer=k in ("options_range", "angle_step_range", "source_range"))
             for k, v in row.items()}
    source = (("latin",), ("poly", "emoji"), ("hanzi",))[int(rng.integers(knobs["source"] + 1))]
    source = source[int(rng.integers(len(source)))]
    if source == "poly":           # chiral polyominoes, none a turn or reflection of another
        pool = []
        for _ in range(40):
            cells = match.polyomino(rng, POLY_CELLS)
            if match.chiral(cells) and not any(match.cell_overlap(cells, o, mirror=True) == POLY_CELLS for o in pool):
                pool.append(cells)
            if len(pool) == 6:
                break
        pool = [poly_key(c) for c in pool]
    else:
        pool = {"latin": list(LATIN), "hanzi": list(HANZI), "emoji": [f"emoji:{e}" for e in EMOJI]}[source]
    order = [pool[i] for i in rng.permutation(len(pool))]
    ref = reference or next((p for p in order if chirality(p) <= CHIRAL - 0.02), order[0])
    if source == "emoji":          # other drawings for the wrong tiles: characters would give it away
        extra = [f"emoji:{e}" for e in ("cat", "dog", "car", "fish", "key", "shoe", "cup", "pear")]
        order += [extra[i] for i in rng.permutation(len(extra))]
    n = knobs["options"]
    wrong = n - 1
    alike = int(round(wrong * knobs["alike"]))
    others = [p for p in order if p != ref][:wrong - alike]
    step = knobs["angle_step"]
    angles = [a for a in range(step, 360, step) if min(a, 360 - a) >= 15]
    kinds = (["same"] if level >= 3 else []) + (["flip"] if level >= 4 and half_turn(ref) <= HALF_TURN else [])
    kinds = [kinds[i] for i in rng.permutation(len(kinds))][:max(0, alike - 1)]
    kinds += ["turned"] * (alike - len(kinds))
    picks = rng.choice(len(angles), alike, replace=len(angles) < alike)
    tiles = [("target", ref, "mirror", 0.0)] + [("distractor", ref, k, float(angles[i]) if k == "turned" else 0.0)
                                                 for k, i in zip(kinds, picks)]
    for o in others:
        tiles.append(("distractor", o, "other", float(step * int(rng.integers(0, 360 // step))) if level >= 3 else 0.0))
    tiles = [tiles[i] for i in rng.permutation(len(tiles))]
    jitter = knobs["scale_jitter"]
    tiles = tuple((role, what, kind, angle, 1.0 + float(rng.uniform(-jitter, jitter)),
                   tuple(int(v) for v in rng.integers(238, 256, 3))) for role, what, kind, angle in tiles)
    axis = "horizontal" if rng.random() < knobs["horizontal"] else "vertical"
    knobs["alike_share"] = alike / max(1, wrong)
    return Params(size=size, target=ref, axis=axis, ink=INKS[int(rng.integers(len(INKS)))], tiles=tiles,
                  cols=n if n <= 3 else -(-n // 2), clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)),
                  knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the share of the wrong tiles drawn from the reference itself."""
    return params.knobs["alike_share"]


def render(params: Params) -> Puzzle:
    w, h = params.size
    n = len(params.tiles)
    geo = layout(params.size, n, params.cols, params.axis)
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    radius = round(min(w, h) * 0.025)
    meta = {}
    # the reference panel: the drawing, the dashed mirror line and a question mark where the reflection goes
    panel = geo["panel"]
    draw.round_rect(canvas.rgb, panel, (250, 250, 252), radius, border=(60, 130, 230))
    smallest = min(min(b[2] - b[0], b[3] - b[1]) for b in geo["tiles"])
    base = round(smallest * 0.72 / (np.sqrt(2) * 1.15))       # a turned drawing fits at any angle and size
    rx0, ry0, rx1, ry1 = geo["reference"]
    base = min(base, round((rx1 - rx0) * 0.78))
    spr = glyph(params.target, base, params.ink)                # drawn as large as in the tiles
    ref_id = n + 1
    canvas.paste(spr, (rx0 + rx1 - spr.shape[1]) // 2, (ry0 + ry1 - spr.shape[0]) // 2, ref_id)
    x0, y0, x1, y1 = geo["line"]
    dash = max(4, round(min(w, h) / 40))
    length = max(x1 - x0, y1 - y0)
    for k in range(0, length, 2 * dash):
        a, b = k, min(k + dash, length)
        p, q = ((x0, y0 + a), (x0, y0 + b)) if x0 == x1 else ((x0 + a, y0), (x0 + b, y0))
        cv2.line(canvas.rgb, p, q, (60, 130, 230), max(2, round(min(w, h) / 140)), cv2.LINE_AA)
    ax0, ay0, ax1, ay1 = geo["ask"]
    mark = geom.text_sprite("?", round((ay1 - ay0) * 0.7), (170, 175, 185))
    canvas.paste(mark, (ax0 + ax1 - mark.shape[1]) // 2, (ay0 + ay1 - mark.shape[0]) // 2, 0, hides=False)
    px0, py0, px1, py1 = panel
    canvas.instances[py0:py1, px0:px1] = ref_id
    canvas.full_area[ref_id] = (px1 - px0) * (py1 - py0)
    meta[ref_id] = {"role": "reference", "label": "reference", "kind": params.target}
    for i, ((role, what, kind, angle, scale, tile_rgb), box) in enumerate(zip(params.tiles, geo["tiles"]), start=1):
        draw.round_rect(canvas.rgb, box, tile_rgb, radius, border=(190, 194, 200))
        bx0, by0, bx1, by1 = box
        spr = shown(what, max(8, round(base * scale)), params.ink, kind, params.axis, angle)
        canvas.paste(spr, (bx0 + bx1 - spr.shape[1]) // 2, (by0 + by1 - spr.shape[0]) // 2, i)
        canvas.instances[by0:by1, bx0:bx1] = i          # the whole tile is the click target
        canvas.full_area[i] = (bx1 - bx0) * (by1 - by0)
        label = {"mirror": "mirror image", "turned": "turned copy", "same": "unchanged copy",
                 "flip": "reflection in the other axis", "other": "other shape"}[kind]
        meta[i] = {"role": role, "label": label, "kind": kind}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta,
                  extras={"reference": geo["reference"], "tiles": geo["tiles"]})


# ---------------------------------------------------------------- verification

def solve(params: Params, puzzle: Puzzle) -> Task:
    ref_box, boxes = puzzle.extras["reference"], puzzle.extras["tiles"]
    ref = soft(silhouette(puzzle.rgb, ref_box))
    flipped = reflected(ref, params.axis)
    # the reflection must be none of the reference's own turns
    chiral = chirality_of(ref)
    if chiral > CHIRAL:
        raise Reject(f"{NAME}.symmetric_reference")
    # the reflection slightly turned either way: a wrong tile must be far from all of these
    near = [turned(flipped, a) for a in ANGLE_TRIES]
    objects, targets = [], []
    margin = np.inf
    for i, box in enumerate(boxes, start=1):
        tile = soft(silhouette(puzzle.rgb, box))
        iou_exact, iou_near = similarity(flipped, tile), max(similarity(m, tile) for m in near)
        if iou_exact >= SAME:
            found = "target"
            margin = min(margin, iou_exact - SAME)
        elif iou_near <= DIFFERENT:
            found = "distractor"
            margin = min(margin, DIFFERENT - iou_near)
        else:
            raise Reject(f"{NAME}.ambiguous_tile")
        if found != puzzle.meta[i]["role"]:
            raise Reject(f"{NAME}.role_mismatch")
        mask = puzzle.instances == i
        obj = {"id": i, "role": found, "label": puzzle.meta[i]["label"], "bbox": [float(v) for v in box],
               "visible_fraction": round(float(np.count_nonzero(mask)) / puzzle.full_area[i], 4), "_mask": mask}
        objects.append(obj)
        if found == "target":
            targets.append(obj)
    if len(targets) != 1:
        raise Reject(f"{NAME}.not_one_reflection")
    ref_id = len(boxes) + 1
    panel = draw.instance_boxes(puzzle.instances)[ref_id]
    objects.append({"id": ref_id, "role": "reference", "label": "reference", "bbox": panel,
                    "visible_fraction": 1.0, "_mask": puzzle.instances == ref_id})
    t = targets[0]
    checks = {"reflection_vs_turns_similarity": chiral, "min_margin": float(margin), "tiles": float(len(boxes))}
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[t["id"]],
                target_boxes=[t["bbox"]], points=[draw.inner_point(t["_mask"])], partial_credit=False,
                checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请点击上方图形沿虚线翻转后的镜像"
    return "Click the mirror image of the top drawing, reflected in the dashed line."
