"""Slide to restore (滑动还原): a photo cut into horizontal strips, one of them shifted sideways (it shows the
photo further to the right, so no edge of it gives the shift away); drag the slider knob until the strip
lines up with the picture again. The knob moves the strip by as many pixels as it moves itself. The shift
is checked on the pixels: the strip's edges must continue the picture above and below it at the true
offset, clearly better than at any other."""
import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task, visible_objects
from synth.families.kit import draw, photos

NAME = "restore"
DESCRIPTION = "a photo with one horizontal strip shifted sideways: drag the slider until the strip lines up again"
COVERS = ("Dingxiang:slide_restore",)
ANSWERS = ("drag",)             # synth.labels.reward step types of its tasks
GEOMETRIC_AUGMENT = False       # the answer is an exact pixel offset
STAT, STAT_DIRECTION = "accepted drag error (share of the puzzle width)", -1
PICTURE, STRIP, KNOB, TRACK = 1, 2, 3, 4       # instance ids
EDGE = (250, 250, 250)          # the thin lines that mark the moving strip
MIN_OVERLAP = 0.35              # offsets are compared where the moved strip still covers this share of the width
MIN_STEP = 10.0                 # at the shown offset the strip's edges jump on average by at least this (0..255)
MARGIN = 1.3                    # every offset outside the accepted window fits this many times worse ...
MIN_GAP = 4.0                   # ... and by this many grey levels
SHARP = 1.12                    # two tolerances away from the true offset, the fit is this many times worse
SEEN_SIGMA = 1.0                # px: the degraded picture's grain is smoothed this much before its fit is measured
DENY = photos.FLAT + ("OneStandsOut", "firstgeneration", "analogpattern_by_Peter_Nerlich", "MilkyWay")
FLOORS = {"fit": f"on the picture as shown (degraded), the strip's edges still fit the picture best within a third "
                 f"of the tolerance of the true offset, every offset outside twice the tolerance fits {MARGIN} times "
                 f"and {MIN_GAP} grey levels worse, and two tolerances away {SHARP} times worse"}
SUBTLE = ("Elephants", "life_by_Aitzol_Berasategi", "Dune", "Kleiber_by_Lukas_Baubkus", "GreenMeadow",
          "FreshFlower", "greentock_by_Peter_Nerlich", "Dragonfly_by_Bolly", "Picture_1A_by_freespace",
          "Autumn", "Path", "FallenLeaf", "Blinds", "RainDrops", "the-mouse", "TwoWings")

TABLE = LevelTable(NAME, knobs={
    "strips_range": "number of strips the picture is cut into",
    "middle_range": "probability that the shifted strip is the picture's middle band (else any strip)",
    "subtle_range": "probability that the photo is a subtle one (soft, blurred or finely textured)",
    "shift_range": "the strip's shift, share of the knob's travel",
    "tolerance_range": "accepted drag error, pixels at width 320 (scaled with the width)",
}, levels={
    1: {"strips_range": (2, 3), "middle_range": (0.0, 0.0), "subtle_range": (0.0, 0.0),
        "shift_range": (0.25, 0.6), "tolerance_range": (10, 10)},
    2: {"strips_range": (3, 3), "middle_range": (0.3, 0.3), "subtle_range": (0.15, 0.15),
        "shift_range": (0.2, 0.6), "tolerance_range": (8, 8)},
    3: {"strips_range": (3, 4), "middle_range": (0.6, 0.6), "subtle_range": (0.3, 0.3),
        "shift_range": (0.15, 0.62), "tolerance_range": (6, 6)},
    4: {"strips_range": (4, 5), "middle_range": (1.0, 1.0), "subtle_range": (0.45, 0.45),
        "shift_range": (0.1, 0.62), "tolerance_range": (5, 5)},
    5: {"strips_range": (5, 5), "middle_range": (1.0, 1.0), "subtle_range": (0.6, 0.6),
        "shift_range": (0.08, 0.62), "tolerance_range": (4, 4)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # "" (the sought thing is the shifted strip)
    view: photos.View
    strips: int
    moving: int                 # index of the shifted strip, from the top
    offset: int                 # how far the knob must go right (the strip shows the photo this far to the right)
    tolerance: float            # pixels
    knobs: dict


def layout(size: tuple[int, int], strips: int) -> dict:
    """Picture, strip rows and slider geometry in puzzle pixels."""
    w, h = size
    track_h = max(24, round(h * 0.11))
    margin_x, margin_y = round(w * 0.06), round(h * 0.03)
    track = (margin_x, h - track_h - margin_y, w - margin_x, h - margin_y)
    picture = (margin_x, margin_y, w - margin_x, track[1] - margin_y)
    ph = picture[3] - picture[1]
    rows = [picture[1] + round(i * ph / strips) for i in range(strips + 1)]
    return {"picture": picture, "rows": rows, "track": track, "knob": track_h,
            "travel": (track[2] - track[0]) - track_h, "line": max(1, round(min(w, h) / 320))}


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {"strips": draw_knob(rng, row["strips_range"], integer=True), "middle": draw_knob(rng, row["middle_range"]),
             "subtle": draw_knob(rng, row["subtle_range"]), "shift": draw_knob(rng, row["shift_range"]),
             "tolerance": draw_knob(rng, row["tolerance_range"])}
    n = knobs["strips"]
    middle = rng.random() < knobs["middle"]
    moving = n // 2 if middle and n >= 3 else int(rng.integers(n))
    subtle = rng.random() < knobs["subtle"]
    keys = photos.choices(SUBTLE, DENY) if subtle else photos.choices(None, DENY + SUBTLE)
    view = photos.sample_view(rng, keys)
    geo = layout(size, n)
    offset = max(1, round(knobs["shift"] * geo["travel"]))
    if offset > (1 - MIN_OVERLAP) * (geo["picture"][2] - geo["picture"][0]) - 2 * knobs["tolerance"]:
        raise ValueError(f"shift_range of level {level} reaches past the compared offsets")
    knobs.update(strips=float(n), middle=float(middle and n >= 3), subtle=float(subtle))
    return Params(size=size, target="", view=view, strips=n, moving=moving, offset=offset,
                  tolerance=round(knobs["tolerance"] * size[0] / 320, 2), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the accepted drag error as a share of the puzzle width."""
    return params.tolerance / params.size[0]


def render(params: Params) -> Puzzle:
    w, h = params.size
    geo = layout(params.size, params.strips)
    px0, py0, px1, py1 = geo["picture"]
    rgb = np.full((h, w, 3), 244, np.uint8)
    inst = np.zeros((h, w), np.uint8)
    pw = px1 - px0
    wide = photos.image(params.view, pw + geo["travel"], py1 - py0)     # the photo, and more of it on the right
    rgb[py0:py1, px0:px1] = wide[:, :pw]
    inst[py0:py1, px0:px1] = PICTURE
    y0, y1 = geo["rows"][params.moving], geo["rows"][params.moving + 1]
    # the strip shows the photo `offset` px further right: dragging the knob right by `offset` undoes it
    rgb[y0:y1, px0:px1] = wide[y0 - py0:y1 - py0, params.offset:params.offset + pw]
    lw = geo["line"]
    if params.moving > 0:
        rgb[y0:y0 + lw, px0:px1] = EDGE
    if params.moving < params.strips - 1:
        rgb[y1 - lw:y1, px0:px1] = EDGE
    inst[y0:y1, px0:px1] = STRIP
    tx0, ty0, tx1, ty1 = geo["track"]
    k = geo["knob"]
    rgb[ty0:ty1, tx0:tx1] = (222, 224, 228)
    inst[ty0:ty1, tx0:tx1] = TRACK
    rgb[ty0:ty1, tx0:tx0 + k] = (60, 130, 230)
    cy = (ty0 + ty1) // 2
    cv2.arrowedLine(rgb, (tx0 + k // 4, cy), (tx0 + 3 * k // 4, cy), (255, 255, 255), max(2, k // 12), tipLength=0.4)
    inst[ty0:ty1, tx0:tx0 + k] = KNOB
    meta = {PICTURE: {"role": "picture", "label": "picture", "kind": ""},
            STRIP: {"role": "target", "label": "shifted strip", "kind": ""},
            KNOB: {"role": "slider_knob", "label": "slider knob", "kind": ""},
            TRACK: {"role": "slider_track", "label": "slider track", "kind": ""}}
    counts = draw.instance_areas(inst)
    return Puzzle(rgb, inst, {i: int(counts[i]) for i in meta}, meta, extras={"layout": geo})


# ---------------------------------------------------------------- verification

def fit_profile(puzzle: Puzzle, params: Params) -> np.ndarray:
    """For every knob displacement d from 0 while the moved strip still covers MIN_OVERLAP of the width:
    how badly the strip, moved right by d, continues the picture where it covers it: the root mean square
    difference (0..255) between its edge rows inside the marking lines and the picture's rows just beyond
    them, over the strip's one or two edges. Each side's two nearest rows are extrapolated to the line
    between them (diagonal structures then meet where they should, not a pixel or two aside)."""
    geo = puzzle.extras["layout"]
    px0, _, px1, _ = geo["picture"]
    rows, lw = geo["rows"], geo["line"]
    y0, y1 = rows[params.moving], rows[params.moving + 1]
    pw = px1 - px0
    rgb = puzzle.rgb
    def row(y: int) -> np.ndarray:
        return rgb[y, px0:px1].astype(np.float64)
    pairs = []
    if params.moving > 0:                                             # the edge above the strip
        pairs.append((2 * row(y0 + lw) - row(y0 + lw + 1), 2 * row(y0 - 1) - row(y0 - 2)))
    if params.moving < params.strips - 1:                             # the edge below it
        pairs.append((2 * row(y1 - lw - 1) - row(y1 - lw - 2), 2 * row(y1) - row(y1 + 1)))
    strip = np.concatenate([a for a, _ in pairs], axis=1)             # (pw, 3 * edges)
    beyond = np.concatenate([b for _, b in pairs], axis=1)
    n = pw - int(np.ceil(MIN_OVERLAP * pw)) + 1                       # the displacements compared
    d = np.arange(n)
    size = 1 << int(np.ceil(np.log2(2 * pw)))                         # no wrap-round in the correlation
    # corr[d] = sum over i of strip[i] * beyond[i + d]: strip pixel i lands on picture pixel i + d
    corr = np.fft.irfft(np.conj(np.fft.rfft(strip, size, axis=0)) * np.fft.rfft(beyond, size, axis=0),
                        size, axis=0).sum(axis=1)[:n]
    s2 = np.concatenate([[0.0], np.cumsum((strip ** 2).sum(axis=1))])       # strip pixels 0 .. pw - d - 1
    b2 = np.concatenate([[0.0], np.cumsum((beyond ** 2).sum(axis=1))])      # picture pixels d .. pw - 1
    sq = s2[pw - d] + (b2[pw] - b2[d]) - 2 * corr
    return np.sqrt(np.maximum(sq / ((pw - d) * strip.shape[1]), 0.0))


def fit_checks(params: Params, fit: np.ndarray, when: str = "") -> dict[str, float]:
    """The fit's measures, or Reject(reason + `when`) unless the true offset is clearly and sharply the best."""
    best = int(np.argmin(fit))
    tol = params.tolerance
    if abs(best - params.offset) > max(1.0, tol / 3):      # the best fit lies well inside the accepted window
        raise Reject(f"{NAME}.offset_not_found{when}")
    at = float(fit[params.offset])
    if fit[0] - at < MIN_STEP:
        raise Reject(f"{NAME}.shift_not_visible{when}")
    d = np.arange(len(fit))
    away = np.abs(d - params.offset) > max(2 * tol, 4)
    runner_up = float(fit[away].min())
    if runner_up < MARGIN * at or runner_up - at < MIN_GAP:
        raise Reject(f"{NAME}.other_offset_fits{when}")
    lo, hi = max(0, params.offset - round(2 * tol)), min(len(fit) - 1, params.offset + round(2 * tol))
    near = float(min(fit[lo] if lo < params.offset else np.inf, fit[hi] if hi > params.offset else np.inf))
    if near < SHARP * at:
        raise Reject(f"{NAME}.alignment_blurry{when}")
    return {"fit_at_offset": round(at, 3), "fit_unmoved": round(float(fit[0]), 3),
            "runner_up_ratio": round(runner_up / max(at, 1e-6), 4), "sharpness": round(near / max(at, 1e-6), 4)}


def solve(params: Params, puzzle: Puzzle) -> Task:
    checks = fit_checks(params, fit_profile(puzzle, params))
    tol = params.tolerance
    geo = puzzle.extras["layout"]
    tx0, ty0, tx1, ty1 = geo["track"]
    k = geo["knob"]
    knob_box = [float(tx0), float(ty0), float(tx0 + k), float(ty1)]
    start = [tx0 + k / 2, (ty0 + ty1) / 2]
    off = float(params.offset)
    return Task(rule="drag", answer={"offset": off}, objects=visible_objects(puzzle), target_boxes=[knob_box],
                points=[start], end_boxes=[[knob_box[0] + off, knob_box[1], knob_box[2] + off, knob_box[3]]],
                end_points=[[start[0] + off, start[1]]], tolerance_px=tol, checks=checks)


def legible(params: Params, puzzle: Puzzle, task: Task, shown: np.ndarray) -> dict[str, float]:
    """The fit floor on the degraded picture: grain and blur must leave the true offset clearly and sharply the
    best, as on the clean one. The grain is smoothed first along the rows (sigma SEEN_SIGMA px; across them
    the marking lines would bleed into the edge rows), as an eye averages it over a feature: what is measured
    is what blur and compression left of the strip's edges."""
    seen = cv2.GaussianBlur(shown, (2 * round(3 * SEEN_SIGMA) + 1, 1), SEEN_SIGMA)
    checks = fit_checks(params, fit_profile(dataclasses.replace(puzzle, rgb=seen), params), "_when_degraded")
    return {"shown_" + k: v for k, v in checks.items()}


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请向右拖动滑块，使错位的图条与图片其余部分重新对齐"
    return "Drag the slider to the right until the shifted strip lines up with the rest of the picture."
