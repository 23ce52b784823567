"""Occlusion: objects partly hidden behind cards and each other; count what is there or click the covered ones."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task, visible_objects
from synth.families.counting import pick_kinds
from synth.families.kit import draw, grammar
from synth.families.kit.kinds import kind_by_key
from synth.families.kit.placement import place

NAME = "occlusion"
DESCRIPTION = "objects partly hidden behind cards; count one kind including hidden ones, or click every covered one"
ANSWERS = ("click", "type")     # synth.labels.reward step types of its tasks
COVERS = ("VenusBench-CAPTCHA:visual_reasoning",)
STAT, STAT_DIRECTION = "hidden share of a covered object's box", +1
COUNTED = 0.3          # count: a target counts when at least this share shows ...
GONE = 0.08            # ... and is gone below this; between is ambiguous
COVERED = (0.3, 0.9)  # click: a target is "partly covered" when its visible share is in this band ...
UNCOVERED = 0.97       # ... and "not covered" above this; anything else is ambiguous
MISTAKEN_IOU = 0.8     # a covered object's visible part matches another kind's outline this well (IoU) ...
MISTAKEN_RGB = 40      # ... with its colours this close (mean absolute difference): it could be either
EDGE_KEPT = 0.95       # share of an object's visible pixels a warp must keep inside the picture
FLOORS = {"kinds": f"a partly hidden object cannot be taken for another kind in the puzzle: what shows of it "
                   f"matches no other kind's outline there under the same covers at IoU {MISTAKEN_IOU} or more "
                   f"with colours within {MISTAKEN_RGB} (mean absolute difference)",
          "edge": f"a warp keeps at least {EDGE_KEPT:.0%} of every object's visible pixels inside the picture "
                  f"(an object cut at the edge cannot be named)"}

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of target objects",
    "distractors_range": "number of objects of other kinds",
    "occluders_range": "number of cards laid over objects",
    "hidden_range": "share of a covered object's box that a card hides",
    "opacity_range": "card opacity (1 = solid; lower shows a ghost of what is behind)",
    "size_range": "object size as a share of the puzzle's shorter side",
    "overlap_range": "largest overlap allowed between objects (share of the smaller)",
    "clutter_range": "background texture strength, 0 to 1",
}, levels={
    1: {"count_range": (2, 3), "distractors_range": (1, 2), "occluders_range": (1, 1), "hidden_range": (0.25, 0.35),
        "opacity_range": (1.0, 1.0), "size_range": (0.2, 0.23), "overlap_range": (0.0, 0.0),
        "clutter_range": (0.0, 0.1)},
    2: {"count_range": (2, 4), "distractors_range": (2, 3), "occluders_range": (1, 2), "hidden_range": (0.25, 0.4),
        "opacity_range": (1.0, 1.0), "size_range": (0.17, 0.2), "overlap_range": (0.0, 0.0),
        "clutter_range": (0.1, 0.3)},
    3: {"count_range": (3, 5), "distractors_range": (2, 4), "occluders_range": (2, 3), "hidden_range": (0.3, 0.5),
        "opacity_range": (0.95, 1.0), "size_range": (0.15, 0.18), "overlap_range": (0.0, 0.1),
        "clutter_range": (0.3, 0.5)},
    4: {"count_range": (3, 6), "distractors_range": (3, 5), "occluders_range": (2, 3), "hidden_range": (0.4, 0.55),
        "opacity_range": (0.9, 0.95), "size_range": (0.13, 0.16), "overlap_range": (0.0, 0.15),
        "clutter_range": (0.5, 0.7)},
    5: {"count_range": (4, 7), "distractors_range": (4, 6), "occluders_range": (3, 4), "hidden_range": (0.45, 0.6),
        "opacity_range": (0.85, 0.9), "size_range": (0.11, 0.14), "overlap_range": (0.1, 0.2),
        "clutter_range": (0.7, 0.9)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    task: str                                   # "count" | "click"
    target: str
    objects: tuple[tuple[str, str, int, int, int], ...]      # (role, kind, x, y, size)
    cards: tuple[tuple[int, int, int, int, tuple, float], ...]  # (x0, y0, x1, y1, rgb, opacity)
    clutter: float
    bg_seed: int
    knobs: dict


def card_over(rng: np.random.Generator, obj: tuple, hidden: float, w: int, h: int) -> tuple[int, int, int, int]:
    """A card rectangle hiding `hidden` of the object's box from one side, reaching past the other edges."""
    _, _, x, y, s = obj
    cover = max(2, round(s * hidden))
    reach = int(rng.integers(s // 3, s))
    side = int(rng.integers(4))
    if side == 0:    # from the right
        box = (x + s - cover, y - reach // 2, x + s + reach, y + s + reach // 2)
    elif side == 1:  # from the left
        box = (x - reach, y - reach // 2, x + cover, y + s + reach // 2)
    elif side == 2:  # from below
        box = (x - reach // 2, y + s - cover, x + s + reach // 2, y + s + reach)
    else:            # from above
        box = (x - reach // 2, y - reach, x + s + reach // 2, y + cover)
    return max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("count_range", "distractors_range", "occluders_range"))
             for k in ("count_range", "distractors_range", "occluders_range", "overlap_range", "clutter_range")}
    target, others = pick_kinds(rng, 3, 0.3)
    roles = [("target", target.key)] * knobs["count"]
    roles += [("distractor", others[int(rng.integers(len(others)))].key) for _ in range(knobs["distractors"])]
    side = min(w, h)
    sizes = [max(20, round(side * draw_knob(rng, row["size_range"]))) for _ in roles]
    spots = place(rng, w, h, sizes, [0] * len(roles), knobs["overlap"], f"{NAME}.no_room")
    objects = [(r, k, x, y, s) for (r, k), (x, y, s) in zip(roles, spots)]
    # the first card always covers a target, so every instance has something hidden to find
    n_cards = knobs["occluders"]
    covered = [0] + [int(i) for i in rng.choice(np.arange(1, len(objects)), n_cards - 1, replace=False)]
    hidden = [draw_knob(rng, row["hidden_range"]) for _ in covered]
    opacity = draw_knob(rng, row["opacity_range"])
    cards = tuple((*card_over(rng, objects[i], hd, w, h), tuple(int(v) for v in rng.integers(150, 250, 3)), opacity)
                  for i, hd in zip(covered, hidden))
    knobs.update(hidden=float(np.mean(hidden)), opacity=opacity, size_mean=float(np.mean(sizes)) / side)
    order = rng.permutation(len(objects))
    return Params(size=size, task="count" if rng.random() < 0.5 else "click", target=target.key,
                  objects=tuple(objects[i] for i in order), cards=cards, clutter=knobs["clutter"],
                  bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: mean share of a covered object's box that its card hides."""
    return params.knobs["hidden"]


def controls(params: Params) -> str:
    return "input" if params.task == "count" else "none"


def render(params: Params) -> Puzzle:
    w, h = params.size
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    meta = {}
    for i, (role, key, x, y, s) in enumerate(params.objects, start=1):
        canvas.paste(draw.sprite(key, s), x, y, i)
        meta[i] = {"role": role, "label": kind_by_key(key).en, "kind": key}
    for j, (x0, y0, x1, y1, rgb, opacity) in enumerate(params.cards, start=len(params.objects) + 1):
        card = np.zeros((y1 - y0, x1 - x0, 4), np.uint8)
        cv2.rectangle(card, (0, 0), (x1 - x0 - 1, y1 - y0 - 1), (*rgb, 255), -1)
        cv2.rectangle(card, (0, 0), (x1 - x0 - 1, y1 - y0 - 1), (*(v - 40 for v in rgb), 255), 2)
        canvas.paste(card, x0, y0, j, opacity=opacity)
        meta[j] = {"role": "occluder", "label": "card", "kind": ""}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


def mistakable(params: Params, puzzle: Puzzle) -> bool:
    """Whether a partly hidden object could be taken for another kind in the puzzle: what shows of it (outline
    and colours) is what that kind would show at the same place under the same covers."""
    kinds = {key for _, key, *_ in params.objects}
    for i, (_, key, x, y, s) in enumerate(params.objects, start=1):
        box = puzzle.instances[y:y + s, x:x + s]
        own = draw.sprite(key, s)
        seen = box == i
        if np.count_nonzero(seen) >= UNCOVERED * np.count_nonzero(own[..., 3] > 127):
            continue
        covers = (box != i) & (box != 0)
        for other in kinds - {key}:
            alt = draw.sprite(other, s)
            shows = (alt[..., 3] > 127) & ~covers
            both = seen & shows
            iou = np.count_nonzero(both) / max(1, np.count_nonzero(seen | shows))
            if iou >= MISTAKEN_IOU:
                diff = np.abs(own[..., :3][both].astype(np.int16) - alt[..., :3][both]).mean()
                if diff <= MISTAKEN_RGB:
                    return True
    return False


def solve(params: Params, puzzle: Puzzle) -> Task:
    if mistakable(params, puzzle):
        raise Reject(f"{NAME}.kind_unclear")
    objects = visible_objects(puzzle)
    by_id = {o["id"]: o for o in objects}
    targets = [i for i, m in puzzle.meta.items() if m["role"] == "target"]
    vis = {i: by_id[i]["visible_fraction"] if i in by_id else 0.0 for i in targets}
    if params.task == "count":
        if any(GONE < v < COUNTED for v in vis.values()):
            raise Reject(f"{NAME}.ambiguous_visibility")
        counted = [i for i, v in vis.items() if v >= COUNTED]
        if not counted:
            raise Reject(f"{NAME}.no_target_visible")
        task = Task(rule="type", answer={"count": len(counted)}, objects=objects, text=str(len(counted)))
    else:
        covered = [i for i, v in vis.items() if COVERED[0] <= v <= COVERED[1]]
        if any(not (COVERED[0] <= v <= COVERED[1] or v >= UNCOVERED) for v in vis.values()):
            raise Reject(f"{NAME}.ambiguous_visibility")
        if not covered:
            raise Reject(f"{NAME}.no_covered_target")
        for o in objects:        # same-kind objects that are not covered are not answers: say so
            if o["role"] == "target" and o["id"] not in covered:
                o["role"] = "uncovered_same_kind"
        task = Task(rule="click_set", answer={"count": len(covered)}, objects=objects,
                    target_ids=covered, target_boxes=[by_id[i]["bbox"] for i in covered],
                    points=[draw.inner_point(by_id[i]["_mask"]) for i in covered], partial_credit=True)
    task.checks = {"min_target_visible": min(vis.values()), "max_target_visible": max(vis.values()),
                   "targets_drawn": float(len(targets))}
    return task


def legible(params: Params, puzzle: Puzzle, task: Task, shown: np.ndarray) -> dict[str, float]:
    """Every object keeps what showed of it inside the picture after a warp (an object cut at the edge cannot
    be named)."""
    kept = min(np.count_nonzero(o["_mask"]) / max(1, np.count_nonzero(puzzle.instances == o["id"]))
               for o in task.objects)
    if kept < EDGE_KEPT:
        raise Reject(f"{NAME}.cut_at_edge")
    return {"min_object_kept": round(float(kept), 4)}


def instruction(params: Params, lang: str) -> str:
    kind = kind_by_key(params.target)
    if params.task == "count":
        return (f"一共有几{kind.measure_word()}{kind.zh}（包括被遮住一部分的）？请输入数字" if lang == "zh"
                else f"How many {grammar.plural(kind.en)} are there, including partly hidden ones? Type the number.")
    return (f"请点击所有被卡片遮住一部分的{kind.zh}，然后点击验证" if lang == "zh"
            else f"Click every {grammar.singular(kind.en)} that is partly covered, then press Verify.")
