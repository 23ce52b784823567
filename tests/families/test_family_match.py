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


STAIR = ((3, 0), (2, 1), (3, 1), (0, 2), (1, 2), (2, 2), (3, 2))   # the level-5 reference seen by eye (seed 11)


def test_a_large_shape_one_cell_from_its_mirror_is_never_drawn():
    # the 4-2-1 staircase: its mirror image, turned, differs in one cell; a person could not tell them apart
    assert match.mirror_cells(STAIR) == 1 and not match.mirror_clear(STAIR)
    for level in (4, 5):
        for i in range(40):
            try:
                p = match.sample_params(np.random.default_rng([level, i]), level, SIZE)
            except Reject:
                continue
            assert len(p.reference) >= match.MIRROR_FROM or level == 4     # level 4 draws 6 or 7 cells
            assert match.mirror_clear(p.reference)


def test_tiles_drawn_with_cells_below_the_floor_are_rejected():
    # eight tiles, one drawn 1.2 times larger: the others' cells fall to about 0.8 of what fits
    tiles = tuple(("target" if k < 2 else "mirror", STAIR, k >= 2, 30.0 * (k + 1), 1.2 if k == 0 else 0.8, BLUE,
                   CARD) for k in range(8))
    p = match.Params(SIZE, "", STAIR, BLUE, tiles, 4, 0.0, 0, {"mirror_share": 1.0})
    with pytest.raises(Reject) as e:
        match.render(p)
    assert e.value.reason == "match.cells_too_small"
