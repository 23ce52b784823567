"""Shadow direction: shadow directions are measured on the rendered masks; a second wrong shadow, touching
shadows and a sun that disagrees are rejected."""
import pytest

from synth.core.errors import Reject
from synth.families import shadow
from synth.families.shadow import Block

SIZE = (320, 320)
RED, BLUE, GREEN = (220, 50, 47), (38, 110, 220), (40, 160, 70)
SPOTS = [(70, 80), (160, 80), (250, 80), (70, 200), (160, 200), (250, 200)]


def params(target, light, ways, kinds=None, sun=True, length=28.0, spots=SPOTS):
    """Blocks at SPOTS whose shadows point `ways` (image degrees); the first is the wrong one."""
    kinds = kinds or ["square", "circle", "hexagon", "star", "triangle", "cross"]
    blocks = tuple(Block(kind, (RED, BLUE, GREEN)[i % 3], x, y, 30.0, 10.0 * i, way, length, i == 0)
                   for i, ((x, y), way, kind) in enumerate(zip(spots, ways, kinds)))
    r = 0.055 * 320
    sx, sy = shadow.sun_spot(*SIZE, light, r)
    return shadow.Params(SIZE, target, light, (sx, sy, r if sun else 0.0), blocks, 0.0, 2, {"offset": 90.0})


def reason(p):
    with pytest.raises(Reject) as e:
        shadow.solve(p, shadow.render(p))
    return e.value.reason


def test_the_wrong_block_and_the_wrong_shadow():
    # light from the top left (225 degrees): shadows fall towards the bottom right (45)
    ways = [135.0] + [45.0] * 4
    p = params("object", 225.0, ways)
    puzzle = shadow.render(p)
    task = shadow.solve(p, puzzle)
    assert task.target_ids == [1] and task.answer == {"count": 1} and not task.partial_credit
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 1
    assert task.checks["wrong_offset"] > 70 and task.checks["spread"] < 8 and task.checks["sun_error"] < 15
    p = params("shadow", 225.0, ways)
    puzzle = shadow.render(p)
    task = shadow.solve(p, puzzle)
    n = len(p.blocks)
    assert task.target_ids == [1 + n]
    x0, y0, x1, y1 = task.target_boxes[0]
    b = p.blocks[0]
    assert not (x0 <= b.cx <= x1 and y0 <= b.cy <= y1), "a click on the block must not count as the shadow"
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 1 + n
    assert shadow.instruction(p, "en") == \
        "The sunlight comes from where the sun is. Click the shadow that points the wrong way."
    assert shadow.instruction(params("object", 225.0, ways, sun=False), "zh") == \
        "所有影子都由同一光源投下。请点击影子方向错误的那个物体"


@pytest.mark.parametrize("kind", shadow.KINDS)
def test_directions_are_measured_from_the_masks(kind):
    for way in (0.0, 37.0, 90.0, 200.0, 300.0):
        p = params("object", (way + 180) % 360, [(way + 120) % 360] + [way] * 4, kinds=[kind] * 5, sun=False)
        task = shadow.solve(p, shadow.render(p))
        assert task.checks["spread"] < 10 and task.target_ids == [1]


def test_two_wrong_shadows_are_rejected():
    p = params("object", 225.0, [135.0, 315.0, 45.0, 45.0, 45.0])
    assert reason(p) in ("shadow.no_single_wrong_shadow", "shadow.ambiguous")


def test_a_wrong_shadow_too_close_to_right_is_rejected():
    p = params("object", 225.0, [70.0, 45.0, 45.0, 45.0, 45.0])
    assert reason(p) == "shadow.no_single_wrong_shadow"


def test_a_shadow_falling_on_another_block_is_rejected():
    spots = [(70, 80), (108, 118), (250, 80), (70, 200), (160, 200)]      # the first one's shadow hits the second
    p = params("object", 225.0, [45.0, 135.0, 45.0, 45.0, 45.0], spots=spots)
    assert reason(p) == "shadow.overlap"


def test_a_sun_on_the_wrong_side_is_rejected():
    p = params("object", 225.0, [135.0] + [45.0] * 4)
    r = p.sun[2]
    sx, sy = shadow.sun_spot(*SIZE, 315.0, r)
    p = shadow.Params(SIZE, "object", 315.0, (sx, sy, r), p.blocks, 0.0, 2, p.knobs)
    assert reason(p) == "shadow.sun_disagrees"


def test_shadows_that_do_not_show_are_rejected(monkeypatch):
    monkeypatch.setattr(shadow, "SHADOW_ALPHA", 0.08)
    p = params("object", 225.0, [135.0] + [45.0] * 4)
    assert reason(p) == "shadow.low_contrast"
