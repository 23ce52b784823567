"""Every registered family at every level, plus crafted instances that verification must reject."""
import json

import numpy as np
import pytest

from synth.core.errors import Reject
from synth.core.levels import LEVELS, LevelTable
from synth.families import FAMILIES, NAMES, counting, occlusion, rotation
from synth.families.kit import draw
from synth.families.kit.kinds import emoji_kinds, shape_kinds

SIZE = (320, 320)


def solved(family, level, seeds=range(12)):
    out = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        try:
            params = family.sample_params(rng, level, SIZE)
            puzzle = family.render(params)
            out.append((params, puzzle, family.solve(params, puzzle)))
        except Reject:
            pass
    return out


def test_registry_names_every_family_by_its_module():
    assert len(NAMES) >= 16 and tuple(FAMILIES) == NAMES
    for name, module in FAMILIES.items():
        assert module.NAME == name and callable(module.solve), name


def test_a_family_reads_its_own_names_first_then_the_defaults():
    typed, infeasible, warped = FAMILIES["text"], FAMILIES["grid"], FAMILIES["rotation"]
    params = counting.sample_params(np.random.default_rng(0), 3, SIZE)
    assert typed.controls(None) == "input" and infeasible.controls(None) == "skip"    # derived defaults
    assert FAMILIES["match"].controls(None) == "none" and not FAMILIES["match"].SUPPORTS_INFEASIBLE
    assert FAMILIES["counting"].controls(params) == counting.controls(params)         # its own
    assert warped.GEOMETRIC_AUGMENT is False and FAMILIES["match"].GEOMETRIC_AUGMENT is True
    assert FAMILIES["rotation3d"].BLUR_AUGMENT is False and FAMILIES["rotation3d"].NEEDS_BROWSER is True
    assert FAMILIES["counting"].BLUR_AUGMENT is True and FAMILIES["counting"].NEEDS_BROWSER is False
    assert FAMILIES["counting"].sample_params is counting.sample_params and FAMILIES["counting"].module is counting
    assert not hasattr(FAMILIES["counting"], "NO_SUCH_NAME")


@pytest.mark.parametrize("name", sorted(FAMILIES))
@pytest.mark.parametrize("level", LEVELS)
def test_family_level_invariants(name, level):
    family = FAMILIES[name]
    results = solved(family, level)
    assert len(results) >= 6, "most instances should pass verification"
    for params, puzzle, task in results:
        assert puzzle.rgb.shape == (SIZE[1], SIZE[0], 3) and puzzle.instances.shape == (SIZE[1], SIZE[0])
        for box, point, tid in zip(task.target_boxes, task.points, task.target_ids or [None] * len(task.points)):
            assert box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]
            if tid is not None:   # the reference click hits a pixel of that very target
                assert puzzle.instances[int(point[1]), int(point[0])] == tid
        assert family.instruction(params, "en") and family.instruction(params, "zh")
        again = family.render(params)
        assert np.array_equal(again.rgb, puzzle.rgb), "render must be deterministic"


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_same_seed_same_params_different_seed_different(name):
    family = FAMILIES[name]
    a = family.sample_params(np.random.default_rng(5), 3, SIZE)
    b = family.sample_params(np.random.default_rng(5), 3, SIZE)
    c = family.sample_params(np.random.default_rng(6), 3, SIZE)
    assert a == b and a != c


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_difficulty_statistic_moves_monotonically(name):
    family = FAMILIES[name]
    means = [family.STAT_DIRECTION * np.mean([family.stat(p) for p, _, _ in solved(family, level, range(16))])
             for level in LEVELS]
    assert all(a < b for a, b in zip(means, means[1:])), (family.STAT, means)


def test_rotation_rejects_a_symmetric_object():
    for kind in ("shape:red:circle", "shape:blue:square", "shape:green:cross"):
        params = rotation.sample_params(np.random.default_rng(0), 3, SIZE, kind=kind)
        with pytest.raises(Reject, match="symmetric_object"):
            rotation.solve(params, rotation.render(params))


def test_rotation_symmetry_table_is_up_to_date():
    table = json.loads(rotation.SYMMETRY_TABLE.read_text())
    measured = {k.key: rotation.measure_symmetry(k.key) for k in emoji_kinds()}
    assert table == pytest.approx(measured, abs=1e-4), "run assets/build_symmetry.py"


def test_rotation_answer_undoes_the_shown_angle():
    for params, _puzzle, task in solved(rotation, 4):
        assert (params.shown_angle + task.answer["angle"]) % 360 == 0
        start, end = task.points[0], task.end_points[0]
        x0, _, x1, _ = task.target_boxes[0]
        travel = (rotation.layout(SIZE)["track"][2] - rotation.layout(SIZE)["track"][0]) - (x1 - x0)
        assert end[0] - start[0] == pytest.approx(task.answer["angle"] / 360 * travel)


def test_counting_rejects_a_target_half_hidden():
    base = counting.sample_params(np.random.default_rng(1), 1, SIZE)
    target = "emoji:cat"
    objects = (("target", target, 40, 40, 80, 0.0), ("target", target, 200, 200, 80, 0.0),
               ("distractor", "shape:blue:square", 80, 40, 80, 0.0))   # covers half of the first cat
    crafted = counting.Params(SIZE, "type", target, objects, 0.0, 0, base.knobs)
    with pytest.raises(Reject, match="ambiguous_visibility"):
        counting.solve(crafted, counting.render(crafted))
    clear = counting.Params(SIZE, "type", target, objects[:2], 0.0, 0, base.knobs)
    assert counting.solve(clear, counting.render(clear)).answer == {"count": 2}


def test_occlusion_counts_from_the_instance_map():
    base = occlusion.sample_params(np.random.default_rng(1), 1, SIZE)
    objects = (("target", "emoji:dog", 30, 30, 80, ), ("target", "emoji:dog", 200, 30, 80),
               ("target", "emoji:dog", 120, 200, 80))
    objects = tuple(("target", "emoji:dog", *o[2:]) for o in objects)
    solid = (200, 200, 200)
    almost_all = ((190, 0, 320, 140, solid, 1.0),)         # hides the second dog completely
    p = occlusion.Params(SIZE, "count", "emoji:dog", objects, almost_all, 0.0, 0, base.knobs)
    assert occlusion.solve(p, occlusion.render(p)).answer == {"count": 2}
    half = ((30, 0, 72, 140, solid, 1.0),)                   # about half of the first dog
    p = occlusion.Params(SIZE, "click", "emoji:dog", objects, half, 0.0, 0, base.knobs)
    task = occlusion.solve(p, occlusion.render(p))
    assert task.target_ids == [1]


def test_level_tables_reject_unknown_and_bad_knobs():
    good = {"a_range": (1, 2)}
    with pytest.raises(ValueError, match="unknown knobs"):
        LevelTable("x", {"a_range": ""}, {lv: {**good, "b": 1} for lv in LEVELS})
    with pytest.raises(ValueError, match="lo <= hi"):
        LevelTable("x", {"a_range": ""}, {lv: {"a_range": (3, 1)} for lv in LEVELS})
    with pytest.raises(ValueError, match="difficulty must be in 1..5"):
        counting.TABLE.row(6)


def test_sprites_exist_for_every_kind():
    for kind in emoji_kinds() + shape_kinds():
        s = draw.sprite(kind.key, 40)
        assert s.shape == (40, 40, 4) and (s[..., 3] >= draw.ALPHA_ON).sum() > 200


def test_levels_doc_is_up_to_date():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "docs" / "make_levels.py"
    spec = importlib.util.spec_from_file_location("make_levels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.OUT.read_text() == module.render(), "run docs/make_levels.py"
