"""Box folding: a cube net with marked faces (colours, or pictures that show how each face is turned) above 3-4
cubes; exactly one cube can be folded from the net; click it. The others show two opposite faces side by
side, the faces round a corner in mirror order, or a picture turned the wrong way."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import cube as cube
from synth.families.kit import draw

NAME = "box_fold"
DESCRIPTION = "click the one cube that can be folded from the net shown; the others are impossible"
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
COVERS = ("NextGenCAPTCHAs:Box_Folding", "Spatial-CAPTCHA-Bench:cube_folding", "VenusBench-CAPTCHA:visual_reasoning")
STAT, STAT_DIRECTION = ("subtlety: share of wrong cubes that differ subtly (mirror order, a turned picture), + 0.5 "
                         "with pictures, + 0.5 x share of net pictures drawn turned"), +1
COLOURS = {"red": (220, 50, 47), "blue": (38, 110, 220), "green": (40, 160, 70), "yellow": (240, 200, 40),
           "purple": (140, 70, 190), "white": (246, 246, 242)}
# pictures with an obvious upright (a quarter or half turn shows), unlike each other
PICTURES = ("emoji:tree", "emoji:house", "emoji:car", "emoji:mushroom", "emoji:umbrella", "emoji:bird", "emoji:fish",
            "emoji:penguin", "emoji:cat", "emoji:rabbit", "emoji:snail", "emoji:bus", "emoji:sailboat",
            "emoji:lightbulb", "emoji:cup", "emoji:pineapple", "emoji:carrot", "emoji:bell")
TEX = 48                     # px of a face texture
READ = 32                    # px of a face read back from the render
MAX_COLOUR_DIST = 45.0       # a face's colour lies this close to its palette colour ...
MIN_COLOUR_GAP = 60.0        # ... and this much closer than to any other
MAX_PICTURE_DIST = 30.0      # a picture read back differs from its template by at most this (mean RGB) ...
MIN_PICTURE_GAP = 8.0        # ... and from any other picture or turn by this much more
YAW, PITCH = 45.0, 35.0

TABLE = LevelTable(NAME, knobs={
    "options_range": "number of cubes to choose from when the faces are coloured (three with pictures)",
    "pictures_range": "probability that the faces carry pictures (their turn matters) rather than colours",
    "subtle_range": "share of the wrong cubes that are mirror orders or turned pictures (the rest show two "
                    "opposite faces together)",
    "net_turn_range": "probability that a picture is drawn turned in the net",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"options_range": (3, 3), "pictures_range": (0.0, 0.0), "subtle_range": (0.0, 0.0), "net_turn_range": (0.0, 0.0),
        "clutter_range": (0.0, 0.1)},
    2: {"options_range": (3, 3), "pictures_range": (0.0, 0.0), "subtle_range": (0.5, 0.5), "net_turn_range": (0.0, 0.0),
        "clutter_range": (0.1, 0.2)},
    3: {"options_range": (4, 4), "pictures_range": (0.3, 0.3), "subtle_range": (0.67, 0.67),
        "net_turn_range": (0.0, 0.0), "clutter_range": (0.2, 0.35)},
    4: {"options_range": (4, 4), "pictures_range": (0.7, 0.7), "subtle_range": (0.8, 1.0), "net_turn_range": (0.3, 0.3),
        "clutter_range": (0.3, 0.5)},
    5: {"options_range": (4, 4), "pictures_range": (1.0, 1.0), "subtle_range": (1.0, 1.0), "net_turn_range": (0.6, 0.6),
        "clutter_range": (0.4, 0.6)},
})

Sig = tuple[tuple[str, int], ...]       # per shown position (top, south, east): (mark, quarter turns)


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                              # "" (the sought cube is the foldable one)
    net: tuple[str, ...]                     # rows of the net ("X" = a face)
    marks: tuple[str, ...]                   # per net cell in net_cells order: a colour name or an emoji key
    turns: tuple[int, ...]                   # per net cell: quarter turns clockwise of its mark as drawn
    pictures: bool
    options: tuple[Sig, ...]                 # the cubes shown, left to right
    kinds: tuple[str, ...]                   # per option: "fold", "opposite", "mirror" or "turned"
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- folding

def turned_frame(frame, k: int):
    """A face frame with its texture turned k quarter turns clockwise (seen from outside)."""
    n, r, d = frame
    r2 = [r, d, cube.neg(r), cube.neg(d)][k % 4]
    return n, r2, cube.cross(r2, n)


def folded(net: tuple[str, ...], marks: tuple[str, ...], turns: tuple[int, ...]) -> list[tuple[str, tuple]]:
    """(mark, frame of its texture in the cube's axes) of every face of the folded net."""
    cells = cube.net_cells(net)
    frames = cube.fold(cells)
    return [(m, turned_frame(frames[c], k)) for c, m, k in zip(cells, marks, turns)]


def signature(faces: list[tuple[str, tuple]], q: np.ndarray, pictures: bool) -> Sig:
    """What a camera sees of the folded cube turned by `q`: each shown position's mark and its turn."""
    normals = np.array([f[1][0] for f in faces]) @ q.T          # (6, 3) the faces' normals after the turn
    rights = np.array([f[1][1] for f in faces]) @ q.T
    out = []
    for pos in cube.SHOWN:
        i = int(np.flatnonzero((normals == cube.FRAMES[pos][0]).all(1))[0])
        k = cube.quarter_turns(tuple(int(v) for v in rights[i]), pos)
        out.append((faces[i][0], k if pictures else 0))
    return tuple(out)


@lru_cache(maxsize=256)
def foldable_views(net: tuple[str, ...], marks: tuple[str, ...], turns: tuple[int, ...], pictures: bool
                   ) -> frozenset[Sig]:
    """Every view of the cube the net folds into: all 24 ways it can be turned."""
    faces = folded(net, marks, turns)
    return frozenset(signature(faces, q, pictures) for q in cube.rotations())


@lru_cache(maxsize=1)
def landscape_nets() -> tuple[tuple[str, ...], ...]:
    """The 11 nets in every turn and mirror image that is at least as wide as tall (they sit above the cubes)."""
    shapes = {cube.transform_net(n, t) for n in cube.NETS for t in range(8)}
    return tuple(sorted(s for s in shapes if len(s[0]) >= len(s)))


def opposite_marks(net: tuple[str, ...], marks: tuple[str, ...]) -> dict[str, str]:
    faces = folded(net, marks, (0,) * 6)
    by_normal = {f[1][0]: f[0] for f in faces}
    return {m: by_normal[cube.neg(fr[0])] for m, fr in faces}


# ---------------------------------------------------------------- sampling

def wrong_view(rng: np.random.Generator, right: Sig, kind: str, opposite: dict[str, str], pictures: bool) -> Sig:
    """A view no folding shows: two opposite faces, a mirror order round the corner, or a turned picture."""
    v = list(right)
    if kind == "opposite":
        a, b = (int(i) for i in rng.choice(3, 2, replace=False))
        v[a] = (opposite[v[b][0]], int(rng.integers(4)) if pictures else 0)
    elif kind == "mirror":
        a, b = (int(i) for i in rng.choice(3, 2, replace=False))
        v[a], v[b] = v[b], v[a]
        if pictures:
            c = int(rng.integers(3))
            v[c] = (v[c][0], int(rng.integers(4)))
    else:
        a = int(rng.integers(3))
        v[a] = (v[a][0], (v[a][1] + int(rng.integers(1, 4))) % 4)
    return tuple(v)


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    k = {name[:-6]: draw_knob(rng, row[name], integer=name == "options_range") for name in row}
    shapes = landscape_nets()
    net = shapes[int(rng.integers(len(shapes)))]
    pictures = bool(rng.random() < k["pictures"])
    pool = list(PICTURES) if pictures else list(COLOURS)
    marks = tuple(pool[i] for i in rng.choice(len(pool), 6, replace=False))
    turns = tuple(int(rng.integers(4)) if pictures and rng.random() < k["net_turn"] else 0 for _ in range(6))
    views = foldable_views(net, marks, turns, pictures)
    faces = folded(net, marks, turns)
    rots = cube.rotations()
    right = signature(faces, rots[int(rng.integers(len(rots)))], pictures)
    opposite = opposite_marks(net, marks)
    n = 3 if pictures else k["options"]       # pictures need the bigger cubes of three cards in a row
    n_subtle = int(round(k["subtle"] * (n - 1)))
    kinds = ["mirror" if not pictures or rng.random() < 0.5 else "turned" for _ in range(n_subtle)]
    kinds += ["opposite"] * (n - 1 - n_subtle)
    options = [right]
    for kind in kinds:
        for _ in range(20):
            v = wrong_view(rng, right, kind, opposite, pictures)
            if v not in views and v not in options:
                options.append(v)
                break
        else:
            raise Reject(f"{NAME}.no_distractor")
    order = rng.permutation(n)
    kinds = ["fold"] + kinds
    k["subtle_share"] = n_subtle / (n - 1)
    return Params(size=size, target="", net=net, marks=marks, turns=turns, pictures=pictures,
                  options=tuple(options[i] for i in order), kinds=tuple(kinds[i] for i in order),
                  clutter=k["clutter"], bg_seed=int(rng.integers(2**31)), knobs=k)


def stat(params: Params) -> float:
    """Difficulty statistic: how subtly the wrong cubes are wrong, and how much the pictures' turns matter."""
    turned = sum(k != 0 for k in params.turns) / len(params.turns)
    return params.knobs["subtle_share"] + 0.5 * params.pictures + 0.5 * turned


# ---------------------------------------------------------------- drawing

@lru_cache(maxsize=160)
def texture(mark: str, k: int = 0, n: int = TEX) -> np.ndarray:
    """A face texture (n x n RGBA): a colour, or a picture on white, turned k quarter turns clockwise
    (read-only, cached)."""
    out = np.zeros((n, n, 4), np.uint8)
    out[..., :3] = COLOURS.get(mark, COLOURS["white"])
    out[..., 3] = 255
    if mark not in COLOURS:
        s = round(n * 0.78)
        spr = draw.sprite(mark, s)
        o = (n - s) // 2
        a = spr[..., 3:].astype(np.float32) / 255
        out[o:o + s, o:o + s, :3] = (spr[..., :3] * a + out[o:o + s, o:o + s, :3] * (1 - a)).astype(np.uint8)
        out = np.rot90(out, -k).copy()
    out.flags.writeable = False
    return out


def layout(size: tuple[int, int], net: tuple[str, ...], n: int) -> dict:
    """Net cell side and top-left corner, and the option cards (x0, y0, x1, y1)."""
    w, h = size
    m = round(min(w, h) * 0.03)
    net_h = round(h * 0.5)
    rows, cols = len(net), len(net[0])
    cell = int(min((w - 2 * m) / cols, (net_h - m) / rows))
    nx, ny = (w - cols * cell) // 2, m + (net_h - rows * cell) // 2
    top = m + net_h + m
    cw = (w - m * (n + 1)) / n
    cards = [(round(m + i * (cw + m)), top, round(m + i * (cw + m) + cw), h - m) for i in range(n)]
    return {"cell": cell, "net_xy": (nx, ny), "cards": cards}


def card(img: np.ndarray, box, rgb, border, radius: int) -> None:
    """A rounded card with a thin border, drawn in place."""
    x0, y0, x1, y1 = box
    pts = cube.rounded_rect(x0, y0, x1 - 1, y1 - 1, radius)
    cv2.fillPoly(img, [np.round(pts * 4).astype(np.int32)], rgb, cv2.LINE_AA, shift=2)
    cv2.polylines(img, [np.round(pts * 4).astype(np.int32)], True, border, 1, cv2.LINE_AA, shift=2)


def card_view(box) -> cube.View:
    """The camera that fits a unit cube centred on the origin into a card."""
    x0, y0, x1, y1 = box
    corners = np.array([(a, b, c) for a in (-.5, .5) for b in (-.5, .5) for c in (-.5, .5)])
    unit = cube.View(YAW, PITCH, 1.0, 0.0, 0.0).project(corners)
    lo, hi = unit.min(0), unit.max(0)
    scale = 0.84 * min((x1 - x0) / (hi[0] - lo[0]), (y1 - y0) / (hi[1] - lo[1]))
    return cube.View(YAW, PITCH, float(scale), (x0 + x1) / 2 - scale * (lo[0] + hi[0]) / 2,
                     (y0 + y1) / 2 - scale * (lo[1] + hi[1]) / 2)


def net_quads(params: Params, geo: dict) -> list[np.ndarray]:
    c = geo["cell"]
    nx, ny = geo["net_xy"]
    return [np.array([(nx + x * c, ny + y * c), (nx + x * c + c, ny + y * c), (nx + x * c + c, ny + y * c + c),
                      (nx + x * c, ny + y * c + c)], np.float64) for x, y in cube.net_cells(params.net)]


def render(params: Params) -> Puzzle:
    """The net (instance n + 1) and the cards (1..n, each card a whole click target). extras: the net's
    cell quads and every card's face quads by position."""
    w, h = params.size
    n = len(params.options)
    geo = layout(params.size, params.net, n)
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    side = min(w, h)
    radius = round(side * 0.025)
    edge = (40, 40, 48)
    quads = net_quads(params, geo)
    net_id = n + 1
    for q, mark, k in zip(quads, params.marks, params.turns):
        x0, y0, rgba = cube.warp_texture(texture(mark, k), q)
        canvas.paste(rgba, x0, y0, net_id)
    lw = max(1, round(side / 200))
    for q in quads:
        cv2.polylines(canvas.rgb, [np.round(q * 4).astype(np.int32)], True, edge, lw, cv2.LINE_AA, shift=2)
    nx0, ny0 = np.min([q.min(0) for q in quads], 0)
    nx1, ny1 = np.max([q.max(0) for q in quads], 0)
    canvas.full_area[net_id] = int(np.count_nonzero(canvas.instances == net_id))
    meta = {net_id: {"role": "reference", "label": "cube net", "kind": "net"}}
    card_quads = []
    for i, (sig, kind, box) in enumerate(zip(params.options, params.kinds, geo["cards"]), start=1):
        bx0, by0, bx1, by1 = box
        card(canvas.rgb, box, (250, 250, 252), (190, 194, 200), radius)
        view = card_view(box)
        frames = {}
        textures = {}
        for pos, (mark, k) in zip(cube.SHOWN, sig):
            r, d = cube.position_axes(pos, k)
            frames[pos] = (cube.FRAMES[pos][0], r, d)
            textures[pos] = texture(mark)
        cube.paste_cube(canvas, view, (0, 0, 0), 1.0, textures, frames, dict.fromkeys(cube.SHOWN, i), edge)
        # each face's quad in its position's own frame: read back through it, a turned picture shows turned
        card_quads.append({pos: cube.face_quad(view, (0, 0, 0), *cube.FRAMES[pos], 1.0) for pos in cube.SHOWN})
        canvas.instances[by0:by1, bx0:bx1] = i          # the whole card is the click target
        canvas.full_area[i] = (bx1 - bx0) * (by1 - by0)
        meta[i] = {"role": "target" if kind == "fold" else "distractor",
                   "label": {"fold": "foldable cube", "opposite": "cube showing opposite faces together",
                             "mirror": "cube with faces in mirror order", "turned": "cube with a turned picture"}[kind],
                   "kind": kind}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta,
                  extras={"net_quads": quads, "card_quads": card_quads, "net_box": [nx0, ny0, nx1, ny1]})


# ---------------------------------------------------------------- verification

@lru_cache(maxsize=128)
def _template(mark: str, k: int) -> np.ndarray:
    """A picture face as the reader sees it: READ px square, inner part, float RGB."""
    t = cv2.resize(np.ascontiguousarray(texture(mark, k)[..., :3]), (READ, READ), interpolation=cv2.INTER_AREA)
    out = _inner(t).astype(np.float32)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=16)
def _templates(marks: tuple[str, ...]) -> tuple[np.ndarray, list[tuple[str, int]]]:
    """All four turns of every mark's picture stacked (n, h, w, 3), and what each one is."""
    keys = [(m, k) for m in marks for k in range(4)]
    stack = np.stack([_template(m, k) for m, k in keys])
    stack.flags.writeable = False
    return stack, keys


def _inner(face: np.ndarray) -> np.ndarray:
    m = round(READ * 0.1)
    return face[m:-m, m:-m]


def read_face(face: np.ndarray, shade: float, marks: tuple[str, ...], pictures: bool) -> tuple[str, int, float]:
    """(mark, quarter turns, margin) read from a face's pixels (READ px square) after undoing its shading:
    the nearest palette colour, or the nearest picture template in any of its four turns. Margin: how far
    the reading clears its thresholds (negative: unreadable)."""
    inner = _inner(face).astype(np.float32) / shade
    if not pictures:
        mean = inner.reshape(-1, 3).mean(0)
        dist = sorted((float(np.linalg.norm(mean - COLOURS[m])), m) for m in marks)
        margin = min(MAX_COLOUR_DIST - dist[0][0], dist[1][0] - dist[0][0] - MIN_COLOUR_GAP)
        return dist[0][1], 0, margin
    stack, keys = _templates(tuple(sorted(marks)))
    dist = np.abs(stack - inner).mean(axis=(1, 2, 3))
    order = np.argsort(dist, kind="stable")
    best, second = float(dist[order[0]]), float(dist[order[1]])
    m, k = keys[int(order[0])]
    return m, k, min(MAX_PICTURE_DIST - best, second - best - MIN_PICTURE_GAP)


def solve(params: Params, puzzle: Puzzle) -> Task:
    marks, pictures = params.marks, params.pictures
    margin = np.inf
    # the net as drawn: every face reads as its mark, turned as sampled
    for q, mark, k in zip(puzzle.extras["net_quads"], marks, params.turns):
        got, got_k, m = read_face(cube.unwarp(puzzle.rgb, q, READ), 1.0, marks, pictures)
        margin = min(margin, m)
        if m < 0 or (got, got_k) != (mark, k if pictures else 0):
            raise Reject(f"{NAME}.net_unreadable")
    views = foldable_views(params.net, marks, params.turns, pictures)
    seen_sigs, foldable = [], []
    for i, quads in enumerate(puzzle.extras["card_quads"], start=1):
        sig = []
        for pos in cube.SHOWN:
            got, got_k, m = read_face(cube.unwarp(puzzle.rgb, quads[pos], READ), cube.SHADES[pos], marks, pictures)
            margin = min(margin, m)
            if m < 0:
                raise Reject(f"{NAME}.face_unreadable")
            sig.append((got, got_k))
        sig = tuple(sig)
        if sig != params.options[i - 1]:
            raise Reject(f"{NAME}.face_misread")
        seen_sigs.append(sig)
        if sig in views:
            foldable.append(i)
    if len(foldable) != 1:
        raise Reject(f"{NAME}.not_one_foldable")
    if len(set(seen_sigs)) != len(seen_sigs):
        raise Reject(f"{NAME}.duplicate_option")
    t = foldable[0]
    if puzzle.meta[t]["role"] != "target":
        raise Reject(f"{NAME}.role_mismatch")
    boxes = draw.instance_boxes(puzzle.instances)
    objects = []
    for i, meta in puzzle.meta.items():
        box = boxes[i] if i in boxes else None
        if box is None:
            raise Reject(f"{NAME}.object_hidden")
        mask = np.zeros(puzzle.instances.shape, bool)
        x0, y0, x1, y1 = (int(v) for v in box)
        mask[y0:y1, x0:x1] = puzzle.instances[y0:y1, x0:x1] == i
        objects.append({"id": i, "role": meta["role"], "label": meta["label"], "bbox": box,
                        "visible_fraction": round(float(np.count_nonzero(mask)) / max(1, puzzle.full_area[i]), 4),
                        "_mask": mask})
    target = next(o for o in objects if o["id"] == t)
    checks = {"options": float(len(params.options)), "views_checked": float(len(views) * len(params.options)),
              "min_read_margin": round(float(margin), 4), "subtle_share": params.knobs["subtle_share"]}
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[t], target_boxes=[target["bbox"]],
                points=[draw.inner_point(target["_mask"])], partial_credit=False, checks=checks)


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "上方是一个立方体的展开图。请点击能由它折成的那个立方体"
    return "The top picture is an unfolded cube. Click the cube that it folds into."
