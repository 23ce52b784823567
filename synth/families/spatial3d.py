"""Spatial reasoning in a rendered 3D scene: 4-8 solids (cube, sphere, cylinder, cone, ring) of seven colours
in two sizes on a floor; "Click the large green cylinder to the left of the red cube". Relations are as
the camera sees them: left/right across the picture, in front of/behind nearer to or farther from the
camera. Verified on the render: the target shows, colours and sizes read as named, exactly one object fits
the description with clear margins, measured from the rendered silhouettes and depths."""
from dataclasses import dataclass, field

import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit import render3d as r3
from synth.families.kit import scene3d as s3

NAME = "spatial3d"
DESCRIPTION = "click the solid in a rendered 3D scene that a description of shape, colour, size and position picks out"
GEOMETRIC_AUGMENT = True         # left/right and front/behind survive a small warp
ANSWERS = ("click",)             # synth.labels.reward step types of its tasks
NEEDS_BROWSER = True             # drawn by Chromium (synth.families.kit.render3d): pipeline.warm_up leaves it out
STAT, STAT_DIRECTION = "number of objects", +1
COVERS = ("VenusBench-CAPTCHA:visual_reasoning", "GeeTest:spatial_reasoning", "Spatial-CAPTCHA-Bench:spatial_relations",
          "NetEase-Yidun:spatial_reasoning", "Aliyun:spatial_reasoning")

# shape -> (primitive, large scale (x, y, z), footprint radius at large size, highlight, English, Chinese);
# flat faces take a faint highlight (a face that mirrors the sun turns white all over)
SHAPES = {
    "cube": ("cube", (0.9, 0.9, 0.9), 0.64, 0.06, "cube", "立方体"),
    "sphere": ("sphere", (1.0, 1.0, 1.0), 0.5, 0.3, "sphere", "球体"),
    "cylinder": ("cylinder", (0.9, 1.0, 0.9), 0.45, 0.12, "cylinder", "圆柱体"),
    "cone": ("cone", (1.0, 1.15, 1.0), 0.5, 0.2, "cone", "圆锥体"),
    "ring": ("torus", (1.3, 1.3, 1.3), 0.65, 0.3, "ring", "圆环"),
}
SIZES = {"large": (1.0, "大号"), "small": (0.55, "小号")}
RELATIONS = {"left": ("to the left of", "左边"), "right": ("to the right of", "右边"),
             "front": ("in front of", "前面"), "behind": ("behind", "后面")}
FOV = 36.0
MIN_TARGET_SHARE = 0.55    # the target shows at least this share of itself ...
MIN_SHARE = 0.4            # ... the object it is placed against this much ...
SEEN_SHARE = 0.3           # ... and an object that fits either description is either this visible or hidden
MIN_PX = 110               # at 320 x 320 (scaled with the area): visible pixels of the target and its referent
LEFT_MARGIN = 0.05         # share of the width: a centroid this far beside the other's counts as left/right of it
DEPTH_MARGIN = 0.6         # world units nearer/farther, and ...
BOTTOM_MARGIN = 0.03       # ... share of the height lower/higher on screen: in front of / behind
SIZE_RATIO = 1.35          # a large object looks at least this much bigger than a small one of its shape
CROWDED = 0.35             # largest share of the target's box that other objects may cover

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of objects",
    "relation_range": "probability that the instruction places the target against another object",
    "twin_range": "probability (with a relation) of a twin of the target on the other side, so only the relation tells",
    "similar_range": "probability that a distractor shares the target's shape or colour",
    "elevation_range": "camera elevation, degrees (low: more occlusion, depth harder to judge)",
    "spread_range": "radius of the floor area the objects stand on, world units (small: crowded)",
    "gap_range": "least distance between two objects' footprints, world units (small: more occlusion)",
}, levels={
    1: {"count_range": (4, 5), "relation_range": (0.0, 0.0), "twin_range": (0.0, 0.0), "similar_range": (0.1, 0.2),
        "elevation_range": (50, 62), "spread_range": (3.2, 3.4), "gap_range": (0.5, 0.5)},
    2: {"count_range": (5, 6), "relation_range": (0.5, 0.5), "twin_range": (0.3, 0.3), "similar_range": (0.3, 0.4),
        "elevation_range": (42, 55), "spread_range": (3.0, 3.2), "gap_range": (0.4, 0.4)},
    3: {"count_range": (5, 7), "relation_range": (0.8, 0.8), "twin_range": (0.6, 0.6), "similar_range": (0.45, 0.55),
        "elevation_range": (36, 48), "spread_range": (2.9, 3.1), "gap_range": (0.3, 0.3)},
    4: {"count_range": (6, 8), "relation_range": (1.0, 1.0), "twin_range": (0.8, 0.8), "similar_range": (0.55, 0.65),
        "elevation_range": (30, 42), "spread_range": (2.8, 3.0), "gap_range": (0.2, 0.2)},
    5: {"count_range": (7, 8), "relation_range": (1.0, 1.0), "twin_range": (1.0, 1.0), "similar_range": (0.65, 0.75),
        "elevation_range": (24, 36), "spread_range": (2.7, 2.9), "gap_range": (0.1, 0.15)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    objects: tuple[tuple[str, str, str, float, float, float], ...]   # (shape, colour, size, x, z, heading)
    target_index: int
    named: tuple[str, ...]          # the target's attributes the instruction names (shape always)
    relation: str                   # "" or a key of RELATIONS
    referent_index: int             # -1 without a relation
    camera: tuple[float, float, float]          # distance, elevation, azimuth
    dressing: tuple                 # ground rgb, sky rgb, sun direction, sun intensity
    shadows: str
    target: str                     # the description, in English
    knobs: dict = field(hash=False)


# ---------------------------------------------------------------- descriptions

def describe(obj: tuple, named: tuple[str, ...], zh: bool = False) -> str:
    shape, colour, size = obj[:3]
    words = []
    if "size" in named:
        words.append(SIZES[size][1] if zh else size)
    if "colour" in named:
        words.append(s3.COLOURS[colour][1] if zh else colour)
    words.append(SHAPES[shape][5] if zh else SHAPES[shape][4])
    return ("" if zh else " ").join(words)


def matches(obj: tuple, ref: tuple, named: tuple[str, ...]) -> bool:
    return (obj[0] == ref[0] and ("colour" not in named or obj[1] == ref[1])
            and ("size" not in named or obj[2] == ref[2]))


def instruction(params: Params, lang: str) -> str:
    zh = lang == "zh"
    t = params.objects[params.target_index]
    if not params.relation:
        return f"请点击{describe(t, params.named, True)}" if zh else f"Click the {describe(t, params.named)}."
    ref = describe(params.objects[params.referent_index], ("colour",), zh)
    rel_en, rel_zh = RELATIONS[params.relation]
    if zh:
        return f"请点击{ref}{rel_zh}的{describe(t, params.named, True)}"
    return f"Click the {describe(t, params.named)} {rel_en} the {ref}."


# ---------------------------------------------------------------- sampling

def camera(params: Params) -> r3.Camera:
    dist, elev, azim = params.camera
    return r3.orbit(dist, elev, azim, target=(0.0, 0.3, 0.0), fov=FOV, near=1.0, far=150.0)


def _axes(azimuth: float) -> tuple[np.ndarray, np.ndarray]:
    """The camera's right and towards-the-camera directions on the floor (x, z)."""
    a = np.deg2rad(azimuth)
    return np.array([np.cos(a), -np.sin(a)]), np.array([np.sin(a), np.cos(a)])


def _attributes(rng, target: tuple, similar: float, avoid: list[tuple]) -> tuple[str, str, str]:
    """A distractor's (shape, colour, size): often sharing some of the target's, never all three, never the
    shape and colour of anything in `avoid`."""
    shapes, colours, sizes = list(SHAPES), list(s3.COLOURS), list(SIZES)
    shares = [("shape", "colour"), ("shape", "size"), ("colour", "size"), ("shape",), ("colour",)]
    for _ in range(50):
        keep = shares[int(rng.integers(len(shares)))] if rng.random() < similar else ()
        obj = (target[0] if "shape" in keep else shapes[int(rng.integers(len(shapes)))],
               target[1] if "colour" in keep else colours[int(rng.integers(len(colours)))],
               target[2] if "size" in keep else sizes[int(rng.integers(len(sizes)))])
        if obj != tuple(target[:3]) and all(obj[:2] != a[:2] for a in avoid):
            return obj
    raise Reject(f"{NAME}.no_distractor")


def fit_distance(objects: tuple, elevation: float, azimuth: float, size: tuple[int, int], start: float) -> float:
    """The camera distance, from `start` on, at which every object's bounding cylinder shows inside the picture
    with a margin (else Reject)."""
    ring = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    pts = []
    for shape, _, sz, x, z, _ in objects:
        kind, scale, radius, *_ = SHAPES[shape]
        k = SIZES[sz][0]
        top = scale[1] * k * (0.3 if kind == "torus" else 1.0)
        for y in (0.0, top):
            pts += [(x + radius * k * np.cos(a), y, z + radius * k * np.sin(a)) for a in ring]
    w, h = size
    m = 0.03 * min(w, h)
    for d in np.arange(start, start + 8, 0.25):
        xy = r3.project(r3.orbit(float(d), elevation, azimuth, (0.0, 0.3, 0.0), FOV), size, pts)
        if xy[:, 0].min() >= m and xy[:, 0].max() <= w - m and xy[:, 1].min() >= m and xy[:, 1].max() <= h - m:
            return float(d)
    raise Reject(f"{NAME}.no_view")


def _apart(spots: list[np.ndarray], radius: list[float], gap: float) -> bool:
    """Whether every two of `spots` keep their footprints `gap` apart."""
    return all(np.linalg.norm(spots[i] - spots[j]) >= radius[i] + radius[j] + gap
               for i in range(len(spots)) for j in range(i))


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {
        "count": draw_knob(rng, row["count_range"], integer=True),
        "relation": draw_knob(rng, row["relation_range"]),
        "twin": draw_knob(rng, row["twin_range"]),
        "similar": draw_knob(rng, row["similar_range"]),
        "elevation": draw_knob(rng, row["elevation_range"]),
        "spread": draw_knob(rng, row["spread_range"]),
        "gap": draw_knob(rng, row["gap_range"]),
    }
    n = knobs["count"]
    shapes, colours = list(SHAPES), list(s3.COLOURS)
    target = (shapes[int(rng.integers(len(shapes)))], colours[int(rng.integers(len(colours)))],
              list(SIZES)[int(rng.integers(2))])
    relation = ""
    if rng.random() < knobs["relation"]:
        relation = list(RELATIONS)[int(rng.integers(len(RELATIONS)))]
    attrs = [target]
    twin = bool(relation) and rng.random() < knobs["twin"]
    if relation:
        while True:
            ref = (shapes[int(rng.integers(len(shapes)))], colours[int(rng.integers(len(colours)))],
                   list(SIZES)[int(rng.integers(2))])
            if ref[:2] != target[:2]:
                break
        attrs.append(ref)
    if twin:
        attrs.append(target)
    while len(attrs) < n:
        attrs.append(_attributes(rng, target, knobs["similar"], attrs[1:2]))
    # the instruction names the size when another object of the target's shape and colour differs in it
    named = ["colour"]
    if any(a[:2] == target[:2] and a[2] != target[2] for a in attrs[1:]) or rng.random() < 0.3:
        named.append("size")
    named = tuple(sorted(named))

    azimuth = float(rng.uniform(0, 360))
    right, toward = _axes(azimuth)
    spread = knobs["spread"]
    radius = [SHAPES[a[0]][2] * SIZES[a[2]][0] for a in attrs]
    spots: list[np.ndarray] = []
    if relation:        # the referent near the middle, the target on the named side, its twin on the other
        u = {"left": -right, "right": right, "front": toward, "behind": -toward}[relation]
        v = toward if relation in ("left", "right") else right
        for _ in range(40):
            base = rng.uniform(-0.6, 0.6, 2)
            spots = [base + u * rng.uniform(1.5, 2.3) + v * rng.uniform(-1.0, 1.0), base]
            if twin:
                spots.append(base - u * rng.uniform(1.5, 2.3) + v * rng.uniform(-1.0, 1.0))
            if _apart(spots, radius, knobs["gap"]):
                break
        else:
            raise Reject(f"{NAME}.no_room")
    while len(spots) < n:
        for _ in range(80):
            r, a = spread * np.sqrt(rng.random()), rng.uniform(0, 2 * np.pi)
            spot = np.array([r * np.cos(a), r * np.sin(a)])
            if _apart(spots + [spot], radius, knobs["gap"]):
                spots.append(spot)
                break
        else:
            raise Reject(f"{NAME}.no_room")
    objects = tuple((*a, float(p[0]), float(p[1]), float(rng.uniform(0, 360))) for a, p in zip(attrs, spots))
    cam = (fit_distance(objects, knobs["elevation"], azimuth, size, float(rng.uniform(10.0, 11.0))),
           knobs["elevation"], azimuth)
    order = rng.permutation(n)          # scene order says nothing about roles
    objects = tuple(objects[i] for i in order)
    where = {int(k): i for i, k in enumerate(order)}
    target_index, referent_index = where[0], where[1] if relation else -1
    look = s3.dressing(rng, azimuth)
    dress = (look["ground"], look["sky"], look["sun"], look["intensity"])
    shadows = "sun" if rng.random() < 0.25 else "contact"
    desc = describe(objects[target_index], named)
    if relation:
        desc += f" {RELATIONS[relation][0]} the {describe(objects[referent_index], ('colour',))}"
    return Params(size=size, objects=objects, target_index=target_index, named=named, relation=relation,
                  referent_index=referent_index, camera=cam, dressing=dress, shadows=shadows, target=desc,
                  knobs={**knobs, "twin": float(twin), "relation": float(bool(relation))})


def stat(params: Params) -> float:
    """Difficulty statistic: the number of objects."""
    return float(len(params.objects))


# ---------------------------------------------------------------- drawing

def scene(params: Params) -> r3.Scene:
    objs = []
    for i, (shape, colour, size, x, z, heading) in enumerate(params.objects, start=1):
        kind, scale, _, shine, *_ = SHAPES[shape]
        k = SIZES[size][0]
        sx, sy, sz = (v * k for v in scale)
        height = sy * (0.3 if kind == "torus" else 1.0)
        part = r3.Part(kind, s3.COLOURS[colour][0], shine=shine)
        objs.append(r3.Obj(i, (part,), (x, height / 2, z), (0.0, heading, 0.0), (sx, sy, sz)))
    ground, sky, sun, intensity = params.dressing
    return r3.Scene(params.size, tuple(objs), camera(params), s3.light(sun, intensity), r3.Ground(ground, 400.0),
                    params.shadows, sky)


def render(params: Params) -> Puzzle:
    out = r3.render(scene(params))
    meta = {}
    for i, obj in enumerate(params.objects, start=1):
        meta[i] = {"role": "target" if i - 1 == params.target_index else "distractor",
                   "label": describe(obj, ("colour", "size")), "kind": obj[0]}
    return s3.puzzle(out, meta, {"solo": out.solo})


# ---------------------------------------------------------------- verification

def solve(params: Params, puzzle: Puzzle) -> Task:
    w, h = params.size
    inst, solo = puzzle.instances, puzzle.extras["solo"]
    ids = sorted(puzzle.meta)
    objs = {i: params.objects[i - 1] for i in ids}
    counts = np.bincount(inst.ravel(), minlength=256)
    share = {i: counts[i] / solo[i].area if solo[i].area else 0.0 for i in ids}
    t, ref = params.target_index + 1, params.referent_index + 1
    min_px = MIN_PX * w * h / 320 ** 2
    checks = {}
    for i in ids:       # wholly in the picture
        x0, y0, x1, y1 = solo[i].box
        if solo[i].area == 0 or x0 <= 0 or y0 <= 0 or x1 >= w or y1 >= h:
            raise Reject(f"{NAME}.clipped")
    if share[t] < MIN_TARGET_SHARE or counts[t] < min_px:
        raise Reject(f"{NAME}.target_hidden")
    if params.relation and (share[ref] < MIN_SHARE or counts[ref] < min_px):
        raise Reject(f"{NAME}.referent_hidden")
    # what a person can tell: colours from the pixels of every object that shows enough
    seen = [i for i in ids if share[i] >= SEEN_SHARE]
    for i in seen:
        colour, margin = s3.read_colour(puzzle.rgb, inst == i)
        if colour != objs[i][1]:
            raise Reject(f"{NAME}.colour_unclear")
        if i == t:
            checks["target_hue_margin"] = margin
    # sizes: a large object looks clearly bigger than a small one of its shape (apparent size times distance)
    focal = h / (2 * np.tan(np.deg2rad(FOV) / 2))
    extent = {i: np.sqrt(solo[i].area) * solo[i].depth_mean / focal for i in ids}
    for i in ids:
        for j in ids:
            if objs[i][0] == objs[j][0] and objs[i][2] == "large" and objs[j][2] == "small" \
                    and extent[i] < SIZE_RATIO * extent[j]:
                raise Reject(f"{NAME}.size_unclear")
    # an object that fits a description but hardly shows makes the description doubtful
    target_desc = objs[t]
    fits = [i for i in ids if matches(objs[i], target_desc, params.named)]
    if params.relation:
        refs = [i for i in ids if objs[i][:2] == objs[ref][:2]]
        if refs != [ref]:
            raise Reject(f"{NAME}.referent_not_unique")
    if any(share[i] < SEEN_SHARE for i in fits):
        raise Reject(f"{NAME}.ambiguous_visibility")
    if not params.relation:
        if fits != [t]:
            raise Reject(f"{NAME}.not_unique")
    else:
        holds = {i: relation_value(params.relation, solo[i], solo[ref], w, h) for i in fits}
        yes = [i for i, v in holds.items() if v >= 1.0]
        if yes != [t] or any(-1.0 < v < 1.0 for v in holds.values()):
            raise Reject(f"{NAME}.borderline_relation" if any(-1.0 < v < 1.0 for v in holds.values())
                         else f"{NAME}.not_unique")
        checks["relation_margin"] = holds[t]
        if len(fits) > 1:
            checks["twin_margin"] = -max(v for i, v in holds.items() if i != t)
    # the click region: the target's box, not mostly other objects
    box = draw.instance_boxes(inst)[t]
    x0, y0, x1, y1 = (int(v) for v in box)
    crop = inst[y0:y1, x0:x1]
    others = np.count_nonzero((crop != t) & (crop != 0)) / crop.size
    if others > CROWDED:
        raise Reject(f"{NAME}.target_crowded")
    objects = []
    boxes = draw.instance_boxes(inst)
    for i in ids:
        if i not in boxes:
            continue
        bx0, by0, bx1, by1 = (int(v) for v in boxes[i])
        mask = np.zeros(inst.shape, bool)
        mask[by0:by1, bx0:bx1] = inst[by0:by1, bx0:bx1] == i
        objects.append({"id": i, "role": "target" if i == t else "distractor", "label": puzzle.meta[i]["label"],
                        "bbox": boxes[i], "visible_fraction": round(float(share[i]), 4), "_mask": mask})
    target = next(o for o in objects if o["id"] == t)
    checks.update(objects=float(len(ids)), target_visible=share[t], target_box_others=others,
                  fitting_attributes=float(len(fits)))
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[t],
                target_boxes=[target["bbox"]], points=[draw.inner_point(target["_mask"])],
                checks={k: round(float(v), 4) for k, v in checks.items()})


def relation_value(relation: str, a: r3.Silhouette, ref: r3.Silhouette, w: int, h: int) -> float:
    """How far object `a` stands in `relation` to `ref` as rendered, in units of the margins: >= 1 clearly
    holds, <= -1 clearly does not, between: too close to tell. Left/right: the silhouettes' centroids across
    the picture. Front/behind: both the mean depth of the visible surface and the lowest point on screen
    (where an object meets the floor) must agree."""
    if relation in ("left", "right"):
        dx = (ref.centre[0] - a.centre[0]) if relation == "left" else (a.centre[0] - ref.centre[0])
        return dx / (LEFT_MARGIN * w)
    sign = 1 if relation == "front" else -1
    by_depth = sign * (ref.depth_mean - a.depth_mean) / DEPTH_MARGIN
    by_floor = sign * (a.box[3] - ref.box[3]) / (BOTTOM_MARGIN * h)
    if by_depth * by_floor <= 0:        # the two cues disagree
        return 0.0
    return by_depth if abs(by_depth) < abs(by_floor) else by_floor
