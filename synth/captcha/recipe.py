"""The instance recipe every CAPTCHA puzzle goes through, for a sample, an episode and the workers' warm-up
alike: params -> render -> solve (the answer recomputed from the pixels) -> degrade -> re-measure -> the
family's legibility floors on the degraded pixels."""
import inspect
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from synth.captcha.augment import degrade_puzzle
from synth.captcha.compose import font_sizes
from synth.core.errors import Reject
from synth.core.fonts import font
from synth.core.levels import LEVELS
from synth.families import FAMILIES
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.screens import PLATFORMS


@dataclass
class Instance:
    """A verified puzzle: its params, its drawing, its task (in puzzle pixels, re-measured after any warp), and
    the pixels as shown (degraded as the level degrades them), at CSS size."""
    params: Any
    puzzle: Puzzle
    task: Task
    rgb: np.ndarray
    augment: dict           # {"seed", "applied"}: the degradation drawn


@cache
def takes_lang(family) -> bool:
    """Whether a family's sample_params takes the page's language (for the texts it draws in the puzzle)."""
    return "lang" in inspect.signature(family.sample_params).parameters


def sample_params(family, rng: np.random.Generator, level: int, size: tuple[int, int], lang: str,
                  infeasible: bool = False):
    """The family's params for one instance (with the page's language where the family draws text)."""
    page_lang = {"lang": lang} if takes_lang(family) else {}
    return family.sample_params(rng, level, size, infeasible=infeasible, **page_lang)


def finish(family, params, level: int, rng: np.random.Generator) -> Instance:
    """Render, solve and degrade the instance of `params`; Reject if a check fails."""
    puzzle = family.render(params)
    task = family.solve(params, puzzle)
    aug_seed = int(rng.integers(2**31))
    rgb, instances, applied = degrade_puzzle(family, puzzle, level, aug_seed)
    if not np.array_equal(instances, puzzle.instances):
        remeasure(task, puzzle.instances, instances)
    task.checks.update(family.legible(params, puzzle, task, rgb))
    return Instance(params, puzzle, task, rgb, {"seed": aug_seed, "applied": ",".join(applied)})


def remeasure(task: Task, before: np.ndarray, after: np.ndarray) -> None:
    """After a warp, re-measure every object's box and the reference points from the warped instance map."""
    boxes = draw.instance_boxes(after)
    area_before, area_after = draw.instance_areas(before), draw.instance_areas(after)
    for o in task.objects:
        if o["id"] not in boxes or area_after[o["id"]] < 0.8 * area_before[o["id"]]:
            raise Reject("augment.object_clipped")
        o["bbox"] = boxes[o["id"]]
        if "_mask" in o:
            o["_mask"] = after == o["id"]
    if task.target_ids:
        masks = {o["id"]: o["_mask"] for o in task.objects}
        task.target_boxes = [draw.mask_box(masks[i]) for i in task.target_ids]
        task.points = [draw.inner_point(masks[i]) for i in task.target_ids]


def warm_up(levels=None, families=None) -> None:
    """Draw a puzzle of each family at each level (default: all of them) and puzzle size, with no page, and
    load the instruction fonts: the caches that every process soon fills (textures, fonts, sprites) then
    exist once in the server that local workers fork from, shared by all of them, instead of once per
    worker. Families drawn by a browser (NEEDS_BROWSER) are left out: a Chromium started here would be the
    forked workers' too; names that are not CAPTCHA families (episode tasks) are ignored."""
    sizes = sorted({p["puzzle"] for p in PLATFORMS.values()})
    chosen = FAMILIES.values() if families is None else [FAMILIES[n] for n in families if n in FAMILIES]
    for family in chosen:
        if family.NEEDS_BROWSER:
            continue
        for level in levels or LEVELS:
            for size in sizes:
                rng = np.random.default_rng([level, *size])
                try:
                    finish(family, sample_params(family, rng, level, size, "en"), level, rng)
                except Reject:
                    pass
    for dpr in {p["dpr"] for p in PLATFORMS.values()}:
        for size in font_sizes(dpr):
            font(size)
