"""spatial3d: hand-made scenes whose answer is known, and scenes that verification must reject."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import spatial3d
from synth.families.kit import render3d as r3

SIZE = (320, 320)
LOOK = ((205, 205, 200), (222, 228, 238), (0.4, 0.8, 0.45), 2.4)


def params(objects, target=0, named=("colour",), relation="", referent=-1, elevation=45.0, azimuth=0.0):
    """objects: (shape, colour, size, x, z); the camera at `azimuth` 0 looks along -z: +x is right, +z near."""
    objs = tuple((*o, 0.0) for o in objects)
    dist = spatial3d.fit_distance(objs, elevation, azimuth, SIZE, 10.5)
    return spatial3d.Params(SIZE, objs, target, tuple(sorted(named)), relation, referent, (dist, elevation, azimuth),
                            LOOK, "contact", "", {})


def solve(p):
    return spatial3d.solve(p, spatial3d.render(p))


def reason(p):
    with pytest.raises(Reject) as e:
        solve(p)
    return e.value.reason


def test_the_relation_picks_one_of_two_twins():
    objects = [("cylinder", "green", "large", -2.2, 0.0), ("cube", "red", "large", 0.0, 0.0),
               ("cylinder", "green", "large", 2.2, 0.0), ("sphere", "blue", "small", 0.0, 2.0)]
    left = params(objects, 0, relation="left", referent=1)
    task = solve(left)
    assert task.target_ids == [1] and task.rule == "click_set" and task.answer == {"count": 1}
    assert task.checks["relation_margin"] >= 1 and task.checks["twin_margin"] >= 1
    puzzle = spatial3d.render(left)
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 1
    assert spatial3d.instruction(left, "en") == "Click the green cylinder to the left of the red cube."
    assert spatial3d.instruction(left, "zh") == "请点击红色立方体左边的绿色圆柱体"
    right = params(objects, 2, relation="right", referent=1)
    assert solve(right).target_ids == [3]


def test_front_and_behind_are_nearer_and_farther_from_the_camera():
    objects = [("sphere", "yellow", "large", 0.3, 2.0), ("cone", "purple", "large", 0.0, 0.0),
               ("sphere", "yellow", "large", -0.3, -2.2)]
    assert solve(params(objects, 0, relation="front", referent=1)).target_ids == [1]
    behind = params(objects, 2, relation="behind", referent=1, named=("colour", "size"))
    assert solve(behind).target_ids == [3]
    assert spatial3d.instruction(behind, "en") == "Click the large yellow sphere behind the purple cone."
    assert spatial3d.instruction(behind, "zh") == "请点击紫色圆锥体后面的大号黄色球体"
    # seen from the other side, the same scene's front is behind
    assert reason(params(objects, 0, relation="front", referent=1, azimuth=180.0)) == "spatial3d.not_unique"


def test_a_description_two_objects_fit_is_rejected():
    objects = [("ring", "cyan", "large", -1.8, 0.0), ("ring", "cyan", "large", 1.8, 0.0),
               ("cube", "grey", "small", 0.0, 1.5)]
    assert reason(params(objects, 0)) == "spatial3d.not_unique"
    # named by size, the small one is unique
    small = [objects[0], ("ring", "cyan", "small", 1.8, 0.0), objects[2]]
    p = params(small, 1, named=("colour", "size"))
    assert solve(p).target_ids == [2] and spatial3d.instruction(p, "en") == "Click the small cyan ring."


def test_a_borderline_relation_is_rejected():
    # the twin stands almost straight in front of the cube: neither clearly left nor right of it
    objects = [("cylinder", "green", "large", -2.2, 0.0), ("cube", "red", "large", 0.0, -0.6),
               ("cylinder", "green", "large", 0.15, 1.4)]
    assert reason(params(objects, 0, relation="left", referent=1)) == "spatial3d.borderline_relation"


def test_a_hidden_target_is_rejected():
    # a small sphere right behind a large cube, seen from low down
    objects = [("sphere", "blue", "small", 0.0, -1.0), ("cube", "yellow", "large", 0.0, 0.0),
               ("cone", "red", "large", 2.0, 0.5)]
    assert reason(params(objects, 0, elevation=20.0)) == "spatial3d.target_hidden"


def test_relation_value_reads_the_silhouettes():
    def sil(cx, bottom, depth):
        return r3.Silhouette(400, (cx - 10, bottom - 20, cx + 10, bottom), (cx, bottom - 10), depth - 0.2, depth)
    ref = sil(160, 160, 10.0)
    assert spatial3d.relation_value("left", sil(100, 160, 10.0), ref, 320, 320) == pytest.approx(60 / 16)
    assert spatial3d.relation_value("right", sil(100, 160, 10.0), ref, 320, 320) < -1
    assert spatial3d.relation_value("front", sil(160, 200, 8.0), ref, 320, 320) >= 1
    # lower on screen but farther: the cues disagree, so no answer
    assert spatial3d.relation_value("front", sil(160, 200, 11.0), ref, 320, 320) == 0.0


def test_sampled_scenes_are_verified_and_mostly_pass():
    passed = 0
    for seed in range(8):
        try:
            p = spatial3d.sample_params(np.random.default_rng(seed), 4, SIZE)
            task = solve(p)
        except Reject:
            continue
        passed += 1
        assert task.target_ids == [p.target_index + 1] and p.relation
    assert passed >= 6
