"""Photo rotation: a round crop of a landscape photo is shown turned away from upright; drag the slider
until it is upright again (the slider and its answer convention are rotation's: the track spans 0-360
degrees clockwise). Only photos whose upright a person can tell are drawn: a curated list of skies over
land or water, each crop checked on its pixels against its 90, 180 and 270 degree turns."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit import photos as _photos
from synth.families.rotation import estimate_angle, layout

NAME = "photo_rotation"
DESCRIPTION = "drag the slider to turn a rotated round photo upright; the slider spans 0-360 degrees clockwise"
COVERS = ("VenusBench-CAPTCHA:image_rotation", "Tencent:rotate")
ANSWERS = ("drag",)             # synth.labels.reward step types of its tasks
GEOMETRIC_AUGMENT = False       # a warp would change the very angle that is the answer
STAT, STAT_DIRECTION = "accepted angle error (degrees)", -1
DISC, KNOB, TRACK = 1, 3, 4     # instance ids (as rotation's, less its object)
CUE_SIZE = 64                   # side at which the orientation cues are measured
MIN_UPRIGHT_MARGIN = 0.8        # upright must beat every other quarter turn by this much in plausibility,
#                                 on the photo as drawn and again as shown (degraded: grain, blur, colour)
FLOORS = {"upright": f"the photo as shown (degraded), turned back upright, is more plausible upright than at any "
                     f"other quarter turn by at least {MIN_UPRIGHT_MARGIN} (brighter, smoother and bluer at the top, "
                     f"banded across: `plausibility`)"}
MIN_LEVEL_CUE = 1.3             # axis-aligned edge energy over its share at random orientations ...
FINE = 11.0                     # ... needed when the tolerance is at most this many degrees
# Photos whose upright a person tells at a glance (sky above land or water, lamps hanging from a ceiling),
# chosen by eye; SUBTLE ones (dusk, a blurred shore) come at the higher levels. LEVEL ones have a straight
# horizon, so that a person can also set them level to within a few degrees. (Left out after a look:
# skies whose reflection mirrors them, skies without ground, scenes the cues below misjudge, and a dark fog
# whose thin horizon a person lost under grain: DarkestHour.)
BOLD = ("Storm", "sunset_by_Aitzol_Berasategi", "ColdRipple", "aitzgorri_by_Aitzol_Berasategi", "Dune",
        "picosdeeuropa_by_Aitzol_Berasategi", "SafeLanding", "free_by_Peter_Nerlich")
SUBTLE = ("BytheWater", "summer_1am")
LEVEL = ("Storm", "sunset_by_Aitzol_Berasategi", "ColdRipple", "summer_1am", "BytheWater")

TABLE = LevelTable(NAME, knobs={
    "angle_step_range": "the shown angle is a multiple of this many degrees",
    "tolerance_range": "accepted error of the final angle, degrees",
    "zoom_range": "how far the photo is enlarged in the disc (more: less of the scene shows)",
    "subtle_range": "probability that the photo is a subtle one (fog, dusk, a low sun)",
}, levels={
    1: {"angle_step_range": (90, 90), "tolerance_range": (20, 20), "zoom_range": (1.0, 1.0),
        "subtle_range": (0.0, 0.0)},
    2: {"angle_step_range": (45, 45), "tolerance_range": (16, 16), "zoom_range": (1.0, 1.05),
        "subtle_range": (0.1, 0.1)},
    3: {"angle_step_range": (30, 30), "tolerance_range": (13, 13), "zoom_range": (1.0, 1.1),
        "subtle_range": (0.2, 0.2)},
    4: {"angle_step_range": (15, 15), "tolerance_range": (11, 11), "zoom_range": (1.0, 1.1),
        "subtle_range": (0.3, 0.3)},
    5: {"angle_step_range": (5, 5), "tolerance_range": (9, 9), "zoom_range": (1.0, 1.1),
        "subtle_range": (0.4, 0.4)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # "" (the sought thing is the upright of the photo)
    view: _photos.View
    shown_angle: float          # clockwise rotation of the shown picture away from upright
    tolerance: float
    knobs: dict


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    step = int(row["angle_step_range"][0])
    shown = float(step * int(rng.integers(1, 360 // step)))
    knobs = {"angle_step": float(step), "tolerance": draw_knob(rng, row["tolerance_range"]),
             "subtle": draw_knob(rng, row["subtle_range"])}
    subtle = rng.random() < knobs["subtle"]
    pool = SUBTLE if subtle else BOLD
    keys = _photos.choices(tuple(k for k in pool if k in LEVEL) if knobs["tolerance"] <= FINE else pool)
    view = _photos.sample_view(rng, keys, zoom=row["zoom_range"], flip=True)   # a mirror image stays upright
    knobs.update(subtle=float(subtle), zoom=view.zoom)
    return Params(size=size, target="", view=view, shown_angle=shown, tolerance=knobs["tolerance"], knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the accepted error of the final angle, degrees."""
    return params.tolerance


def render(params: Params) -> Puzzle:
    w, h = params.size
    geo = layout(params.size)
    x, y, d = geo["disc"]
    rgb = np.full((h, w, 3), 244, np.uint8)
    inst = np.zeros((h, w), np.uint8)
    upright = _photos.image(params.view, d, d)
    m = cv2.getRotationMatrix2D((d / 2 - 0.5, d / 2 - 0.5), -params.shown_angle, 1.0)
    disc = cv2.warpAffine(upright, m, (d, d), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    inside = draw.disc_mask(d)
    np.copyto(rgb[y:y + d, x:x + d], disc, where=inside[..., None])
    inst[y:y + d, x:x + d][inside] = DISC
    tx0, ty0, tx1, ty1 = geo["track"]
    k = geo["knob"]
    cv2.rectangle(rgb, (tx0, ty0), (tx1 - 1, ty1 - 1), (222, 224, 228), -1)
    inst[ty0:ty1, tx0:tx1] = TRACK
    cv2.rectangle(rgb, (tx0, ty0), (tx0 + k - 1, ty1 - 1), (60, 130, 230), -1)
    cy = (ty0 + ty1) // 2
    cv2.arrowedLine(rgb, (tx0 + k // 4, cy), (tx0 + 3 * k // 4, cy), (255, 255, 255), max(2, k // 12), tipLength=0.4)
    inst[ty0:ty1, tx0:tx0 + k] = KNOB
    meta = {DISC: {"role": "target", "label": "photo", "kind": ""},
            KNOB: {"role": "slider_knob", "label": "slider knob", "kind": ""},
            TRACK: {"role": "slider_track", "label": "slider track", "kind": ""}}
    counts = draw.instance_areas(inst)
    return Puzzle(rgb, inst, {i: int(counts[i]) for i in meta}, meta, extras={"disc": geo["disc"], "upright": upright})


# ---------------------------------------------------------------- orientation cues

@lru_cache(maxsize=1)
def _bands() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The compared disc and its top and bottom bands (the upper and lower 40 %) at CUE_SIZE."""
    n = CUE_SIZE
    yy, xx = np.mgrid[0:n, 0:n] + 0.5
    disc = (xx - n / 2) ** 2 + (yy - n / 2) ** 2 <= (0.46 * n) ** 2
    return disc, disc & (yy < 0.4 * n), disc & (yy > 0.6 * n)


def _small(upright: np.ndarray, n: int) -> np.ndarray:
    return cv2.resize(upright, (n, n), interpolation=cv2.INTER_AREA)


def plausibility(upright: np.ndarray) -> np.ndarray:
    """How much the picture looks upright when turned by 0, 90, 180 and 270 degrees (counter-clockwise, as
    np.rot90): the sum of four cues of a sky over land or water, each in units of its spread over the disc:
    brighter at the top than at the bottom, smoother at the top (less gradient), bluer at the top, and
    banded across rather than along (a horizon: the row means vary more than the column means)."""
    disc, top, bottom = _bands()
    small = upright if upright.shape[0] == CUE_SIZE else _small(upright, CUE_SIZE)
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB).astype(np.float32)
    light, blue = lab[..., 0] * (100 / 255), 128 - lab[..., 2]
    soft = cv2.GaussianBlur(light, (0, 0), 0.8)
    grad = np.hypot(cv2.Sobel(soft, cv2.CV_32F, 1, 0), cv2.Sobel(soft, cv2.CV_32F, 0, 1))
    spread_l, spread_g, spread_b = light[disc].std() + 5, grad[disc].mean() + 1, blue[disc].std() + 5
    on = disc.astype(np.float32)
    inside = light * on
    used = on.sum(axis=1) > 0                           # rows (and, the disc being round, columns) it crosses
    rows = (inside.sum(axis=1)[used] / on.sum(axis=1)[used]).var()
    cols = (inside.sum(axis=0)[used] / on.sum(axis=0)[used]).var()
    out = []
    for k in range(4):
        lk, gk, bk = np.rot90(light, k), np.rot90(grad, k), np.rot90(blue, k)
        across = 0.5 * np.log((rows + 1) / (cols + 1)) * (1 if k % 2 == 0 else -1)
        out.append((lk[top].mean() - lk[bottom].mean()) / spread_l + (gk[bottom].mean() - gk[top].mean()) / spread_g
                   + (bk[top].mean() - bk[bottom].mean()) / spread_b + across)
    return np.array(out, np.float64)


def level_cue(upright: np.ndarray) -> float:
    """Straight horizontal and vertical structure (a horizon, trunks, posts) that lets a person set the
    picture level to within a few degrees: the share of gradient energy within 7.5 degrees of the axes,
    over the share it would have at random orientations (1/6). Measured on `upright` as given (the
    solver passes it at 128 px)."""
    n = upright.shape[0]
    grey = cv2.cvtColor(upright, cv2.COLOR_RGB2GRAY).astype(np.float32)
    soft = cv2.GaussianBlur(grey, (0, 0), 1.0)
    gx, gy = cv2.Sobel(soft, cv2.CV_32F, 1, 0), cv2.Sobel(soft, cv2.CV_32F, 0, 1)
    yy, xx = np.mgrid[0:n, 0:n] + 0.5
    disc = (xx - n / 2) ** 2 + (yy - n / 2) ** 2 <= (0.44 * n) ** 2
    energy = (gx ** 2 + gy ** 2)[disc]
    turn = np.degrees(np.arctan2(gy[disc], gx[disc])) % 90
    near = np.minimum(turn, 90 - turn) < 7.5
    return float(energy[near].sum() / max(float(energy.sum()), 1e-6) * 6)


def solve(params: Params, puzzle: Puzzle) -> Task:
    upright = _small(puzzle.extras["upright"], 2 * CUE_SIZE)
    p = plausibility(_small(upright, CUE_SIZE))
    margin = float(p[0] - p[1:].max())
    if margin < MIN_UPRIGHT_MARGIN:
        raise Reject(f"{NAME}.upright_ambiguous")
    level = level_cue(upright) if params.tolerance <= FINE else -1.0
    if params.tolerance <= FINE and level < MIN_LEVEL_CUE:
        raise Reject(f"{NAME}.no_level_cue")
    tol = params.tolerance
    angle, err = estimate_angle(puzzle)
    diff = abs((angle - params.shown_angle + 180) % 360 - 180)
    if diff > max(2.0, tol / 2):
        raise Reject(f"{NAME}.angle_not_recovered")
    answer = (360.0 - params.shown_angle) % 360.0
    geo = layout(params.size)
    tx0, ty0, tx1, ty1 = geo["track"]
    k = geo["knob"]
    travel = (tx1 - tx0) - k
    start = [tx0 + k / 2, (ty0 + ty1) / 2]
    dx = answer / 360.0 * travel
    x, y, d = puzzle.extras["disc"]
    objects = [{"id": i, "role": puzzle.meta[i]["role"], "label": puzzle.meta[i]["label"], "bbox": box,
                "visible_fraction": 1.0}
               for i, box in ((DISC, [float(x), float(y), float(x + d), float(y + d)]),
                              (KNOB, [float(tx0), float(ty0), float(tx0 + k), float(ty1)]),
                              (TRACK, [float(tx0), float(ty0), float(tx1), float(ty1)]))]
    return Task(rule="drag", answer={"angle": answer}, objects=objects,
                target_boxes=[[float(tx0), float(ty0), float(tx0 + k), float(ty1)]], points=[start],
                end_boxes=[[tx0 + dx, float(ty0), tx0 + k + dx, float(ty1)]],
                end_points=[[start[0] + dx, start[1]]], tolerance_px=tol / 360.0 * travel,
                checks={"upright_margin": round(margin, 4), "level_cue": round(level, 4),
                        "angle_estimate_error": float(diff), "match_difference": round(err, 4)})


def legible(params: Params, puzzle: Puzzle, task: Task, shown: np.ndarray) -> dict[str, float]:
    """The upright floor on the degraded picture: the shown disc turned back must still look upright (a grey,
    grainy photo whose sky no longer reads as sky is rejected)."""
    x, y, d = puzzle.extras["disc"]
    m = cv2.getRotationMatrix2D((d / 2 - 0.5, d / 2 - 0.5), params.shown_angle, 1.0)
    back = cv2.warpAffine(np.ascontiguousarray(shown[y:y + d, x:x + d]), m, (d, d), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REFLECT)
    p = plausibility(_small(back, CUE_SIZE))
    margin = float(p[0] - p[1:].max())
    if margin < MIN_UPRIGHT_MARGIN:
        raise Reject(f"{NAME}.upright_lost_when_degraded")
    return {"shown_upright_margin": round(margin, 4)}


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "拖动滑块，将图片旋转至正确方向"
    return "Drag the slider to turn the picture upright."
