"""Photo tile grid (reCAPTCHA / hCaptcha "select all squares with ..."): ONE photo split into a 3x3 or 4x4
grid, with an object (an emoji sprite) standing on it across several tiles; click every tile that holds
part of it, then Verify. Which tiles count is measured on the instance map: a tile holds the object when
the object covers at least IN_SHARE of it, and none at most OUT_SHARE; a share in between is a sliver a
person could count either way, and the instance is rejected."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.jigsaw import LINE, layout, tile_box
from synth.families.kit import draw
from synth.families.kit import photos as _photos
from synth.families.kit.kinds import emoji_kinds, kind_by_key

NAME = "photo_grid"
DESCRIPTION = ("one photo cut into a 3x3 or 4x4 grid with an object across several tiles: select every tile holding "
               "part of it")
COVERS = ("reCAPTCHA:image_grid", "hCaptcha:image_grid", "OpenCaptchaWorld:Patch_Select")
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
GEOMETRIC_AUGMENT = False       # the clicks are judged against the tile boxes, which a warp would move
STAT, STAT_DIRECTION = "object size (share of the puzzle side)", -1
IN_SHARE = 0.04                 # a tile holds the object when the object covers at least this share of it ...
OUT_SHARE = 0.003               # ... and holds none at most this; in between: ambiguous
PLACE_IN, PLACE_OUT = 0.06, 0.001   # the sampler keeps clear of the band, so that few instances are rejected
MIN_CONTRAST = 14.0             # mean CIE76 colour difference between an object and the picture round it
OBJECT = 100                    # instance id of the first object (tiles are 1..n*n)
TRIES = 300                     # placements tried per object
# Things a person would look for in a street or field photo (no trees, birds or boats, which photos show)
TARGETS = ("bicycle", "bus", "car", "tractor", "truck", "horse", "elephant", "cat", "dog", "rabbit",
           "turtle", "penguin", "umbrella", "house", "frog", "snail")
DENY = _photos.HAS_OBJECTS + ("pixels-d", "pixels-l", "OneStandsOut", "Path", "Elephants")

TABLE = LevelTable(NAME, knobs={
    "grid_range": "tiles per side",
    "size_range": "target object size (side of its sprite) as a share of the puzzle side",
    "targets_range": "number of target objects",
    "distractors_range": "number of other objects",
    "similar_range": "probability that an other object is of the target's category (a car beside a bus)",
    "distractor_size_range": "other objects' size relative to the target's",
}, levels={
    1: {"grid_range": (3, 3), "size_range": (0.55, 0.65), "targets_range": (1, 1), "distractors_range": (0, 0),
        "similar_range": (0.0, 0.0), "distractor_size_range": (0.6, 0.8)},
    2: {"grid_range": (3, 3), "size_range": (0.48, 0.58), "targets_range": (1, 1), "distractors_range": (0, 1),
        "similar_range": (0.2, 0.2), "distractor_size_range": (0.6, 0.8)},
    3: {"grid_range": (4, 4), "size_range": (0.42, 0.52), "targets_range": (1, 1), "distractors_range": (1, 1),
        "similar_range": (0.4, 0.4), "distractor_size_range": (0.6, 0.85)},
    4: {"grid_range": (4, 4), "size_range": (0.36, 0.46), "targets_range": (1, 2), "distractors_range": (1, 2),
        "similar_range": (0.6, 0.6), "distractor_size_range": (0.6, 0.9)},
    5: {"grid_range": (4, 4), "size_range": (0.3, 0.4), "targets_range": (1, 2), "distractors_range": (2, 2),
        "similar_range": (0.8, 0.8), "distractor_size_range": (0.7, 1.0)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # kind key of the object to find
    view: _photos.View
    grid: int
    objects: tuple[tuple[str, str, int, int, int], ...]    # (role, kind key, x, y, sprite side) in z-order
    knobs: dict


@lru_cache(maxsize=512)
def _footprint(key: str, side: int) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """The drawn part of a sprite (its box within the sprite) and the summed-area table of its mask
    ((side + 1) x (side + 1), zero first row and column)."""
    m = draw.sprite(key, side)[..., 3] >= draw.ALPHA_ON
    ys, xs = np.nonzero(m)
    summed = np.zeros((side + 1, side + 1), np.int64)
    summed[1:, 1:] = m.cumsum(0).cumsum(1)
    summed.flags.writeable = False
    return (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1), summed


def tile_shares(mask: np.ndarray, geo: dict, n: int) -> np.ndarray:
    """Share of every tile's area that `mask` (puzzle-sized, bool) covers, row-major."""
    (tw, th) = geo["tile"]
    out = np.zeros(n * n)
    for t in range(n * n):
        x0, y0, x1, y1 = tile_box(geo, n, t)
        out[t] = np.count_nonzero(mask[y0:y1, x0:x1]) / (tw * th)
    return out


def _shares_at(summed: np.ndarray, x: int, y: int, geo: dict, n: int) -> np.ndarray:
    """tile_shares of a sprite mask placed with its top-left at (x, y), from the mask's summed-area table
    `summed` ((s + 1) x (s + 1), zero first row and column)."""
    (tw, th), (ox, oy) = geo["tile"], geo["origin"]
    s = summed.shape[0] - 1
    cols = np.clip((np.arange(n + 1) * tw + ox - x), 0, s)          # tile edges in sprite coordinates
    rows = np.clip((np.arange(n + 1) * th + oy - y), 0, s)
    a = summed[np.ix_(rows, cols)]
    per = a[1:, 1:] - a[:-1, 1:] - a[1:, :-1] + a[:-1, :-1]
    return per.ravel() / (tw * th)


def place(rng: np.random.Generator, plan: list[tuple[str, str, float]], size: tuple[int, int], geo: dict, n: int,
          gap: int) -> list[tuple] | None:
    """Top-left corners for the planned (role, kind, size share) objects, their drawn parts `gap` apart,
    the targets' tile shares clear of the ambiguous band; None when some object finds no room."""
    w, h = size
    side = min(w, h)
    placed: list[tuple] = []
    covered = np.zeros(n * n)                                       # the targets' shares so far
    for role, key, share in plan:
        s = max(24, int(round(share * side / 8)) * 8)               # multiples of 8 px reuse cached sprites
        (bx0, by0, bx1, by1), summed = _footprint(key, s)
        for _ in range(TRIES):
            x = int(rng.integers(-bx0 + 2, w - bx1 - 1))
            y = int(rng.integers(-by0 + 2, h - by1 - 1))
            box = (x + bx0, y + by0, x + bx1, y + by1)
            if any(box[0] < q[2] + gap and q[0] < box[2] + gap and box[1] < q[3] + gap and q[1] < box[3] + gap
                   for q in (p[5] for p in placed)):
                continue
            if role == "target":
                total = covered + _shares_at(summed, x, y, geo, n)
                if ((total > PLACE_OUT) & (total < PLACE_IN)).any():
                    continue
                covered = total
            placed.append((role, key, x, y, s, box))
            break
        else:
            return None
    return placed


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    knobs = {"grid": draw_knob(rng, row["grid_range"], integer=True), "size": draw_knob(rng, row["size_range"]),
             "targets": draw_knob(rng, row["targets_range"], integer=True),
             "distractors": draw_knob(rng, row["distractors_range"], integer=True),
             "similar": draw_knob(rng, row["similar_range"])}
    n = knobs["grid"]
    geo = layout(size, n, n)
    kinds = {k.key: k for k in emoji_kinds() if k.en in TARGETS}
    keys = sorted(kinds)
    target = keys[int(rng.integers(len(keys)))]
    view = _photos.sample_view(rng, _photos.choices(None, DENY))
    others = [k for k in keys if k != target]
    alike = [k for k in others if kinds[k].category == kinds[target].category]
    plan = [("target", target, knobs["size"]) for _ in range(knobs["targets"])]
    for _ in range(knobs["distractors"]):
        pool = alike if alike and rng.random() < knobs["similar"] else others
        plan.append(("distractor", pool[int(rng.integers(len(pool)))],
                     knobs["size"] * draw_knob(rng, row["distractor_size_range"])))
    gap = round(0.02 * side)
    for attempt in range(4):        # no room: shrink every object alike and try again
        placed = place(rng, [(role, key, share * 0.85 ** attempt) for role, key, share in plan], size, geo, n, gap)
        if placed is not None:
            break
    else:
        raise Reject(f"{NAME}.no_room")
    knobs["size"] *= 0.85 ** attempt
    order = rng.permutation(len(placed))
    objects = tuple(placed[i][:5] for i in order)
    knobs.update(grid=float(n), targets=float(knobs["targets"]), distractors=float(knobs["distractors"]))
    return Params(size=size, target=target, view=view, grid=n, objects=objects, knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the target object's size as a share of the puzzle side."""
    return params.knobs["size"]


def render(params: Params) -> Puzzle:
    w, h = params.size
    n = params.grid
    geo = layout(params.size, n, n)
    canvas = draw.Canvas(_photos.image(params.view, w, h))
    meta = {}
    for i, (role, key, x, y, s) in enumerate(params.objects):
        spr = draw.sprite(key, s)
        shadow = np.zeros_like(spr)                   # a soft contact shadow grounds the object in the photo
        shadow[..., 3] = draw.gaussian_blur(spr[..., 3], max(1.5, s / 40))
        off = max(1, s // 40)
        canvas.paste(shadow, x + off, y + 2 * off, 0, opacity=0.35, hides=False)
        canvas.paste(spr, x, y, OBJECT + i)
        meta[OBJECT + i] = {"role": role, "label": kind_by_key(key).en, "kind": key}
    canvas.full_area.pop(0, None)
    rgb, inst = canvas.rgb, canvas.instances
    free = inst == 0
    for t in range(n * n):
        x0, y0, x1, y1 = tile_box(geo, n, t)
        inst[y0:y1, x0:x1][free[y0:y1, x0:x1]] = t + 1
        meta[t + 1] = {"role": "tile", "label": "tile", "kind": ""}
    lw = geo["line"]
    (tw, th), (ox, oy) = geo["tile"], geo["origin"]
    for c in range(n + 1):                       # the lines lie over the picture and the objects, as on the real ones
        x = ox + c * tw - lw // 2
        rgb[:, max(0, x):x + lw] = LINE
        inst[:, max(0, x):x + lw] = 0
    for r in range(n + 1):
        y = oy + r * th - lw // 2
        rgb[max(0, y):y + lw] = LINE
        inst[max(0, y):y + lw] = 0
    full = dict(canvas.full_area)
    counts = draw.instance_areas(inst)
    for t in range(n * n):
        full[t + 1] = int(counts[t + 1])
    return Puzzle(rgb, inst, full, meta, extras={"layout": geo})


# ---------------------------------------------------------------- verification

def contrast(puzzle: Puzzle, i: int, box: list[float]) -> float:
    """CIE76 difference between the mean colour of object i and the mean colour of the picture in a
    6 px ring round it (the tiles' pixels only: not the lines, nor other objects)."""
    pad = 6
    H, W = puzzle.instances.shape
    x0, y0, x1, y1 = (int(v) for v in box)
    x0, y0, x1, y1 = max(0, x0 - pad), max(0, y0 - pad), min(W, x1 + pad), min(H, y1 + pad)
    inst = puzzle.instances[y0:y1, x0:x1]
    on = (inst == i).view(np.uint8)
    grown = cv2.dilate(on, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * pad + 1, 2 * pad + 1)))
    ring = (grown & ((inst > 0) & (inst < OBJECT)).view(np.uint8))
    if not cv2.countNonZero(ring):
        return 0.0
    region = puzzle.rgb[y0:y1, x0:x1]
    means = np.float32([[cv2.mean(region, on)[:3], cv2.mean(region, ring)[:3]]]) / 255
    lab = cv2.cvtColor(means, cv2.COLOR_RGB2LAB)[0]
    return float(np.linalg.norm(lab[0] - lab[1]))


def solve(params: Params, puzzle: Puzzle) -> Task:
    n = params.grid
    geo = puzzle.extras["layout"]
    inst = puzzle.instances
    boxes = draw.instance_boxes(inst)
    areas = draw.instance_areas(inst)
    targets = [i for i, m in puzzle.meta.items() if m["role"] == "target"]
    objects_ids = [i for i in puzzle.meta if i >= OBJECT]
    for i in objects_ids:
        if i not in boxes or areas[i] < 0.85 * puzzle.full_area[i]:      # the lines take a little of each
            raise Reject(f"{NAME}.object_hidden")
    worst_contrast = min(contrast(puzzle, i, boxes[i]) for i in targets)
    if worst_contrast < MIN_CONTRAST:
        raise Reject(f"{NAME}.object_blends_in")
    target_mask = np.isin(inst, targets)
    shares = tile_shares(target_mask, geo, n)
    if ((shares > OUT_SHARE) & (shares < IN_SHARE)).any():
        raise Reject(f"{NAME}.borderline_tile")
    chosen = [t for t in range(n * n) if shares[t] >= IN_SHARE]
    if len(chosen) < 2:
        raise Reject(f"{NAME}.too_few_tiles")
    lw = geo["line"]
    def tile_rect(t: int) -> list[float]:            # the tile as shown, inside the lines
        x0, y0, x1, y1 = tile_box(geo, n, t)
        return [float(x0 + lw - lw // 2), float(y0 + lw - lw // 2), float(x1 - lw // 2), float(y1 - lw // 2)]
    objects = [{"id": t + 1, "role": "target" if t in chosen else "tile", "label": "tile", "bbox": tile_rect(t),
                "visible_fraction": 1.0} for t in range(n * n)]
    objects += [{"id": i, "role": puzzle.meta[i]["role"], "label": puzzle.meta[i]["label"], "bbox": boxes[i],
                 "visible_fraction": round(float(areas[i]) / puzzle.full_area[i], 4)} for i in objects_ids]
    # the distractor the label check clicks comes first among the distractors: one outside every chosen tile
    def in_chosen(o: dict) -> bool:
        return any(tile_rect(t)[0] <= (o["bbox"][0] + o["bbox"][2]) / 2 <= tile_rect(t)[2] and
                   tile_rect(t)[1] <= (o["bbox"][1] + o["bbox"][3]) / 2 <= tile_rect(t)[3] for t in chosen)
    objects.sort(key=lambda o: (o["role"] != "distractor" or in_chosen(o), o["id"]))
    rects = [tile_rect(t) for t in chosen]
    points = [[(r[0] + r[2]) / 2, (r[1] + r[3]) / 2] for r in rects]   # a click anywhere in the tile counts
    unchosen = [float(shares[t]) for t in range(n * n) if t not in chosen]
    return Task(rule="click_set", answer={"cells": chosen}, objects=objects, target_boxes=rects, points=points,
                partial_credit=True,
                checks={"tiles": float(n * n), "tiles_selected": float(len(chosen)),
                        "min_selected_share": round(float(shares[chosen].min()), 4),
                        "max_unselected_share": round(max(unchosen, default=0.0), 4),
                        "min_contrast": round(worst_contrast, 3)})


def instruction(params: Params, lang: str) -> str:
    kind = kind_by_key(params.target)
    if lang == "zh":
        return f"请选择所有包含{kind.zh}的方格，然后点击验证"
    return f"Select all squares with {kind.plural('en')}, then click Verify."
