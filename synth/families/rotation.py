"""Rotation: a round picture is turned away from upright; drag the slider until it is upright again."""
import json
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.core.paths import ASSETS
from synth.families.base import Puzzle, Task, visible_objects
from synth.families.kit import draw
from synth.families.kit.kinds import emoji_kinds, kind_by_key

NAME = "rotation"
DESCRIPTION = "drag the slider to turn a rotated picture upright; the slider spans 0-360 degrees clockwise"
GEOMETRIC_AUGMENT = False       # a warp would change the very angle that is the answer
ANSWERS = ("drag",)             # synth.labels.reward step types of its tasks
COVERS = ("VenusBench-CAPTCHA:image_rotation", "Tencent:rotate")
STAT, STAT_DIRECTION = "accepted angle error (degrees)", -1
MATCH_SIZE = 96                 # side of the images compared by the orientation checks
SYMMETRY_LIMIT = 0.10           # rotated copy this close (mean abs diff / 255) to upright = ambiguous
# Kinds a person cannot set upright even when their pixels are asymmetric (drawn diagonally, or no
# canonical pose); the pixel check below still runs on every kind that is drawn.
NO_UPRIGHT = {"ball", "star", "lemon", "key", "pencil", "scissors", "guitar", "carrot", "banana", "cherry", "grapes"}
DISC, OBJECT, KNOB, TRACK = 1, 2, 3, 4   # instance ids

TABLE = LevelTable(NAME, knobs={
    "angle_step_range": "the shown angle is a multiple of this many degrees",
    "tolerance_range": "accepted error of the final angle, degrees",
    "object_size_range": "object size as a share of the disc diameter",
    "clutter_range": "texture strength of the disc background, 0 to 1",
}, levels={
    1: {"angle_step_range": (90, 90), "tolerance_range": (20, 20), "object_size_range": (0.75, 0.85),
        "clutter_range": (0.0, 0.2)},
    2: {"angle_step_range": (45, 45), "tolerance_range": (15, 15), "object_size_range": (0.7, 0.8),
        "clutter_range": (0.2, 0.4)},
    3: {"angle_step_range": (30, 30), "tolerance_range": (10, 10), "object_size_range": (0.6, 0.75),
        "clutter_range": (0.4, 0.6)},
    4: {"angle_step_range": (15, 15), "tolerance_range": (8, 8), "object_size_range": (0.55, 0.7),
        "clutter_range": (0.6, 0.8)},
    5: {"angle_step_range": (5, 5), "tolerance_range": (5, 5), "object_size_range": (0.45, 0.6),
        "clutter_range": (0.8, 1.0)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # kind key of the object in the picture
    shown_angle: float          # clockwise rotation of the shown picture away from upright
    tolerance: float
    object_size: float
    clutter: float
    bg_seed: int
    knobs: dict


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  kind: str | None = None) -> Params:
    row = TABLE.row(level)
    step = int(row["angle_step_range"][0])
    kinds = [k for k in emoji_kinds() if k.en not in NO_UPRIGHT]
    kind = kind or kinds[int(rng.integers(len(kinds)))].key
    shown = float(step * int(rng.integers(1, 360 // step)))
    knobs = {"angle_step": float(step), "tolerance": draw_knob(rng, row["tolerance_range"]),
             "object_size": draw_knob(rng, row["object_size_range"]), "clutter": draw_knob(rng, row["clutter_range"])}
    return Params(size=size, target=kind, shown_angle=shown, tolerance=knobs["tolerance"],
                  object_size=knobs["object_size"], clutter=knobs["clutter"],
                  bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the accepted error of the final angle, degrees."""
    return params.tolerance


def layout(size: tuple[int, int]) -> dict:
    """Disc and slider geometry in puzzle pixels."""
    w, h = size
    d = int(min(w, h * 0.78) * 0.9) // 2 * 2
    track_h = max(24, round(h * 0.11))
    track = (round(w * 0.06), h - track_h - round(h * 0.03), w - round(w * 0.06), h - round(h * 0.03))
    return {"disc": ((w - d) // 2, round(h * 0.03), d), "track": track, "knob": track_h}


def upright_disc(params: Params, d: int) -> tuple[np.ndarray, np.ndarray]:
    """The upright picture (RGB, d x d) and the object's alpha within it."""
    rgb = draw.background(np.random.default_rng(params.bg_seed), d, d, params.clutter)
    s = int(d * params.object_size)
    obj = draw.sprite(params.target, s)
    o = (d - s) // 2
    a = obj[..., 3].astype(np.float32) / 255
    box = rgb[o:o + s, o:o + s]
    # box * (1 - a) + colour * a + 0.5 in float32, one OpenCV pass per operation (the same products and sums)
    under = cv2.multiply(box, cv2.merge([1 - a] * 3), dtype=cv2.CV_32F)
    over = cv2.multiply(cv2.cvtColor(obj, cv2.COLOR_RGBA2RGB), cv2.merge([a] * 3), dtype=cv2.CV_32F)
    box[:] = cv2.add(cv2.add(under, over), (0.5, 0.5, 0.5, 0)).astype(np.uint8)   # alpha is 0 outside the sprite
    alpha = np.zeros((d, d), np.uint8)
    alpha[o:o + s, o:o + s] = obj[..., 3]
    return rgb, alpha


def render(params: Params) -> Puzzle:
    w, h = params.size
    geo = layout(params.size)
    x, y, d = geo["disc"]
    rgb = np.full((h, w, 3), 244, np.uint8)
    inst = np.zeros((h, w), np.uint8)
    upright, obj_alpha = upright_disc(params, d)
    m = cv2.getRotationMatrix2D((d / 2 - 0.5, d / 2 - 0.5), -params.shown_angle, 1.0)
    disc_rgb = cv2.warpAffine(upright, m, (d, d), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    obj_alpha = cv2.warpAffine(obj_alpha, m, (d, d), flags=cv2.INTER_LINEAR)
    inside = draw.disc_mask(d)
    on = obj_alpha >= draw.ALPHA_ON
    np.copyto(rgb[y:y + d, x:x + d], disc_rgb, where=inside[..., None])
    inst[y:y + d, x:x + d] = np.where(inside, np.where(on, np.uint8(OBJECT), np.uint8(DISC)), np.uint8(0))
    tx0, ty0, tx1, ty1 = geo["track"]
    k = geo["knob"]
    cv2.rectangle(rgb, (tx0, ty0), (tx1 - 1, ty1 - 1), (222, 224, 228), -1)
    inst[ty0:ty1, tx0:tx1] = TRACK
    cv2.rectangle(rgb, (tx0, ty0), (tx0 + k - 1, ty1 - 1), (60, 130, 230), -1)
    cy = (ty0 + ty1) // 2
    cv2.arrowedLine(rgb, (tx0 + k // 4, cy), (tx0 + 3 * k // 4, cy), (255, 255, 255), max(2, k // 12), tipLength=0.4)
    inst[ty0:ty1, tx0:tx0 + k] = KNOB
    meta = {DISC: {"role": "picture", "label": "picture", "kind": ""},
            OBJECT: {"role": "target", "label": kind_by_key(params.target).en, "kind": params.target},
            KNOB: {"role": "slider_knob", "label": "slider knob", "kind": ""},
            TRACK: {"role": "slider_track", "label": "slider track", "kind": ""}}
    counts = draw.instance_areas(inst)
    full = {i: int(counts[i]) for i in meta}
    full[OBJECT] = int(on.sum())
    return Puzzle(rgb, inst, full, meta, extras={"disc": geo["disc"], "upright": upright})


def _rotate(img: np.ndarray, angle_cw: float) -> np.ndarray:
    n = img.shape[0]
    m = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), -angle_cw, 1.0)
    return cv2.warpAffine(img, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


SYMMETRY_TABLE = ASSETS / "emoji" / "symmetry.json"   # symmetry_distance of every emoji, by kind key


def symmetry_profile(kind: str) -> dict[int, float]:
    """Mean abs difference (0..1) between the upright object and its copies turned by 0, 2, ..., 358 degrees,
    over the object's pixels on a neutral grey ground; low values away from 0 mean rotational ambiguity."""
    rgba = draw.sprite(kind, MATCH_SIZE).astype(np.float32)
    a = rgba[..., 3:] / 255
    img = rgba[..., :3] * a + 128 * (1 - a)
    out = {}
    for angle in range(0, 360, 2):
        rot = _rotate(img, angle)
        rot_a = _rotate(a[..., 0], angle)[..., None]
        rot = rot + 128 * (1 - rot_a)
        both = np.maximum(a, rot_a)
        out[angle] = float((np.abs(rot - img) * both).sum() / (both.sum() * 3 * 255 + 1e-6))
    return out


@lru_cache(maxsize=64)
def measure_symmetry(kind: str) -> float:
    """How far the object is from looking the same turned: the smallest profile value more than 45 degrees
    from upright (rotational symmetry repeats the picture at 180, 120, 90, 72 or 60 degrees)."""
    return float(min(v for a, v in symmetry_profile(kind).items() if min(a, 360 - a) > 45))


@lru_cache(maxsize=1)
def _symmetry_table() -> dict[str, float]:
    return json.loads(SYMMETRY_TABLE.read_text()) if SYMMETRY_TABLE.exists() else {}


def symmetry_distance(kind: str) -> float:
    """measure_symmetry(kind), read from the table assets/emoji/build_symmetry.py writes (measuring costs
    ~20 ms per kind; a test keeps the table equal to the measurement)."""
    value = _symmetry_table().get(kind)
    return measure_symmetry(kind) if value is None else value


@lru_cache(maxsize=4)
def _ring_sources(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The compared disc of an n x n image (bool mask) and, for every whole-degree clockwise turn (rows 0..359),
    where `_rotate` samples each disc pixel (x and y maps), so one remap gives `_rotate(img, a)[mask]` for all a."""
    ring = np.zeros((n, n), np.uint8)
    cv2.circle(ring, (n // 2, n // 2), int(n * 0.42), 1, -1)
    inside = ring.astype(bool)
    ys, xs = np.nonzero(inside)
    pts = np.stack([xs, ys, np.ones_like(xs)]).astype(np.float64)
    inv = np.stack([cv2.invertAffineTransform(cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), -a, 1.0))
                    for a in range(360)])
    src = inv @ pts                                     # (360, 2, pixels)
    return inside, src[:, 0].astype(np.float32), src[:, 1].astype(np.float32)


def _match_errors(upright: np.ndarray, shown: np.ndarray, angles: range) -> tuple[float, float]:
    """(mean abs difference / 255, angle) of the best of the given whole-degree clockwise turns of `upright`
    against `shown`, over the central disc."""
    inside, map_x, map_y = _ring_sources(shown.shape[0])
    rows = np.arange(angles.start, angles.stop, angles.step) % 360
    turned = cv2.remap(upright, map_x[rows], map_y[rows], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                       borderValue=0)
    errors = np.abs(turned - shown[inside]).mean(axis=(1, 2)) / 255
    best = int(np.argmin(errors))                       # first of equal errors = smallest angle, as min() did
    return float(errors[best]), float(angles[best])


def estimate_angle(puzzle: Puzzle) -> tuple[float, float]:
    """Recover the shown clockwise angle from the rendered disc: the rotation of the upright picture that
    best matches it, searched every 8 degrees at low resolution, then every degree around the best.
    Returns (angle, mean abs difference of that match / 255)."""
    x, y, d = puzzle.extras["disc"]
    def small(img, n):
        return cv2.resize(img, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32)
    shown, upright = puzzle.rgb[y:y + d, x:x + d], puzzle.extras["upright"]
    _, coarse = _match_errors(small(upright, 40), small(shown, 40), range(0, 360, 8))
    err, angle = _match_errors(small(upright, 64), small(shown, 64), range(int(coarse) - 8, int(coarse) + 9))
    return angle % 360, err


def solve(params: Params, puzzle: Puzzle) -> Task:
    tol = params.tolerance
    symmetry = symmetry_distance(params.target)
    if symmetry < SYMMETRY_LIMIT:
        raise Reject(f"{NAME}.symmetric_object")
    angle, err = estimate_angle(puzzle)
    diff = abs((angle - params.shown_angle + 180) % 360 - 180)
    if diff > max(2.0, tol / 2):
        raise Reject(f"{NAME}.angle_not_recovered")
    answer = (360.0 - params.shown_angle) % 360.0
    tx0, ty0, tx1, ty1 = layout(params.size)["track"]
    k = layout(params.size)["knob"]
    travel = (tx1 - tx0) - k
    start = [tx0 + k / 2, (ty0 + ty1) / 2]
    end_x = start[0] + answer / 360.0 * travel
    tol_px = tol / 360.0 * travel
    return Task(rule="drag", answer={"angle": answer}, objects=visible_objects(puzzle),
                target_boxes=[[float(tx0), float(ty0), float(tx0 + k), float(ty1)]], points=[start],
                end_boxes=[[tx0 + end_x - start[0], float(ty0), tx0 + k + end_x - start[0], float(ty1)]],
                end_points=[[end_x, start[1]]], tolerance_px=tol_px,
                checks={"symmetry_distance": round(symmetry, 4), "angle_estimate_error": float(diff),
                        "match_difference": round(err, 4)})


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请拖动滑块，将图片旋转至正确方向"
    return "Drag the slider to turn the picture upright."
