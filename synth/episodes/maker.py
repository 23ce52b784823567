"""An episode of a `synth episodes` run, as the run's generator asks for it (synth.engine.generator.MAKERS):
the expert's trajectory through the index's task on a page of the run's page pool (with a mistake in a
share of episodes), one sample per step (episodes.rollout)."""
import numpy as np

from synth import episodes
from synth.core.focus import family_and_level
from synth.core.jpeg import encode_image
from synth.episodes import rollout
from synth.episodes.episode import start
from synth.labels import spec
from synth.labels.checks import check_contract, check_reference
from synth.screens import PLATFORMS
from synth.screens.browser import RenderedPage
from synth.screens.pages import PageSpec

UNIT = "episode"


def make(ctx, index: int, seed: int, why) -> list[tuple[str, dict[str, bytes]]]:
    """Episode `index` drawn from `seed`: (key, members) of each of its steps; Reject if it does not pass."""
    cfg = ctx.cfg
    rng = np.random.default_rng(seed)
    name, level = family_and_level(cfg, index)
    task = episodes.task(name)
    pool = ctx.pool_pages(index)
    template, lang, variant, mode = pool[int(rng.integers(len(pool)))]
    platform = PageSpec(template, lang, variant, mode, "none").platform

    def page_for(controls: str) -> RenderedPage:
        return ctx.pool_page(PageSpec(template, lang, variant, mode, controls), index)
    episode = start(task, rng, level, lang, PLATFORMS[platform]["puzzle"], page_for, why=why)
    frames = any(episodes.task(f).ANIMATED for f in cfg.families)   # then every sample has its frames
    steps = rollout.play(episode, rng, bool(rng.random() < cfg.mistakes), frames)
    out = []
    for i, step in enumerate(steps):
        key = f"{cfg.key(index)}-{i:03d}"
        label = rollout.step_label(key, cfg.key(index), name, level, seed, episode, steps, i, cfg.image_format)
        check_contract(label)
        check_reference(label)
        members = {cfg.image_format: encode_image(step["image"], cfg.image_format), "json": spec.encode(label)}
        members.update({f["member"]: encode_image(img, cfg.image_format)
                        for f, (_, img) in zip(label["frames"], step["frames"])})
        out.append((key, members))
    return out
