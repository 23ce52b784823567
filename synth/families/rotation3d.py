"""Mental rotation: a reference assembly of unit cubes in a blue frame and 3 or 4 option renders; exactly one
option is the same assembly turned in space, the others are its mirror image, the assembly with one cube
moved, or another assembly. Click the option that matches. Verified on the voxels (no distractor equals the
reference under any of the 24 rotations of the cube grid) and on the render (every cube of every option
shows, each assembly inside its cell, the match shown turned, no distractor drawn like the match)."""
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations, product

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit import render3d as r3
from synth.families.kit import scene3d as s3

NAME = "rotation3d"
DESCRIPTION = ("click the option that shows the framed assembly of cubes turned in space (not its mirror image or a "
               "changed one)")
FACE_TINT, EDGE_SHADE = 0.35, 0.3   # faces: the colour this far towards white; edges: this share of the colour
MIN_EDGE_CONTRAST = 25              # grey levels between the darkest face (5th percentile) and the edges
GEOMETRIC_AUGMENT = False       # a warp bends the parallel edges that show how the cubes stand in depth
BLUR_AUGMENT = False            # a blur merges the ~12 px cubes' edges, which show how many there are and where
FLOORS = {"edges": "the cubes' edges are never blurred or warped, and their grain is at most that of level 3 (std "
                   "0.05 x 255; the former level-5 grain, up to 0.10 x 255, hid them)",
          "edge_contrast": f"faces are the colour {FACE_TINT:.0%} of the way to white and edges {EDGE_SHADE:.0%} of "
                           f"it, so the darkest face stays at least {MIN_EDGE_CONTRAST} grey levels above its edges "
                           f"(the pure colours left red and blue edges 3 levels apart)"}
ANSWERS = ("click",)             # synth.labels.reward step types of its tasks
NEEDS_BROWSER = True            # drawn by Chromium (synth.families.kit.render3d): pipeline.warm_up leaves it out
STAT, STAT_DIRECTION = "number of cubes", +1
COVERS = ("Spatial-CAPTCHA-Bench:mental_rotation", "NextGenCAPTCHAs:3d_viewpoint", "MCA-Bench:3d_rotation")

FOV = 12.0                      # a long lens: every cell is seen from (almost) the same direction
VIEW = (24.0, 35.0)             # camera elevation and azimuth, degrees
DISTANCE = 60.0
FRAME = (40, 110, 230)          # the reference's frame
LINE = 2                        # px at 320 between cells
FILL = 0.45                     # the largest assembly's radius as a share of the smaller cell side
MIN_CUBE_SHARE = 0.2            # a cube shows at least this share of one face's area, in every option
MIN_FACE_VIEW = 0.3            # the view's smallest component in an assembly's axes (see face_view)
MIN_TURN = 35.0                 # degrees between the reference's pose and the match's
LOOK_ALIKE = 0.9                # a distractor's silhouette overlapping the match's this much (IoU) looks alike
COLOURS = ("red", "yellow", "green", "cyan", "blue", "purple")

TABLE = LevelTable(NAME, knobs={
    "cubes_range": "number of cubes in the assembly",
    "options_range": "number of options (3 in a 2x2 grid with the reference; 4 beside a reference column)",
    "close_range": "share of distractors that are the mirror image or a one-cube change (else another assembly)",
    "free_range": "probability that the match is turned freely in 3D (else about the vertical axis only)",
    "spatial_range": "probability that the assembly spans all three dimensions (not flat)",
}, levels={
    1: {"cubes_range": (4, 4), "options_range": (3, 3), "close_range": (0.0, 0.0), "free_range": (0.0, 0.0),
        "spatial_range": (0.0, 0.0)},
    2: {"cubes_range": (4, 5), "options_range": (3, 3), "close_range": (0.5, 0.5), "free_range": (0.2, 0.2),
        "spatial_range": (0.5, 0.5)},
    3: {"cubes_range": (5, 5), "options_range": (3, 3), "close_range": (1.0, 1.0), "free_range": (0.5, 0.5),
        "spatial_range": (1.0, 1.0)},
    4: {"cubes_range": (5, 6), "options_range": (4, 4), "close_range": (1.0, 1.0), "free_range": (0.8, 0.8),
        "spatial_range": (1.0, 1.0)},
    5: {"cubes_range": (6, 6), "options_range": (4, 4), "close_range": (1.0, 1.0), "free_range": (1.0, 1.0),
        "spatial_range": (1.0, 1.0)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    reference: tuple[tuple[int, int, int], ...]      # the assembly's cubes (grid cells)
    pose: tuple[float, float, float]                 # the reference's Euler angles (YXZ, degrees)
    # options in cell order: (role, kind, cubes, pose); kind "match", "mirror", "moved" or "other"
    options: tuple[tuple[str, str, tuple, tuple[float, float, float]], ...]
    colour: str
    background: tuple[int, int, int]
    target: str                     # which option matches, e.g. "option 2"
    knobs: dict = field(hash=False)


# ---------------------------------------------------------------- voxels

@lru_cache(maxsize=1)
def grid_rotations() -> tuple[np.ndarray, ...]:
    """The 24 rotations of the cube grid (signed permutation matrices of determinant +1)."""
    out = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = np.zeros((3, 3), int)
            for row, (col, sign) in enumerate(zip(perm, signs)):
                m[row, col] = sign
            if round(np.linalg.det(m)) == 1:
                out.append(m)
    return tuple(out)


def canonical(cubes) -> tuple:
    """The same tuple for two assemblies exactly when one is a rotation (and shift) of the other."""
    v = np.asarray(cubes, int)
    forms = []
    for m in grid_rotations():
        w = v @ m.T
        w -= w.min(0)
        forms.append(tuple(sorted(map(tuple, w.tolist()))))
    return min(forms)


def connected(cubes) -> bool:
    cells = set(map(tuple, cubes))
    todo, seen = [next(iter(cells))], set()
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        todo += [n for n in neighbours(c) if n in cells]
    return seen == cells


def neighbours(c) -> list[tuple[int, int, int]]:
    x, y, z = c
    return [(x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1), (x, y, z - 1)]


def grow(rng: np.random.Generator, n: int, spatial: bool) -> tuple[tuple[int, int, int], ...]:
    """A random connected assembly of n cubes (at most 4 along any axis), spanning three dimensions if
    `spatial`, else flat but not a straight rod."""
    for _ in range(200):
        cells = [(0, 0, 0)]
        while len(cells) < n:
            base = cells[int(rng.integers(len(cells)))]
            nxt = neighbours(base)[int(rng.integers(6 if spatial else 4))]
            if nxt not in cells:
                cells.append(nxt)
        span = np.ptp(np.array(cells), axis=0)
        if (span > 0).sum() >= (3 if spatial else 2) and span.max() <= 3:
            return tuple(cells)
    raise Reject(f"{NAME}.no_assembly")


def chain(rng: np.random.Generator, n: int) -> tuple[tuple[int, int, int], ...]:
    """An assembly like the Shepard-Metzler figures: straight arms of 1-3 cubes, each turning at a right
    angle from the last, spanning all three dimensions."""
    for _ in range(200):
        cells, d = [(0, 0, 0)], None
        while len(cells) < n:
            axes = [a for a in range(3) if d is None or a != d[0]]
            axis = axes[int(rng.integers(len(axes)))]
            d = (axis, 1 if rng.random() < 0.5 else -1)
            for _ in range(int(rng.integers(1, 4))):
                if len(cells) == n:
                    break
                c = list(cells[-1])
                c[d[0]] += d[1]
                cells.append(tuple(c))
        span = np.ptp(np.array(cells), axis=0)
        if len(set(cells)) == n and (span > 0).all() and span.max() <= 3:
            return tuple(cells)
    raise Reject(f"{NAME}.no_assembly")


def mirror(cubes) -> tuple:
    return tuple((-x, y, z) for x, y, z in cubes)


def moved(rng: np.random.Generator, cubes) -> tuple | None:
    """The assembly with one cube taken off and put back elsewhere (still connected), or None."""
    cells = list(cubes)
    for _ in range(60):
        k = int(rng.integers(len(cells)))
        rest = cells[:k] + cells[k + 1:]
        if not connected(rest):
            continue
        free = sorted({n for c in rest for n in neighbours(c)} - set(cells))
        spot = free[int(rng.integers(len(free)))]
        out = tuple(rest + [spot])
        if np.ptp(np.array(out), axis=0).max() <= 3:
            return out
    return None


def random_pose(rng: np.random.Generator) -> tuple[float, float, float]:
    """A uniformly random orientation, as YXZ Euler angles."""
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    a, b, c, d = q
    m = np.array([[a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)],
                  [2 * (b * c + a * d), a * a - b * b + c * c - d * d, 2 * (c * d - a * b)],
                  [2 * (b * d - a * c), 2 * (c * d + a * b), a * a - b * b - c * c + d * d]])
    return r3.euler_yxz(m)


@lru_cache(maxsize=1)
def _view_axes() -> np.ndarray:
    return r3.camera_axes(camera())


def least_shown(cubes, pose: tuple) -> float:
    """The smallest share of a face's area that any cube shows in `pose`, seen along the camera's axis
    (orthographic, cubes painted far to near): an estimate before rendering."""
    right, up, back = _view_axes()
    m = r3.rotation_matrix(pose)
    corners = np.array(list(product((-0.5, 0.5), repeat=3))) @ m.T
    mid = np.mean(cubes, axis=0)
    centres = (np.array(cubes) - mid) @ m.T
    k = 16                                  # raster pixels per cube side
    plane = np.stack([right, -up], 1)
    pts = [(c + corners) @ plane * k for c in centres]
    lo = np.min([p.min(0) for p in pts], axis=0) - 2
    n = int(np.ceil((np.max([p.max(0) for p in pts], axis=0) - lo).max())) + 4
    raster = np.zeros((n, n), np.int32)
    for i in np.argsort(centres @ back):        # far (small along back) first, near last
        hull = cv2.convexHull(np.round((pts[i] - lo) * 4).astype(np.int32))
        cv2.fillConvexPoly(raster, hull, int(i) + 1, cv2.LINE_8, shift=2)
    counts = np.bincount(raster.ravel(), minlength=len(cubes) + 1)[1:]
    return float(counts.min()) / k ** 2


def face_view(pose: tuple) -> float:
    """How squarely the camera sees the least visible of a cube's three face directions (the smallest
    component of the view direction in the assembly's own axes): near 0 a view along the grid, where
    depth steps vanish and a 3D assembly can pass for a flat one; 1/sqrt(3) at most."""
    _, _, back = _view_axes()
    return float(np.abs(r3.rotation_matrix(pose).T @ back).min())


def shown_pose(rng: np.random.Generator, cubes, propose) -> tuple[float, float, float]:
    """A pose from `propose()` that shows three faces of every cube's kind (face_view) and every cube
    (least_shown at least twice the render's limit)."""
    for _ in range(60):
        pose = propose()
        if face_view(pose) >= MIN_FACE_VIEW and least_shown(cubes, pose) >= 2 * MIN_CUBE_SHARE:
            return pose
    raise Reject(f"{NAME}.no_clear_view")


def turn_between(a: tuple, b: tuple) -> float:
    """The angle (degrees) of the rotation that takes pose a to pose b."""
    m = r3.rotation_matrix(b) @ r3.rotation_matrix(a).T
    return float(np.degrees(np.arccos(np.clip((np.trace(m) - 1) / 2, -1, 1))))


# ---------------------------------------------------------------- sampling

def layout(size: tuple[int, int], options: int) -> tuple[tuple[int, int, int, int], list[tuple[int, int, int, int]]]:
    """The reference's cell and the options' cells [x0, y0, x1, y1): 3 options share a 2x2 grid with the
    reference (top left), 4 stand in a 2x2 grid right of a reference column."""
    w, h = size
    if options == 3:
        xs, ys = [0, w // 2, w], [0, h // 2, h]
        cells = [(xs[i], ys[j], xs[i + 1], ys[j + 1]) for j in range(2) for i in range(2)]
        return cells[0], cells[1:]
    xs, ys = [0, w // 3, w // 3 + (w - w // 3) // 2, w], [0, h // 2, h]
    return (0, 0, xs[1], h), [(xs[i], ys[j], xs[i + 1], ys[j + 1]) for j in range(2) for i in (1, 2)]


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {
        "cubes": draw_knob(rng, row["cubes_range"], integer=True),
        "options": draw_knob(rng, row["options_range"], integer=True),
        "close": draw_knob(rng, row["close_range"]),
        "free": draw_knob(rng, row["free_range"]),
        "spatial": draw_knob(rng, row["spatial_range"]),
    }
    n = knobs["cubes"]

    def assembly() -> tuple:
        if rng.random() >= knobs["spatial"]:
            return grow(rng, n, False)
        return chain(rng, n) if rng.random() < 0.7 else grow(rng, n, True)

    ref = assembly()
    ref_form = canonical(ref)
    def upright():
        return float(rng.uniform(-25, 25)), float(rng.uniform(0, 360)), float(rng.uniform(-20, 20))
    pose = shown_pose(rng, ref, upright)
    free = rng.random() < knobs["free"]
    if free:
        def turned():
            for _ in range(50):
                p = random_pose(rng)
                if turn_between(pose, p) >= MIN_TURN + 10:
                    return p
            return p
    else:
        def turned():
            turn = float(rng.uniform(MIN_TURN + 10, 180)) * (1 if rng.random() < 0.5 else -1)
            return pose[0], pose[1] + turn, pose[2]
    match_pose = shown_pose(rng, ref, turned)
    n_close = int(round(knobs["close"] * (knobs["options"] - 1)))
    kinds = ["mirror"] * min(1, n_close) + ["moved"] * max(0, n_close - 1)
    kinds += ["other"] * (knobs["options"] - 1 - len(kinds))
    options = [("target", "match", ref, match_pose)]
    forms = {ref_form}
    for kind in kinds:
        cubes = None
        for _ in range(30):
            if kind == "mirror":
                cubes = mirror(ref)
            elif kind == "moved":
                cubes = moved(rng, ref)
            else:
                cubes = assembly()
            if cubes is not None and canonical(cubes) not in forms:
                break
            # an achiral assembly is its own mirror image: change a cube instead
            kind, cubes = ("moved" if kind == "mirror" else kind), None
        if cubes is None:
            raise Reject(f"{NAME}.no_distractor")
        forms.add(canonical(cubes))
        d_pose = shown_pose(rng, cubes, (lambda: random_pose(rng)) if free else
                            (lambda: (pose[0], float(rng.uniform(0, 360)), pose[2])))
        options.append(("distractor", kind, cubes, d_pose))
    order = rng.permutation(len(options))
    options = tuple(options[i] for i in order)
    colour = COLOURS[int(rng.integers(len(COLOURS)))]
    tone = int(rng.integers(236, 250))
    target = f"option {1 + next(k for k, o in enumerate(options) if o[0] == 'target')}"
    knobs.update(close=float(sum(o[1] in ("mirror", "moved") for o in options)), free=float(free))
    return Params(size=size, reference=ref, pose=pose, options=options, colour=colour,
                  background=(tone, tone, min(255, tone + 4)), target=target, knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of cubes in the assembly."""
    return float(len(params.reference))


# ---------------------------------------------------------------- drawing

def camera() -> r3.Camera:
    return r3.orbit(DISTANCE, VIEW[0], VIEW[1], fov=FOV, near=DISTANCE - 12, far=DISTANCE + 12)


def panels(params: Params) -> list[tuple[tuple, tuple, tuple]]:
    """(cell, cubes, pose) of the reference and then each option."""
    ref_cell, cells = layout(params.size, len(params.options))
    return [(ref_cell, params.reference, params.pose)] + [(c, o[2], o[3]) for c, o in zip(cells, params.options)]


def scene(params: Params) -> tuple[r3.Scene, float, list[list[int]]]:
    """The scene (every cube its own object), the cube's side in pixels, the object ids of each panel."""
    w, h = params.size
    cam = camera()
    shown = panels(params)
    reach = max(np.linalg.norm(np.array(c) - np.mean(c, axis=0), axis=1).max() + 0.87 for _, c, _ in shown)
    per_unit = h / (2 * DISTANCE * np.tan(np.deg2rad(FOV) / 2))     # pixels per world unit at the cells' depth
    smallest = min(min(x1 - x0, y1 - y0) for (x0, y0, x1, y1), _, _ in shown)
    side = FILL * smallest / (reach * per_unit)
    # faces a tint of the colour and edges a deep shade of it, so that every edge shows on every face, the
    # shaded ones too (the pure colours' shaded faces hid the edges of blue and purple cubes)
    base = s3.COLOURS[params.colour][0]
    rgb = tuple(int(v + (255 - v) * FACE_TINT) for v in base)
    edges = tuple(int(v * EDGE_SHADE) for v in base)
    objs, ids, k = [], [], 1
    for (x0, y0, x1, y1), cubes, pose in shown:
        centre = r3.screen_point(cam, params.size, ((x0 + x1) / 2, (y0 + y1) / 2), DISTANCE)
        turn = r3.rotation_matrix(pose)
        mid = np.mean(cubes, axis=0)
        panel = []
        for c in cubes:
            pos = centre + turn @ ((np.array(c) - mid) * side)
            objs.append(r3.Obj(k, (r3.Part("cube", rgb, edges=edges, shine=0.15),), tuple(float(v) for v in pos),
                               pose, (side, side, side)))
            panel.append(k)
            k += 1
        ids.append(panel)
    right, up, back = r3.camera_axes(cam)
    sun = tuple(float(v) for v in (-0.5 * right + 0.8 * up + 0.6 * back))   # from the upper left, behind the camera
    light = r3.Light(direction=sun, intensity=2.2, ambient=1.0)
    return (r3.Scene(params.size, tuple(objs), cam, light, None, "none", params.background),
            side * per_unit, ids)


def render(params: Params) -> Puzzle:
    w, h = params.size
    sc, cube_px, ids = scene(params)
    out = r3.render(sc, solo="none")
    rgb = out.rgb
    ref_cell, cells = layout(params.size, len(params.options))
    inst = np.zeros((h, w), np.uint8)
    meta, full = {}, {}
    for k, ((x0, y0, x1, y1), opt) in enumerate(zip(cells, params.options), start=1):
        inst[y0:y1, x0:x1] = k
        meta[k] = {"role": opt[0], "label": f"option {k}", "kind": opt[1]}
    ref_id = len(cells) + 1
    x0, y0, x1, y1 = ref_cell
    inst[y0:y1, x0:x1] = ref_id
    meta[ref_id] = {"role": "reference", "label": "reference", "kind": "reference"}
    # lines between the cells (outside every instance), then the reference's frame inside its cell
    line = max(1, round(LINE * min(w, h) / 320))
    xs = sorted({c[0] for c in cells + [ref_cell]} - {0})
    ys = sorted({c[1] for c in cells + [ref_cell]} - {0})
    lo, hi = line // 2 + line % 2, line // 2
    for x in xs:                  # vertical lines run the full height
        rgb[:, x - lo:x + hi] = 200
        inst[:, x - lo:x + hi] = 0
    x_from = ref_cell[2] if len(params.options) == 4 else 0     # beside a reference column: the options only
    for y in ys:
        rgb[y - lo:y + hi, x_from:] = 200
        inst[y - lo:y + hi, x_from:] = 0
    f = max(2, round(3 * min(w, h) / 320))
    cv2.rectangle(rgb, (x0 + line, y0 + line), (x1 - line - 1, y1 - line - 1), FRAME, f)
    for i in meta:
        full[i] = int(np.count_nonzero(inst == i))
    return Puzzle(rgb, inst, full, meta, {"ids": out.ids, "panels": ids, "cube_px": cube_px,
                                         "cells": [ref_cell] + list(cells)})


# ---------------------------------------------------------------- verification

def solve(params: Params, puzzle: Puzzle) -> Task:
    ref_form = canonical(params.reference)
    forms = [canonical(o[2]) for o in params.options]
    matches = [k for k, f in enumerate(forms, start=1) if f == ref_form]
    if len(matches) != 1 or params.options[matches[0] - 1][0] != "target":
        raise Reject(f"{NAME}.not_one_match")
    if len(set(forms)) != len(forms):
        raise Reject(f"{NAME}.duplicate_options")
    t = matches[0]
    checks = {"turn": turn_between(params.pose, params.options[t - 1][3])}
    if checks["turn"] < MIN_TURN:
        raise Reject(f"{NAME}.match_not_turned")
    poses = [params.pose] + [o[3] for o in params.options]
    checks["least_face_view"] = min(face_view(p) for p in poses)
    if checks["least_face_view"] < MIN_FACE_VIEW:
        raise Reject(f"{NAME}.view_along_grid")
    ids, cells = puzzle.extras["ids"], puzzle.extras["cells"]
    face = puzzle.extras["cube_px"] ** 2
    counts = np.bincount(ids.ravel(), minlength=256)
    least = min(counts[k] for panel in puzzle.extras["panels"] for k in panel) / face
    if least < MIN_CUBE_SHARE:
        raise Reject(f"{NAME}.hidden_cube")
    checks["least_cube_share"] = least
    silhouettes = []
    for (x0, y0, x1, y1), panel in zip(cells, puzzle.extras["panels"]):
        mask = np.isin(ids, panel)
        box = draw.mask_box(mask)
        m = max(2, round(4 * min(params.size) / 320))
        if box is None or box[0] < x0 + m or box[1] < y0 + m or box[2] > x1 - m or box[3] > y1 - m:
            raise Reject(f"{NAME}.clipped")
        silhouettes.append(centred(mask, box))
    match = silhouettes[t]
    alike = max(iou(match, silhouettes[k]) for k in range(1, len(silhouettes)) if k != t)
    if alike >= LOOK_ALIKE:
        raise Reject(f"{NAME}.look_alike")
    checks["most_alike_iou"] = alike
    boxes = draw.instance_boxes(puzzle.instances)
    objects = []
    for i in sorted(puzzle.meta):
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        mask = np.zeros(puzzle.instances.shape, bool)
        mask[y0:y1, x0:x1] = puzzle.instances[y0:y1, x0:x1] == i
        objects.append({"id": i, "role": puzzle.meta[i]["role"], "label": puzzle.meta[i]["label"],
                        "bbox": boxes[i], "visible_fraction": 1.0, "_mask": mask})
    target = next(o for o in objects if o["id"] == t)
    checks["options"] = float(len(params.options))
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[t],
                target_boxes=[target["bbox"]], points=[draw.inner_point(target["_mask"])],
                checks={k: round(float(v), 4) for k, v in checks.items()})


def centred(mask: np.ndarray, box) -> np.ndarray:
    """A mask's content moved to the middle of a fixed square canvas, for comparing shapes across cells."""
    x0, y0, x1, y1 = (int(v) for v in box)
    crop = mask[y0:y1, x0:x1]
    n = max(mask.shape)
    out = np.zeros((n, n), bool)
    oy, ox = (n - crop.shape[0]) // 2, (n - crop.shape[1]) // 2
    out[oy:oy + crop.shape[0], ox:ox + crop.shape[1]] = crop
    return out


def iou(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.count_nonzero(a & b)) / max(1, np.count_nonzero(a | b))


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请点击与蓝框中的图形相同（只是转了个方向）的图形"
    return "Click the shape that is the same as the one in the blue frame, only turned."
