"""Box folding: nets fold with their edges glued, every wrong cube matches no way of turning the folded net,
and the faces are read back from the pixels."""
import itertools

import cv2
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import box_fold
from synth.families.kit import cube as cube

SIZE = (320, 320)
CROSS = ("X...", "XXXX", "X...")        # cells: (0,0) (0,1) (1,1) (2,1) (3,1) (0,2)
COLOURS = ("red", "blue", "green", "yellow", "purple", "white")


def test_the_eleven_nets_are_all_there_is():
    shapes = {cube.transform_net(n, t) for n in cube.NETS for t in range(8)}
    canonical = {min(cube.transform_net(n, t) for t in range(8)) for n in cube.NETS}
    assert len(canonical) == 11
    # every six cells of a 5 x 3 box that fold into a cube are one of them, turned or mirrored
    grid = [(c, r) for c in range(5) for r in range(3)]
    found = set()
    for cells in itertools.combinations(grid, 6):
        try:
            cube.fold(cells)
        except ValueError:
            continue
        cols = max(c for c, _ in cells) - min(c for c, _ in cells) + 1
        rows = max(r for _, r in cells) - min(r for _, r in cells) + 1
        x0, y0 = min(c for c, _ in cells), min(r for _, r in cells)
        net = tuple("".join("X" if (x0 + c, y0 + r) in cells else "." for c in range(cols)) for r in range(rows))
        found.add(net)
    assert {n for n in found if len(n[0]) >= len(n)} <= shapes and len(found) > 11


@pytest.mark.parametrize("net", cube.NETS)
def test_folding_glues_every_shared_edge(net):
    """Neighbouring squares of the net meet along the same cube edge, and their textures run on across it."""
    frames = cube.fold(cube.net_cells(net))
    assert len({f[0] for f in frames.values()}) == 6
    for (c, r), (n, rt, d) in frames.items():
        assert cube.cross(rt, d) == cube.neg(n)           # every face seen from outside, not mirrored
        for (dc, dr), along in (((1, 0), rt), ((0, 1), d)):
            other = frames.get((c + dc, r + dr))
            if other is None:
                continue
            n2, r2, d2 = other
            mid = np.add(n, along)                         # the shared edge's midpoint (twice, cube of side 2)
            back = r2 if dc else d2
            assert tuple(mid) == tuple(np.subtract(n2, back))
            assert (d2 if dc else r2) == (d if dc else rt)     # the edge's direction is the same on both


def test_the_cross_net_folds_as_a_person_would():
    # centre square (1,1); its right neighbour (2,1), then (3,1) lies opposite the centre
    faces = box_fold.folded(CROSS, COLOURS, (0,) * 6)
    opposite = box_fold.opposite_marks(CROSS, COLOURS)
    # cells in order: (0,0) red, (0,1) blue, (1,1) green, (2,1) yellow, (3,1) purple, (0,2) white
    assert opposite["green"] == "purple" and opposite["blue"] == "yellow" and opposite["red"] == "white"
    views = box_fold.foldable_views(CROSS, COLOURS, (0,) * 6, False)
    assert len(views) == 24
    for view in views:
        shown = [m for m, _ in view]
        assert len(set(shown)) == 3 and all(opposite[a] not in shown for a in shown)
    assert len(faces) == 6


@pytest.mark.parametrize("seed", range(8))
def test_wrong_views_match_no_turn_of_the_cube(seed):
    rng = np.random.default_rng(seed)
    pictures = seed % 2 == 1
    marks = tuple(box_fold.PICTURES[:6]) if pictures else COLOURS
    net = box_fold.landscape_nets()[int(rng.integers(len(box_fold.landscape_nets())))]
    turns = tuple(int(v) for v in rng.integers(4, size=6)) if pictures else (0,) * 6
    views = box_fold.foldable_views(net, marks, turns, pictures)
    assert len(views) == 24
    opposite = box_fold.opposite_marks(net, marks)
    right = sorted(views)[int(rng.integers(24))]
    for kind in ("opposite", "mirror") + (("turned",) if pictures else ()):
        for _ in range(5):
            assert box_fold.wrong_view(rng, right, kind, opposite, pictures) not in views


def _params(net, marks, turns, pictures, options, kinds):
    return box_fold.Params(SIZE, "", net, marks, turns, pictures, tuple(options), tuple(kinds), 0.0, 1,
                           {"subtle_share": 0.5})


def test_hand_made_puzzle_and_its_pixels():
    marks = tuple(box_fold.PICTURES[:6])
    turns = (0, 1, 0, 2, 0, 3)
    views = sorted(box_fold.foldable_views(CROSS, marks, turns, True))
    right = views[5]
    opposite = box_fold.opposite_marks(CROSS, marks)
    wrong = [(right[0], right[2], right[1]),                                 # mirror order
             ((right[0][0], (right[0][1] + 1) % 4), right[1], right[2]),     # a turned picture
             (right[0], right[1], (opposite[right[0][0]], 0))]               # two opposite faces
    p = _params(CROSS, marks, turns, True, [wrong[0], right, wrong[1], wrong[2]],
                ["mirror", "fold", "turned", "opposite"])
    puzzle = box_fold.render(p)
    task = box_fold.solve(p, puzzle)
    assert task.target_ids == [2] and task.rule == "click_set" and task.answer == {"count": 1}
    x, y = task.points[0]
    assert puzzle.instances[int(y), int(x)] == 2
    # two cubes that can both be folded: rejected
    p2 = _params(CROSS, marks, turns, True, [views[0], right, wrong[1], wrong[2]],
                 ["fold", "fold", "turned", "opposite"])
    with pytest.raises(Reject, match="box_fold.not_one_foldable"):
        box_fold.solve(p2, box_fold.render(p2))


def test_a_face_that_does_not_match_the_latent_is_rejected():
    marks = COLOURS
    views = sorted(box_fold.foldable_views(CROSS, marks, (0,) * 6, False))
    mirror = (views[1][0], views[1][2], views[1][1])
    p = _params(CROSS, marks, (0,) * 6, False, [views[0], mirror], ["fold", "mirror"])
    puzzle = box_fold.render(p)
    # paint over one face of the first cube with another colour: what shows is no longer what was sampled
    quad = puzzle.extras["card_quads"][0]["top"]
    mask = cube.quad_mask(puzzle.instances.shape, quad, 0.0)
    puzzle.rgb[mask] = (90, 90, 90)
    with pytest.raises(Reject, match="box_fold.face_(unreadable|misread)"):
        box_fold.solve(p, puzzle)


@pytest.mark.parametrize("mark", box_fold.PICTURES)
def test_every_picture_reads_back_in_every_turn(mark):
    others = tuple(m for m in box_fold.PICTURES if m != mark)[:5] + (mark,)
    for k in range(4):
        face = cv2.resize(np.ascontiguousarray(box_fold.texture(mark, k)[..., :3]), (box_fold.READ, box_fold.READ),
                          interpolation=cv2.INTER_AREA)
        got, got_k, margin = box_fold.read_face(face, 1.0, others, True)
        assert (got, got_k) == (mark, k) and margin > 0


def test_instructions():
    p = box_fold.sample_params(np.random.default_rng(0), 1, SIZE)
    assert box_fold.instruction(p, "en") == "The top picture is an unfolded cube. Click the cube that it folds into."
    assert box_fold.instruction(p, "zh").startswith("上方是一个立方体的展开图")


def test_a_view_lays_every_texture_as_the_turned_cube_does():
    """The turn a view records for a face gives back the face's own texture axes once the cube is turned."""
    faces = box_fold.folded(CROSS, COLOURS, (1, 0, 2, 3, 0, 1))
    for q in cube.rotations():
        for _mark, (n, r, d) in faces:
            world_n = cube.turn(q, n)
            pos = next((p for p in cube.SHOWN if cube.FRAMES[p][0] == world_n), None)
            if pos is None:
                continue
            k = cube.quarter_turns(cube.turn(q, r), pos)
            assert cube.position_axes(pos, k) == (cube.turn(q, r), cube.turn(q, d))
