"""Odd one out: shapes that all share a property (number of sides, colour, size, direction) except one;
click that one. Low levels ask for "the one that is different"; higher ones name the property."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit.placement import free_spots

NAME = "odd"
DESCRIPTION = "click the one shape that differs from the rest in sides, colour, size or direction"
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
COVERS = ("OpenCaptchaWorld:Unusual_Detection", "hCaptcha:odd_one_out")
STAT, STAT_DIRECTION = "number of shapes shown", +1
PROPERTIES = ("sides", "colour", "size", "direction")
KINDS = {3: "triangle", 4: "square", 5: "pentagon", 6: "hexagon", 0: "circle"}
KINDS_ZH = {3: "三角形", 4: "正方形", 5: "五边形", 6: "六边形", 0: "圆形"}
DIRECTIONS = {"up": 270.0, "right": 0.0, "down": 90.0, "left": 180.0}   # image angles (y down), degrees
DIRECTIONS_ZH = {"up": "上", "right": "右", "down": "下", "left": "左"}
ARROW_ASPECT = 1.8           # height / base of the pointing triangles (apex 31 degrees: it shows where they point)
MIN_DELTA_E = 15.0           # the odd colour differs at least this much (CIE76) from the others ...
SAME_DELTA_E = 6.0           # ... which differ at most this much from each other
MIN_AREA_RATIO = 1.22        # the odd size differs at least this factor in area ...
SAME_AREA = 0.12             # ... and the others lie within this share of their median
POINTS_AT = 20.0             # a triangle points in a direction when its apex is within this many degrees ...
POINTS_AWAY = 45.0           # ... and clearly not when farther than this
EPSILON = 0.03             # approxPolyDP tolerance, share of the perimeter
GAP = 6                      # px at 320 between the boxes of two shapes

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of shapes",
    "named_range": "probability that the instruction names the property (otherwise: 'the one that is different')",
    "vary_range": "when the property is named, how many of the other properties vary between shapes (0-2)",
    "contrast_range": "how strongly the odd shape differs, 1 (obvious) to 0 (subtle)",
    "tilt_range": "largest random turn of a shape (named tasks only), degrees",
    "size_range": "shape size (side of a square of equal area) as a share of the puzzle's shorter side",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"count_range": (4, 5), "named_range": (0.0, 0.0), "vary_range": (0, 0), "contrast_range": (0.9, 1.0),
        "tilt_range": (0, 0), "size_range": (0.12, 0.13), "clutter_range": (0.0, 0.1)},
    2: {"count_range": (5, 6), "named_range": (0.3, 0.3), "vary_range": (0, 1), "contrast_range": (0.7, 0.85),
        "tilt_range": (0, 0), "size_range": (0.11, 0.12), "clutter_range": (0.1, 0.2)},
    3: {"count_range": (6, 7), "named_range": (0.6, 0.6), "vary_range": (1, 1), "contrast_range": (0.5, 0.7),
        "tilt_range": (0, 10), "size_range": (0.10, 0.11), "clutter_range": (0.25, 0.35)},
    4: {"count_range": (7, 8), "named_range": (1.0, 1.0), "vary_range": (1, 2), "contrast_range": (0.3, 0.5),
        "tilt_range": (0, 15), "size_range": (0.09, 0.10), "clutter_range": (0.4, 0.5)},
    5: {"count_range": (8, 9), "named_range": (1.0, 1.0), "vary_range": (2, 2), "contrast_range": (0.1, 0.3),
        "tilt_range": (0, 20), "size_range": (0.08, 0.09), "clutter_range": (0.5, 0.6)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    prop: str                   # the property in which the odd shape differs
    named: bool                 # the instruction names the property
    target: str                 # what the instruction asks for: "", "pentagon", "down", "biggest", "smallest", "colour"
    # (role, sides (0 = circle, -1 = pointing triangle), area px, turn degrees clockwise, rgb, x, y) in z-order
    shapes: tuple[tuple[str, int, float, float, tuple, int, int], ...]
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- geometry

def outline(sides: int, area: float, turn: float) -> np.ndarray:
    """Polygon (n, 2) centred on 0 of a shape of `area` px turned clockwise by `turn` degrees (image axes).
    sides: 3..6 regular polygon with a vertex (or flat side for 4) up, 0 a circle, -1 an isosceles
    triangle pointing right (turn 90 points down)."""
    if sides == -1:
        b = np.sqrt(2 * area / ARROW_ASPECT)
        hgt = ARROW_ASPECT * b
        pts = np.array([(2 * hgt / 3, 0), (-hgt / 3, -b / 2), (-hgt / 3, b / 2)])
    elif sides == 0:
        r = np.sqrt(area / np.pi)
        a = np.linspace(0, 2 * np.pi, 64, endpoint=False)
        pts = np.stack([r * np.cos(a), r * np.sin(a)], 1)
    else:
        r = np.sqrt(2 * area / (sides * np.sin(2 * np.pi / sides)))
        start = -np.pi / 2 + (np.pi / 4 if sides == 4 else 0)
        a = start + np.arange(sides) * 2 * np.pi / sides
        pts = np.stack([r * np.cos(a), r * np.sin(a)], 1)
    t = np.deg2rad(turn)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return pts @ rot.T


def extent(sides: int, area: float) -> int:
    """Side of a square that holds the shape at any turn."""
    return int(np.ceil(2 * np.hypot(*outline(sides, area, 0.0).T).max())) + 4


def shape_sprite(sides: int, area: float, turn: float, rgb: tuple) -> np.ndarray:
    n = extent(sides, area)
    pts = outline(sides, area, turn) + n / 2
    out = np.zeros((n, n, 4), np.uint8)
    poly = np.round(pts * 4).astype(np.int32)
    cv2.fillPoly(out, [poly], (*rgb, 255), cv2.LINE_AA, shift=2)
    dark = tuple(int(v * 0.6) for v in rgb)
    cv2.polylines(out, [poly], True, (*dark, 255), max(1, round(np.sqrt(area) / 22)), cv2.LINE_AA, shift=2)
    return out


def hsv_rgb(h: float, s: float, v: float) -> tuple[int, int, int]:
    px = np.uint8([[[int(round(h / 2)) % 180, int(s * 255), int(v * 255)]]])
    return tuple(int(c) for c in cv2.cvtColor(px, cv2.COLOR_HSV2RGB)[0, 0])


# ---------------------------------------------------------------- sampling

def _odd_one(rng: np.random.Generator, prop: str, c: float, base_sides: int, base_hue: float, base_area: float
             ) -> tuple[tuple[int, int], float, float, str | None, str]:
    """How the odd one differs, more the higher the contrast `c`: ((the others' sides, its sides), its hue,
    its area, its direction) and the target the instruction names."""
    odd_sides, odd_hue, odd_area, odd_dir = base_sides, base_hue, base_area, None
    if prop == "sides":
        # far pairs when the contrast is high (3 vs 6, circle vs square ...), neighbours when it is low
        pairs = [(a, b) for a in (3, 4, 5, 6, 0) for b in (3, 4, 5, 6, 0) if a != b]

        def gap(a, b):
            return 3 if 0 in (a, b) else abs(a - b)
        want = 1 if c < 0.35 else (2 if c < 0.75 else 3)
        pairs = [p for p in pairs if gap(*p) == want] or [p for p in pairs if gap(*p) >= 2]
        base_sides, odd_sides = pairs[int(rng.integers(len(pairs)))]
        return (base_sides, odd_sides), odd_hue, odd_area, odd_dir, KINDS[odd_sides]
    if prop == "colour":
        odd_hue = base_hue + (20 + 100 * c) * (1 if rng.random() < 0.5 else -1)
        return (base_sides, odd_sides), odd_hue, odd_area, odd_dir, "colour"
    if prop == "size":
        ratio = 1.35 + 0.85 * c
        bigger = rng.random() < 0.5
        odd_area = base_area * ratio if bigger else base_area / ratio
        return (base_sides, odd_sides), odd_hue, odd_area, odd_dir, "biggest" if bigger else "smallest"
    odd_dir = list(DIRECTIONS)[int(rng.integers(4))]
    return (base_sides, odd_sides), odd_hue, odd_area, odd_dir, odd_dir


def _spots(rng: np.random.Generator, shapes: list[list], size: tuple[int, int]) -> list[tuple[int, int]]:
    """Top-left corners for the shapes, none closer than GAP; where there is no room, every shape shrinks
    alike (ratios kept, in `shapes` itself) and the placing starts again."""
    w, h = size
    n = len(shapes)
    for attempt in range(4):
        boxes = [extent(s[1], s[2]) for s in shapes]
        big_first = sorted(range(n), key=lambda i: -boxes[i])      # the large ones are the hard ones to fit
        try:
            placed = free_spots(rng, w, h, [boxes[i] for i in big_first], round(GAP * min(w, h) / 320) + 2,
                                f"{NAME}.no_room")
            break
        except Reject:
            if attempt == 3:
                raise
            for s in shapes:
                s[2] *= 0.8
    spots = [None] * n
    for i, spot in zip(big_first, placed):
        spots[i] = spot
    return spots


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  prop: str | None = None) -> Params:
    row = TABLE.row(level)
    side = min(size)
    knobs = {
        "count": draw_knob(rng, row["count_range"], integer=True),
        "named": draw_knob(rng, row["named_range"]),
        "vary": draw_knob(rng, row["vary_range"], integer=True),
        "contrast": draw_knob(rng, row["contrast_range"]),
        "clutter": draw_knob(rng, row["clutter_range"]),
        "size": draw_knob(rng, row["size_range"]),
    }
    prop = prop or PROPERTIES[int(rng.integers(len(PROPERTIES)))]
    named = bool(rng.random() < knobs["named"])
    c = knobs["contrast"]
    n = knobs["count"]
    others = ["sides", "colour", "size"]
    varying = set()
    if named:      # sizes are only compared among shapes of one kind (a triangle looks bigger than a circle)
        pool = ["colour"] if prop == "size" else [p for p in others if p != prop and not
                                                   (prop == "direction" and p == "sides")]
        varying = {pool[i] for i in rng.choice(len(pool), min(knobs["vary"], len(pool)), replace=False)}
    base_area = (side * knobs["size"]) ** 2
    tilt = row["tilt_range"][1] if named else 0
    # the property's two values: the others' and the odd one's
    base_sides = [3, 4, 5, 6, 0][int(rng.integers(5))]
    base_hue = float(rng.uniform(0, 360))
    sat, val = float(rng.uniform(0.65, 0.9)), float(rng.uniform(0.7, 0.9))
    sides_pair, odd_hue, odd_area, odd_dir, target = _odd_one(rng, prop, c, base_sides, base_hue, base_area)
    base_sides, odd_sides = sides_pair
    if prop == "direction":
        rest = [d for d in DIRECTIONS if d != odd_dir]
        common = rest[int(rng.integers(len(rest)))]
        dirs = [odd_dir] + [common if not (named and level >= 4) else rest[int(rng.integers(len(rest)))]
                            for _ in range(n - 1)]
    shapes = []
    palette_hues = [base_hue + k * 360 / 7 for k in range(7)]
    for i in range(n):
        odd = i == 0
        sides = odd_sides if odd else base_sides
        area = odd_area if odd else base_area
        hue = odd_hue if odd else base_hue
        turn = 0.0
        if "sides" in varying:
            sides = [3, 4, 5, 6, 0][int(rng.integers(5))]
        if "size" in varying:
            area = base_area * float(rng.uniform(0.75, 1.3))
        if "colour" in varying:
            hue = palette_hues[int(rng.integers(7))]
        if prop == "direction":
            sides = -1
            turn = DIRECTIONS[dirs[i]]
        if tilt and sides != 0:     # the odd triangle keeps pointing where the instruction says
            turn += float(rng.uniform(-tilt, tilt)) * (0.5 if odd and prop == "direction" else 1.0)
        shapes.append(["target" if odd else "distractor", sides, float(area), float(turn),
                       hsv_rgb(hue, sat, val)])
    if prop == "sides" and named:
        # the named kind appears once: the others are all one other kind, varied in colour / size only
        for s in shapes[1:]:
            s[1] = base_sides
    spots = _spots(rng, shapes, size)
    order = rng.permutation(n)
    shapes = [tuple(shapes[i]) + spots[i] for i in order]
    knobs["varying"] = float(len(varying))
    return Params(size=size, prop=prop, named=named, target=target, shapes=tuple(shapes),
                  clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of shapes shown."""
    return float(len(params.shapes))


def render(params: Params) -> Puzzle:
    w, h = params.size
    # a softened backdrop: the texture's dots must not pass for shapes
    bg = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    canvas = draw.Canvas(draw.gaussian_blur(bg, 2.5 * min(w, h) / 320))
    meta = {}
    off = max(1, round(min(w, h) / 160))
    drawn = {}       # shapes often repeat within a puzzle (not across puzzles: their sizes and hues are continuous)
    for i, (role, sides, area, turn, rgb, x, y) in enumerate(params.shapes, start=1):
        key = (sides, area, turn, rgb)
        if key not in drawn:
            spr = shape_sprite(*key)
            shadow = np.zeros_like(spr)
            shadow[..., 3] = draw.gaussian_blur(spr[..., 3], 1.5)
            drawn[key] = spr, shadow
        spr, shadow = drawn[key]
        canvas.paste(shadow, x + off, y + off, 0, opacity=0.35, hides=False)
        canvas.paste(spr, x, y, i)
        label = KINDS.get(sides, "triangle")
        meta[i] = {"role": role, "label": label, "kind": str(sides)}
    canvas.full_area.pop(0, None)
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


# ---------------------------------------------------------------- verification

def measure(puzzle: Puzzle, i: int, box) -> dict:
    """Properties of one shape from its visible mask and pixels: vertex count, mean Lab colour of the
    inside, area, apex direction (degrees, image axes) and the apex's lead over the other corners."""
    x0, y0, x1, y1 = (int(v) for v in box)
    mask = (puzzle.instances[y0:y1, x0:x1] == i).view(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cnt = max(contours, key=cv2.contourArea)
    peri = cv2.arcLength(cnt, True)
    poly = cv2.approxPolyDP(cnt, EPSILON * peri, True)[:, 0, :].astype(np.float64)
    n = len(poly)
    mom = cv2.moments(mask, binaryImage=True)
    area = mom["m00"]
    inner = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, round(np.sqrt(area) / 12)))
    if cv2.countNonZero(inner) < 10:
        raise Reject(f"{NAME}.too_small")
    rgb = np.float32(cv2.mean(puzzle.rgb[y0:y1, x0:x1], inner)[:3]) / 255
    lab = cv2.cvtColor(rgb.reshape(1, 1, 3), cv2.COLOR_RGB2LAB)[0, 0]
    cx, cy = mom["m10"] / area, mom["m01"] / area
    d = np.hypot(poly[:, 0] - cx, poly[:, 1] - cy)
    k = int(np.argmax(d))
    lead = float(d[k] / np.sort(d)[-2]) if n >= 2 else 1.0
    direction = float(np.degrees(np.arctan2(poly[k, 1] - cy, poly[k, 0] - cx)) % 360)
    # a circle fills its circumcircle; a hexagon 83%, a square 64%.
    # The pixel farthest from the centre lies on an outer contour.
    border = np.concatenate(contours)[:, 0, :]
    reach = np.hypot(border[:, 0] - cx, border[:, 1] - cy).max() + 0.5
    round_ = area / (np.pi * reach ** 2)
    return {"vertices": n, "round": round_, "lab": lab, "area": area, "direction": direction,
            "lead": lead, "mask_box": [x0, y0, x1, y1]}


def sides_class(m: dict) -> int:
    """3..6 for polygons, 0 for a circle, -2 when unclear. A circle fills its circumcircle (a hexagon 83%)."""
    if m["round"] >= 0.89:
        return 0
    if 3 <= m["vertices"] <= 6 and m["round"] <= 0.87:
        return m["vertices"]
    return -2


def angle_diff(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def solve(params: Params, puzzle: Puzzle) -> Task:
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    ids = sorted(puzzle.meta)
    if any(i not in boxes or areas[i] < puzzle.full_area[i] * 0.999 for i in ids):
        raise Reject(f"{NAME}.not_fully_visible")
    m = {i: measure(puzzle, i, boxes[i]) for i in ids}
    cls = {i: sides_class(m[i]) for i in ids}
    # the drawn shapes must read as what they are (a hexagon that looks round is no hexagon)
    for i in ids:
        drawn = int(puzzle.meta[i]["kind"])
        if cls[i] != (3 if drawn == -1 else drawn):
            raise Reject(f"{NAME}.vertex_count_mismatch")
    lab = {i: m[i]["lab"] for i in ids}
    def de(a, b):
        return float(np.linalg.norm(lab[a] - lab[b]))
    area = {i: m[i]["area"] for i in ids}

    def single_outlier(values: dict, differs) -> int:
        """The one id whose value differs from all others, the others agreeing among themselves."""
        odd = [i for i in ids if all(differs(values[i], values[j]) for j in ids if j != i)]
        if len(odd) != 1:
            raise Reject(f"{NAME}.no_single_odd_one")
        return odd[0]

    checks = {}
    prop = params.prop
    if prop == "sides":
        odd = single_outlier(cls, lambda a, b: a != b)
        rest = {cls[i] for i in ids if i != odd}
        if len(rest) != 1 or (params.named and KINDS[cls[odd]] != params.target):
            raise Reject(f"{NAME}.no_single_odd_one")
        checks["odd_vertices"] = float(m[odd]["vertices"])
    elif prop == "colour":
        odd = single_outlier(lab, lambda a, b: np.linalg.norm(a - b) >= MIN_DELTA_E)
        rest = [i for i in ids if i != odd]
        spread = max(de(a, b) for a in rest for b in rest)
        if spread > SAME_DELTA_E:
            raise Reject(f"{NAME}.others_disagree")
        checks.update(odd_delta_e=min(de(odd, j) for j in rest), others_delta_e=spread)
    elif prop == "size":
        big = params.target == "biggest"
        odd = max(ids, key=area.get) if big else min(ids, key=area.get)
        rest = [i for i in ids if i != odd]
        med = float(np.median([area[i] for i in rest]))
        ratio = (area[odd] / max(area[i] for i in rest)) if big else (min(area[i] for i in rest) / area[odd])
        if ratio < MIN_AREA_RATIO:
            raise Reject(f"{NAME}.no_single_odd_one")
        spread = max(abs(area[i] / med - 1) for i in rest)
        if spread > SAME_AREA:
            raise Reject(f"{NAME}.others_disagree")
        checks.update(area_ratio=ratio, others_area_spread=spread)
    else:
        if any(m[i]["lead"] < 1.15 for i in ids):
            raise Reject(f"{NAME}.no_clear_apex")
        dirs = {i: m[i]["direction"] for i in ids}
        if params.named:
            want = DIRECTIONS[params.target]
            odd_l = [i for i in ids if angle_diff(dirs[i], want) <= POINTS_AT]
            if len(odd_l) != 1 or any(angle_diff(dirs[i], want) < POINTS_AWAY for i in ids if i != odd_l[0]):
                raise Reject(f"{NAME}.no_single_odd_one")
            odd = odd_l[0]
        else:
            odd = single_outlier(dirs, lambda a, b: angle_diff(a, b) >= POINTS_AWAY)
            rest = [i for i in ids if i != odd]
            if max(angle_diff(dirs[a], dirs[b]) for a in rest for b in rest) > 8:
                raise Reject(f"{NAME}.others_disagree")
        checks["odd_direction"] = dirs[odd]
    if not params.named:      # "the one that is different": nothing else may differ
        rest = list(ids)
        if prop != "sides" and len({cls[i] for i in ids}) != 1:
            raise Reject(f"{NAME}.second_difference")
        if prop != "colour" and max(de(a, b) for a in rest for b in rest) > SAME_DELTA_E:
            raise Reject(f"{NAME}.second_difference")
        if prop != "size":
            med = float(np.median(list(area.values())))
            if max(abs(a / med - 1) for a in area.values()) > SAME_AREA:
                raise Reject(f"{NAME}.second_difference")
    if puzzle.meta[odd]["role"] != "target":
        raise Reject(f"{NAME}.role_mismatch")
    objects = []
    for i in ids:
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        mask = np.zeros(puzzle.instances.shape, bool)
        mask[y0:y1, x0:x1] = puzzle.instances[y0:y1, x0:x1] == i
        objects.append({"id": i, "role": "target" if i == odd else "distractor", "label": puzzle.meta[i]["label"],
                        "bbox": boxes[i], "visible_fraction": round(float(areas[i]) / puzzle.full_area[i], 4),
                        "_mask": mask})
    target = next(o for o in objects if o["id"] == odd)
    checks["shapes"] = float(len(ids))
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[odd],
                target_boxes=[target["bbox"]], points=[draw.inner_point(target["_mask"])],
                partial_credit=False, checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    zh = lang == "zh"
    if not params.named:
        return "请点击与其他图形不同的那个图形" if zh else "Click the shape that is different from the others."
    t = params.target
    if params.prop == "sides":
        k = next(s for s, name in KINDS.items() if name == t)
        return f"请点击唯一的{KINDS_ZH[k]}" if zh else f"Click the only {t}."
    if params.prop == "colour":
        return "请点击颜色与其他图形不同的图形" if zh else "Click the shape whose colour is different."
    if params.prop == "size":
        if zh:
            return "请点击最大的图形" if t == "biggest" else "请点击最小的图形"
        return f"Click the {t} shape."
    return f"请点击尖角朝{DIRECTIONS_ZH[t]}的三角形" if zh else f"Click the triangle that points {t}."
