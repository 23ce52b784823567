"""Counting: how many objects of one kind are there, among distractors (type the number or click each)."""
from dataclasses import dataclass

import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task, visible_objects
from synth.families.kit import draw, grammar
from synth.families.kit.kinds import Kind, emoji_kinds, kind_by_key, shape_kinds, turn_limit
from synth.families.kit.placement import place

NAME = "counting"
DESCRIPTION = "count the objects of one kind among distractors; type the number or click every one"
ANSWERS = ("click", "type")     # synth.labels.reward step types of its tasks
COVERS = ("VenusBench-CAPTCHA:visual_reasoning", "OpenCaptchaWorld:Dart_Count")
STAT, STAT_DIRECTION = "object size (share of the puzzle side)", -1
COUNTED = 0.6        # a target counts when at least this share of it is visible
HIDDEN = 0.15        # ... and is hidden below this; anything between is ambiguous and rejected
MIN_VISIBLE_PX = 120

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of target objects",
    "distractor_kinds_range": "number of other kinds shown",
    "distractors_per_kind_range": "objects per distractor kind",
    "size_range": "object size as a share of the puzzle's shorter side",
    "similar_range": "probability that a distractor kind looks like the target (same category / shape / colour)",
    "overlap_range": "largest overlap allowed between objects of one role (share of the smaller)",
    "tilt_range": "largest tilt of an object, degrees",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"count_range": (1, 3), "distractor_kinds_range": (1, 1), "distractors_per_kind_range": (1, 2),
        "size_range": (0.20, 0.24), "similar_range": (0.0, 0.0), "overlap_range": (0.0, 0.0),
        "tilt_range": (0, 0), "clutter_range": (0.0, 0.1)},
    2: {"count_range": (2, 4), "distractor_kinds_range": (1, 2), "distractors_per_kind_range": (1, 3),
        "size_range": (0.16, 0.20), "similar_range": (0.2, 0.2), "overlap_range": (0.0, 0.0),
        "tilt_range": (0, 10), "clutter_range": (0.1, 0.3)},
    3: {"count_range": (2, 6), "distractor_kinds_range": (2, 3), "distractors_per_kind_range": (1, 3),
        "size_range": (0.13, 0.17), "similar_range": (0.4, 0.4), "overlap_range": (0.0, 0.1),
        "tilt_range": (0, 20), "clutter_range": (0.3, 0.5)},
    4: {"count_range": (3, 7), "distractor_kinds_range": (2, 4), "distractors_per_kind_range": (2, 3),
        "size_range": (0.11, 0.14), "similar_range": (0.6, 0.6), "overlap_range": (0.0, 0.2),
        "tilt_range": (0, 30), "clutter_range": (0.5, 0.7)},
    5: {"count_range": (4, 9), "distractor_kinds_range": (3, 5), "distractors_per_kind_range": (2, 4),
        "size_range": (0.09, 0.12), "similar_range": (0.8, 0.8), "overlap_range": (0.1, 0.25),
        "tilt_range": (0, 45), "clutter_range": (0.7, 0.9)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    task: str                                   # "type" | "click"
    target: str                                 # kind key
    objects: tuple[tuple[str, str, int, int, int, float], ...]   # (role, kind, x, y, sprite size, tilt) in z-order;
    #                                                         x, y: top-left of the tilted sprite's square
    clutter: float
    bg_seed: int
    knobs: dict


def similar_kinds(target: Kind, pool: tuple[Kind, ...]) -> list[Kind]:
    """Kinds easy to confuse with `target`: same emoji category, or same shape or colour."""
    if target.category == "shape":
        _, colour, shape = target.key.split(":")
        return [k for k in pool if k != target and (k.key.endswith(":" + shape) or f":{colour}:" in k.key)]
    return [k for k in pool if k != target and k.category == target.category]


def pick_kinds(rng: np.random.Generator, n_distractor_kinds: int, similar: float) -> tuple[Kind, list[Kind]]:
    """A target kind and distinct distractor kinds, each similar to the target with probability `similar`."""
    pool = emoji_kinds() if rng.random() < 0.6 else shape_kinds()
    target = pool[int(rng.integers(len(pool)))]
    alike = similar_kinds(target, pool)
    taken = {target, *alike}
    other = [k for k in pool if k not in taken]
    chosen: list[Kind] = []
    for _ in range(n_distractor_kinds):
        src = alike if (rng.random() < similar and alike) else other
        src = [k for k in src if k not in chosen] or [k for k in pool if k != target and k not in chosen]
        chosen.append(src[int(rng.integers(len(src)))])
    return target, chosen


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    knobs = {
        "count": draw_knob(rng, row["count_range"], integer=True),
        "distractor_kinds": draw_knob(rng, row["distractor_kinds_range"], integer=True),
        "similar": draw_knob(rng, row["similar_range"]),
        "overlap": draw_knob(rng, row["overlap_range"]),
        "clutter": draw_knob(rng, row["clutter_range"]),
    }
    target, distractors = pick_kinds(rng, knobs["distractor_kinds"], knobs["similar"])
    roles = [("target", target.key)] * knobs["count"]
    for kind in distractors:
        roles += [("distractor", kind.key)] * draw_knob(rng, row["distractors_per_kind_range"], integer=True)
    side = min(w, h)
    sizes = [max(16, round(side * draw_knob(rng, row["size_range"]))) for _ in roles]
    tilt = row["tilt_range"][1]
    limits = [turn_limit(key, tilt) for _, key in roles]
    tilts = [float(rng.uniform(-limit, limit)) if limit else 0.0 for limit in limits]
    groups = [0 if r == "target" else 1 for r, _ in roles]
    spots = place(rng, w, h, [draw.rotated_side(s, t) for s, t in zip(sizes, tilts)], groups,
                  knobs["overlap"], f"{NAME}.no_room")
    objects = [(role, key, x, y, s, t) for (role, key), (x, y, _), s, t in zip(roles, spots, sizes, tilts)]
    order = rng.permutation(len(objects))
    knobs["size_mean"] = float(np.mean(sizes)) / side
    return Params(size=size, task="type" if rng.random() < 0.5 else "click", target=target.key,
                  objects=tuple(objects[i] for i in order), clutter=knobs["clutter"],
                  bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: mean object size as a share of the puzzle's shorter side."""
    return params.knobs["size_mean"]


def controls(params: Params) -> str:
    return "input" if params.task == "type" else "none"


def render(params: Params) -> Puzzle:
    w, h = params.size
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    meta = {}
    for i, (role, key, x, y, s, tilt) in enumerate(params.objects, start=1):
        canvas.paste(draw.rotated(draw.sprite(key, s), tilt), x, y, i)
        meta[i] = {"role": role, "label": kind_by_key(key).en, "kind": key}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


def solve(params: Params, puzzle: Puzzle) -> Task:
    objects = visible_objects(puzzle)
    counted = []
    for o in objects:
        if o["role"] != "target" or o["visible_fraction"] <= HIDDEN:
            continue
        if o["visible_fraction"] < COUNTED:
            raise Reject(f"{NAME}.ambiguous_visibility")
        if np.count_nonzero(o["_mask"]) < MIN_VISIBLE_PX:
            raise Reject(f"{NAME}.target_too_small")
        counted.append(o)
    if not counted:
        raise Reject(f"{NAME}.no_target_visible")
    checks = {"min_target_visible": min(o["visible_fraction"] for o in counted),
              "targets_counted": float(len(counted)),
              "targets_drawn": float(sum(r == "target" for r, *_ in params.objects))}
    task = Task(rule="type" if params.task == "type" else "click_set", answer={"count": len(counted)},
                objects=objects, checks=checks)
    if params.task == "type":
        task.text = str(len(counted))
    else:
        task.target_ids = [o["id"] for o in counted]
        task.target_boxes = [o["bbox"] for o in counted]
        task.points = [draw.inner_point(o["_mask"]) for o in counted]
        task.partial_credit = True
    return task


def instruction(params: Params, lang: str) -> str:
    kind = kind_by_key(params.target)
    if params.task == "type":
        return (f"图中有几{kind.measure_word()}{kind.zh}？请输入数字" if lang == "zh"
                else f"How many {grammar.plural(kind.en)} are in the picture? Type the number.")
    return (f"请点击图中所有的{kind.zh}，然后点击验证" if lang == "zh"
            else f"Click every {grammar.singular(kind.en)}, then press Verify.")
