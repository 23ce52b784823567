"""A grounding sample, as the run's generator asks for it (synth.engine.generator.MAKERS): a freshly rendered
screen (a built-in archetype at the level's resolution, or a page of the --pages folder) with the run's
verified queries on it (grounding.sample), made smaller and compressed in a `degrade` share of samples
(grounding.degrade)."""
import numpy as np

from synth.core.focus import family_and_level, kind_weights
from synth.core.jpeg import encode_image
from synth.grounding import degrade, sample
from synth.grounding.levels import screen
from synth.labels import spec
from synth.screens import PLATFORMS
from synth.screens.pages import PageSpec, list_templates
from synth.screens.views import schedule, view_spec

UNIT = "sample"


def renders_screens(cfg) -> bool:
    """Whether the samples render their own built-in screens (in render blocks: synth.engine.pools), rather
    than show folder pages."""
    return not cfg.pages


def folder_spec(cfg, name: str, lang: str, view: str = "desktop", level: int | None = None) -> PageSpec:
    """How a grounding sample shows a folder page in `view` (synth.screens.views), no widget: its desktop and
    phone are the web and mobile screens of `level` (default: the run's)."""
    level = level or cfg.difficulty
    return view_spec(name, lang, view, cfg.pages, screen("web", level), screen("mobile", level))


def make(ctx, index: int, seed: int, why) -> list[tuple[str, dict[str, bytes]]]:
    """Sample `index` drawn from `seed`: [(key, members)], on its own render of its screen (no two samples
    share an image); Reject if no query passes. `why` counts the candidate queries rejected."""
    cfg = ctx.cfg
    rng = np.random.default_rng(seed)
    _, level = family_and_level(cfg, index)
    if cfg.pages:      # the run's screens in order: no page twice before every page once, no two alike
        page = ctx.site_page(folder_spec(cfg, *schedule(cfg.seed, cfg.page_list, cfg.page_views)[index], level))
    else:
        platforms = tuple(PLATFORMS) if cfg.platform == "mix" else (cfg.platform,)
        platform = platforms[index % len(platforms)]
        templates = list_templates(platform)
        template = templates[int(rng.integers(len(templates)))]
        lang = cfg.lang if cfg.lang != "mix" else ("en", "zh")[(index // len(platforms)) % 2]
        viewport, dpr = screen(platform, level, index // len(platforms))
        page = ctx.render(PageSpec(template, lang, int(rng.integers(2**31)), "none", "none", viewport, dpr))
    refusals = sample.refusal_count(index, cfg.queries, cfg.refusal)
    queries, knobs = sample.choose(rng, page, level, cfg.queries, refusals, why,
                                   kind_weights(cfg))
    label = sample.make_label(cfg.key(index), cfg.kind, level, seed, page, queries, knobs)
    rgb = page.rgb
    if cfg.degrade and rng.random() < cfg.degrade:
        aug_seed = int(rng.integers(2**31))
        rgb = degrade.degrade(np.random.default_rng(aug_seed), rgb, label)
        label["params"]["augment"]["seed"] = aug_seed
    sample.check(label)
    return [(cfg.key(index), {cfg.image_format: encode_image(rgb, cfg.image_format), "json": spec.encode(label)})]
