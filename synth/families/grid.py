"""Tile grid: "select all squares with a <kind>" over a 3x3 or 4x4 picture grid, then Verify (or Skip if none)."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.counting import pick_kinds
from synth.families.kit import draw, grammar
from synth.families.kit.kinds import colours_confusable, emoji_kinds, kind_by_key, shape_kinds, turn_limit
from synth.families.slider import landscape

NAME = "grid"
DESCRIPTION = "select every tile of a 3x3 or 4x4 picture grid that shows a given kind of object, or skip if none does"
SUPPORTS_INFEASIBLE = True
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
COVERS = ("reCAPTCHA:image_grid", "hCaptcha:image_grid", "OpenCaptchaWorld:Image_Recognition")
STAT, STAT_DIRECTION = "object size (share of the puzzle side)", -1
HOLDS = 0.6           # a tile holds a target when at least this share of the target's pixels show in it ...
SLIVER = 0.05         # ... and holds none below this; a share in between is an ambiguous sliver
MIN_TARGET_PX = 160   # at 320 x 320, scaled with the area: a target smaller than this is too small to see

TABLE = LevelTable(NAME, knobs={
    "grid_range": "tiles per side",
    "targets_range": "number of tiles holding a target",
    "busy_range": "share of the other tiles that hold a distractor",
    "second_range": "probability that a tile holds a second object beside the first",
    "distractor_kinds_range": "number of distractor kinds",
    "similar_range": "probability that a distractor kind looks like the target (same category / shape / colour)",
    "size_range": "object size as a share of the tile side",
    "overhang_range": "largest share of an object's side that may reach past its tile's edge",
    "tilt_range": "largest tilt of an object, degrees",
    "clutter_range": "picture texture strength, 0 to 1",
}, levels={
    1: {"grid_range": (3, 3), "targets_range": (1, 3), "busy_range": (0.2, 0.4), "second_range": (0.0, 0.0),
        "distractor_kinds_range": (1, 2), "similar_range": (0.0, 0.0), "size_range": (0.62, 0.72),
        "overhang_range": (0.0, 0.0), "tilt_range": (0, 0), "clutter_range": (0.0, 0.2)},
    2: {"grid_range": (3, 3), "targets_range": (2, 3), "busy_range": (0.4, 0.6), "second_range": (0.1, 0.1),
        "distractor_kinds_range": (2, 3), "similar_range": (0.25, 0.25), "size_range": (0.56, 0.66),
        "overhang_range": (0.0, 0.0), "tilt_range": (0, 10), "clutter_range": (0.2, 0.4)},
    3: {"grid_range": (4, 4), "targets_range": (2, 4), "busy_range": (0.5, 0.7), "second_range": (0.15, 0.15),
        "distractor_kinds_range": (2, 3), "similar_range": (0.45, 0.45), "size_range": (0.54, 0.64),
        "overhang_range": (0.0, 0.04), "tilt_range": (0, 15), "clutter_range": (0.4, 0.6)},
    4: {"grid_range": (4, 4), "targets_range": (3, 5), "busy_range": (0.6, 0.8), "second_range": (0.25, 0.25),
        "distractor_kinds_range": (3, 4), "similar_range": (0.65, 0.65), "size_range": (0.48, 0.58),
        "overhang_range": (0.0, 0.06), "tilt_range": (0, 25), "clutter_range": (0.6, 0.8)},
    5: {"grid_range": (4, 4), "targets_range": (3, 6), "busy_range": (0.7, 0.9), "second_range": (0.35, 0.35),
        "distractor_kinds_range": (3, 5), "similar_range": (0.85, 0.85), "size_range": (0.42, 0.52),
        "overhang_range": (0.0, 0.08), "tilt_range": (0, 35), "clutter_range": (0.8, 1.0)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                                   # kind key sought
    grid: int                                     # tiles per side
    objects: tuple[tuple[str, str, int, int, int, float], ...]   # (role, kind, x, y, sprite size, tilt) in z-order
    one_picture: bool                             # one picture cut into tiles (else a picture per tile)
    clutter: float
    bg_seed: int
    knobs: dict


def line_width(w: int) -> int:
    return max(2, round(w * 0.01))


def tile_boxes(size: tuple[int, int], n: int) -> list[tuple[int, int, int, int]]:
    """Pixel-edge boxes (x0, y0, x1, y1) of the tiles in row-major order, separated by white lines."""
    w, h = size
    lw = line_width(w)
    def spans(total):
        cuts = [round(i * total / n) for i in range(n + 1)]
        return [(cuts[i] + (lw // 2 if i else 0), cuts[i + 1] - ((lw + 1) // 2 if i < n - 1 else 0)) for i in range(n)]
    return [(x0, y0, x1, y1) for y0, y1 in spans(h) for x0, x1 in spans(w)]


def _offset(rng: np.random.Generator, a0: int, a1: int, big: int, reach: int) -> int:
    """Where an object `big` px across starts along a tile half from a0 to a1, overhanging by up to `reach`."""
    lo, hi = a0 - reach, a1 - big + reach
    return int(rng.integers(lo, hi + 1)) if hi > lo else (a0 + a1 - big) // 2


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("grid_range", "targets_range", "distractor_kinds_range"))
             for k in row}
    n = knobs["grid"]
    boxes = tile_boxes(size, n)
    target, distractors = pick_kinds(rng, knobs["distractor_kinds"], knobs["similar"])
    distractors = [k for k in distractors if not colours_confusable(k.key, target.key)]
    if not distractors:
        pool = [k for k in emoji_kinds() + shape_kinds() if k != target and not colours_confusable(k.key, target.key)]
        distractors = [pool[int(rng.integers(len(pool)))]]
    n_targets = 0 if infeasible else knobs["targets"]
    order = [int(i) for i in rng.permutation(n * n)]
    target_tiles = set(order[:n_targets])
    others = order[n_targets:]
    busy = set(others[:int(round(knobs["busy"] * len(others)))])
    if infeasible and not busy:
        busy = {others[0]}
    def other_kind():
        return distractors[int(rng.integers(len(distractors)))].key
    tilt = row["tilt_range"][1]
    objects, sizes = [], []
    for t in range(n * n):
        if t in target_tiles:
            contents = [("target", target.key)]
        elif t in busy:
            contents = [("distractor", other_kind())]
        else:
            continue
        if rng.random() < knobs["second"]:
            contents.append(("distractor", other_kind()))
        x0, y0, x1, y1 = boxes[t]
        side = min(x1 - x0, y1 - y0)
        # two objects share the tile: each gets one half (left/right or top/bottom)
        halves = [(x0, y0, x1, y1)]
        if len(contents) == 2:
            if rng.random() < 0.5:
                mid = (x0 + x1) // 2
                halves = [(x0, y0, mid, y1), (mid, y0, x1, y1)]
            else:
                mid = (y0 + y1) // 2
                halves = [(x0, y0, x1, mid), (x0, mid, x1, y1)]
            contents = [contents[i] for i in rng.permutation(2)]
        for (role, key), (hx0, hy0, hx1, hy1) in zip(contents, halves):
            room = min(hx1 - hx0, hy1 - hy0)
            s = max(16, round(min(side * draw_knob(rng, row["size_range"]), room * 0.98)))
            limit = turn_limit(key, tilt)
            angle = float(rng.uniform(-limit, limit)) if limit else 0.0
            big = draw.rotated_side(s, angle)
            reach = round(knobs["overhang"] * big)
            x, y = _offset(rng, hx0, hx1, big, reach), _offset(rng, hy0, hy1, big, reach)
            objects.append((role, key, x, y, s, angle))
            sizes.append(s)
    knobs["size_mean"] = float(np.mean(sizes)) / min(size) if sizes else 0.0
    knobs["infeasible"] = float(infeasible)
    return Params(size=size, target=target.key, grid=n, objects=tuple(objects), one_picture=n == 4,
                  clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: mean object size as a share of the puzzle's shorter side."""
    return params.knobs["size_mean"]


def render(params: Params) -> Puzzle:
    w, h = params.size
    n = params.grid
    boxes = tile_boxes(params.size, n)
    if params.one_picture:
        rgb = landscape(params.bg_seed, w, h, params.clutter, scenery=False)
    else:
        rgb = np.full((h, w, 3), 255, np.uint8)
        seeds = np.random.default_rng(params.bg_seed).integers(2**31, size=n * n)
        for (x0, y0, x1, y1), s in zip(boxes, seeds):
            rgb[y0:y1, x0:x1] = landscape(int(s), x1 - x0, y1 - y0, params.clutter, scenery=False)
    canvas = draw.Canvas(rgb)
    meta, regions = {}, {}              # regions: where each instance was drawn (its pixels lie inside)
    for t, (x0, y0, x1, y1) in enumerate(boxes, start=1):
        canvas.instances[y0:y1, x0:x1] = t
        canvas.full_area[t] = (x1 - x0) * (y1 - y0)
        meta[t] = {"role": "tile", "label": f"tile {t - 1}", "kind": ""}
        regions[t] = (x0, y0, x1, y1)
    for i, (role, key, x, y, s, tilt) in enumerate(params.objects, start=n * n + 1):
        spr = draw.rotated(draw.sprite(key, s), tilt)
        canvas.paste(spr, x, y, i)
        meta[i] = {"role": role, "label": kind_by_key(key).en, "kind": key}
        regions[i] = (max(x, 0), max(y, 0), min(x + spr.shape[1], w), min(y + spr.shape[0], h))
    # the white lines between tiles lie over everything, as when one picture is cut into squares: they are
    # the columns and rows that the tiles' spans leave out
    cols = sorted({(x0, x1) for x0, _, x1, _ in boxes})
    rows = sorted({(y0, y1) for _, y0, _, y1 in boxes})
    for (_, a), (b, _) in zip([(0, 0)] + cols, cols + [(w, w)]):
        canvas.rgb[:, a:b] = 255
        canvas.instances[:, a:b] = 0
    for (_, a), (b, _) in zip([(0, 0)] + rows, rows + [(h, h)]):
        canvas.rgb[a:b] = 255
        canvas.instances[a:b] = 0
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta, extras={"tiles": boxes, "regions": regions})


def tile_shares(puzzle: Puzzle) -> dict[int, np.ndarray]:
    """For every object: the share of its full pixel area visible inside each tile (row-major)."""
    ids = np.arange(puzzle.instances.max() + 1)
    per_tile = np.stack([np.bincount(puzzle.instances[y0:y1, x0:x1].ravel(), minlength=len(ids))
                         for x0, y0, x1, y1 in puzzle.extras["tiles"]], axis=1)      # (ids, tiles)
    return {i: per_tile[i] / max(1, puzzle.full_area[i]) if i < len(per_tile) else np.zeros(per_tile.shape[1])
            for i, m in puzzle.meta.items() if m["role"] != "tile"}


def solve(params: Params, puzzle: Puzzle) -> Task:
    n_tiles = params.grid ** 2
    if any(colours_confusable(m["kind"], params.target) for m in puzzle.meta.values() if m["kind"]):
        raise Reject(f"{NAME}.colour_confusable")
    shares = tile_shares(puzzle)
    # box, area and mask of every instance, measured inside the region it was drawn in
    inst = puzzle.instances
    boxes, areas, masks = {}, {}, {}
    for i, (x0, y0, x1, y1) in puzzle.extras["regions"].items():
        on = (inst[y0:y1, x0:x1] == i).view(np.uint8)
        bx, by, bw, bh = cv2.boundingRect(on)
        areas[i] = cv2.countNonZero(on)
        if bw:
            boxes[i] = [float(x0 + bx), float(y0 + by), float(x0 + bx + bw), float(y0 + by + bh)]
            masks[i] = np.zeros(inst.shape, bool)
            masks[i][y0:y1, x0:x1] = on
    min_px = MIN_TARGET_PX * params.size[0] * params.size[1] / 320 ** 2
    chosen: set[int] = set()
    worst = 1.0
    for i, m in puzzle.meta.items():
        if m["kind"] != params.target:
            continue
        share = shares[i]
        if ((share > SLIVER) & (share < HOLDS)).any():
            raise Reject(f"{NAME}.sliver")
        if share.max() < HOLDS:
            if share.sum() > SLIVER:
                raise Reject(f"{NAME}.ambiguous_visibility")
            continue                                       # not visible at all: holds no tile
        if areas[i] < min_px:
            raise Reject(f"{NAME}.target_too_small")
        chosen.add(int(np.argmax(share)))
        worst = min(worst, float(share.max()))
    objects = []
    for i, m in puzzle.meta.items():
        if i not in boxes:
            continue
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(float(areas[i]) / max(1, puzzle.full_area[i]), 4),
                        "_mask": masks[i]})
    # a distractor standing in an unselected tile comes first among the distractors (the one a
    # wrong-pick check would click), since a click on an object in a selected tile is a right click
    def tile_of(o):
        return int(np.argmax(shares[o["id"]])) if o["role"] != "tile" else -1
    objects.sort(key=lambda o: (o["role"] != "tile", o["role"] == "distractor" and tile_of(o) in chosen, o["id"]))
    checks = {"tiles": float(n_tiles), "tiles_selected": float(len(chosen)), "min_target_share": round(worst, 4),
              "max_sliver_share": round(max([float(s[(s < HOLDS)].max(initial=0)) for i, s in shares.items()
                                             if puzzle.meta[i]["kind"] == params.target], default=0.0), 4)}
    if params.knobs.get("infeasible"):
        if chosen:
            raise Reject(f"{NAME}.infeasible_has_target")
        return Task(rule="skip", answer={"cells": [-1], "feasible": False}, objects=objects, checks=checks)
    if not chosen:
        raise Reject(f"{NAME}.no_target_visible")
    cells = sorted(chosen)
    by_id = {o["id"]: o for o in objects}
    ids = [c + 1 for c in cells]
    return Task(rule="click_set", answer={"cells": cells, "count": len(cells), "feasible": True}, objects=objects,
                target_ids=ids, target_boxes=[by_id[t]["bbox"] for t in ids],
                points=[draw.inner_point(by_id[t]["_mask"]) for t in ids], partial_credit=True, checks=checks)


def instruction(params: Params, lang: str) -> str:
    kind = kind_by_key(params.target)
    if lang == "zh":
        return f"请选择所有包含{kind.zh}的图块，然后点击验证；如果没有，请点击跳过"
    return (f"Select all squares with {grammar.article(grammar.singular(kind.en))}, then click Verify. "
            "If there are none, click Skip.")
