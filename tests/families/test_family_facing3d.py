"""facing3d: directions as the camera sees them, headings measured from the render, hand-made scenes whose
answer is known, and scenes that verification must reject."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import facing3d

SIZE = (320, 320)
LOOK = ((205, 205, 200), (222, 228, 238), (0.4, 0.8, 0.45), 2.4)


def params(kind, direction, objects, target=0, elevation=40.0, azimuth=0.0):
    """objects: (kind, colour, x, z, heading); with `azimuth` 0 the camera looks along -z."""
    objs = tuple(objects)
    dist = facing3d.fit_distance(objs, elevation, azimuth, SIZE, 6.0)
    return facing3d.Params(SIZE, kind, direction, objs, target, (dist, elevation, azimuth), LOOK, "", {})


def reason(p):
    with pytest.raises(Reject) as e:
        facing3d.solve(p, facing3d.render(p))
    return e.value.reason


def test_directions_are_the_cameras():
    # a camera at azimuth 0 stands on the +z side: facing it is heading 0, its right is +x (heading 90)
    assert [facing3d.heading_of(d, 0.0) for d in facing3d.DIRECTIONS] == [270.0, 90.0, 0.0, 180.0]
    assert facing3d.heading_of("toward", 135.0) == 135.0 and facing3d.heading_of("left", 30.0) == 300.0


@pytest.mark.parametrize("kind", ["arrow", "figure"])
def test_headings_are_measured_from_the_render(kind):
    headings = [0.0, 60.0, 135.0, 200.0, 290.0]
    objects = [(kind, "red", -2.4 + 1.2 * k, 0.6 * (k % 2), h) for k, h in enumerate(headings)]
    p = params(kind, "toward", objects, elevation=38.0, azimuth=25.0)
    puzzle = facing3d.render(p)
    for i, h in enumerate(headings, start=1):
        seen = facing3d.measured_heading(p, puzzle, i)
        assert seen is not None and facing3d.angle_apart(seen, h) < facing3d.MEASURE_AGREES, (i, h, seen)


def test_the_figure_facing_left_is_the_answer():
    objects = [("figure", "blue", -1.5, 0.0, 90.0), ("figure", "green", 0.0, 0.3, 270.0),
               ("figure", "yellow", 1.5, 0.0, 0.0), ("arrow", "red", 0.0, 1.6, 270.0)]
    p = params("figure", "left", objects, target=1)
    puzzle = facing3d.render(p)
    task = facing3d.solve(p, puzzle)
    assert task.target_ids == [2] and task.answer == {"count": 1}
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 2
    assert facing3d.instruction(p, "en") == "Click the figure facing left."
    assert facing3d.instruction(p, "zh") == "请点击面朝左边的小人"
    # the arrow pointing left is no figure; asked for arrows, it is the answer
    arrows = params("arrow", "left", objects, target=3)
    assert facing3d.solve(arrows, facing3d.render(arrows)).target_ids == [4]
    assert facing3d.instruction(arrows, "en") == "Click the arrow pointing left."


def test_a_second_object_facing_nearly_the_same_way_is_rejected():
    objects = [("arrow", "blue", -1.5, 0.0, 0.0), ("arrow", "green", 1.5, 0.0, 25.0),
               ("arrow", "yellow", 0.0, -1.2, 180.0)]
    assert reason(params("arrow", "toward", objects)) == "facing3d.second_candidate"


def test_a_target_turned_too_far_from_the_named_way_is_rejected():
    objects = [("figure", "blue", -1.2, 0.0, 40.0), ("figure", "green", 1.2, 0.0, 180.0)]
    assert reason(params("figure", "toward", objects)) == "facing3d.target_off_direction"


def test_a_target_hidden_behind_another_is_rejected():
    # a small arrow flat on the floor right behind a figure, seen from low down
    objects = [("arrow", "red", 0.0, -0.6, 90.0), ("figure", "grey", 0.0, 0.0, 0.0), ("arrow", "blue", 1.8, 0.0, 270.0)]
    assert reason(params("arrow", "right", objects, elevation=18.0)) in ("facing3d.target_hidden",
                                                                            "facing3d.facing_unclear")


def test_sampled_scenes_are_verified_and_mostly_pass():
    passed = 0
    for seed in range(8):
        try:
            p = facing3d.sample_params(np.random.default_rng(seed), 3, SIZE)
            task = facing3d.solve(p, facing3d.render(p))
        except Reject:
            continue
        passed += 1
        assert task.target_ids == [p.target_index + 1]
    assert passed >= 6
