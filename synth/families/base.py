"""What every CAPTCHA family provides, and the types passed between the pipeline stages."""
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

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


class Family:
    """A CAPTCHA family as the pipeline sees it: one module (or package) in synth/families/, read through the
    defaults below. The module writes what is its own: NAME, DESCRIPTION, TABLE, STAT and STAT_DIRECTION (the
    difficulty statistic and whether it rises, +1, or falls, -1, with the level), ANSWERS (the
    synth.labels.reward step types of its tasks: "click", "type", "drag", "long_press"), COVERS (the public
    benchmark and vendor CAPTCHA types it trains for, "Source:type") and the functions

        sample_params(rng, level, size, infeasible=False) -> Params   (may also take lang=, the page's language)
        stat(params) -> float
        render(params) -> Puzzle
        solve(params, puzzle) -> Task
        instruction(params, lang) -> str

    and any name of this class whose default does not fit it."""
    GEOMETRIC_AUGMENT = True        # may the puzzle be warped (False where a warp would change the answer)
    BLUR_AUGMENT = True             # may it be blurred (False where thin edges carry the answer)
    NEEDS_BROWSER = False           # True: drawn by Chromium (synth.families.kit.render3d)
    SUPPORTS_INFEASIBLE = False     # True: can draw instances with no valid target (the answer: press Skip)
    FLOORS: dict[str, str] = {}     # floor name -> what it keeps, with its number (listed in docs/levels.md)

    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def __getattribute__(self, name: str) -> Any:
        # the module's own names first, then this class's defaults (dunder names are the object's own)
        if not name.startswith("__"):
            try:
                return getattr(object.__getattribute__(self, "module"), name)
            except AttributeError:
                pass
        return object.__getattribute__(self, name)

    def __repr__(self) -> str:
        return f"<family {self.NAME}>"

    def __deepcopy__(self, memo: dict) -> "Family":
        return self         # code, not state: a copied episode state shares its family

    def legible(self, params: Any, puzzle: Puzzle, task: Task, shown: np.ndarray) -> dict[str, float]:
        """The family's legibility measures on `shown`, the puzzle as degraded (same size, no warp where
        the family forbids warps): Reject("<family>.<floor>") below a floor, else the measures for the
        label's checks. Default: none beyond the degradation caps every family has."""
        return {}

    def controls(self, params: Any) -> str:
        """The widget's variant: "input" (a text field) when every task is typed, "skip" (a Skip button on
        every instance, so that its presence tells nothing) when an instance may have no target, else "none"."""
        if self.ANSWERS == ("type",):
            return "input"
        return "skip" if self.SUPPORTS_INFEASIBLE else "none"


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
