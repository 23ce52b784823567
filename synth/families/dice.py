"""Dice: several dice faces, some turned, among loose dots and shapes; type the sum of their pips."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit.die import Die, die_layers
from synth.families.kit.kinds import COLOURS, kind_by_key
from synth.families.kit.placement import place

NAME = "dice"
DESCRIPTION = "add up the pips on several dice faces, some turned, among loose dots and shapes; type the sum"
ANSWERS = ("type",)             # synth.labels.reward step types of its tasks
COVERS = ("OpenCaptchaWorld:Dice_Count",)
STAT, STAT_DIRECTION = "die size (share of the puzzle's shorter side)", -1
PIP_VISIBLE = 0.95        # every pip must show at least this share of itself
MIN_PIP_PX = 14           # ... and this many pixels (at 320 px; scales with the area)
MIN_PIP_CONTRAST = 60.0   # luminance gap between pips and their die (0..255)
BORDER = 2

TABLE = LevelTable(NAME, knobs={
    "dice_range": "number of dice",
    "size_range": "die side as a share of the puzzle's shorter side",
    "tilt_range": "largest turn of a die, degrees",
    "pip_range": "pip radius as a share of the die side",
    "distractors_range": "number of loose dots and shapes off the dice",
    "dots_range": "share of the distractors that are loose pip-like dots",
    "coloured_range": "probability that a die is coloured rather than white",
    "clutter_range": "background texture strength, 0 to 1",
}, levels={
    1: {"dice_range": (2, 3), "size_range": (0.24, 0.27), "tilt_range": (0, 0), "pip_range": (0.1, 0.1),
        "distractors_range": (0, 0), "dots_range": (0, 0), "coloured_range": (0, 0), "clutter_range": (0.0, 0.1)},
    2: {"dice_range": (3, 3), "size_range": (0.21, 0.24), "tilt_range": (0, 15), "pip_range": (0.095, 0.1),
        "distractors_range": (0, 1), "dots_range": (0.3, 0.3), "coloured_range": (0.2, 0.2),
        "clutter_range": (0.1, 0.3)},
    3: {"dice_range": (3, 4), "size_range": (0.18, 0.21), "tilt_range": (0, 30), "pip_range": (0.09, 0.095),
        "distractors_range": (1, 3), "dots_range": (0.5, 0.5), "coloured_range": (0.4, 0.4),
        "clutter_range": (0.3, 0.5)},
    4: {"dice_range": (4, 5), "size_range": (0.155, 0.18), "tilt_range": (0, 45), "pip_range": (0.085, 0.09),
        "distractors_range": (2, 4), "dots_range": (0.6, 0.6), "coloured_range": (0.6, 0.6),
        "clutter_range": (0.5, 0.7)},
    5: {"dice_range": (5, 7), "size_range": (0.13, 0.15), "tilt_range": (0, 45), "pip_range": (0.08, 0.085),
        "distractors_range": (3, 6), "dots_range": (0.7, 0.7), "coloured_range": (0.8, 0.8),
        "clutter_range": (0.7, 0.9)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                                           # "pips"
    dice: tuple[Die, ...]
    distractors: tuple[tuple[str, int, int, int, float], ...]   # (kind: "dot" or a shape key, x, y, size, tilt)
    clutter: float
    bg_seed: int
    knobs: dict


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    k = {name[:-6]: draw_knob(rng, row[name], integer=name in ("dice_range", "distractors_range")) for name in row}
    n = k["dice"]
    sides = [max(24, round(side * draw_knob(rng, row["size_range"]))) for _ in range(n)]
    tilts = [float(rng.uniform(-k["tilt"], k["tilt"])) for _ in range(n)]
    gap = max(4, round(0.015 * side))
    boxes = [draw.rotated_side(s, t) + 4 + gap for s, t in zip(sides, tilts)]
    kinds = []
    for _ in range(k["distractors"]):
        if rng.random() < k["dots"]:
            kinds.append(("dot", max(6, round(2 * k["pip"] * float(np.mean(sides))))))
        else:
            shape = ("circle", "star", "triangle", "cross", "hexagon")[int(rng.integers(5))]
            colour = tuple(COLOURS)[int(rng.integers(len(COLOURS)))]
            px = max(12, round(float(rng.uniform(0.35, 0.6)) * float(np.mean(sides))))
            kinds.append((f"shape:{colour}:{shape}", px))
    d_tilts = [float(rng.uniform(-30, 30)) if kd != "dot" else 0.0 for kd, _ in kinds]
    d_boxes = [draw.rotated_side(s, t) for (_, s), t in zip(kinds, d_tilts)]
    spots = place(rng, w, h, boxes + d_boxes, [0] * n + [1] * len(kinds), 0.0, f"{NAME}.no_room")
    dice = []
    for (x, y, b), s, t in zip(spots[:n], sides, tilts):
        coloured = rng.random() < k["coloured"]
        body = (("red", "blue", "green", "black", "yellow")[int(rng.integers(5))] if coloured
                else ("white", "ivory")[int(rng.integers(2))])
        dice.append(Die(round(x + b / 2, 2), round(y + b / 2, 2), s, round(t, 2), int(rng.integers(1, 7)),
                        bool(rng.random() < 0.5), body, round(draw_knob(rng, row["pip_range"]), 4)))
    distractors = tuple((kd, x, y, s, t) for (kd, s), t, (x, y, _) in zip(kinds, d_tilts, spots[n:]))
    k["size_mean"] = float(np.mean(sides)) / side
    return Params(size=size, target="pips", dice=tuple(dice), distractors=distractors, clutter=k["clutter"],
                  bg_seed=int(rng.integers(2**31)), knobs=k)


def stat(params: Params) -> float:
    """Difficulty statistic: mean die side as a share of the puzzle's shorter side."""
    return params.knobs["size_mean"]


def render(params: Params) -> Puzzle:
    """Dice (each body an instance, then each of its pips), then the distractors. extras["dice"] maps a die
    id to (x0, y0, full mask of body and pips, [pip ids])."""
    w, h = params.size
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    meta, extras, nid = {}, {}, 1
    for die in params.dice:
        x0, y0, body, pips = die_layers(die)
        # drop shadow on the ground (pixels only)
        n = body.shape[0]
        off = max(2, die.side // 16)
        sx0, sy0 = x0 + off, y0 + off
        ax0, ay0, ax1, ay1 = max(0, sx0), max(0, sy0), min(w, sx0 + n), min(h, sy0 + n)
        if ax0 < ax1 and ay0 < ay1:
            shadow = cv2.convertScaleAbs(draw.gaussian_blur(body[..., 3], max(1.0, die.side / 25)), alpha=0.35)
            shade = shadow[ay0 - sy0:ay1 - sy0, ax0 - sx0:ax1 - sx0].copy()
            shade[canvas.instances[ay0:ay1, ax0:ax1] != 0] = 0      # on the ground only
            region = canvas.rgb[ay0:ay1, ax0:ax1]
            region[...] = draw.blend(region, np.zeros_like(region), shade)
        die_id = nid
        canvas.paste(body, x0, y0, die_id)
        meta[die_id] = {"role": "target", "label": "die", "kind": "die"}
        full = body[..., 3] >= draw.ALPHA_ON
        pip_ids = []
        for px, py, layer in pips:
            nid += 1
            canvas.paste(layer, x0 + px, y0 + py, nid)
            meta[nid] = {"role": "pip", "label": "pip", "kind": "pip"}
            pip_ids.append(nid)
            full[py:py + layer.shape[0], px:px + layer.shape[1]] |= layer[..., 3] >= draw.ALPHA_ON
        extras[die_id] = (x0, y0, full, pip_ids)
        nid += 1
    for kind, x, y, s, tilt in params.distractors:
        if kind == "dot":
            a = np.zeros((s, s), np.uint8)
            cv2.circle(a, (s * 2, s * 2), s * 2 - 4, 255, -1, cv2.LINE_AA, shift=2)
            rgba = np.dstack([np.full(a.shape + (3,), 28, np.uint8), a])
            label = "loose dot"
        else:
            rgba = draw.rotated(draw.sprite(kind, s), tilt)
            label = kind_by_key(kind).en
        canvas.paste(rgba, x, y, nid)
        meta[nid] = {"role": "distractor", "label": label, "kind": kind}
        nid += 1
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta, extras={"dice": extras})


def _luma(rgb: np.ndarray) -> np.ndarray:
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def solve(params: Params, puzzle: Puzzle) -> Task:
    inst = puzzle.instances
    h, w = inst.shape
    scale = w * h / (320 * 320)
    dice = puzzle.extras["dice"]
    areas = draw.instance_areas(inst)
    crops, die_boxes = {}, {}
    for i, (x0, y0, full, _) in dice.items():
        bx, by, bw, bh = cv2.boundingRect(full.view(np.uint8))
        die_boxes[i] = [float(x0 + bx), float(y0 + by), float(x0 + bx + bw), float(y0 + by + bh)]
        if x0 + bx < BORDER or y0 + by < BORDER or x0 + bx + bw > w - BORDER or y0 + by + bh > h - BORDER:
            raise Reject(f"{NAME}.die_cut_off")
        crops[i] = (x0, y0, full)
    ids = sorted(crops)
    for a in range(len(ids)):            # dice must not touch, measured on their full masks
        ax0, ay0, am = crops[ids[a]]
        for b in ids[a + 1:]:
            bx0, by0, bm = crops[b]
            ix0, iy0 = max(ax0, bx0), max(ay0, by0)
            ix1, iy1 = min(ax0 + am.shape[1], bx0 + bm.shape[1]), min(ay0 + am.shape[0], by0 + bm.shape[0])
            if ix0 < ix1 and iy0 < iy1 and (am[iy0 - ay0:iy1 - ay0, ix0 - ax0:ix1 - ax0]
                                             & bm[iy0 - by0:iy1 - by0, ix0 - bx0:ix1 - bx0]).any():
                raise Reject(f"{NAME}.dice_overlap")
    total, objects, faces = 0, [], []
    min_pip_vis, min_contrast = 1.0, 255.0
    for i in ids:
        x0, y0, full = crops[i]
        pip_ids = dice[i][3]
        assert pip_ids == list(range(i + 1, i + 1 + len(pip_ids)))      # as render numbers them
        region = inst[y0:y0 + full.shape[0], x0:x0 + full.shape[1]]
        on_die = region[full]
        if on_die.min() < i or on_die.max() > i + len(pip_ids):      # something else shows on the die
            raise Reject(f"{NAME}.die_covered")
        for p in pip_ids:
            vis = areas[p] / max(1, puzzle.full_area[p])
            min_pip_vis = min(min_pip_vis, vis)
            if vis < PIP_VISIBLE:
                raise Reject(f"{NAME}.pip_covered")
            if areas[p] < MIN_PIP_PX * scale:
                raise Reject(f"{NAME}.pip_too_small")
        # the pips as the eye sees them: separate blobs of pip pixels on the die
        pip_px = (region > i) & (region <= i + len(pip_ids))
        count, _ = cv2.connectedComponents(pip_px.astype(np.uint8), connectivity=8)
        count -= 1
        if count != len(pip_ids):
            raise Reject(f"{NAME}.pips_merge")
        if not 1 <= count <= 6:
            raise Reject(f"{NAME}.bad_face")
        luma = _luma(puzzle.rgb[y0:y0 + full.shape[0], x0:x0 + full.shape[1]].astype(np.float32))
        contrast = abs(float(np.median(luma[pip_px])) - float(np.median(luma[region == i])))
        min_contrast = min(min_contrast, contrast)
        if contrast < MIN_PIP_CONTRAST:
            raise Reject(f"{NAME}.low_contrast")
        total += count
        faces.append(count)
        objects.append({"id": i, "role": "target", "label": f"die showing {count}", "bbox": die_boxes[i],
                        "visible_fraction": 1.0})
    boxes = draw.instance_boxes(inst)
    for i, m in puzzle.meta.items():
        if m["role"] == "distractor" and i in boxes:
            objects.append({"id": i, "role": "distractor", "label": m["label"], "bbox": boxes[i],
                            "visible_fraction": round(float(areas[i]) / max(1, puzzle.full_area[i]), 4)})
    checks = {"dice": float(len(ids)), "pips": float(total), "min_pip_visible": round(float(min_pip_vis), 4),
              "min_pip_contrast": round(min_contrast, 2)}
    return Task(rule="type", answer={"count": total}, objects=objects, text=str(total), checks=checks)


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "所有骰子上的点数加起来是多少？请输入数字"
    return "What is the total number of pips on all the dice? Type the number."
