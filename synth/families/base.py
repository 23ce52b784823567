"""What every CAPTCHA family provides, and the types passed between the pipeline stages."""
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from synth.core.levels import LevelTable
from synth.families.kit import draw


@dataclass
class Puzzle:
    """A drawn puzzle: pixels, a z-ordered instance map (0 = background) and per-instance facts."""
    rgb: np.ndarray                         # (H, W, 3) uint8
    instances: np.ndarray                   # (H, W) uint8
    full_area: dict[int, int]               # instance -> pixels when unoccluded
    meta: dict[int, dict]                   # instance -> {"role", "label", "kind"}
    extras: dict[str, Any] = field(default_factory=dict)   # family-specific facts (e.g. slider geometry)


@dataclass
class Task:
    """A verified task in puzzle pixels: what the agent must do and how it is judged."""
    rule: str                               # "type" | "click_set" | "click_order" | "drag" | "long_press" | "skip"
    answer: dict
    objects: list[dict]                     # {"id", "role", "label", "bbox", "visible_fraction"}
    target_ids: list[int] = field(default_factory=list)             # click_set: instance id of each target
    target_boxes: list[list[float]] = field(default_factory=list)   # click_set targets / drag start
    points: list[list[float]] = field(default_factory=list)         # reference click or drag-start points
    end_boxes: list[list[float]] = field(default_factory=list)      # drag: where the end must land
    end_points: list[list[float]] = field(default_factory=list)
    text: str = ""                          # type: the exact text
    duration: float = 0.0                   # long_press: seconds the press must last
    tolerance_px: float = 0.0
    order_matters: bool = False
    partial_credit: bool = False
    checks: dict[str, float] = field(default_factory=dict)


class Family(Protocol):
    """A CAPTCHA family: one module in synth/families/ exposing these names."""
    NAME: str
    DESCRIPTION: str
    TABLE: LevelTable
    GEOMETRIC_AUGMENT: bool                 # may the puzzle be warped (False if angles are the answer)
    # optional, read with getattr: BLUR_AUGMENT (False: never blurred, thin edges carry the answer) and
    # NEEDS_BROWSER (True: drawn by Chromium, synth.families.kit.render3d)
    SUPPORTS_INFEASIBLE: bool               # can draw instances with no valid target (answer: press Skip)
    STAT: str                               # name of the difficulty statistic ...
    STAT_DIRECTION: int                     # ... and whether it rises (+1) or falls (-1) with the level
    ANSWERS: tuple[str, ...]                # the step types its tasks use: "click", "type", "drag", "long_press"
    COVERS: tuple[str, ...]                 # public benchmark and vendor CAPTCHA types it trains for, "Source:type"

    def sample_params(self, rng: np.random.Generator, level: int, size: tuple[int, int],
                      infeasible: bool = False) -> Any: ...   # may also take lang= (the page's), for drawn texts
    def stat(self, params: Any) -> float: ...
    def controls(self, params: Any) -> str: ...            # "input", "skip" or "none": the widget variant
    def render(self, params: Any) -> Puzzle: ...
    def solve(self, params: Any, puzzle: Puzzle) -> Task: ...
    def instruction(self, params: Any, lang: str) -> str: ...


def visible_objects(puzzle: Puzzle) -> list[dict]:
    """Objects as the label lists them: box and visible share measured on the instance map."""
    out = []
    inst = puzzle.instances
    boxes = draw.instance_boxes(inst)
    shown = [i for i in puzzle.meta if i in boxes]
    # one zeroed block for all masks (calloc'd: only the rows written below are touched)
    masks = np.zeros((len(shown), *inst.shape), bool)
    for mask, i in zip(masks, shown):
        m = puzzle.meta[i]
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        crop = np.equal(inst[y0:y1, x0:x1], i, out=mask[y0:y1, x0:x1])
        full = puzzle.full_area.get(i, 0)
        seen = np.count_nonzero(crop)      # every pixel of the instance lies in its box
        out.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                    "visible_fraction": round(seen / full if full else 0.0, 4), "_mask": mask})
    return out
