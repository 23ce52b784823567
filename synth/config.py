"""A run's configuration and the page pools it implies: all the main process of a run needs to plan it,
without the imports of the families and augmentations."""
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from synth.families import NAMES
from synth.scenes.pages import list_templates
from synth.seeds import page_seed

POOL_SPAN = 1000       # consecutive samples that share one pool of rendered pages
POOL_SIZE = 50         # pages per pool
PLATFORM_SHARE = {"web": 0.5, "mobile": 0.3, "desktop": 0.2}


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides the bytes of a run (workers and executor do not)."""
    difficulty: int
    n: int
    seed: int = 0
    families: tuple[str, ...] = NAMES
    lang: str = "mix"                 # en | zh | mix
    platform: str = "mix"             # web | mobile | desktop | mix
    shard_size: int = 1000
    image_format: str = "jpg"         # jpg | png
    infeasible: float = 0.1           # share of samples with no valid target, where a family supports it
    kind: str = "captcha"
    pages: str = ""                   # --pages: a folder of pages to use instead of the built-in screens
    page_list: tuple[tuple[str, str], ...] = ()   # its usable pages, (template, lang), set by synth.pagesdir.survey

    def key(self, index: int) -> str:
        return f"{self.kind}-d{self.difficulty}-s{self.seed}-{index:08d}"


@lru_cache(maxsize=8)
def page_pool(cfg: RunConfig, pool_id: int) -> list[tuple[str, str, int, str]]:
    """The (template, lang, variant, mode) of each page shared by samples in one pool span. Each slot draws
    its platform (web, phone, desktop in PLATFORM_SHARE) and its language on its own; the pages of a
    platform go through its templates in a shuffled order, so a pool repeats a template only after using
    them all."""
    rng = np.random.default_rng(page_seed(cfg.seed, pool_id, 0))
    platforms = sorted(PLATFORM_SHARE) if cfg.platform == "mix" else [cfg.platform]
    share = np.array([PLATFORM_SHARE[p] for p in platforms]) / sum(PLATFORM_SHARE[p] for p in platforms)
    by_platform = {p: [list_templates(p)[i] for i in rng.permutation(len(list_templates(p)))] for p in platforms}
    used: Counter = Counter()
    pool = []
    for slot in range(POOL_SIZE):
        plat = platforms[int(rng.choice(len(platforms), p=share))]
        names = by_platform[plat]
        if not names:
            raise ValueError(f"no templates for platform {plat!r} in templates/{plat}/")
        template = names[used[plat] % len(names)]
        used[plat] += 1
        lang = cfg.lang if cfg.lang != "mix" else ("en", "zh")[int(rng.integers(2))]
        mode = "modal" if rng.random() < 0.5 else "inline"
        pool.append((template, lang, page_seed(cfg.seed, pool_id, slot + 1), mode))
    return pool
