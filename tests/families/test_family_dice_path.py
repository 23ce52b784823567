"""Dice roll path: rolling checked against an independent model, faces read back from the pixels, hidden paths
and unreadable dice rejected."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import dice_path
from synth.families.kit import cube as cube

SIZE = (320, 320)
IDENTITY = (1, 0, 0, 0, 1, 0, 0, 0, 1)


def params(start, steps, orientation=IDENTITY, grid=4, body="white", decoy=(), yaw=45.0, pitch=42.0):
    return dice_path.Params(SIZE, "red", grid, start, orientation, steps, decoy, body, yaw, pitch, 0.0, 3,
                            {"steps": len(steps)})


def roll_faces(faces: dict, d: str) -> dict:
    """The die as six named faces, rolled the way a person would picture it."""
    f = dict(faces)
    t, b, n, s, e, w = (faces[k] for k in ("top", "bottom", "north", "south", "east", "west"))
    if d == "N":
        f.update(top=s, north=t, bottom=n, south=b)
    elif d == "S":
        f.update(top=n, south=t, bottom=s, north=b)
    elif d == "E":
        f.update(top=w, east=t, bottom=e, west=b)
    else:
        f.update(top=e, west=t, bottom=w, east=b)
    return f


@pytest.mark.parametrize("seed", range(6))
def test_rolling_matches_a_face_by_face_model(seed):
    rng = np.random.default_rng(seed)
    q = cube.rotations()[int(rng.integers(24))]
    faces = {pos: dice_path.BODY[cube.face_towards(q, pos)] for pos in cube.FRAMES}
    assert all(faces[a] + faces[b] == 7 for a, b in (("top", "bottom"), ("north", "south"), ("east", "west")))
    steps = "".join("NESW"[int(i)] for i in rng.integers(4, size=9))
    for s in steps:
        q = cube.roll(q, s)
        faces = roll_faces(faces, s)
        assert {pos: dice_path.BODY[cube.face_towards(q, pos)] for pos in cube.FRAMES} == faces


def test_hand_made_answers():
    # unturned: 1 on top, 2 facing south, 3 facing east (the camera sees the die from the south-east, so
    # the first roll goes south or east: north and west of the die lie behind it)
    for steps, top in (("E", 4), ("S", 5), ("EE", 6), ("ES", 5), ("SE", 4), ("EES", 5), ("SSW", 3)):
        p = params((1, 3), steps)
        task = dice_path.solve(p, dice_path.render(p))
        assert task.rule == "type" and task.text == str(top) and task.answer == {"count": top}, steps
    assert dice_path.instruction(p, "en").startswith("The die rolls one square per arrow along the red")
    assert "红色箭头" in dice_path.instruction(p, "zh")


@pytest.mark.parametrize("k", range(24))
def test_the_shown_faces_read_back_from_the_pixels(k):
    q = tuple(int(v) for v in cube.rotations()[k].ravel())
    p = params((1, 1), "E", q, body=("white", "ivory", "red", "blue")[k % 4])
    puzzle = dice_path.render(p)
    _, values = dice_path.die_frames(dice_path.orientation(p))
    for i, pos in ((1, "top"), (2, "south"), (3, "east")):
        seen, contrast, _ = dice_path.count_pips(puzzle, i, puzzle.extras["quads"][pos], p.body)
        assert seen == values[pos] and contrast >= dice_path.MIN_PIP_CONTRAST
    assert values["top"] + values["south"] + values["east"] >= 6     # three different faces round a corner


def test_a_path_behind_the_die_is_rejected():
    # the squares north and west of the die lie behind it on the screen
    p = params((2, 1), "N")
    with pytest.raises(Reject, match="dice_path.(arrow_hidden|path_hidden)"):
        dice_path.solve(p, dice_path.render(p))


def test_a_decoy_path_is_told_apart_by_colour():
    p = params((0, 0), "EEN", decoy=((0, 3), (1, 3), (2, 3)))
    puzzle = dice_path.render(p)
    task = dice_path.solve(p, puzzle)
    roles = {o["label"]: o["role"] for o in task.objects}
    assert roles["red path"] == "path" and roles["blue path"] == "distractor"


def test_pips_that_do_not_stand_out_are_rejected(monkeypatch):
    monkeypatch.setitem(dice_path.DIE_BODIES, "grey", ((130, 130, 130), (112, 112, 112)))
    dice_path.face_texture.cache_clear()
    p = params((1, 1), "E", body="grey")
    with pytest.raises(Reject, match="dice_path.(low_contrast|pips_unreadable)"):
        dice_path.solve(p, dice_path.render(p))
    dice_path.face_texture.cache_clear()


def test_sampled_paths_stay_in_view_and_never_revisit():
    for seed in range(20):
        try:
            p = dice_path.sample_params(np.random.default_rng(seed), 5, SIZE)
        except Reject:
            continue
        cells = dice_path.path_cells(p.start, p.steps)
        assert len(set(cells)) == len(cells) and not set(cells) & set(p.decoy)
        view = dice_path.make_view(SIZE, p.grid, p.start, p.yaw, p.pitch)
        assert dice_path.path_clear(view, p.grid, p.start, cells, True)
