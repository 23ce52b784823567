"""Click in order: crafted instances that verification must reject, and a hand-made answer."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import order
from synth.families.kit.glyphs import confusable
from synth.labels import reward

SIZE = (320, 320)
BLACK = (0, 0, 0)


def params(mode, items, target=None):
    n = sum(1 for it in items if it[0] == "target")
    names = [order.label(mode, it[1]) for it in items[:n]]
    return order.Params(SIZE, mode, target or ",".join(names), tuple(items), (), (), 0.0, 0, {"size_mean": 0.2})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        order.solve(p, order.render(p))
    return e.value.reason


def test_overlapping_or_touching_icons_are_rejected():
    # one icon covering another
    items = [("target", "emoji:cat", 40, 40, 60, 0.0, 0, BLACK), ("target", "emoji:car", 70, 50, 60, 0.0, 0, BLACK),
             ("target", "emoji:tree", 200, 200, 60, 0.0, 0, BLACK)]
    assert reject_reason(params("icon", items)) == "order.not_fully_visible"
    # two round icons whose pixels do not touch but whose boxes intersect (diagonal neighbours)
    items = [("target", "emoji:ball", 40, 40, 60, 0.0, 0, BLACK), ("target", "emoji:apple", 92, 92, 60, 0.0, 0, BLACK),
             ("target", "emoji:tree", 220, 20, 60, 0.0, 0, BLACK)]
    assert reject_reason(params("icon", items)) == "order.overlap"
    # boxes apart by less than the gap
    items = [("target", "emoji:ball", 40, 40, 60, 0.0, 0, BLACK), ("target", "emoji:apple", 100, 40, 60, 0.0, 0, BLACK),
             ("target", "emoji:tree", 220, 200, 60, 0.0, 0, BLACK)]
    assert reject_reason(params("icon", items)) == "order.too_close"


def test_clipped_duplicate_and_confusable_items_are_rejected():
    clipped = [("target", "emoji:cat", -20, 40, 60, 0.0, 0, BLACK), ("target", "emoji:car", 150, 50, 60, 0.0, 0, BLACK),
               ("target", "emoji:tree", 200, 200, 60, 0.0, 0, BLACK)]
    assert reject_reason(params("icon", clipped)) == "order.not_fully_visible"
    dup = [("target", "emoji:cat", 20, 40, 60, 0.0, 0, BLACK), ("target", "emoji:car", 150, 50, 60, 0.0, 0, BLACK),
           ("target", "emoji:tree", 200, 200, 60, 0.0, 0, BLACK),
           ("distractor", "emoji:cat", 40, 200, 60, 0.0, 0, BLACK)]
    assert reject_reason(params("icon", dup)) == "order.duplicate_kind"
    red = (200, 30, 30)
    glyphs = [("target", "E", 20, 40, 50, 0.0, 0, red), ("target", "K", 150, 50, 50, 0.0, 0, red),
              ("target", "7", 200, 200, 50, 0.0, 0, red), ("distractor", "F", 40, 200, 50, 0.0, 0, red)]
    assert reject_reason(params("latin", glyphs)) == "order.confusable_glyphs"


def test_pale_characters_on_a_pale_ground_are_rejected():
    pale = (235, 235, 235)
    glyphs = [("target", "K", 20, 40, 50, 0.0, 0, pale), ("target", "7", 150, 50, 50, 0.0, 0, pale),
              ("target", "R", 200, 200, 50, 0.0, 0, pale)]
    assert reject_reason(params("latin", glyphs)) == "order.low_contrast"


def test_answer_is_the_listed_order_read_from_the_instance_map():
    items = [("target", "emoji:cat", 200, 30, 60, 0.0, 0, BLACK), ("target", "emoji:car", 30, 220, 60, 10.0, 0, BLACK),
             ("target", "emoji:tree", 130, 130, 60, 0.0, 0, BLACK),
             ("distractor", "emoji:dog", 30, 30, 60, 0.0, 0, BLACK)]
    p = params("icon", items)
    puzzle = order.render(p)
    task = order.solve(p, puzzle)
    assert task.rule == "click_order" and task.order_matters and not task.partial_credit
    assert task.answer == {"count": 3, "sequence": ["cat", "car", "tree"]}
    assert task.target_ids == [1, 2, 3]
    for tid, (x, y), box in zip(task.target_ids, task.points, task.target_boxes):
        assert puzzle.instances[int(y), int(x)] == tid and box[0] <= x <= box[2] and box[1] <= y <= box[3]
    assert order.instruction(p, "en") == "Click in this order: cat, car, tree"
    assert order.instruction(p, "zh") == "请依次点击：猫、汽车、树"
    # the listed order is what the reward accepts; the same clicks in another order score nothing
    label = {"accept": {"order_matters": True, "partial_credit": False, "neutral_regions": [],
                        "steps": [{"type": "click", "region": b} for b in task.target_boxes]}}
    clicks = [{"type": "click", "point": pt} for pt in task.points]
    assert reward.score(label, clicks) == 1.0
    assert reward.score(label, clicks[::-1]) == 0.0


def test_characters_are_listed_as_text():
    blue = (30, 60, 200)
    glyphs = [("target", "木", 20, 40, 50, 0.0, 0, blue), ("target", "火", 150, 50, 50, 0.0, 1, blue),
              ("target", "水", 200, 200, 50, 0.0, 0, blue), ("distractor", "山", 40, 200, 50, 0.0, 0, blue)]
    p = params("hanzi", glyphs)
    task = order.solve(p, order.render(p))
    assert task.answer["sequence"] == ["木", "火", "水"]
    assert order.instruction(p, "en") == "Click in order: 木 火 水"
    p = params("latin", [("target", c, x, y, 50, 0.0, 0, blue)
                         for c, x, y in (("K", 20, 40), ("7", 150, 50), ("R", 200, 200))])
    assert order.instruction(p, "en") == "Click in order: K, 7, R"
    assert order.solve(p, order.render(p)).answer["sequence"] == ["K", "7", "R"]


def test_sampled_characters_never_include_a_confusable_pair():
    for seed in range(40):
        p = order.sample_params(np.random.default_rng(seed), 5, SIZE, mode="latin")
        chars = [it[1] for it in p.items]
        assert not any(confusable(a, b) for i, a in enumerate(chars) for b in chars[i + 1:])
        assert not set(chars) & set("0O1IlL5S2Z8B")
