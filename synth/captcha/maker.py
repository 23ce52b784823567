"""A CAPTCHA sample, as the run's generator asks for it (synth.engine.generator.MAKERS): a verified puzzle of
the index's family (captcha.recipe) shown in the widget of a page from the run's page pool, with its
instruction, labelled and checked (captcha.label), as image and label bytes."""
import numpy as np

from synth.captcha.compose import at_device_scale, compose, puzzle_size
from synth.captcha.label import check_label, make_label, scale_task
from synth.captcha.recipe import finish, sample_params
from synth.core.errors import Reject
from synth.core.focus import family_and_level
from synth.core.jpeg import encode_image
from synth.families import FAMILIES
from synth.labels import spec
from synth.screens import PLATFORMS
from synth.screens.browser import RenderedPage
from synth.screens.pages import PageSpec
from synth.screens.views import pool_spec

UNIT = "sample"     # what one index of a run makes


def make(ctx, index: int, seed: int, why) -> list[tuple[str, dict[str, bytes]]]:
    """Sample `index` drawn from `seed`: [(key, members)]; Reject if a check fails. `ctx` is the run's
    generator: its config, page pools, pages and JPEG encoders."""
    cfg = ctx.cfg
    rng = np.random.default_rng(seed)
    name, level = family_and_level(cfg, index)
    family = FAMILIES[name]
    pool_page = ctx.pick_pool_page(index, rng)
    template, lang = pool_page[:2]
    host = pool_spec(pool_page, "none", cfg.pages)
    platform, dpr = host.platform, int(host.screen[1])    # a folder page's tablet view: a web page at 2x
    css_w, css_h = PLATFORMS[platform]["puzzle"]
    infeasible = bool(family.SUPPORTS_INFEASIBLE and rng.random() < cfg.infeasible)
    # puzzles are drawn at CSS size and scaled up on high-density screens, as a CAPTCHA image is
    params = sample_params(family, rng, level, (css_w, css_h), lang, infeasible)
    page_spec = pool_spec(pool_page, family.controls(params), cfg.pages)
    page = ctx.pool_page(page_spec, index)
    if page.covered:    # page content over the puzzle or a control: a click would not reach the widget
        raise Reject("page.covers_widget")
    if puzzle_size(page) != (css_w * dpr, css_h * dpr):
        raise RuntimeError(f"{template}: puzzle area is {puzzle_size(page)}, expected {(css_w * dpr, css_h * dpr)}")
    instance = finish(family, params, level, rng)
    rgb, task = instance.rgb, instance.task
    if dpr != 1:
        rgb = at_device_scale(rgb, dpr)
        scale_task(task, dpr)
    instruction = family.instruction(params, lang)
    image = _image(ctx, page_spec, page, rgb, instruction)
    label = make_label(cfg.key(index), level, seed, family, params, task, page, instruction,
                       instance.augment)
    check_label(label)
    return [(cfg.key(index), {cfg.image_format: image, "json": spec.encode(label)})]


def _image(ctx, page_spec: PageSpec, page: RenderedPage, puzzle_rgb: np.ndarray, instruction: str) -> bytes:
    """The screenshot bytes: the page with the puzzle and instruction composed into its widget. JPEGs
    re-encode only the blocks the puzzle and instruction cover (synth.core.jpeg)."""
    fmt = ctx.cfg.image_format
    if fmt != "jpg":
        return encode_image(compose(page, puzzle_rgb, instruction), fmt)
    encoder = ctx.encoder(page_spec, page)
    return encoder.encode(compose(page, puzzle_rgb, instruction, encoder.box))
