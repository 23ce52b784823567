"""Icon click: look-alike or hidden silhouettes are rejected; the prompt strip's order is the answer."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import icon_click
from synth.families.kit.kinds import kind_by_key
from synth.labels import reward

SIZE = (320, 320)
WHITE = (255, 255, 255)
PHOTO = (0, 1.0, 0.5, 0.5, False)


def params(icons, dim=0.3, strip="bottom"):
    targets = [kind_by_key(i[1]).en for i in icons if i[0] == "target"]
    return icon_click.Params(SIZE, ",".join(targets), strip, tuple(icons), PHOTO, dim, {})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        icon_click.solve(p, icon_click.render(p))
    return e.value.reason


def test_two_icons_of_one_shape_are_rejected():
    icons = [("target", "emoji:cat", 20, 20, 60, 0.0, WHITE), ("target", "emoji:key", 200, 20, 60, 0.0, WHITE),
             ("distractor", "emoji:cat", 110, 150, 60, 30.0, WHITE)]
    assert reject_reason(params(icons)) == "icon_click.look_alike_icons"


def test_covered_and_invisible_icons_are_rejected():
    icons = [("target", "emoji:cat", 20, 20, 60, 0.0, WHITE), ("target", "emoji:key", 40, 30, 60, 0.0, WHITE),
             ("distractor", "emoji:house", 200, 150, 60, 0.0, WHITE)]
    assert reject_reason(params(icons)) == "icon_click.not_fully_visible"
    black = [("target", "emoji:cat", 20, 20, 60, 0.0, (0, 0, 0)), ("target", "emoji:key", 200, 20, 60, 0.0, (0, 0, 0)),
             ("distractor", "emoji:house", 110, 150, 60, 0.0, (0, 0, 0))]
    assert reject_reason(params(black, dim=1.0)) == "icon_click.low_contrast"     # black on a blacked-out photo


def test_answer_follows_the_prompt_strip():
    icons = [("target", "emoji:scissors", 200, 40, 64, 25.0, WHITE),
             ("target", "emoji:horse", 30, 150, 64, -40.0, WHITE),
             ("target", "emoji:umbrella", 120, 40, 64, 0.0, WHITE),
             ("distractor", "emoji:car", 210, 150, 64, 10.0, WHITE)]
    for i, icon in enumerate(icons):            # icons below the strip
        icons[i] = (*icon[:3], icon[3] + 50, *icon[4:])
    p = params(icons, strip="top")
    puzzle = icon_click.render(p)
    task = icon_click.solve(p, puzzle)
    assert task.rule == "click_order" and task.answer == {"count": 3, "sequence": ["scissors", "horse", "umbrella"]}
    assert task.target_ids == [1, 2, 3]
    for tid, (x, y) in zip(task.target_ids, task.points):
        assert puzzle.instances[int(y), int(x)] == tid
    prompts = sorted(i for i in puzzle.meta if i >= icon_click.PROMPT)
    assert len(prompts) == 3 and all(puzzle.meta[i]["role"] == "prompt" for i in prompts)
    assert all("_mask" in o for o in task.objects)      # the pipeline re-measures every object after a warp
    label = {"accept": {"order_matters": True, "partial_credit": False, "neutral_regions": [],
                        "steps": [{"type": "click", "region": b} for b in task.target_boxes]}}
    clicks = [{"type": "click", "point": pt} for pt in task.points]
    assert reward.score(label, clicks) == 1.0 and reward.score(label, clicks[1:] + clicks[:1]) == 0.0
    assert icon_click.instruction(p, "en") == "Click the icons in the order shown in the strip at the top."


def test_similarity_table_keeps_distinct_shapes_apart():
    keys, sim = icon_click.similarity()
    assert "emoji:ball" not in keys and np.allclose(sim, sim.T) and np.allclose(np.diag(sim), 1.0)
    i, j = keys.index("emoji:scissors"), keys.index("emoji:house")
    assert sim[i, j] < icon_click.PICK_MAX
