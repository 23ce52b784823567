"""Option match (Arkose / FunCaptcha style): a reference picture and 3-6 option pictures; exactly one option
matches the reference by the stated rule: as many objects, the same shape turned (a mirror image is no
match), the same icons in the same order, or dice adding up to the same total. Click that option.

One family, one module per rule (count, rotated, sequence, dice): each samples what its panels show, moves
it between panels, paints it and measures it back from the render; this module lays out the panels, draws
the cards and judges which option matches."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.option_match import count, dice, rotated, sequence
from synth.families.option_match.panels import FRAME, NAME, layout

DESCRIPTION = ("click the one option that matches the reference: as many objects, the same shape turned, "
               "the same icon sequence, or the same dice total")
COVERS = ("Arkose:numericalmatch", "OpenCaptchaWorld:Object_Match", "OpenCaptchaWorld:Dart_Count",
          "OpenCaptchaWorld:Image_Matching")
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "number of options", +1
RULES = {"count": count, "rotated": rotated, "sequence": sequence, "dice": dice}
MODES = tuple(RULES)

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
    reference: tuple            # what the reference panel shows (per rule, see the rule's module)
    options: tuple              # what each option panel shows, in panel order
    answer: int                 # index of the matching option
    tints: tuple                # card colour of the reference, then of each option
    clutter: float
    bg_seed: int
    knobs: dict


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  mode: str | None = None) -> Params:
    row = TABLE.row(level)
    ints = ("options_range", "count_range", "sequence_range", "cells_range", "angle_step_range")
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ints) for k in row}
    mode = mode or MODES[int(rng.integers(len(MODES)))]
    n = knobs["options"]
    geo = layout(size, n, mode)
    ref, options = RULES[mode].sample(rng, knobs, geo, size)
    # the matching option was drawn first: it goes to a random place
    order = rng.permutation(n).tolist()
    answer = order.index(0)
    options = [moved(options[j], geo["options"][j], geo["options"][i], mode) for i, j in enumerate(order)]
    tints = tuple(tuple(int(v) for v in rng.integers(238, 256, 3)) for _ in range(n + 1))
    knobs["mode"] = float(MODES.index(mode))
    return Params(size=size, target=mode, reference=ref, options=tuple(options), answer=answer, tints=tints,
                  clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)), knobs=knobs)


def moved(content: tuple, src, dst, mode: str) -> tuple:
    """Content laid out in panel `src`, as shown in panel `dst` (panels of one layout have equal sizes)."""
    return RULES[mode].moved(content, dst[0] - src[0], dst[1] - src[1])


def stat(params: Params) -> float:
    """Difficulty statistic: the number of options."""
    return float(len(params.options))


def render(params: Params) -> Puzzle:
    w, h = params.size
    n = len(params.options)
    geo = layout(params.size, n, params.target)
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    radius = round(min(w, h) * 0.025)
    ref_id = n + 1
    panels = [(ref_id, geo["reference"], params.reference)] + \
             [(i + 1, geo["options"][i], params.options[i]) for i in range(n)]
    meta, full = {}, {}
    for (pid, box, _), tint in zip(panels, params.tints):
        x0, y0, x1, y1 = box
        draw.round_rect(canvas.rgb, box, tint, radius, border=None if pid == ref_id else (190, 194, 200))
        if pid == ref_id:
            cv2.rectangle(canvas.rgb, (x0 + 2, y0 + 2), (x1 - 3, y1 - 3), FRAME, max(2, round(min(w, h) / 160)))
        canvas.instances[y0:y1, x0:x1] = pid          # the whole card is the click target
        full[pid] = (x1 - x0) * (y1 - y0)
        role = "reference" if pid == ref_id else ("target" if pid - 1 == params.answer else "distractor")
        meta[pid] = {"role": role, "label": "reference" if pid == ref_id else f"option {pid}",
                     "kind": params.target, "panel": pid}
    extras = {"reference": geo["reference"], "options": geo["options"], "plate": canvas.rgb.copy()}
    items, more = RULES[params.target].paint(canvas, params, geo, panels, ref_id + 1)
    meta.update(items)
    extras.update(more)
    full.update({i: a for i, a in canvas.full_area.items() if i > ref_id})
    return Puzzle(canvas.rgb, canvas.instances, full, meta, extras=extras)


def values(params: Params, puzzle: Puzzle, boxes: dict, areas: np.ndarray) -> tuple[object, list, dict]:
    """What the reference and every option show, by the rule, measured on the render, and checks."""
    n = len(params.options)
    panels = {n + 1: puzzle.extras["reference"], **{i + 1: b for i, b in enumerate(puzzle.extras["options"])}}
    shown, checks = RULES[params.target].values(params, puzzle, panels, boxes, areas)
    return shown.pop(n + 1), [shown[i + 1] for i in range(n)], checks


def solve(params: Params, puzzle: Puzzle) -> Task:
    n = len(params.options)
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    ref, shown, checks = values(params, puzzle, boxes, areas)
    matching = [i for i, v in enumerate(shown) if v == ref]
    if not matching:
        raise Reject(f"{NAME}.no_match")
    if len(matching) > 1:
        raise Reject(f"{NAME}.several_matches")
    if matching[0] != params.answer:
        raise Reject(f"{NAME}.answer_mismatch")
    # every object with its mask (a warp re-measures them); the pips are parts of their dice
    objects = []
    listed = [i for i in sorted(puzzle.meta) if i in boxes and puzzle.meta[i]["role"] != "pip"]
    masks = np.zeros((len(listed), *puzzle.instances.shape), bool)       # one calloc'd block
    for mask, i in zip(masks, listed):
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
    return RULES[params.target].INSTRUCTION["zh" if lang == "zh" else "en"]
