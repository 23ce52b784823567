"""rotation3d: the voxel checks (24 rotations, mirror images), hand-made options whose answer is known,
and options that verification must reject."""
import dataclasses

import cv2
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import rotation3d as rot
from synth.families.kit import render3d as r3
from synth.families.kit.scene3d import COLOURS

SIZE = (320, 320)
# a chiral assembly (its mirror image is no rotation of it) and an achiral one
CHIRAL = ((0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1), (2, 1, 1))
L_FLAT = ((0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0))


def test_the_24_rotations_of_the_grid():
    mats = rot.grid_rotations()
    assert len(mats) == 24 and len({m.tobytes() for m in mats}) == 24
    assert all(round(np.linalg.det(m)) == 1 and (m @ m.T == np.eye(3)).all() for m in mats)


def test_canonical_forms_tell_rotations_from_mirror_images():
    rng = np.random.default_rng(0)
    for m in rot.grid_rotations():
        turned = tuple(map(tuple, (np.array(CHIRAL) @ m.T + rng.integers(-3, 3, 3)).tolist()))
        assert rot.canonical(turned) == rot.canonical(CHIRAL)
    assert rot.canonical(rot.mirror(CHIRAL)) != rot.canonical(CHIRAL)
    # a flat assembly turned over is its mirror image: the same under rotation
    assert rot.canonical(rot.mirror(L_FLAT)) == rot.canonical(L_FLAT)
    moved = rot.moved(rng, CHIRAL)
    assert rot.connected(moved) and len(set(moved)) == len(CHIRAL) and set(moved) != set(CHIRAL)


def params(options, reference=CHIRAL, pose=(-10.0, 180.0, 0.0)):
    return rot.Params(SIZE, reference, pose, tuple(options), "blue", (242, 242, 246), "option ?", {})


# poses that show three faces of the cubes to the camera (rotation3d.face_view)
MATCH_POSE, OTHER_POSE, FLAT_POSE = (-20.0, 260.0, 0.0), (-10.0, 260.0, 0.0), (0.0, 160.0, 0.0)


def test_the_match_is_the_option_to_click():
    p = params([("distractor", "mirror", rot.mirror(CHIRAL), OTHER_POSE), ("target", "match", CHIRAL, MATCH_POSE),
                ("distractor", "other", L_FLAT, FLAT_POSE)])
    puzzle = rot.render(p)
    task = rot.solve(p, puzzle)
    assert task.target_ids == [2] and task.rule == "click_set"
    x0, y0, x1, y1 = task.target_boxes[0]
    assert (x0, y0, y1) == (0, 161, 320) and 158 <= x1 <= 160      # the bottom left cell, less the lines
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 2
    assert {o["role"] for o in task.objects} == {"target", "distractor", "reference"}
    assert rot.instruction(p, "zh").startswith("请点击")


def test_a_distractor_that_is_a_rotation_is_rejected():
    turned = tuple(map(tuple, (np.array(CHIRAL) @ rot.grid_rotations()[7].T).tolist()))
    p = params([("target", "match", CHIRAL, MATCH_POSE), ("distractor", "moved", turned, OTHER_POSE),
                ("distractor", "other", L_FLAT, FLAT_POSE)])
    with pytest.raises(Reject, match="rotation3d.not_one_match"):
        rot.solve(p, rot.render(p))


def test_a_match_shown_as_the_reference_is_rejected():
    p = params([("target", "match", CHIRAL, (-10.0, 200.0, 0.0)),
                ("distractor", "mirror", rot.mirror(CHIRAL), OTHER_POSE), ("distractor", "other", L_FLAT, FLAT_POSE)])
    with pytest.raises(Reject, match="rotation3d.match_not_turned"):
        rot.solve(p, rot.render(p))


def test_views_that_hide_cubes_are_rejected():
    rod = ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0))
    # looking along the rod: its cubes hide each other
    right, up, back = r3.camera_axes(rot.camera())
    along = r3.euler_yxz(np.stack([np.cross(up, back), up, back], 1) @ np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]))
    assert rot.least_shown(rod, along) < rot.MIN_CUBE_SHARE and rot.face_view(along) < rot.MIN_FACE_VIEW
    p = params([("target", "match", CHIRAL, MATCH_POSE), ("distractor", "other", rod, along),
                ("distractor", "mirror", rot.mirror(CHIRAL), OTHER_POSE)])
    with pytest.raises(Reject, match="rotation3d.(view_along_grid|hidden_cube)"):
        rot.solve(p, rot.render(p))


def test_sampled_distractors_are_never_rotations_of_the_reference():
    for level in (2, 5):
        for seed in range(20):
            try:
                p = rot.sample_params(np.random.default_rng(seed), level, SIZE)
            except Reject:
                continue
            forms = [rot.canonical(o[2]) for o in p.options]
            ref = rot.canonical(p.reference)
            assert [o[0] for o in p.options if rot.canonical(o[2]) == ref] == ["target"]
            assert len(set(forms)) == len(forms)
            assert len(p.options) == (4 if level == 5 else 3)


def test_four_options_stand_beside_a_reference_column():
    ref, cells = rot.layout(SIZE, 4)
    assert ref == (0, 0, 106, 320) and len(cells) == 4
    assert all(c[0] >= 106 for c in cells) and sorted({c[1] for c in cells}) == [0, 160]


def test_every_edge_shows_on_every_face():
    # the darkest face of each colour (5th percentile of the luminance inside the cubes) stays well above the
    # edges' luminance: pure blue or red cubes had their edges within 3 grey levels of their shaded faces
    seed = 0
    for colour in rot.COLOURS:
        while True:
            seed += 1
            try:
                p = rot.sample_params(np.random.default_rng(seed), 5, (600, 400))
                break
            except Reject:
                pass
        puzzle = rot.render(dataclasses.replace(p, colour=colour))
        lum = cv2.cvtColor(puzzle.rgb, cv2.COLOR_RGB2GRAY).astype(float)
        inside = cv2.erode((puzzle.instances > 0).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        edge = np.dot([int(v * rot.EDGE_SHADE) for v in COLOURS[colour][0]], [0.299, 0.587, 0.114])
        assert np.percentile(lum[inside], 5) - edge >= rot.MIN_EDGE_CONTRAST, colour
