"""Instruction wording: plurals, articles and measure words, and every family's instructions free of them."""
import re

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import FAMILIES
from synth.families.kit import grammar
from synth.families.kit.kinds import emoji_kinds, kind_by_key, shape_kinds

NAIVE = re.compile(r"\b\w+(?:sss|xs|chs|shs|zs|eies|[^aeiou]ys|fes)\b|\bfishs\b|\bsheeps\b|\b1 seconds\b")


@pytest.mark.parametrize("noun, plural", [
    ("cat", "cats"), ("red cross", "red crosses"), ("box", "boxes"), ("bus", "buses"), ("peach", "peaches"),
    ("brush", "brushes"), ("cherry", "cherries"), ("butterfly", "butterflies"), ("key", "keys"), ("monkey", "monkeys"),
    ("knife", "knives"), ("leaf", "leaves"), ("sheep", "sheep"), ("fish", "fish"), ("mouse", "mice"),
    ("grapes", "bunches of grapes"), ("scissors", "pairs of scissors"), ("tomato", "tomatoes"), ("piano", "pianos"),
    ("blue star", "blue stars"),
])
def test_plural(noun, plural):
    assert grammar.plural(noun) == plural


def test_articles_and_counted_nouns():
    assert grammar.article("apple") == "an apple" and grammar.article("umbrella") == "an umbrella"
    assert grammar.article("unicorn") == "a unicorn" and grammar.article("hour") == "an hour"
    assert grammar.article("orange circle") == "an orange circle" and grammar.article("red cross") == "a red cross"
    assert grammar.article(grammar.singular("grapes")) == "a bunch of grapes"
    assert grammar.count(1, "second") == "1 second" and grammar.count(3, "second") == "3 seconds"


def test_every_kind_has_a_proper_plural_and_measure_word():
    for kind in emoji_kinds() + shape_kinds():
        assert not NAIVE.search(grammar.plural(kind.en)), kind.en
        assert kind.measure_word() in "个只辆条匹艘棵把支串座顶颗根"
    star = kind_by_key("emoji:star")
    assert star.measure_word() == "颗"


@pytest.mark.parametrize("name", ["counting", "occlusion", "pattern", "grid", "order", "hold", "holes", "odd", "path"])
def test_instructions_have_no_naive_plural(name):
    family = FAMILIES[name]
    for level in (1, 3, 5):
        for seed in range(12):
            try:
                params = family.sample_params(np.random.default_rng(seed), level, (320, 320))
            except Reject:
                continue
            en, zh = family.instruction(params, "en"), family.instruction(params, "zh")
            assert not NAIVE.search(en), en
            assert en[0].isupper() and en.rstrip()[-1] in ".?" or en.startswith("Click in"), en
            assert zh and not re.search(r"[A-Za-z]{3,}", zh), zh     # no English words left in Chinese


def test_counting_asks_for_crosses_by_name():
    from synth.families import counting, pattern
    for family, task in ((counting, {"task": "type"}), (pattern, {})):
        p = family.sample_params(np.random.default_rng(0), 1, (320, 320))
        p = type(p)(**{**p.__dict__, "target": "shape:red:cross", **task})
        assert "How many red crosses" in family.instruction(p, "en")
        assert "几个红色十字" in family.instruction(p, "zh")
