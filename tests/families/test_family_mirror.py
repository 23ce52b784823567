"""Mirror: the reflection in the shown axis is told from turns of the reference by measuring silhouettes;
symmetric references and look-alike tiles are rejected."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import match, mirror

SIZE = (320, 320)
TILE = (245, 245, 245)


def params(ref, tiles, axis="vertical"):
    """tiles: (role, what, kind, angle)."""
    placed = tuple((role, what, kind, float(angle), 1.0, TILE) for role, what, kind, angle in tiles)
    n = len(placed)
    return mirror.Params(SIZE, ref, axis, (30, 40, 140), placed, n if n <= 3 else -(-n // 2), 0.0, 0,
                         {"alike_share": 1.0})


def solve(p):
    return mirror.solve(p, mirror.render(p))


def reject_reason(p):
    with pytest.raises(Reject) as e:
        solve(p)
    return e.value.reason


def test_the_reflection_is_found_among_turns_and_other_drawings():
    tiles = [("distractor", "P", "turned", 180), ("target", "P", "mirror", 0), ("distractor", "P", "same", 0),
             ("distractor", "K", "other", 0)]
    p = params("P", tiles)
    puzzle = mirror.render(p)
    task = mirror.solve(p, puzzle)
    assert task.target_ids == [2] and task.answer == {"count": 1} and task.rule == "click_set"
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 2
    assert mirror.instruction(p, "en") == "Click the mirror image of the top drawing, reflected in the dashed line."
    assert mirror.instruction(p, "zh") == "请点击上方图形沿虚线翻转后的镜像"


def test_the_axis_decides_which_reflection_is_the_answer():
    tiles = [("target", "F", "mirror", 0), ("distractor", "F", "flip", 0), ("distractor", "F", "turned", 90),
             ("distractor", "F", "turned", 180)]
    for axis in ("vertical", "horizontal"):
        assert solve(params("F", tiles, axis)).target_ids == [1]
    # a tile reflected in the other axis is the answer's half turn: told apart, never taken for it
    sprite_v = mirror.shown("F", 40, (0, 0, 0), "mirror", "vertical", 0)
    sprite_h = mirror.shown("F", 40, (0, 0, 0), "flip", "vertical", 0)
    assert np.array_equal(sprite_v[::-1, ::-1], sprite_h)


def test_a_symmetric_reference_is_rejected():
    for ref in ("A", "H", "T", "emoji:cat"):
        tiles = [("target", ref, "mirror", 0), ("distractor", ref, "turned", 90), ("distractor", "K", "other", 0),
                 ("distractor", "R", "other", 0)]
        assert reject_reason(params(ref, tiles)) == "mirror.symmetric_reference", ref


def test_a_wrong_tile_that_looks_like_the_reflection_is_rejected():
    # a second reflection, barely turned, among the wrong tiles
    tiles = [("target", "F", "mirror", 0), ("distractor", "F", "turned", 90), ("distractor", "F", "mirror", 4)]
    p = params("F", tiles)
    assert reject_reason(p) in ("mirror.ambiguous_tile", "mirror.role_mismatch")


def test_chirality_is_measured_on_silhouettes():
    assert mirror.chirality("F") < mirror.CHIRAL < mirror.chirality("A")
    assert mirror.half_turn("S") > mirror.HALF_TURN > mirror.half_turn("F")
    a = mirror.soft(np.pad(np.ones((20, 8), bool), 10))
    assert mirror.similarity(a, a) == pytest.approx(1.0)
    assert mirror.similarity(a, mirror.turned(a, 90)) < 0.5
    assert match.NORM == a.shape[0]


def test_sampled_references_are_chiral():
    for seed in range(12):
        p = mirror.sample_params(np.random.default_rng(seed), 4, SIZE)
        assert mirror.chirality(p.target) <= mirror.CHIRAL


def test_listed_drawings_are_chiral_and_polyominoes_draw():
    for what in list(mirror.LATIN) + list(mirror.HANZI) + [f"emoji:{e}" for e in mirror.EMOJI]:
        assert mirror.chirality(what) <= mirror.CHIRAL - 0.02, what
    key = mirror.poly_key(((0, 0), (1, 0), (2, 0), (2, 1), (3, 1), (1, 2)))
    spr = mirror.glyph(key, 40, (10, 10, 10))
    assert spr.shape[0] == spr.shape[1] and (spr[..., 3] == 255).sum() == 6 * 10 * 10
