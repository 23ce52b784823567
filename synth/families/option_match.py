"""Option match (Arkose / FunCaptcha style): a reference picture and 3-6 option pictures; exactly one option
matches the reference by the stated rule: as many objects, the same shape turned (a mirror image is no
match), the same icons in the same order, or dice adding up to the same total. Click that option."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import contains
from synth.core.levels import LevelTable, draw_knob
from synth.families import match as poly
from synth.families.base import Puzzle, Task
from synth.families.counting import pick_kinds, similar_kinds
from synth.families.dice import Die, die_layers
from synth.families.grid import upright_only
from synth.families.kit import draw
from synth.families.kit.icon_match import MIN_MARGIN, best_kinds, look_alike, read_icons
from synth.families.kit.kinds import emoji_kinds, kind_by_key, shape_kinds

NAME = "option_match"
DESCRIPTION = ("click the one option that matches the reference: as many objects, the same shape turned, "
               "the same icon sequence, or the same dice total")
COVERS = ("Arkose:numericalmatch", "OpenCaptchaWorld:Object_Match", "OpenCaptchaWorld:Dart_Count",
          "OpenCaptchaWorld:Image_Matching")
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "number of options", +1
MODES = ("count", "rotated", "sequence", "dice")
MIN_ITEM_PX = 30          # at 320 x 320 (scaled with the area): an object or icon smaller than this is too small
MIN_PIP_PX = 8            # ... a pip
ITEM_VISIBLE = 0.97       # share of an object's pixels that must show (objects never overlap)
MIN_PIP_CONTRAST = 60.0   # luminance gap between pips and their die
FRAME = (60, 130, 230)    # the reference panel's frame
PIP = 0.085               # pip radius, share of the die side (the pips of a six stay apart on small dice)

TABLE = LevelTable(NAME, knobs={
    "options_range": "number of options",
    "count_range": "count rule: objects in the reference",
    "near_range": "probability that a wrong option is a near miss (one more or fewer, a mirror image, two icons "
                  "swapped, a total one off)",
    "vary_range": "probability that an option looks unlike the reference on the surface (other objects, another "
                  "pair of dice, another colour)",
    "sequence_range": "sequence rule: icons in a sequence",
    "cells_range": "rotation rule: cells of the shape",
    "angle_step_range": "rotation rule: turns are multiples of this many degrees (1: any angle)",
    "tilt_range": "largest tilt of an object or die, degrees",
    "clutter_range": "background texture strength, 0 to 1",
}, levels={
    1: {"options_range": (3, 3), "count_range": (2, 4), "near_range": (0.0, 0.0), "vary_range": (0.0, 0.0),
        "sequence_range": (3, 3), "cells_range": (5, 5), "angle_step_range": (90, 90), "tilt_range": (0, 0),
        "clutter_range": (0.0, 0.15)},
    2: {"options_range": (3, 4), "count_range": (3, 5), "near_range": (0.25, 0.25), "vary_range": (0.25, 0.25),
        "sequence_range": (3, 4), "cells_range": (5, 6), "angle_step_range": (45, 45), "tilt_range": (0, 10),
        "clutter_range": (0.15, 0.3)},
    3: {"options_range": (4, 4), "count_range": (3, 6), "near_range": (0.5, 0.5), "vary_range": (0.5, 0.5),
        "sequence_range": (4, 4), "cells_range": (6, 6), "angle_step_range": (30, 30), "tilt_range": (0, 20),
        "clutter_range": (0.3, 0.5)},
    4: {"options_range": (5, 5), "count_range": (3, 6), "near_range": (0.7, 0.7), "vary_range": (0.7, 0.7),
        "sequence_range": (4, 5), "cells_range": (6, 7), "angle_step_range": (15, 15), "tilt_range": (0, 30),
        "clutter_range": (0.45, 0.65)},
    5: {"options_range": (6, 6), "count_range": (4, 6), "near_range": (0.9, 0.9), "vary_range": (0.9, 0.9),
        "sequence_range": (5, 5), "cells_range": (7, 7), "angle_step_range": (1, 1), "tilt_range": (0, 40),
        "clutter_range": (0.6, 0.8)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # the rule: one of MODES
    reference: tuple            # what the reference panel shows (per rule, see `sample_params`)
    options: tuple              # what each option panel shows, in panel order
    answer: int                 # index of the matching option
    tints: tuple                # card colour of the reference, then of each option
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- layout

def layout(size: tuple[int, int], n: int, mode: str) -> dict:
    """The reference panel and the option panels (x0, y0, x1, y1), in puzzle pixels: the reference on top
    (as wide as the puzzle for sequences), the options below in one or two rows (sequences and dice: one or
    two columns of wide panels)."""
    w, h = size
    m = max(4, round(min(w, h) * 0.03))
    ref_h = round(h * (0.2 if mode == "sequence" else 0.3))
    ref_w = w - 2 * m if mode == "sequence" else min(w - 2 * m, round(ref_h * 1.6))
    ref = ((w - ref_w) // 2, m, (w - ref_w) // 2 + ref_w, m + ref_h)
    if mode in ("sequence", "dice"):      # a row of icons or two dice side by side want wide panels
        cols = 1 if n <= 3 else 2
    else:
        cols = n if n <= 3 else -(-n // 2)
    rows = -(-n // cols)
    top = ref[3] + m
    cw, ch = (w - m * (cols + 1)) / cols, (h - top - m * rows) / rows
    boxes = []
    for i in range(n):
        r, c = divmod(i, cols)
        x0, y0 = m + c * (cw + m), top + r * (ch + m)
        boxes.append((round(x0), round(y0), round(x0 + cw), round(y0 + ch)))
    return {"reference": ref, "options": boxes}


def inner(box, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """A panel's box less its rim (the reference frame, the card outline), where its content goes."""
    x0, y0, x1, y1 = box
    pad = max(4, round(min(x1 - x0, y1 - y0) * 0.09))
    return x0 + pad, y0 + pad, x1 - pad, y1 - pad


# ---------------------------------------------------------------- sampling

def _grid_cell(box, count: int) -> float:
    """Side of the largest square cells of a grid of at least `count` cells that fits in `box`."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    return max(min(bw / cols, bh / -(-count // cols)) for cols in range(1, count + 1))


def _scatter(rng: np.random.Generator, box, count: int, keys: list[str], side: int, tilt: float) -> tuple:
    """`count` objects of about `side` px spread over `box`: (kind key, x, y, side, tilt) with x, y the top-left
    of the turned sprite. The box is cut into as many cells as hold a turned object and each object takes
    its own random cell, so none overlap."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    reach = draw.rotated_side(side, min(45.0, tilt)) + 1
    cols, rows = max(1, int(bw // reach)), max(1, int(bh // reach))
    if cols * rows < count:
        raise Reject(f"{NAME}.no_room")
    cw, ch = bw / cols, bh / rows
    out = []
    for cell, key in zip(sorted(rng.choice(cols * rows, count, replace=False).tolist()), keys):
        r, c = divmod(cell, cols)
        t = 0.0 if (upright_only(key) or not tilt) else float(rng.uniform(-tilt, tilt))
        s = max(8, int(side * float(rng.uniform(0.88, 1.0))))
        turned = draw.rotated_side(s, t)
        x = x0 + c * cw + float(rng.uniform(0, max(0.0, cw - turned)))
        y = y0 + r * ch + float(rng.uniform(0, max(0.0, ch - turned)))
        out.append((key, int(x), int(y), s, round(t, 2)))
    return tuple(out)


def _counts(rng: np.random.Generator, n_ref: int, n: int, near: float) -> list[int]:
    """Object counts of n options: the first equals n_ref, the others differ from it and from each other,
    each by one (a near miss) with probability `near`, else by two or three."""
    close = [c for c in (n_ref - 1, n_ref + 1) if c >= 1]
    far = [n_ref + d for d in (-3, -2, 2, 3) if n_ref + d >= 1]
    counts = [n_ref]
    for _ in range(n - 1):
        pool = close if (close and (rng.random() < near or not far)) else far
        counts.append(pool.pop(int(rng.integers(len(pool)))) if pool else max(counts) + 1)
    return counts


def _sample_count(rng, knobs, geo, size) -> tuple[tuple, list[tuple]]:
    n = len(geo["options"])
    ref_kind, others = pick_kinds(rng, 4, 0.0)
    n_ref = knobs["count"]
    counts = _counts(rng, n_ref, n, knobs["near"])
    # one object size for the whole puzzle (size gives no hint): what the fullest panel holds
    boxes = [inner(geo["reference"], size)] + [inner(b, size) for b in geo["options"]]
    t = np.deg2rad(min(45.0, knobs["tilt"]))
    cell = min(_grid_cell(b, c) for b, c in zip(boxes, [n_ref] + counts))
    side = int(cell * 0.9 / (np.cos(t) + np.sin(t)))
    ref = _scatter(rng, boxes[0], n_ref, [ref_kind.key] * n_ref, side, knobs["tilt"])
    options = []
    for i, c in enumerate(counts):
        # the matching option is often drawn with other objects than the reference, a wrong one often with
        # the same: the count is what matters
        other = rng.random() < knobs["vary"]
        key = others[int(rng.integers(len(others)))].key if other else ref_kind.key
        options.append(_scatter(rng, boxes[i + 1], c, [key] * c, side, knobs["tilt"]))
    return ref, options


def _dice_pair(rng, box, values, tilt: float, body: str) -> tuple:
    """Two dice side by side in `box`."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    t = np.deg2rad(min(45.0, tilt))
    turn = np.cos(t) + np.sin(t)                 # the widest a turned die can get, over its side
    side = int(min(bh * 0.8, bw * 0.42) / turn)
    apart = min(0.46 * bw, 1.6 * side * turn)        # centre to centre
    out = []
    for k, v in enumerate(values):
        cx = x0 + bw / 2 + apart * (k - 0.5)
        cy = y0 + bh / 2 + float(rng.uniform(-0.06, 0.06)) * bh
        angle = float(rng.uniform(-tilt, tilt)) if tilt else 0.0
        out.append(Die(round(cx, 2), round(cy, 2), side, round(angle, 2), int(v), bool(rng.random() < 0.5), body,
                       PIP))
    return tuple(out)


def _sample_dice(rng, knobs, geo, size) -> tuple[tuple, list[tuple]]:
    n = len(geo["options"])
    pairs = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    a, b = pairs[int(rng.integers(len(pairs)))]
    total = a + b
    same_total = [p for p in pairs if sum(p) == total and sorted(p) != sorted((a, b))]
    if same_total and rng.random() < knobs["vary"]:
        match = same_total[int(rng.integers(len(same_total)))]
    else:
        match = (b, a)
    chosen = [match]
    sums = {total}
    for _ in range(200):
        if len(chosen) == n:
            break
        if rng.random() < knobs["near"]:           # one face shared with the reference, a total one off
            keep = (a, b)[int(rng.integers(2))]
            other = total - keep + (1 if rng.random() < 0.5 else -1)
            if not 1 <= other <= 6:
                continue
            cand = (keep, other) if rng.random() < 0.5 else (other, keep)
        else:
            cand = pairs[int(rng.integers(len(pairs)))]
        if sum(cand) not in sums:
            sums.add(sum(cand))
            chosen.append(cand)
    if len(chosen) < n:
        raise Reject(f"{NAME}.no_dice_totals")
    order = [0] + [i for i in rng.permutation(np.arange(1, n)).tolist()]
    chosen = [chosen[i] for i in order]
    white = ("white", "ivory")
    coloured = ("red", "blue", "green", "black", "yellow")

    def body():
        pool = coloured if rng.random() < knobs["vary"] else white
        return pool[int(rng.integers(len(pool)))]

    ref = _dice_pair(rng, inner(geo["reference"], size), (a, b), knobs["tilt"], body())
    options = [_dice_pair(rng, inner(geo["options"][i], size), chosen[i], knobs["tilt"], body()) for i in range(n)]
    return ref, options


def _sample_rotated(rng, knobs, geo, size) -> tuple[tuple, list[tuple]]:
    n = len(geo["options"])
    cells = knobs["cells"]
    for _ in range(50):
        shape = poly.polyomino(rng, cells)
        if poly.chiral(shape) and not poly.rot_symmetric(shape):
            break
    else:
        raise Reject(f"{NAME}.no_chiral_shape")
    step = knobs["angle_step"]
    base = poly.PALETTE[int(rng.integers(len(poly.PALETTE)))]

    def angle(lo: int = 1) -> float:
        return float(step * int(rng.integers(lo, 360 // step))) if step > 1 else float(rng.uniform(20, 340))

    def colour():
        return poly.PALETTE[int(rng.integers(len(poly.PALETTE)))] if rng.random() < knobs["vary"] else base

    options = [(shape, False, angle(), colour())]
    seen = set()
    for _ in range(20 * n):
        if len(options) == n:
            break
        if rng.random() < knobs["near"]:
            cand = (shape, True, angle(0), colour())        # the mirror image, turned
        else:
            for _ in range(50):       # neither the reference nor its mirror image, however placed
                other = poly.polyomino(rng, cells)
                if poly.cell_overlap(shape, other, mirror=True) < cells:
                    break
            else:
                raise Reject(f"{NAME}.no_other_shape")
            cand = (other, False, angle(0), colour())
        if cand[:3] not in seen:         # no two wrong options alike
            seen.add(cand[:3])
            options.append(cand)
    if len(options) < n:
        raise Reject(f"{NAME}.no_other_shape")
    return (shape, False, 0.0, base), options


def _sample_sequence(rng, knobs, geo, size) -> tuple[tuple, list[tuple]]:
    n, k = len(geo["options"]), knobs["sequence"]
    for _ in range(20):
        first, rest = pick_kinds(rng, k - 1 + 3, knobs["vary"])
        keys = [first.key] + [r.key for r in rest]
        if not any(look_alike(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]):
            break
    else:
        raise Reject(f"{NAME}.look_alike_kinds")
    seq = [first.key] + [r.key for r in rest[:k - 1]]
    seq = [seq[i] for i in rng.permutation(k).tolist()]
    spare = [r.key for r in rest[k - 1:]]
    pool = emoji_kinds() if first.key.startswith("emoji:") else shape_kinds()
    ref = tuple(seq)
    options = [ref]
    for _ in range(200):
        if len(options) == n:
            break
        cand = list(seq)
        if rng.random() < knobs["near"]:
            how = ("swap", "swap", "replace", "shift")[int(rng.integers(4))]
        else:
            how = ("reverse", "shuffle", "far")[int(rng.integers(3))]
        if how == "swap":
            i = int(rng.integers(k - 1))
            cand[i], cand[i + 1] = cand[i + 1], cand[i]
        elif how == "shift":
            cand = cand[1:] + cand[:1]
        elif how == "reverse":
            cand = cand[::-1]
        elif how == "shuffle":
            cand = [cand[i] for i in rng.permutation(k).tolist()]
        elif how == "replace":
            i = int(rng.integers(k))
            alike = [a.key for a in similar_kinds(kind_by_key(cand[i]), pool)
                     if a.key not in keys and not any(look_alike(a.key, c) for c in keys)]
            src = alike if alike and rng.random() < knobs["vary"] else spare
            cand[i] = src[int(rng.integers(len(src)))]
        else:
            i, j = (int(v) for v in rng.choice(k, 2, replace=False))
            cand[i], cand[j] = spare[0], spare[1 % len(spare)]
        if tuple(cand) not in options:
            options.append(tuple(cand))
    if len(options) < n:
        raise Reject(f"{NAME}.no_sequences")
    return ref, options


SAMPLERS = {"count": _sample_count, "dice": _sample_dice, "rotated": _sample_rotated, "sequence": _sample_sequence}


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  mode: str | None = None) -> Params:
    row = TABLE.row(level)
    ints = ("options_range", "count_range", "sequence_range", "cells_range", "angle_step_range")
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ints) for k in row}
    mode = mode or MODES[int(rng.integers(len(MODES)))]
    n = knobs["options"]
    geo = layout(size, n, mode)
    ref, options = SAMPLERS[mode](rng, knobs, geo, size)
    # the matching option was drawn first: it goes to a random place
    order = rng.permutation(n).tolist()
    answer = order.index(0)
    options = [options[i] for i in order]
    if mode in ("count", "dice"):      # contents were placed in the panel drawn for them: move them along
        options = [_moved(options[i], geo["options"][order[i]], geo["options"][i], mode) for i in range(n)]
    tints = tuple(tuple(int(v) for v in rng.integers(238, 256, 3)) for _ in range(n + 1))
    knobs["mode"] = float(MODES.index(mode))
    return Params(size=size, target=mode, reference=ref, options=tuple(options), answer=answer, tints=tints,
                  clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)), knobs=knobs)


def _moved(content: tuple, src, dst, mode: str) -> tuple:
    """Content laid out in panel `src`, shifted to panel `dst` (panels of one layout have equal sizes)."""
    dx, dy = dst[0] - src[0], dst[1] - src[1]
    if mode == "count":
        return tuple((key, x + dx, y + dy, s, t) for key, x, y, s, t in content)
    return tuple(Die(round(d.cx + dx, 2), round(d.cy + dy, 2), d.side, d.angle, d.value, d.mirror, d.body, d.pip)
                 for d in content)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of options."""
    return float(len(params.options))


# ---------------------------------------------------------------- drawing

def _sequence_slots(box, k: int, side: int) -> list[tuple[int, int]]:
    """Top-left corners of k icons of `side` px in a row, centred in `box`."""
    x0, y0, x1, y1 = box
    gap = ((x1 - x0) - k * side) / (k + 1)
    y = (y0 + y1 - side) // 2
    return [(int(round(x0 + gap + i * (side + gap))), y) for i in range(k)]


def sequence_side(params: Params) -> int:
    """One icon side for every panel: the largest that fits the smallest panel."""
    geo = layout(params.size, len(params.options), "sequence")
    k = len(params.reference)
    sides = []
    for box in [geo["reference"]] + geo["options"]:
        x0, y0, x1, y1 = inner(box, params.size)
        sides.append(min((y1 - y0) * 0.9, (x1 - x0) / k * 0.9))
    return int(min(sides))


def render(params: Params) -> Puzzle:
    w, h = params.size
    mode = params.target
    n = len(params.options)
    geo = layout(params.size, n, mode)
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    radius = round(min(w, h) * 0.025)
    ref_id = n + 1
    panels = [(ref_id, geo["reference"], params.reference)] + \
             [(i + 1, geo["options"][i], params.options[i]) for i in range(n)]
    meta, full = {}, {}
    for (pid, box, _), tint in zip(panels, params.tints):
        x0, y0, x1, y1 = box
        poly._round_rect(canvas.rgb, box, tint, radius, border=None if pid == ref_id else (190, 194, 200))
        if pid == ref_id:
            cv2.rectangle(canvas.rgb, (x0 + 2, y0 + 2), (x1 - 3, y1 - 3), FRAME, max(2, round(min(w, h) / 160)))
        canvas.instances[y0:y1, x0:x1] = pid          # the whole card is the click target
        full[pid] = (x1 - x0) * (y1 - y0)
        role = "reference" if pid == ref_id else ("target" if pid - 1 == params.answer else "distractor")
        meta[pid] = {"role": role, "label": "reference" if pid == ref_id else f"option {pid}", "kind": mode,
                     "panel": pid}
    plate = canvas.rgb.copy()
    nid = ref_id + 1
    extras = {"reference": geo["reference"], "options": geo["options"], "plate": plate, "items": {}}
    if mode == "rotated":
        smallest = min(geo["options"], key=lambda b: min(b[2] - b[0], b[3] - b[1]))
        cell = min(poly._cell_px(c[0], smallest, 0.8) for c in params.options)
        ref_cell = poly._cell_px(params.reference[0], geo["reference"], 0.8)
    if mode == "sequence":
        side = sequence_side(params)
        extras["icon_side"] = side
    for pid, box, content in panels:
        items = []
        if mode == "count":
            for key, x, y, s, t in content:
                canvas.paste(draw.rotated(draw.sprite(key, s), t), x, y, nid)
                meta[nid] = {"role": "item", "label": kind_by_key(key).en, "kind": key, "panel": pid}
                items.append(nid)
                nid += 1
        elif mode == "sequence":
            slots = _sequence_slots(inner(box, params.size), len(content), side)
            for key, (x, y) in zip(content, slots):
                canvas.paste(draw.sprite(key, side), x, y, nid)
                meta[nid] = {"role": "item", "label": kind_by_key(key).en, "kind": key, "panel": pid}
                items.append((nid, x, y))
                nid += 1
        elif mode == "rotated":
            cells, mirrored, angle, rgb = content
            spr = poly.shape_sprite(cells, ref_cell if pid == ref_id else cell, rgb, mirrored, angle)
            x0, y0, x1, y1 = box
            canvas.paste(spr, (x0 + x1 - spr.shape[1]) // 2, (y0 + y1 - spr.shape[0]) // 2, nid)
            meta[nid] = {"role": "item", "label": "mirror image" if mirrored else "shape", "kind": "shape",
                         "panel": pid}
            items.append(nid)
            nid += 1
        else:
            for die in content:
                x0, y0, body, pips = die_layers(die)
                canvas.paste(body, x0, y0, nid)
                die_id = nid
                meta[die_id] = {"role": "item", "label": "die", "kind": "die", "panel": pid}
                nid += 1
                pip_ids = []
                for px, py, layer in pips:
                    canvas.paste(layer, x0 + px, y0 + py, nid)
                    meta[nid] = {"role": "pip", "label": "pip", "kind": "pip", "panel": pid}
                    pip_ids.append(nid)
                    nid += 1
                items.append((die_id, pip_ids))
        extras["items"][pid] = items
    full.update({i: a for i, a in canvas.full_area.items() if i > ref_id})
    return Puzzle(canvas.rgb, canvas.instances, full, meta, extras=extras)


# ---------------------------------------------------------------- verification

def _check_items(puzzle: Puzzle, ids: list[int], panel, boxes, areas, least: float) -> None:
    """Every item shows whole, big enough, inside its panel."""
    for i in ids:
        if i not in boxes or areas[i] < ITEM_VISIBLE * puzzle.full_area[i]:
            raise Reject(f"{NAME}.item_hidden")
        if areas[i] < least:
            raise Reject(f"{NAME}.item_too_small")
        if not contains(panel, boxes[i]):
            raise Reject(f"{NAME}.item_outside_panel")


def _values(params: Params, puzzle: Puzzle, boxes: dict, areas: np.ndarray) -> tuple[object, list, dict]:
    """What the reference and every option show, by the rule, measured on the render, and checks."""
    mode = params.target
    n = len(params.options)
    ref_id = n + 1
    scale = puzzle.instances.size / (320 * 320)
    panels = {ref_id: puzzle.extras["reference"], **{i + 1: b for i, b in enumerate(puzzle.extras["options"])}}
    items = puzzle.extras["items"]
    checks = {}
    if mode == "count":
        values = {}
        for pid, ids in items.items():
            _check_items(puzzle, ids, panels[pid], boxes, areas, MIN_ITEM_PX * scale)
            # the objects the instance map shows within the panel
            values[pid] = sum(1 for i, b in boxes.items() if i > ref_id and contains(panels[pid], b)
                              and puzzle.meta[i]["role"] == "item")
    elif mode == "dice":
        values, min_contrast = {}, 255.0
        grey = cv2.cvtColor(puzzle.rgb, cv2.COLOR_RGB2GRAY)
        for pid, dice in items.items():
            total = 0
            for die_id, pip_ids in dice:
                # the pips lie on the die: the die shows whole when its body and pips together do
                shown = areas[die_id] + sum(int(areas[p]) for p in pip_ids)
                if die_id not in boxes or shown < ITEM_VISIBLE * puzzle.full_area[die_id]:
                    raise Reject(f"{NAME}.item_hidden")
                if not contains(panels[pid], boxes[die_id]):
                    raise Reject(f"{NAME}.item_outside_panel")
                _check_items(puzzle, pip_ids, boxes[die_id], boxes, areas, MIN_PIP_PX * scale)
                assert pip_ids == list(range(die_id + 1, die_id + 1 + len(pip_ids)))    # as render numbers them
                x0, y0, x1, y1 = (int(v) for v in boxes[die_id])
                region = puzzle.instances[y0:y1, x0:x1]
                pip_px = (region > die_id) & (region <= die_id + len(pip_ids))
                count = cv2.connectedComponents(pip_px.view(np.uint8), connectivity=8)[0] - 1
                if count != len(pip_ids):
                    raise Reject(f"{NAME}.pips_merge")
                luma = grey[y0:y1, x0:x1]
                contrast = abs(float(np.median(luma[pip_px])) - float(np.median(luma[region == die_id])))
                min_contrast = min(min_contrast, contrast)
                if contrast < MIN_PIP_CONTRAST:
                    raise Reject(f"{NAME}.low_contrast")
                total += count
            values[pid] = total
        checks["min_pip_contrast"] = round(min_contrast, 2)
    elif mode == "sequence":
        side = puzzle.extras["icon_side"]
        kinds = sorted({key for seq in (params.reference, *params.options) for key in seq})
        squares, grounds, where = [], [], []
        for pid, slots in items.items():
            _check_items(puzzle, [i for i, _, _ in slots], panels[pid], boxes, areas, MIN_ITEM_PX * scale)
            for _, x, y in slots:
                squares.append(puzzle.rgb[y:y + side, x:x + side])
                grounds.append(puzzle.extras["plate"][y:y + side, x:x + side])
                where.append(pid)
        sprites = np.stack([draw.sprite(key, side) for key in kinds])
        best, margin = best_kinds(read_icons(np.stack(squares), np.stack(grounds), sprites))
        if margin < MIN_MARGIN:
            raise Reject(f"{NAME}.icons_confusable")
        values = {pid: tuple(kinds[j] for j, p in zip(best, where) if p == pid) for pid in items}
        checks["icon_margin"] = round(margin, 3)
    else:
        ref = poly.normalise(poly.shape_mask(puzzle.rgb, panels[ref_id]))
        stack = poly.rotations(ref)
        ref_bits = poly.pack(ref[None])
        mirror_sym = float(poly.best_iou(stack, ref_bits)[0, 1])
        if mirror_sym > poly.DIFFERENT:
            raise Reject(f"{NAME}.mirror_symmetric_reference")
        masks = poly.pack(np.stack([poly.normalise(poly.shape_mask(puzzle.rgb, panels[i + 1])) for i in range(n)]))
        scores = poly.best_iou(stack, masks)
        values = {}
        for i, (rot, mir) in enumerate(scores):
            if rot >= poly.SAME and mir <= poly.DIFFERENT:
                values[i + 1] = True
            elif rot <= poly.DIFFERENT:
                values[i + 1] = False
            else:
                raise Reject(f"{NAME}.ambiguous_option")
        values[ref_id] = True
        checks.update(mirror_symmetry_iou=round(mirror_sym, 4), best_wrong_iou=round(float(max(
            [scores[i, 0] for i in range(n) if not values[i + 1]], default=0.0)), 4))
    return values.pop(ref_id), [values[i + 1] for i in range(n)], checks


def solve(params: Params, puzzle: Puzzle) -> Task:
    n = len(params.options)
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    ref, values, checks = _values(params, puzzle, boxes, areas)
    matching = [i for i, v in enumerate(values) if v == ref]
    if not matching:
        raise Reject(f"{NAME}.no_match")
    if len(matching) > 1:
        raise Reject(f"{NAME}.several_matches")
    if matching[0] != params.answer:
        raise Reject(f"{NAME}.answer_mismatch")
    # every object with its mask (a warp re-measures them); the pips are parts of their dice
    objects = []
    shown = [i for i in sorted(puzzle.meta) if i in boxes and puzzle.meta[i]["role"] != "pip"]
    masks = np.zeros((len(shown), *puzzle.instances.shape), bool)       # one calloc'd block
    for mask, i in zip(masks, shown):
        m = puzzle.meta[i]
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        np.equal(puzzle.instances[y0:y1, x0:x1], i, out=mask[y0:y1, x0:x1])
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(float(areas[i]) / puzzle.full_area[i], 4), "_mask": mask})
    target = next(o for o in objects if o["id"] == params.answer + 1)
    checks.update(options=float(n), rule=float(MODES.index(params.target)))
    return Task(rule="click_set", answer={"count": 1, "cells": [params.answer]}, objects=objects,
                target_ids=[target["id"]], target_boxes=[target["bbox"]], points=[draw.inner_point(target["_mask"])],
                partial_credit=False, checks=checks)


def instruction(params: Params, lang: str) -> str:
    zh = lang == "zh"
    mode = params.target
    if mode == "count":
        return "请点击物体数量与上方图片相同的选项" if zh else \
            "Click the option that shows as many objects as the picture at the top."
    if mode == "rotated":
        return "请点击由上方图形旋转得到的选项（镜像的不算）" if zh else \
            "Click the option showing the top shape turned (a mirror image does not count)."
    if mode == "sequence":
        return "请点击图标及其顺序与上方完全相同的选项" if zh else \
            "Click the option showing the same icons in the same order as the top row."
    return "请点击骰子点数之和与上方骰子相同的选项" if zh else \
        "Click the option whose dice add up to the same total as the dice at the top."
