"""Rotation match: crafted references and tiles that verification must reject, and a hand-made answer."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import match

SIZE = (320, 320)
F = ((1, 0), (2, 0), (0, 1), (1, 1), (1, 2))          # the F pentomino: chiral, no rotational symmetry
L = ((0, 0), (0, 1), (0, 2), (0, 3), (1, 3))
BLUE, CARD = (38, 110, 220), (248, 248, 248)


def params(reference, tiles):
    tiles = tuple((role, cells, role == "mirror", float(angle), 1.0, BLUE, CARD) for role, cells, angle in tiles)
    n = len(tiles)
    return match.Params(SIZE, "", reference, BLUE, tiles, n if n <= 3 else -(-n // 2), 0.0, 0, {"mirror_share": 0.0})


def reject_reason(p):
    with pytest.raises(Reject) as e:
        match.solve(p, match.render(p))
    return e.value.reason


def test_a_mirror_symmetric_reference_is_rejected():
    t_shape = ((0, 0), (1, 0), (2, 0), (1, 1), (1, 2))
    p = params(t_shape, [("target", t_shape, 90), ("other", L, 0), ("other", F, 0)])
    assert reject_reason(p) == "match.mirror_symmetric_reference"


def test_a_half_turn_symmetric_reference_is_rejected():
    z_shape = ((0, 0), (1, 0), (1, 1), (1, 2), (2, 2))     # chiral, but the same after half a turn
    p = params(z_shape, [("target", z_shape, 90), ("mirror", z_shape, 0), ("other", L, 0)])
    assert reject_reason(p) == "match.rotationally_symmetric_reference"


def test_a_tile_drawn_as_a_different_shape_but_showing_the_reference_is_caught():
    # labelled "other" but drawn with the reference's cells: the pixels say it is a rotated copy
    p = params(F, [("target", F, 90), ("other", F, 180), ("mirror", F, 0)])
    assert reject_reason(p) == "match.role_mismatch"


def test_answer_counts_the_rotated_tiles_from_pixels():
    p = params(F, [("target", F, 90), ("mirror", F, 0), ("other", L, 0), ("target", F, 200), ("mirror", F, 135)])
    puzzle = match.render(p)
    task = match.solve(p, puzzle)
    assert task.answer == {"count": 2}
    assert task.target_ids == [1, 4]
    assert task.partial_credit and task.rule == "click_set"
    for tid, (x, y) in zip(task.target_ids, task.points):
        assert puzzle.instances[int(y), int(x)] == tid
    roles = {o["id"]: o["role"] for o in task.objects}
    assert roles[2] == roles[3] == roles[5] == "distractor" and roles[6] == "reference"


def test_rotated_copies_match_and_mirror_images_do_not():
    p = params(F, [("target", F, 90), ("mirror", F, 90), ("target", F, 33), ("mirror", F, 250)])
    puzzle = match.render(p)
    ref = match.normalise(match.shape_mask(puzzle.rgb, puzzle.extras["reference"]))
    stack = match.rotations(ref)
    masks = match.pack(np.stack([match.normalise(match.shape_mask(puzzle.rgb, b)) for b in puzzle.extras["tiles"]]))
    scores = match.best_iou(stack, masks)
    for (rot, mir), (role, *_) in zip(scores, p.tiles):
        if role == "target":
            assert rot >= match.SAME and mir <= match.DIFFERENT
        else:
            assert mir >= match.SAME and rot <= match.DIFFERENT


def test_sampled_references_are_chiral_polyominoes():
    for seed in range(20):
        p = match.sample_params(np.random.default_rng(seed), 5, SIZE)
        assert match.chiral(p.reference) and not match.rot_symmetric(p.reference)
        assert all(t[0] == "mirror" for t in p.tiles if t[0] != "target")      # level 5: every wrong tile is a mirror
