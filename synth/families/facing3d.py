"""Facing: little figures (a face in front, a backpack behind) or arrows lying on a floor, turned every
way; "Click the figure facing left" / "Click the arrow pointing toward you", as the camera sees it.
Verified on the render: where each object's front and back show (tag and depth passes, back-projected onto
the floor) gives its heading, which must agree with the scene's; the target faces the named way within a
tolerance and every other object of its kind is clearly turned elsewhere."""
from dataclasses import dataclass, field

import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit import render3d as r3
from synth.families.kit import scene3d as s3

NAME = "facing3d"
DESCRIPTION = ("click the figure or arrow in a rendered 3D scene that faces (points) left, right, toward or away "
               "from the viewer")
GEOMETRIC_AUGMENT = True         # a small warp keeps which way things face
ANSWERS = ("click",)             # synth.labels.reward step types of its tasks
NEEDS_BROWSER = True             # drawn by Chromium (synth.families.kit.render3d): pipeline.warm_up leaves it out
STAT, STAT_DIRECTION = "number of objects", +1
COVERS = ("Spatial-CAPTCHA-Bench:perspective_taking", "NetEase-Yidun:spatial_reasoning")

DIRECTIONS = ("left", "right", "toward", "away")
FOV = 36.0
FRONT, BACK = 1, 2               # part tags: the face / arrow head, the backpack / arrow tail
SKIN, SKIN_DARK, EYES, PACK = (236, 200, 168), (205, 150, 120), (30, 30, 36), (70, 60, 52)
FOOTPRINT = {"figure": 0.45, "arrow": 0.55}
TARGET_TOLERANCE = 24.0          # degrees: the target's measured heading within this of the named way ...
OTHERS_APART = 40.0              # ... every other object of its kind at least this far from it ...
MEASURE_AGREES = 22.0            # ... and each measured heading this close to the scene's
MIN_SHARE = 0.6                  # the target shows at least this share of itself
SEEN_SHARE = 0.25                # an object of the target's kind that shows less cannot be judged
MIN_CUE_PX = 14                  # at 320 x 320: pixels of a front or back part that tell a heading
CROWDED = 0.35                   # largest share of the target's box that other objects may cover

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of objects",
    "jitter_range": "largest turn of the target away from the named direction, degrees",
    "apart_range": "least angle between any other object's heading and the named direction, degrees",
    "decoy_range": "probability of an object of the other kind facing the named way",
    "elevation_range": "camera elevation, degrees",
    "gap_range": "least distance between two objects' footprints, world units (small: more occlusion)",
}, levels={
    1: {"count_range": (3, 4), "jitter_range": (0, 0), "apart_range": (90, 90), "decoy_range": (0.0, 0.0),
        "elevation_range": (40, 50), "gap_range": (0.6, 0.6)},
    2: {"count_range": (4, 5), "jitter_range": (0, 8), "apart_range": (75, 75), "decoy_range": (0.0, 0.0),
        "elevation_range": (36, 46), "gap_range": (0.5, 0.5)},
    3: {"count_range": (5, 6), "jitter_range": (0, 12), "apart_range": (65, 65), "decoy_range": (0.3, 0.3),
        "elevation_range": (32, 42), "gap_range": (0.4, 0.4)},
    4: {"count_range": (6, 7), "jitter_range": (0, 15), "apart_range": (55, 55), "decoy_range": (0.5, 0.5),
        "elevation_range": (28, 38), "gap_range": (0.3, 0.3)},
    5: {"count_range": (7, 8), "jitter_range": (0, 18), "apart_range": (50, 50), "decoy_range": (0.7, 0.7),
        "elevation_range": (24, 34), "gap_range": (0.25, 0.25)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    kind: str                        # "figure" or "arrow": what the instruction asks for
    direction: str                   # one of DIRECTIONS
    objects: tuple[tuple[str, str, float, float, float], ...]    # (kind, colour, x, z, heading)
    target_index: int
    camera: tuple[float, float, float]     # distance, elevation, azimuth
    dressing: tuple
    target: str                      # e.g. "figure facing left"
    knobs: dict = field(hash=False)


# ---------------------------------------------------------------- directions

def heading_of(direction: str, azimuth: float) -> float:
    """The floor heading (degrees; 0 = +z, 90 = +x, as rotation_matrix turns an object) that faces
    `direction` as a camera at `azimuth` sees it."""
    # the camera looks from azimuth a towards the middle: towards it is heading a, its right is a + 90
    return {"toward": azimuth, "away": azimuth + 180, "right": azimuth + 90, "left": azimuth - 90}[direction] % 360


def angle_apart(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


# ---------------------------------------------------------------- objects

def parts(kind: str, colour: tuple[int, int, int]) -> tuple[r3.Part, ...]:
    """An object facing +z in its own frame, standing on y = 0."""
    if kind == "arrow":
        dark = tuple(int(v * 0.55) for v in colour)
        return (r3.Part("cube", colour, (0, 0.09, -0.25), scale=(0.28, 0.18, 0.7), edges=dark, tag=BACK),
                r3.Part("wedge", colour, (0, 0.09, 0.32), scale=(0.7, 0.18, 0.5), edges=dark, tag=FRONT))
    return (
        r3.Part("cylinder", colour, (0, 0.45, 0), scale=(0.6, 0.9, 0.5)),                      # body
        r3.Part("sphere", SKIN, (0, 1.18, 0), scale=(0.56, 0.56, 0.56), shine=0.1),            # head
        r3.Part("sphere", EYES, (0, 1.24, 0.2), scale=(0.36, 0.12, 0.2), shine=0.6, tag=FRONT),  # visor
        r3.Part("cone", SKIN_DARK, (0, 1.1, 0.3), (90, 0, 0), (0.16, 0.22, 0.16), tag=FRONT),   # nose
        r3.Part("cube", PACK, (0, 0.55, -0.3), scale=(0.42, 0.5, 0.2), tag=BACK),              # backpack
    )


# ---------------------------------------------------------------- sampling

def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {
        "count": draw_knob(rng, row["count_range"], integer=True),
        "jitter": draw_knob(rng, row["jitter_range"]),
        "apart": draw_knob(rng, row["apart_range"]),
        "decoy": draw_knob(rng, row["decoy_range"]),
        "elevation": draw_knob(rng, row["elevation_range"]),
        "gap": draw_knob(rng, row["gap_range"]),
    }
    n = knobs["count"]
    kind = "figure" if rng.random() < 0.6 else "arrow"
    other = "arrow" if kind == "figure" else "figure"
    direction = DIRECTIONS[int(rng.integers(4))]
    azimuth = float(rng.uniform(0, 360))
    want = heading_of(direction, azimuth)
    colours = list(s3.COLOURS)
    decoy = rng.random() < knobs["decoy"]
    objects = [(kind, want + float(rng.uniform(-knobs["jitter"], knobs["jitter"])))]
    if decoy:
        objects.append((other, want + float(rng.uniform(-10, 10))))
    cardinal = level <= 2
    while len(objects) < n:
        k = kind if rng.random() < (0.75 if decoy else 1.0) else other
        if cardinal:       # the other three ways, a little off at level 2
            d = [x for x in DIRECTIONS if x != direction][int(rng.integers(3))]
            h = heading_of(d, azimuth) + float(rng.uniform(-knobs["jitter"], knobs["jitter"]))
        else:
            h = want + float(rng.uniform(knobs["apart"], 360 - knobs["apart"]))
        objects.append((k, h % 360))
    spots: list[np.ndarray] = []
    radius = [FOOTPRINT[k] for k, _ in objects]
    spread = 1.0 + 0.32 * n
    for i in range(n):
        for _ in range(100):
            r, a = spread * np.sqrt(rng.random()), rng.uniform(0, 2 * np.pi)
            spot = np.array([r * np.cos(a), r * np.sin(a)])
            if all(np.linalg.norm(spot - s) >= radius[i] + radius[j] + knobs["gap"] for j, s in enumerate(spots)):
                spots.append(spot)
                break
        else:
            raise Reject(f"{NAME}.no_room")
    placed = [(k, colours[int(rng.integers(len(colours)))], float(p[0]), float(p[1]), float(h % 360))
              for (k, h), p in zip(objects, spots)]
    order = rng.permutation(n)
    placed = tuple(placed[i] for i in order)
    target_index = int(np.nonzero(order == 0)[0][0])
    dist = fit_distance(placed, knobs["elevation"], azimuth, size, float(rng.uniform(6.0, 7.0)))
    look = s3.dressing(rng, azimuth)
    knobs["decoy"] = float(decoy)
    verb = "facing" if kind == "figure" else "pointing"
    return Params(size=size, kind=kind, direction=direction, objects=placed, target_index=target_index,
                  camera=(dist, knobs["elevation"], azimuth),
                  dressing=(look["ground"], look["sky"], look["sun"], look["intensity"]),
                  target=f"{kind} {verb} {direction}", knobs=knobs)


def camera(params: Params) -> r3.Camera:
    dist, elev, azim = params.camera
    return r3.orbit(dist, elev, azim, target=(0.0, 0.4, 0.0), fov=FOV, near=1.0, far=150.0)


def fit_distance(objects, elevation: float, azimuth: float, size: tuple[int, int], start: float) -> float:
    """The camera distance, from `start` on, at which every object shows whole inside the picture."""
    ring = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    pts = []
    for kind, _, x, z, _ in objects:
        r, top = FOOTPRINT[kind], 1.5 if kind == "figure" else 0.2
        for y in (0.0, top):
            pts += [(x + r * np.cos(a), y, z + r * np.sin(a)) for a in ring]
    w, h = size
    m = 0.03 * min(w, h)
    for d in np.arange(start, start + 10, 0.25):
        xy = r3.project(r3.orbit(float(d), elevation, azimuth, (0.0, 0.4, 0.0), FOV), size, pts)
        if xy[:, 0].min() >= m and xy[:, 0].max() <= w - m and xy[:, 1].min() >= m and xy[:, 1].max() <= h - m:
            return float(d)
    raise Reject(f"{NAME}.no_view")


def stat(params: Params) -> float:
    """Difficulty statistic: the number of objects."""
    return float(len(params.objects))


# ---------------------------------------------------------------- drawing

def scene(params: Params) -> r3.Scene:
    objs = tuple(r3.Obj(i, parts(kind, s3.COLOURS[colour][0]), (x, 0.0, z), (0.0, heading, 0.0))
                 for i, (kind, colour, x, z, heading) in enumerate(params.objects, start=1))
    ground, sky, sun, intensity = params.dressing
    return r3.Scene(params.size, objs, camera(params), s3.light(sun, intensity), r3.Ground(ground, 400.0),
                    "contact", sky)


def render(params: Params) -> Puzzle:
    out = r3.render(scene(params), depth=True, tags=True)
    meta = {}
    for i, (kind, colour, *_rest) in enumerate(params.objects, start=1):
        meta[i] = {"role": "target" if i - 1 == params.target_index else "distractor",
                   "label": f"{colour} {kind}", "kind": kind}
    return s3.puzzle(out, meta, {"solo": out.solo, "depth": out.depth, "tags": out.tags})


# ---------------------------------------------------------------- verification

def measured_heading(params: Params, puzzle: Puzzle, i: int) -> float | None:
    """Object i's heading as rendered, from where its front and back parts show: the floor positions of
    their visible pixels, back-projected with the depth pass. With both in sight, the way from back to front
    (what bias the visible surfaces have, towards the camera, both share); with one, the way from the
    object's centre to it (or from it, for the back). None when neither shows."""
    cam = camera(params)
    w, h = params.size
    mask = puzzle.instances == i
    tags, depth = puzzle.extras["tags"], puzzle.extras["depth"]
    min_px = MIN_CUE_PX * w * h / 320 ** 2
    pos = np.asarray(cam.position, float)
    right, up, back = r3.camera_axes(cam)
    t = np.tan(np.deg2rad(FOV) / 2)
    seen = {}
    for tag in (FRONT, BACK):
        ys, xs = np.nonzero(mask & (tags == tag))
        if len(xs) < min_px:
            continue
        d = depth[ys, xs].astype(float)
        ndc_x, ndc_y = 2 * (xs + 0.5) / w - 1, 1 - 2 * (ys + 0.5) / h
        # the point at camera depth d on each pixel's ray (screen_point, for every pixel at once)
        pts = pos - np.outer(d, back) + np.outer(ndc_x * d * t * w / h, right) + np.outer(ndc_y * d * t, up)
        seen[tag] = pts[:, [0, 2]].mean(0)
    centre = np.array(params.objects[i - 1][2:4])
    if FRONT in seen and BACK in seen:
        v = seen[FRONT] - seen[BACK]
    elif FRONT in seen:
        v = seen[FRONT] - centre
    elif BACK in seen:
        v = centre - seen[BACK]
    else:
        return None
    if np.linalg.norm(v) < 0.05:
        return None
    return float(np.degrees(np.arctan2(v[0], v[1])) % 360)


def solve(params: Params, puzzle: Puzzle) -> Task:
    w, h = params.size
    inst, solo = puzzle.instances, puzzle.extras["solo"]
    ids = sorted(puzzle.meta)
    counts = np.bincount(inst.ravel(), minlength=256)
    share = {i: counts[i] / solo[i].area if solo[i].area else 0.0 for i in ids}
    t = params.target_index + 1
    want = heading_of(params.direction, params.camera[2])
    for i in ids:
        x0, y0, x1, y1 = solo[i].box
        if solo[i].area == 0 or x0 <= 0 or y0 <= 0 or x1 >= w or y1 >= h:
            raise Reject(f"{NAME}.clipped")
    if share[t] < MIN_SHARE:
        raise Reject(f"{NAME}.target_hidden")
    checks = {}
    same_kind = [i for i in ids if params.objects[i - 1][0] == params.kind]
    for i in same_kind:
        scene_heading = params.objects[i - 1][4]
        if share[i] < SEEN_SHARE:
            raise Reject(f"{NAME}.ambiguous_visibility")
        seen = measured_heading(params, puzzle, i)
        if seen is None or angle_apart(seen, scene_heading) > MEASURE_AGREES:
            raise Reject(f"{NAME}.facing_unclear")
        off = max(angle_apart(seen, want), angle_apart(scene_heading, want))
        if i == t:
            if off > TARGET_TOLERANCE:
                raise Reject(f"{NAME}.target_off_direction")
            checks["target_off"] = off
        elif min(angle_apart(seen, want), angle_apart(scene_heading, want)) < OTHERS_APART:
            raise Reject(f"{NAME}.second_candidate")
    apart = [min(angle_apart(params.objects[i - 1][4], want), 180.0) for i in same_kind if i != t]
    checks["nearest_other"] = min(apart) if apart else 180.0
    box = draw.instance_boxes(inst)[t]
    x0, y0, x1, y1 = (int(v) for v in box)
    crop = inst[y0:y1, x0:x1]
    others = np.count_nonzero((crop != t) & (crop != 0)) / crop.size
    if others > CROWDED:
        raise Reject(f"{NAME}.target_crowded")
    boxes = draw.instance_boxes(inst)
    objects = []
    for i in ids:
        if i not in boxes:
            continue
        bx0, by0, bx1, by1 = (int(v) for v in boxes[i])
        mask = np.zeros(inst.shape, bool)
        mask[by0:by1, bx0:bx1] = inst[by0:by1, bx0:bx1] == i
        objects.append({"id": i, "role": "target" if i == t else "distractor", "label": puzzle.meta[i]["label"],
                        "bbox": boxes[i], "visible_fraction": round(float(share[i]), 4), "_mask": mask})
    target = next(o for o in objects if o["id"] == t)
    checks.update(objects=float(len(ids)), target_visible=share[t], target_box_others=others)
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[t],
                target_boxes=[target["bbox"]], points=[draw.inner_point(target["_mask"])],
                checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    d, figure = params.direction, params.kind == "figure"
    if lang == "zh":
        if figure:
            way = {"left": "面朝左边", "right": "面朝右边", "toward": "面朝你", "away": "背对你"}[d]
            return f"请点击{way}的小人"
        way = {"left": "指向左边", "right": "指向右边", "toward": "指向你", "away": "指向远处"}[d]
        return f"请点击{way}的箭头"
    if figure:
        way = {"left": "facing left", "right": "facing right", "toward": "facing you",
               "away": "facing away from you"}[d]
        return f"Click the figure {way}."
    way = {"left": "pointing left", "right": "pointing right", "toward": "pointing toward you",
           "away": "pointing away from you"}[d]
    return f"Click the arrow {way}."
