"""Path end: curved lines leave labelled or coloured start markers, wander and cross; click where one ends."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from synth.core import paths
from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit.crossings import crossings, pair_issue
from synth.families.kit.kinds import COLOURS

NAME = "path"
DESCRIPTION = "follow a curved line from its start marker through the crossings and click where it ends"
GEOMETRIC_AUGMENT = False       # the accept region is an exact square around the end point
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
COVERS = ("OpenCaptchaWorld:Path_Finder",)
STAT, STAT_DIRECTION = "number of lines to tell apart", +1
TOLERANCE = 15                  # px at 320: half the side of the accepted square around the end
LINE_COLOURS = ("red", "blue", "green", "purple", "orange")
SAME_RGB = (70, 72, 84)         # the one colour of all lines when they are not told apart by colour
MIN_COLOUR_DIST = 70.0          # RGB distance between the measured colours of two lines of different colour
MIN_ANGLE_SAME = 40.0           # same-coloured lines cross at least this steeply (degrees) ...
MIN_ANGLE_COLOUR = 20.0         # ... differently coloured ones at least this
MARKER_CLEAR = 2.4              # other lines keep this many marker radii from a start marker
END_SPACING = 2.5               # other ends stay this many tolerances away from the asked end
SAMPLES = 36                    # points per Bezier piece
FONT = paths.font("truetype/dejavu/DejaVuSans-Bold.ttf")

TABLE = LevelTable(NAME, knobs={
    "lines_range": "number of lines",
    "pieces_range": "cubic Bezier pieces per line (more pieces wander more)",
    "wander_range": "sideways spread of a line's control points, share of the puzzle side",
    "same_colour_range": "probability that all lines share one colour (told apart by lettered start markers)",
    "width_range": "line width, px at 320",
    "end_zone_range": "lines end right of this share of the width (lower: ends also in the middle)",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"lines_range": (2, 2), "pieces_range": (1, 1), "wander_range": (0.10, 0.20), "same_colour_range": (0.0, 0.0),
        "width_range": (5, 5), "end_zone_range": (0.7, 0.7), "clutter_range": (0.0, 0.1)},
    2: {"lines_range": (2, 3), "pieces_range": (1, 2), "wander_range": (0.15, 0.25), "same_colour_range": (0.0, 0.0),
        "width_range": (4, 5), "end_zone_range": (0.6, 0.6), "clutter_range": (0.1, 0.3)},
    3: {"lines_range": (3, 3), "pieces_range": (2, 2), "wander_range": (0.2, 0.3), "same_colour_range": (0.0, 0.0),
        "width_range": (4, 4), "end_zone_range": (0.55, 0.55), "clutter_range": (0.3, 0.5)},
    4: {"lines_range": (4, 4), "pieces_range": (2, 3), "wander_range": (0.25, 0.35), "same_colour_range": (1.0, 1.0),
        "width_range": (3, 4), "end_zone_range": (0.45, 0.45), "clutter_range": (0.4, 0.6)},
    5: {"lines_range": (5, 5), "pieces_range": (2, 3), "wander_range": (0.25, 0.35), "same_colour_range": (1.0, 1.0),
        "width_range": (3, 3), "end_zone_range": (0.35, 0.35), "clutter_range": (0.5, 0.7)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                      # what the instruction names: a colour ("red") or a start letter ("B")
    asked: int                       # index of the asked line
    same_colour: bool
    # per line: (colour name or "", rgb, start label, control points ((x, y), ...) of its 3k+1 Bezier points)
    lines: tuple[tuple[str, tuple, str, tuple], ...]
    width: int
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- geometry

_T = np.linspace(0, 1, SAMPLES)[1:, None]
# cubic Bernstein weights at the samples after a piece's first point, each as the curve formula groups it
_BERNSTEIN = ((1 - _T) ** 3, 3 * (1 - _T) ** 2 * _T, 3 * (1 - _T) * _T ** 2, _T ** 3)


def polyline(ctrl) -> np.ndarray:
    """(n, 2) points along the piecewise cubic Bezier curve with control points ctrl (3k + 1 of them)."""
    p = np.asarray(ctrl, np.float64)
    k = np.arange(0, len(p) - 1, 3)[:, None, None]
    pieces = sum(w * p[k + i] for i, w in enumerate(_BERNSTEIN))       # (pieces, SAMPLES - 1, 2)
    return np.concatenate([p[:1], pieces.reshape(-1, 2)])


def line_issue(curves: list, k: int, params_like: dict, points: list) -> tuple[str | None, list]:
    """Checks of line k against itself and lines 0..k-1; `points` holds the crossings found so far."""
    lw, scale, min_angle, r, tol = (params_like[x] for x in ("lw", "scale", "min_angle", "r", "tol"))
    c = curves[k]
    if crossings(c, c, same=True):
        return "self_crossing", []
    found = []
    for j in range(k):
        reason, xs = pair_issue(c, curves[j], min_angle, lw, scale)
        if reason:
            return reason, []
        found += [(x, y, ang) for x, y, ang, _ in xs]
    pts = points + found
    for i in range(len(points), len(pts)):      # no two crossings on top of each other
        for m in range(i):
            if np.hypot(pts[i][0] - pts[m][0], pts[i][1] - pts[m][1]) < max(25 * scale, 5 * lw):
                return "crowded_crossing", []
    for j in range(k):                           # no line passes near another line's start marker
        if min(np.hypot(*(curves[j] - c[0]).T).min(), np.hypot(*(c - curves[j][0]).T).min()) < MARKER_CLEAR * r:
            return "line_near_marker", []
        if np.hypot(*(c[-1] - curves[j][-1])) < END_SPACING * tol:
            return "ends_too_close", []
        # an end touching another line would read as a junction
        if min(np.hypot(*(curves[j] - c[-1]).T).min(), np.hypot(*(c - curves[j][-1]).T).min()) < 3 * lw + 6 * scale:
            return "end_on_line", []
    return None, found


def end_clear(curves: list, k: int, setting: dict) -> bool:
    """Whether line k's end leaves its accepted square to line k: no other line or start marker comes within
    reach of the square and no other line's box is centred in it (solve's pixel checks, estimated on the curves)."""
    lw, r, tol = setting["lw"], setting["r"], setting["tol"]
    end = np.floor(curves[k][-1]) + 0.5
    for j, c in enumerate(curves):
        if j == k:
            continue
        centre = (c.min(0) + c.max(0)) / 2
        if (np.abs(c - end).max(1) < tol + lw + 1).any() or np.abs(c[0] - end).max() < tol + r + 2 \
                or np.abs(centre - end).max() < tol + lw:
            return False
    return True


def _setting(params) -> dict:
    scale = min(params.size) / 320
    return {"lw": float(params.width), "scale": scale,
            "min_angle": MIN_ANGLE_SAME if params.same_colour else MIN_ANGLE_COLOUR,
            "r": marker_radius(params.size), "tol": TOLERANCE * scale}


def check_geometry(params: Params) -> tuple[str | None, dict]:
    """(reject reason or None, measurements) for the line layout: no line crosses itself, lines cross
    steeply enough, never run alongside each other, pass no other line's marker, and ends lie apart."""
    setting = _setting(params)
    curves = [polyline(c) for _, _, _, c in params.lines]
    points: list = []
    for k in range(len(curves)):
        reason, found = line_issue(curves, k, setting, points)
        if reason:
            return reason, {}
        points += found
    ends = np.array([c[-1] for c in curves])
    d = np.hypot(*(ends[:, None, :] - ends[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    return None, {"crossings": float(len(points)), "min_crossing_angle": min([p[2] for p in points], default=90.0),
                  "min_end_distance": float(d.min())}


def marker_radius(size: tuple[int, int]) -> float:
    return 11 * min(size) / 320


# ---------------------------------------------------------------- sampling

def _turn(v: np.ndarray, degrees: float) -> np.ndarray:
    t = np.radians(degrees)
    return np.array([v[0] * np.cos(t) - v[1] * np.sin(t), v[0] * np.sin(t) + v[1] * np.cos(t)])


def wavy(rng: np.random.Generator, a: np.ndarray, b: np.ndarray, pieces: int, spread: float,
         lo: np.ndarray, hi: np.ndarray) -> list:
    """Control points of a smooth curve from a to b: anchors pushed sideways off the straight line by
    about `spread` px (kept inside lo..hi), joined by C1 cubic pieces (Catmull-Rom tangents, slightly
    perturbed)."""
    d = b - a
    length = float(np.linalg.norm(d))
    u = d / length
    nrm = np.array([-u[1], u[0]])
    anchors = [a + d * j / pieces + (nrm * rng.normal(0, spread) + u * rng.normal(0, 0.05 * length / pieces)
                                     if 0 < j < pieces else 0) for j in range(pieces + 1)]
    anchors = [anchors[0]] + [np.clip(p, lo, hi) for p in anchors[1:]]
    tangents = []
    for j in range(pieces + 1):
        if j == 0:          # leave the marker heading right
            t = _turn(np.array([1.0, 0.0]), float(np.clip(rng.normal(0, 15), -30, 30))) * length / pieces * 0.8
        elif j == pieces:
            t = _turn(anchors[j] - anchors[j - 1], rng.normal(0, 25))
        else:
            t = _turn((anchors[j + 1] - anchors[j - 1]) / 2, rng.normal(0, 15)) * (1 + 0.15 * rng.normal())
        tangents.append(t)
    ctrl = [anchors[0]]
    for j in range(pieces):
        ctrl += [anchors[j] + tangents[j] / 3, anchors[j + 1] - tangents[j + 1] / 3, anchors[j + 1]]
    return ctrl


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    knobs = {
        "lines": draw_knob(rng, row["lines_range"], integer=True),
        "same_colour": draw_knob(rng, row["same_colour_range"]),
        "width": draw_knob(rng, row["width_range"], integer=True),
        "clutter": draw_knob(rng, row["clutter_range"]),
        "end_zone": draw_knob(rng, row["end_zone_range"]),
    }
    n = knobs["lines"]
    same = bool(rng.random() < knobs["same_colour"])
    colours = [LINE_COLOURS[i] for i in rng.choice(len(LINE_COLOURS), n, replace=False)]
    letters = "ABCDE"[:n]
    m = 0.05 * side
    r = marker_radius(size)
    width = max(2, round(knobs["width"] * side / 320))
    setting = {"lw": float(width), "scale": side / 320, "min_angle": MIN_ANGLE_SAME if same else MIN_ANGLE_COLOUR,
               "r": r, "tol": TOLERANCE * side / 320}
    wander = draw_knob(rng, row["wander_range"])
    # starts down the left edge, evenly spaced; each line is drawn until it fits with the ones before it
    slots = (np.arange(n) + 0.5) / n * (h - 2 * m) + m
    starts = [(0.07 * w + r * 0.2, float(y + rng.uniform(-0.2, 0.2) * (h - 2 * m) / n)) for y in slots]
    others = [np.delete(np.array(starts), k, axis=0) for k in range(n)]
    for _ in range(4):              # a few fresh starts before giving up
        ctrls, curves, points = [], [], []
        for k in range(n):
            for _ in range(80):
                a = np.array(starts[k])
                b = np.array([rng.uniform(knobs["end_zone"], 0.93) * w, rng.uniform(0.07, 0.93) * h])
                ctrl = wavy(rng, a, b, draw_knob(rng, row["pieces_range"], integer=True), wander * side,
                            np.array([0.25 * w, 2 * m]), np.array([w - 2 * m, h - 2 * m]))
                ctrl = [tuple(p) for p in np.clip(ctrl, m, [w - m, h - m]).tolist()]
                ctrl[0] = tuple(float(v) for v in a)
                curve = polyline(ctrl)
                # a line passing by another start marker fails line_issue now (earlier markers) or blocks every
                # later line (later markers): skip it before the costlier checks
                if np.hypot(*(curve[:, None, :] - others[k]).transpose(2, 0, 1)).min() < MARKER_CLEAR * r:
                    continue
                reason, found = line_issue(curves + [curve], k, setting, points)
                if reason is None:
                    ctrls.append(tuple(ctrl))
                    curves.append(curve)
                    points += found
                    break
            else:
                break
        if len(ctrls) == n:
            break
    else:
        raise Reject(f"{NAME}.no_layout")
    lines = tuple(("" if same else colours[k], tuple(SAME_RGB if same else COLOURS[colours[k]][0]), letters[k],
                   ctrls[k]) for k in range(n))
    # ask about a line whose end looks clear from the geometry (solve checks it on the pixels)
    clear = [k for k in range(n) if end_clear(curves, k, setting)]
    if not clear:
        raise Reject(f"{NAME}.crowded_end")
    asked = clear[int(rng.integers(len(clear)))]
    knobs.update(wander=wander, crossings=float(len(points)))
    return Params(size=size, target=letters[asked] if same else colours[asked], asked=asked, same_colour=same,
                  lines=lines, width=width, clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of lines (the crossings, reported as a check, grow with it)."""
    return float(len(params.lines))


# ---------------------------------------------------------------- drawing

@lru_cache(maxsize=32)
def _font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT, px)


@lru_cache(maxsize=64)
def marker_sprite(rgb: tuple, letter: str, r: int) -> np.ndarray:
    """A round start marker: a coloured disc with a white rim, or a white disc with a dark letter."""
    n = 2 * r + 3
    img = Image.new("RGBA", (n * 4, n * 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = n * 2
    if letter:
        d.ellipse((c - 4 * r, c - 4 * r, c + 4 * r, c + 4 * r), fill=(255, 255, 255, 255), outline=(*rgb, 255),
                  width=max(4, r // 2))
    else:
        d.ellipse((c - 4 * r, c - 4 * r, c + 4 * r, c + 4 * r), fill=(*rgb, 255), outline=(255, 255, 255, 255),
                  width=max(4, r // 2))
    img = img.resize((n, n), Image.LANCZOS)
    if letter:
        ImageDraw.Draw(img).text((n / 2, n / 2 + 0.5), letter, font=_font(max(8, round(r * 1.3))), fill=(*rgb, 255),
                                 anchor="mm")
    return np.asarray(img).copy()


def render(params: Params) -> Puzzle:
    w, h = params.size
    bg = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    canvas = draw.Canvas(draw.gaussian_blur(bg, 1.5 * min(w, h) / 320))
    meta = {}
    n = len(params.lines)
    r = round(marker_radius(params.size))
    ends = []
    for i, (colour, rgb, letter, ctrl) in enumerate(params.lines, start=1):
        pts = polyline(ctrl)
        layer = np.zeros((h, w), np.uint8)
        cv2.polylines(layer, [np.round(pts * 4).astype(np.int32)], False, 255, params.width, cv2.LINE_AA, shift=2)
        x0, y0, bw, bh = cv2.boundingRect(layer)        # of the non-zero pixels
        x1, y1 = x0 + bw, y0 + bh
        rgba = np.zeros((y1 - y0, x1 - x0, 4), np.uint8)
        rgba[..., :3] = rgb
        rgba[..., 3] = layer[y0:y1, x0:x1]
        canvas.paste(rgba, int(x0), int(y0), i)
        label = f"line {letter}" if params.same_colour else f"{colour} line"
        meta[i] = {"role": "target" if i - 1 == params.asked else "distractor", "label": label,
                   "kind": colour or letter}
        ends.append(pts[-1])
    for i, (colour, rgb, letter, ctrl) in enumerate(params.lines, start=n + 1):
        spr = marker_sprite(tuple(rgb), letter if params.same_colour else "", r)
        x, y = ctrl[0]
        canvas.paste(spr, int(round(x - spr.shape[1] / 2)), int(round(y - spr.shape[0] / 2)), i)
        meta[i] = {"role": "marker", "label": f"start {letter}" if params.same_colour else f"{colour} start",
                   "kind": ""}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta, extras={"ends": ends})


# ---------------------------------------------------------------- verification

def solve(params: Params, puzzle: Puzzle) -> Task:
    w, h = params.size
    scale = min(w, h) / 320
    tol = TOLERANCE * scale
    reason, stats = check_geometry(params)
    if reason:
        raise Reject(f"{NAME}.{reason}")
    n = len(params.lines)
    t = params.asked + 1
    ex, ey = (int(v) for v in np.floor(puzzle.extras["ends"][params.asked]))
    if not (0 <= ex < w and 0 <= ey < h) or puzzle.instances[ey, ex] != t:
        raise Reject(f"{NAME}.end_hidden")
    region = [ex + 0.5 - tol, ey + 0.5 - tol, ex + 0.5 + tol, ey + 0.5 + tol]
    # only the asked line shows inside the accepted square
    r0, r1 = max(0, int(np.floor(region[1]))), min(h, int(np.ceil(region[3])))
    c0, c1 = max(0, int(np.floor(region[0]))), min(w, int(np.ceil(region[2])))
    inside = set(np.unique(puzzle.instances[r0:r1, c0:c1]).tolist()) - {0, t}
    if inside:
        raise Reject(f"{NAME}.crowded_end")
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    colours = {}
    for i in range(1, n + 1):
        # the line's box and a 1 px ring (inside the puzzle) erode as the whole puzzle would
        x0, y0, x1, y1 = (int(v) for v in boxes.get(i, (0, 0, -1, -1)))
        sl = slice(max(0, y0 - 1), min(h, y1 + 1)), slice(max(0, x0 - 1), min(w, x1 + 1))
        mask = puzzle.instances[sl] == i
        core = cv2.erode(mask.view(np.uint8), np.ones((3, 3), np.uint8)) > 0
        colours[i] = np.median(puzzle.rgb[sl][core if core.sum() >= 20 else mask].astype(np.float32), axis=0)
    min_dist = min((float(np.linalg.norm(colours[a] - colours[b])) for a in colours for b in colours if a < b),
                   default=255.0)
    if not params.same_colour and min_dist < MIN_COLOUR_DIST:
        raise Reject(f"{NAME}.colours_alike")
    objects = []
    for i, m in puzzle.meta.items():
        if i not in boxes:
            raise Reject(f"{NAME}.object_hidden")
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        mask = np.zeros(puzzle.instances.shape, bool)
        mask[y0:y1, x0:x1] = puzzle.instances[y0:y1, x0:x1] == i
        vis = float(areas[i]) / max(1, puzzle.full_area[i])
        if m["role"] == "marker" and vis < 0.999:
            raise Reject(f"{NAME}.marker_covered")
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(vis, 4), "_mask": mask})
    # a click in the middle of any other line's box must not count
    for o in objects:
        if o["role"] == "distractor":
            cx, cy = (o["bbox"][0] + o["bbox"][2]) / 2, (o["bbox"][1] + o["bbox"][3]) / 2
            if region[0] <= cx <= region[2] and region[1] <= cy <= region[3]:
                raise Reject(f"{NAME}.distractor_centre_in_target")
    checks = {"crossings": stats["crossings"], "min_crossing_angle": round(stats["min_crossing_angle"], 2),
              "min_end_distance_px": round(stats["min_end_distance"], 2),
              "min_colour_distance": round(min_dist, 2), "lines": float(n)}
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[t],
                target_boxes=[[float(v) for v in region]], points=[[ex + 0.5, ey + 0.5]],
                partial_credit=False, tolerance_px=float(tol), checks=checks)


def instruction(params: Params, lang: str) -> str:
    if params.same_colour:
        return (f"请点击从 {params.target} 出发的线条的终点" if lang == "zh"
                else f"Click where the line starting at {params.target} ends.")
    zh = COLOURS[params.target][1]
    return f"请点击{zh}线条的终点" if lang == "zh" else f"Click where the {params.target} line ends."
