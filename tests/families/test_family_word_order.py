"""Word order: crafted instances that verification must reject, a hand-made answer, and the word lists."""
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import word_order
from synth.families.kit import words as _words
from synth.labels import reward

SIZE = (320, 320)
RED, WHITE, DARK = (230, 40, 40), (255, 255, 255), (28, 28, 28)
PHOTO = (0, 1.0, 0.5, 0.5, False)
DICT = Path("/usr/share/dict/american-english")


def params(mode, word, items, hint=True):
    return word_order.Params(SIZE, mode, word, hint, tuple(items), PHOTO, {})


def item(role, ch, x, y, rgb=RED, rim=WHITE, px=50, tilt=0.0):
    return (role, ch, x, y, px, tilt, 0, rgb, rim)


def reject_reason(p):
    with pytest.raises(Reject) as e:
        word_order.solve(p, word_order.render(p))
    return e.value.reason


def test_decoys_that_spell_another_listed_word_are_rejected():
    # 兔子 with the decoy 猴: 猴子 (monkey) can be clicked as well
    items = [item("target", "兔", 20, 20), item("target", "子", 200, 30), item("distractor", "猴", 110, 200)]
    assert reject_reason(params("hanzi", "兔子", items)) == "word_order.second_word"
    assert word_order.alternatives("hanzi", "兔子", ["兔", "子", "猴"]) == ["猴子"]


def test_latin_decoys_outside_the_words_pool_are_rejected():
    pool = word_order.en_entries()["TIGER"][1][0]
    outside = next(c for c in "ABCDFHKLMNPSUVW" if c not in pool)
    items = [item("target", c, 10 + 62 * i, 30) for i, c in enumerate("TIGER")]
    items.append(item("distractor", outside, 130, 200))
    assert reject_reason(params("latin", "TIGER", items)) == "word_order.ambiguous_decoys"


def test_overlapping_and_unreadable_glyphs_are_rejected():
    items = [item("target", "苹", 40, 40), item("target", "果", 70, 50), item("distractor", "山", 200, 200)]
    assert reject_reason(params("hanzi", "苹果", items)) in ("word_order.not_fully_visible", "word_order.overlap")
    # white strokes on a white rim: a white blob, nothing to read
    pale = [item("target", "苹", 20, 20, WHITE, WHITE), item("target", "果", 200, 30),
            item("distractor", "山", 110, 200)]
    assert reject_reason(params("hanzi", "苹果", pale)) == "word_order.low_contrast"


def test_answer_is_the_word_in_order_read_from_the_instance_map():
    items = [item("target", "熊", 200, 30, tilt=20.0), item("target", "猫", 30, 220, (250, 210, 20), DARK),
             item("distractor", "山", 30, 30), item("distractor", "月", 210, 210, tilt=-30.0)]
    p = params("hanzi", "熊猫", items)
    puzzle = word_order.render(p)
    task = word_order.solve(p, puzzle)
    assert task.rule == "click_order" and task.order_matters and task.answer == {"count": 2, "sequence": ["熊", "猫"]}
    for tid, (x, y) in zip(task.target_ids, task.points):
        assert puzzle.instances[int(y), int(x)] == tid
    label = {"accept": {"order_matters": True, "partial_credit": False, "neutral_regions": [],
                        "steps": [{"type": "click", "region": b} for b in task.target_boxes]}}
    clicks = [{"type": "click", "point": pt} for pt in task.points]
    assert reward.score(label, clicks) == 1.0 and reward.score(label, clicks[::-1]) == 0.0
    assert word_order.instruction(p, "zh") == "请按语序依次点击两个汉字，组成一个词语（提示：一种动物）"
    assert word_order.instruction(p, "en") == \
        "Click the two Chinese characters in the order that forms a word (hint: an animal)."
    idiom = params("hanzi", "画蛇添足", items, hint=False)
    assert word_order.instruction(idiom, "zh") == "请按语序依次点击文字，组成一个四字成语"


def test_word_lists_repeat_no_character():
    words = [w for ws in _words.ZH_WORDS.values() for w in ws.split()] + [w for w, _, _ in _words.ZH_IDIOMS]
    assert all(len(set(w)) == len(w) for w in words) and len(set(words)) == len(words)
    assert all(len(w) == 4 for w, _, _ in _words.ZH_IDIOMS)
    for w, cat, pools in _words.EN_WORDS:
        assert len(set(w)) == len(w) and 4 <= len(w) <= 6 and cat in _words.CATEGORIES and len(pools) == 5
        assert all(not set(p) & set(w) for p in pools)


@pytest.mark.skipif(not DICT.is_file(), reason="needs the SCOWL list (Debian wamerican) to re-derive the pools")
def test_english_pools_spell_no_other_dictionary_word():
    by_length: dict[int, list[str]] = {}
    for w in DICT.read_text().split():
        if re.fullmatch("[a-z]+", w):
            by_length.setdefault(len(w), []).append(w.upper())
    for w, _, pools in _words.EN_WORDS:
        have = Counter(w)
        for other in by_length[len(w)]:
            if other == w:
                continue
            extra = Counter(other) - have
            assert extra, f"{w} has the anagram {other}"
            if any(v > 1 for v in extra.values()):
                continue
            for d, pool in enumerate(pools, start=1):
                assert not (len(extra) <= d and set(extra) <= set(pool)), f"{w} + {d} decoys from {pool}: {other}"


def test_sampled_instances_pass_and_keep_their_promises():
    passed = 0
    for seed in range(12):
        for level in (1, 5):
            try:
                p = word_order.sample_params(np.random.default_rng(seed), level, SIZE)
                task = word_order.solve(p, word_order.render(p))
            except Reject:
                continue
            passed += 1
            assert "".join(task.answer["sequence"]) == p.target
            assert word_order.alternatives(p.mode, p.target, [it[1] for it in p.items]) == []
    assert passed >= 20
