"""Rotation match: a reference shape and a grid of tiles; click every tile that shows the reference turned
(not mirrored, not a different shape)."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw

NAME = "match"
DESCRIPTION = "click every tile whose shape is the reference shape rotated; mirror images and other shapes are wrong"
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
COVERS = ("OpenCaptchaWorld:Object_Match", "Spatial-CAPTCHA-Bench:mental_rotation")
STAT, STAT_DIRECTION = "share of the wrong tiles that are mirror images", +1
NORM = 56               # side of the normalised masks compared by the verification
NORM_SCALE = 17.5       # ... in which the square root of a shape's area is this many pixels
ANGLE_STEP = 4          # degrees between the rotations of the reference tried
SAME = 0.87             # IoU at or above this: the same shape (turned) ...
DIFFERENT = 0.82        # ... at or below this: not the same; in between is ambiguous and rejected
INK = 60                # a tile pixel belongs to the shape when it differs this much (max over RGB) from the tile
MIN_CELL_PX = 9         # px per 320 of puzzle: the smallest cell a tile's shape is drawn with
MIRROR_CELLS = 2        # a shape of MIRROR_FROM cells or more differs from its mirror image, however turned and
MIRROR_FROM = 7         # shifted, in at least this many cells (by one cell, a person needed a pixel tool)
FLOORS = {"cells": f"every tile's shape is drawn with cells of at least {MIN_CELL_PX} px per 320 px of puzzle, and "
                   f"a shape of {MIRROR_FROM} or more cells (levels 4-5) differs from its mirror image in at least "
                   f"{MIRROR_CELLS} cells however turned and shifted (with one, a level-5 mirror could not be told "
                   "from a turn by eye)"}

TABLE = LevelTable(NAME, knobs={
    "targets_range": "number of tiles showing the reference rotated",
    "mirrors_range": "number of tiles showing the reference mirrored (and rotated)",
    "others_range": "number of tiles showing a different shape of as many cells",
    "angle_step_range": "rotations are multiples of this many degrees",
    "cells_range": "number of square cells the shape is made of",
    "scale_jitter_range": "largest relative change of a tile's shape size against the reference",
    "colour_vary_range": "probability that a tile's shape has its own colour",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"targets_range": (1, 2), "mirrors_range": (0, 0), "others_range": (2, 3), "angle_step_range": (90, 90),
        "cells_range": (5, 5), "scale_jitter_range": (0.0, 0.0), "colour_vary_range": (0.0, 0.0),
        "clutter_range": (0.0, 0.1)},
    2: {"targets_range": (1, 2), "mirrors_range": (1, 1), "others_range": (2, 2), "angle_step_range": (45, 45),
        "cells_range": (5, 6), "scale_jitter_range": (0.0, 0.05), "colour_vary_range": (0.0, 0.0),
        "clutter_range": (0.1, 0.3)},
    3: {"targets_range": (2, 3), "mirrors_range": (2, 2), "others_range": (1, 2), "angle_step_range": (30, 30),
        "cells_range": (6, 6), "scale_jitter_range": (0.0, 0.1), "colour_vary_range": (0.3, 0.3),
        "clutter_range": (0.3, 0.5)},
    4: {"targets_range": (2, 3), "mirrors_range": (3, 3), "others_range": (1, 1), "angle_step_range": (15, 15),
        "cells_range": (6, 7), "scale_jitter_range": (0.0, 0.15), "colour_vary_range": (0.6, 0.6),
        "clutter_range": (0.5, 0.7)},
    5: {"targets_range": (2, 3), "mirrors_range": (4, 5), "others_range": (0, 0), "angle_step_range": (1, 1),
        "cells_range": (7, 8), "scale_jitter_range": (0.0, 0.2), "colour_vary_range": (1.0, 1.0),
        "clutter_range": (0.7, 0.9)},
})
PALETTE = ((220, 50, 47), (38, 110, 220), (40, 150, 70), (200, 140, 20), (140, 70, 190), (230, 110, 30),
           (20, 140, 150), (200, 60, 140), (90, 90, 100))


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                                  # "" (the sought tiles are those showing the reference turned)
    reference: tuple[tuple[int, int], ...]       # the reference shape's cells (col, row)
    ref_rgb: tuple[int, int, int]
    # per tile, in grid order: (role, cells, mirrored, angle clockwise, scale, rgb, tile rgb)
    tiles: tuple[tuple[str, tuple, bool, float, float, tuple, tuple], ...]
    cols: int
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- polyominoes

def _normal(cells) -> tuple:
    xs, ys = min(c[0] for c in cells), min(c[1] for c in cells)
    return tuple(sorted((x - xs, y - ys) for x, y in cells))


def variants(cells, mirror: bool = True) -> set:
    """Every rotation (and, with `mirror`, reflection) of a cell set, normalised."""
    out = set()
    for flip in ((False, True) if mirror else (False,)):
        cur = [(-x, y) for x, y in cells] if flip else list(cells)
        for _ in range(4):
            out.add(_normal(cur))
            cur = [(y, -x) for x, y in cur]
    return out


def chiral(cells) -> bool:
    """Whether the mirror image of a polyomino is none of its rotations."""
    return _normal([(-x, y) for x, y in cells]) not in variants(cells, mirror=False)


def mirror_cells(cells) -> int:
    """In how many cells the mirror image differs from the polyomino at the best turn and shift."""
    return len(cells) - cell_overlap(cells, tuple((-x, y) for x, y in cells), mirror=False)


def mirror_clear(cells) -> bool:
    """Whether a person can tell the mirror image from a turn: MIRROR_CELLS apart for shapes of MIRROR_FROM cells."""
    return len(cells) < MIRROR_FROM or mirror_cells(cells) >= MIRROR_CELLS


def rot_symmetric(cells) -> bool:
    return len(variants(cells, mirror=False)) < 4


def polyomino(rng: np.random.Generator, n: int) -> tuple:
    """A random connected set of n cells, no longer than 4 cells in either direction."""
    for _ in range(100):
        cells = {(0, 0)}
        while len(cells) < n:
            x, y = sorted(cells)[int(rng.integers(len(cells)))]
            dx, dy = ((1, 0), (-1, 0), (0, 1), (0, -1))[int(rng.integers(4))]
            cells.add((x + dx, y + dy))
        c = _normal(cells)
        if max(x for x, _ in c) < 4 and max(y for _, y in c) < 4:
            return c
    raise Reject(f"{NAME}.no_shape")


def _grid(cells) -> np.ndarray:
    g = np.zeros((4, 4), np.float32)
    for x, y in _normal(cells):
        g[y, x] = 1
    return g


def cell_overlap(a, b, mirror: bool) -> int:
    """The most cells of `a` that a turned (and, with `mirror`, reflected) and shifted copy of `b` covers."""
    from scipy.signal import correlate2d  # here: scipy.signal takes ~0.7 s to import, a small run may not draw this
    ga = _grid(a)
    return max(int(round(correlate2d(ga, _grid(v), mode="full").max())) for v in variants(b, mirror))


def shape_sprite(cells: tuple, cell: int, rgb: tuple, mirrored: bool, angle: float) -> np.ndarray:
    """RGBA sprite of a polyomino with `cell`-pixel cells, mirrored left-right then turned clockwise about
    the centre of its bounding box."""
    return draw.rotated(_upright(cells, cell, rgb, mirrored), angle)


def _upright(cells: tuple, cell: int, rgb: tuple, mirrored: bool) -> np.ndarray:
    """RGBA sprite of the unturned polyomino: `rgb` inside, 60% of it on the edge band."""
    mask, edge = _upright_mask(cells, cell, mirrored)
    planes = [np.array([v, int(v * 0.6)], np.uint8)[edge] for v in rgb]     # the colour, or the edge colour
    return cv2.merge(planes + [mask])


@lru_cache(maxsize=64)
def _upright_mask(cells: tuple, cell: int, mirrored: bool) -> tuple[np.ndarray, np.ndarray]:
    """(coverage 0/255, edge band 0/1) of the unturned polyomino (uint8), on a square that holds every turn."""
    cw, ch = max(x for x, _ in cells) + 1, max(y for _, y in cells) + 1
    side = int(np.ceil(np.hypot(cw, ch) * cell)) + 4
    ox, oy = (side - cw * cell) // 2, (side - ch * cell) // 2
    mask = np.zeros((side, side), np.uint8)
    for x, y in cells:
        if mirrored:
            x = cw - 1 - x
        mask[oy + y * cell: oy + (y + 1) * cell, ox + x * cell: ox + (x + 1) * cell] = 255
    edge = mask - cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, cell // 10))
    return mask, (edge > 0).view(np.uint8)


# ---------------------------------------------------------------- sampling

def layout(size: tuple[int, int], n: int, cols: int) -> dict:
    """The reference panel and the tile boxes (x0, y0, x1, y1) in puzzle pixels."""
    w, h = size
    m = round(min(w, h) * 0.03)
    ref_h = round(h * 0.34)
    ref_w = min(w - 2 * m, ref_h + round(w * 0.1))
    ref = ((w - ref_w) // 2, m, (w - ref_w) // 2 + ref_w, m + ref_h)
    rows = -(-n // cols)
    top = ref[3] + m
    cw, chh = (w - m * (cols + 1)) / cols, (h - top - m * rows) / rows
    tiles = []
    for i in range(n):
        r, c = divmod(i, cols)
        x0, y0 = m + c * (cw + m), top + r * (chh + m)
        tiles.append((round(x0), round(y0), round(x0 + cw), round(y0 + chh)))
    return {"reference": ref, "tiles": tiles}


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("targets_range", "mirrors_range", "others_range",
                                                          "cells_range", "angle_step_range"))
             for k in row}
    n_cells = knobs["cells"]
    for _ in range(50):
        ref = polyomino(rng, n_cells)
        if chiral(ref) and not rot_symmetric(ref) and mirror_clear(ref):
            break
    else:
        raise Reject(f"{NAME}.no_chiral_shape")
    roles = ["target"] * knobs["targets"] + ["mirror"] * knobs["mirrors"] + ["other"] * knobs["others"]
    roles = [roles[i] for i in rng.permutation(len(roles))]
    step = knobs["angle_step"]
    base_rgb = PALETTE[int(rng.integers(len(PALETTE)))]
    tiles = []
    for role in roles:
        cells = ref
        if role == "other":
            for _ in range(50):       # neither the reference nor its mirror image, however placed
                cells = polyomino(rng, n_cells)
                if cell_overlap(ref, cells, mirror=True) < n_cells:
                    break
            else:
                raise Reject(f"{NAME}.no_other_shape")
        angle = float(step * int(rng.integers(1, 360 // step))) if step > 1 else float(rng.uniform(20, 340))
        if role == "other" and step > 1:
            angle = float(step * int(rng.integers(0, 360 // step)))
        scale = 1.0 + float(rng.uniform(-1, 1)) * knobs["scale_jitter"]
        rgb = PALETTE[int(rng.integers(len(PALETTE)))] if rng.random() < knobs["colour_vary"] else base_rgb
        tile_rgb = tuple(int(v) for v in rng.integers(236, 256, 3))
        tiles.append((role, cells, role == "mirror", angle, scale, rgb, tile_rgb))
    n = len(tiles)
    cols = n if n <= 3 else -(-n // 2)
    knobs["mirror_share"] = knobs["mirrors"] / max(1, knobs["mirrors"] + knobs["others"])
    return Params(size=size, target="", reference=ref, ref_rgb=base_rgb, tiles=tuple(tiles), cols=cols,
                  clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the share of the wrong tiles that are mirror images of the reference."""
    return params.knobs["mirror_share"]


# ---------------------------------------------------------------- drawing

def cell_px(cells: tuple, box, fill: float) -> int:
    """Cell size so that the shape turned any way fits in `fill` of the box's shorter side."""
    c = np.array(cells, np.float64) + 0.5
    cw, ch = c.max(0) + 0.5
    corners = np.concatenate([c + d for d in ((-.5, -.5), (.5, -.5), (-.5, .5), (.5, .5))])
    radius = np.hypot(*(corners - [cw / 2, ch / 2]).T).max()     # farthest corner from the sprite centre
    return max(4, int(min(box[2] - box[0], box[3] - box[1]) * fill / (2 * radius)))


def render(params: Params) -> Puzzle:
    w, h = params.size
    n = len(params.tiles)
    geo = layout(params.size, n, params.cols)
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    radius = round(min(w, h) * 0.025)
    meta = {}
    ref_id = n + 1
    ref_box = geo["reference"]
    # the reference panel: white card with a blue frame
    draw.round_rect(canvas.rgb, ref_box, (250, 250, 252), radius)
    x0, y0, x1, y1 = ref_box
    cv2.rectangle(canvas.rgb, (x0 + 2, y0 + 2), (x1 - 3, y1 - 3), (60, 130, 230), max(2, round(min(w, h) / 160)))
    ref_cell = cell_px(params.reference, ref_box, 0.82)
    spr = shape_sprite(params.reference, ref_cell, params.ref_rgb, False, 0.0)
    canvas.paste(spr, (x0 + x1 - spr.shape[1]) // 2, (y0 + y1 - spr.shape[0]) // 2, ref_id)
    canvas.instances[y0:y1, x0:x1] = ref_id
    canvas.full_area[ref_id] = (x1 - x0) * (y1 - y0)
    meta[ref_id] = {"role": "reference", "label": "reference shape", "kind": ""}
    smallest = min(geo["tiles"], key=lambda b: min(b[2] - b[0], b[3] - b[1]))
    cell = min(cell_px(t[1], smallest, 0.84 / t[4]) for t in params.tiles)
    for i, ((role, cells, mirrored, angle, scale, rgb, tile_rgb), box) in enumerate(zip(params.tiles, geo["tiles"]),
                                                                                     start=1):
        draw.round_rect(canvas.rgb, box, tile_rgb, radius, border=(190, 194, 200))
        bx0, by0, bx1, by1 = box
        c = max(4, round(cell * scale))
        if c < MIN_CELL_PX * min(w, h) / 320:
            raise Reject(f"{NAME}.cells_too_small")
        spr = shape_sprite(cells, c, rgb, mirrored, angle)
        canvas.paste(spr, (bx0 + bx1 - spr.shape[1]) // 2, (by0 + by1 - spr.shape[0]) // 2, i)
        canvas.instances[by0:by1, bx0:bx1] = i          # the whole card is the click target
        canvas.full_area[i] = (bx1 - bx0) * (by1 - by0)
        meta[i] = {"role": "target" if role == "target" else "distractor",
                   "label": {"target": "rotated copy", "mirror": "mirror image", "other": "different shape"}[role],
                   "kind": role}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta,
                  extras={"reference": ref_box, "tiles": geo["tiles"]})


# ---------------------------------------------------------------- verification

def shape_mask(rgb: np.ndarray, box) -> np.ndarray:
    """The shape's pixels inside a card, from the pixels alone: those far from the card's own colour
    (the median of a row just inside its top edge)."""
    x0, y0, x1, y1 = box
    crop = rgb[y0:y1, x0:x1]
    inset = max(4, (y1 - y0) // 12)
    ground = np.median(crop[inset, inset:-inset], axis=0).astype(np.uint8)
    diff = cv2.absdiff(crop, tuple(float(v) for v in ground) + (0.0,))
    mask = np.maximum(np.maximum(diff[..., 0], diff[..., 1]), diff[..., 2]) > INK
    # drop the frame of the reference panel and the card outline
    mask[:inset, :] = mask[-inset:, :] = False
    mask[:, :inset] = mask[:, -inset:] = False
    return mask


def normalise(mask: np.ndarray) -> np.ndarray:
    """A NORM x NORM float mask: the square root of the area scaled to NORM_SCALE pixels (area averaging
    when shrinking), then the centroid moved to the middle with sub-pixel precision."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 20:
        raise Reject(f"{NAME}.shape_not_found")
    crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    k = NORM_SCALE / np.sqrt(len(xs))
    small = cv2.resize(crop, (max(1, round(crop.shape[1] * k)), max(1, round(crop.shape[0] * k))),
                       interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    total = small.sum()
    gy, gx = np.mgrid[:small.shape[0], :small.shape[1]]
    cx, cy = (gx * small).sum() / total, (gy * small).sum() / total
    c = (NORM - 1) / 2
    return cv2.warpAffine(small, np.float32([[1, 0, c - cx], [0, 1, c - cy]]), (NORM, NORM), flags=cv2.INTER_LINEAR)


@lru_cache(maxsize=1)
def _turn_maps() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The NORM x NORM pixels ordered by distance from the centre (flat indices, distances) and, per angle 0,
    ANGLE_STEP, ... (rows), where warpAffine's clockwise turn about the centre samples each of them (x, y)."""
    c = (NORM - 1) / 2
    ys, xs = np.mgrid[:NORM, :NORM]
    dist = np.hypot(xs - c, ys - c).ravel()
    order = np.argsort(dist, kind="stable")
    px, py = xs.ravel()[order], ys.ravel()[order]
    inv = np.stack([cv2.invertAffineTransform(cv2.getRotationMatrix2D((c, c), -a, 1.0))
                    for a in range(0, 360, ANGLE_STEP)])
    src = inv @ np.stack([px, py, np.ones_like(px)]).astype(np.float64)      # (angles, 2, pixels)
    return order, dist[order], src[:, 0].astype(np.float32), src[:, 1].astype(np.float32)


def rotations(norm: np.ndarray) -> np.ndarray:
    """(2 * 360 / ANGLE_STEP, NORM * NORM / 64) bit-packed masks: the shape turned clockwise by 0, ANGLE_STEP,
    ... degrees, then its mirror image turned the same way (as cv2.warpAffine turns them)."""
    order, dist, map_x, map_y = _turn_maps()
    c = (NORM - 1) / 2
    ys, xs = np.nonzero(norm)
    # a turn about the centre keeps distances, so only pixels this close to the centre can be inked
    k = int(np.searchsorted(dist, np.hypot(xs - c, ys - c).max() + 2, side="right"))
    images = (norm, np.ascontiguousarray(norm[:, ::-1]))
    # all turns of an image in one remap of those pixels. A one-channel float remap differs from warpAffine only
    # by the rounding of the sample position (< 1e-5 on these 0..1 images), so a turn with a value within 1e-4
    # of the 0.5 threshold is redone with warpAffine itself: every mask is the one warpAffine gives
    turned = np.stack([cv2.remap(img, map_x[:, :k], map_y[:, :k], cv2.INTER_LINEAR) for img in images])
    masks = np.zeros((2, len(map_x), NORM * NORM), bool)
    masks[:, :, order[:k]] = turned >= 0.5
    for j, i in zip(*np.nonzero((np.abs(turned - 0.5) < 1e-4).any(axis=2))):
        m = cv2.getRotationMatrix2D((c, c), -i * ANGLE_STEP, 1.0)
        masks[j, i] = cv2.warpAffine(images[j], m, (NORM, NORM), flags=cv2.INTER_LINEAR).ravel() >= 0.5
    return pack(masks.reshape(-1, NORM, NORM))


def pack(masks: np.ndarray) -> np.ndarray:
    """(n, NORM, NORM) masks (float ones thresholded at 0.5) as (n, NORM * NORM / 64) uint64 bit rows."""
    bits = np.packbits((masks if masks.dtype == bool else masks >= 0.5).reshape(len(masks), -1), axis=1)
    return bits.view(np.uint64)


def best_iou(stack: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """(len(masks), 2): best IoU of each packed mask with the turned reference and with the turned mirror image."""
    inter = np.bitwise_count(masks[:, None, :] & stack[None, :, :]).sum(2, dtype=np.int32)
    union = (np.bitwise_count(masks).sum(1, dtype=np.int32)[:, None]
             + np.bitwise_count(stack).sum(1, dtype=np.int32)[None, :] - inter)
    iou = inter / np.maximum(union, 1)
    half = stack.shape[0] // 2
    return np.stack([iou[:, :half].max(1), iou[:, half:].max(1)], axis=1)


def _max_iou(stack: np.ndarray, mask: np.ndarray) -> float:
    inter = np.bitwise_count(stack & mask).sum(1)
    union = np.bitwise_count(stack).sum(1) + np.bitwise_count(mask).sum() - inter
    return float((inter / np.maximum(union, 1)).max())


def solve(params: Params, puzzle: Puzzle) -> Task:
    ref_box, boxes = puzzle.extras["reference"], puzzle.extras["tiles"]
    ref = normalise(shape_mask(puzzle.rgb, ref_box))
    stack = rotations(ref)
    ref_bits = pack(ref[None])
    # the reference must not look like its own mirror image, nor like itself turned by a large angle
    mirror_sym = float(best_iou(stack, ref_bits)[0, 1])
    if mirror_sym > DIFFERENT:
        raise Reject(f"{NAME}.mirror_symmetric_reference")
    angles = np.arange(0, 360, ANGLE_STEP)
    away = stack[:len(angles)][(angles >= 30) & (angles <= 330)]
    rot_sym = _max_iou(away, ref_bits)
    if rot_sym >= SAME:
        raise Reject(f"{NAME}.rotationally_symmetric_reference")
    masks = pack(np.stack([normalise(shape_mask(puzzle.rgb, b)) for b in boxes]))
    scores = best_iou(stack, masks)
    objects, targets = [], []
    min_margin = np.inf
    for i, (box, (rot, mir)) in enumerate(zip(boxes, scores), start=1):
        if rot >= SAME and mir <= DIFFERENT:
            found = "target"
        elif rot <= DIFFERENT:
            found = "distractor"
        else:
            raise Reject(f"{NAME}.ambiguous_candidate")
        if found != puzzle.meta[i]["role"]:
            raise Reject(f"{NAME}.role_mismatch")
        min_margin = min(min_margin, rot - SAME if found == "target" else DIFFERENT - rot)
        mask = puzzle.instances == i
        obj = {"id": i, "role": found, "label": puzzle.meta[i]["label"], "bbox": [float(v) for v in box],
               "visible_fraction": round(float(np.count_nonzero(mask)) / puzzle.full_area[i], 4), "_mask": mask}
        objects.append(obj)
        if found == "target":
            targets.append(obj)
    ref_id = len(boxes) + 1
    ref_mask = puzzle.instances == ref_id
    objects.append({"id": ref_id, "role": "reference", "label": "reference shape",
                    "bbox": [float(v) for v in ref_box], "visible_fraction": 1.0, "_mask": ref_mask})
    if not targets:
        raise Reject(f"{NAME}.no_target")
    checks = {"mirror_symmetry_iou": round(mirror_sym, 4), "rotational_symmetry_iou": round(rot_sym, 4),
              "min_target_iou": float(min(scores[i - 1, 0] for i in (t["id"] for t in targets))),
              "max_distractor_iou": float(max([scores[o["id"] - 1, 0] for o in objects if o["role"] == "distractor"],
                                              default=0.0)),
              "min_margin": float(min_margin)}
    return Task(rule="click_set", answer={"count": len(targets)}, objects=objects,
                target_ids=[t["id"] for t in targets], target_boxes=[t["bbox"] for t in targets],
                points=[draw.inner_point(t["_mask"]) for t in targets], partial_credit=True, checks=checks)


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请点击所有由上方图形旋转得到的图形（镜像的不算）"
    return "Click every tile showing the top shape rotated (mirror images don't count)."
