"""The layouts the page-fact tests (test_states_*.py) check: an archetype's `layout(rng, lang)` over many seeds."""
import numpy as np

from synth import screens

SEEDS = range(40)
LANGS = ("en", "zh")


def layouts(name: str):
    """(lang, seed, layout) of an archetype over SEEDS in both languages."""
    module = screens.archetype(name)
    for lang in LANGS:
        for seed in SEEDS:
            yield lang, seed, module.layout(np.random.default_rng(seed), lang)
