"""Slide to restore (滑动还原), stepped: a photo cut into horizontal strips, every other strip shifted sideways
(it shows the photo further to the right, so the picture looks torn); drag the slider knob and the shifted
strips follow it, pixel for pixel. Released with the strips lined up within the level's tolerance, the
puzzle is solved (such sliders check on release: NEEDS_VERIFY is False); released anywhere else, the knob
and the strips stay where they are, and the next drag starts from there.

restore's layout, photos and pixel check are used: the strips' edges, moved by the true shift, must continue
the picture above and below them clearly better than at any other shift (the edges of all shifted strips
counted together)."""
from dataclasses import dataclass

import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import centre, inside
from synth.core.levels import LevelTable, draw_knob
from synth.episodes.base import drag
from synth.families import restore
from synth.families.base import Puzzle
from synth.families.kit import photos as _photos
from synth.families.kit import ui

NAME = "slider_restore"
DESCRIPTION = "drag the slider knob until the shifted strips of a torn photo line up with the rest of it"
COVERS = ("Dingxiang:slide_restore",)
ANSWERS = ("drag",)
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, False, 0.0
GROUND, TRACK, FILL, KNOB, KNOB_EDGE, ARROW = ((244, 244, 244), (226, 229, 234), (196, 218, 248), (255, 255, 255),
                                               (190, 196, 206), (60, 130, 230))
TRIES = 3                       # views and shifts drawn before the draw is rejected

TABLE = LevelTable(NAME, knobs={
    "strips_range": "number of strips the picture is cut into (every other one is shifted)",
    "subtle_range": "probability that the photo is a subtle one (soft, blurred or finely textured)",
    "marked_range": "probability that thin light lines mark the shifted strips' edges",
    "shift_range": "the strips' shift, share of the knob's travel",
    "tolerance_range": "accepted alignment error, pixels at width 320 (scaled with the width)",
}, levels={
    1: {"strips_range": (3, 3), "subtle_range": (0.0, 0.0), "marked_range": (1.0, 1.0),
        "shift_range": (0.25, 0.6), "tolerance_range": (10, 10)},
    2: {"strips_range": (3, 4), "subtle_range": (0.15, 0.15), "marked_range": (1.0, 1.0),
        "shift_range": (0.2, 0.6), "tolerance_range": (8, 8)},
    3: {"strips_range": (4, 5), "subtle_range": (0.3, 0.3), "marked_range": (0.7, 0.7),
        "shift_range": (0.15, 0.62), "tolerance_range": (6, 6)},
    4: {"strips_range": (5, 6), "subtle_range": (0.45, 0.45), "marked_range": (0.4, 0.4),
        "shift_range": (0.1, 0.62), "tolerance_range": (5, 5)},
    5: {"strips_range": (6, 8), "subtle_range": (0.6, 0.6), "marked_range": (0.0, 0.0),
        "shift_range": (0.08, 0.62), "tolerance_range": (4, 4)},
})


@dataclass
class State:
    size: tuple[int, int]
    strips: int
    shifted: list[int]          # the strips (from the top) that follow the knob
    offset: int                 # the knob position (pixels right of its start) that lines them up
    tolerance: float            # pixels
    marked: bool                # lines mark the shifted strips' edges
    wide: np.ndarray            # the photo, as wide as the picture and the knob's travel
    base: np.ndarray            # the widget with the picture whole (no strip shifted) and no knob
    knob_patch: np.ndarray
    photo: str
    knob: float = 0.0           # the knob's position, pixels right of its start
    drags: int = 0


def _geo(state: State) -> dict:
    return restore.layout(state.size, state.strips)


def knob_box(state: State) -> list[float]:
    geo = _geo(state)
    x0, y0, _, y1 = geo["track"]
    x = x0 + state.knob
    return [float(x), float(y0), float(x + geo["knob"]), float(y1)]


def _strips(rgb: np.ndarray, geo: dict, wide: np.ndarray, shifted: list[int], knob: int, marked: bool) -> None:
    """Paint the shifted strips as they stand with the knob `knob` px from its start: each shows the photo
    travel - knob px to the right of where the picture's window starts in `wide`."""
    px0, py0, px1, _ = geo["picture"]
    pw, lw, start = px1 - px0, geo["line"], geo["travel"] - knob
    rows, last = geo["rows"], len(geo["rows"]) - 2
    for i in shifted:
        y0, y1 = rows[i], rows[i + 1]
        rgb[y0:y1, px0:px1] = wide[y0 - py0:y1 - py0, start:start + pw]
        if marked and i > 0:
            rgb[y0:y0 + lw, px0:px1] = restore.EDGE
        if marked and i < last:
            rgb[y1 - lw:y1, px0:px1] = restore.EDGE


def _chrome(size: tuple[int, int], geo: dict) -> tuple[np.ndarray, np.ndarray]:
    """The widget's ground with the bare track, and the knob (a white rounded key with a blue arrow)."""
    p = ui.Painter(size, GROUND)
    x0, y0, x1, y1 = geo["track"]
    p.rect([x0, y0 + 4, x1, y1 - 4], fill=TRACK, radius=(y1 - y0 - 8) / 2)
    k = geo["knob"]
    key = ui.Painter((k, k), GROUND)
    key.rect([1, 1, k - 1, k - 1], fill=KNOB, outline=KNOB_EDGE, width=1, radius=k / 6)
    a, cy = k * 0.22, k / 2
    key.line([(k / 2 - a, cy), (k / 2 + a, cy)], fill=ARROW, width=max(2, k / 14))
    key.line([(k / 2 + a * 0.3, cy - a * 0.6), (k / 2 + a, cy), (k / 2 + a * 0.3, cy + a * 0.6)], fill=ARROW,
             width=max(2, k / 14))
    return p.finish()[0], key.finish()[0]


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    n = draw_knob(rng, row["strips_range"], integer=True)
    subtle = rng.random() < draw_knob(rng, row["subtle_range"])
    marked = bool(rng.random() < draw_knob(rng, row["marked_range"]))
    keys = _photos.choices(restore.SUBTLE, restore.DENY) if subtle else \
        _photos.choices(None, restore.DENY + restore.SUBTLE)
    geo = restore.layout(size, n)
    travel = geo["travel"]
    tolerance = round(draw_knob(rng, row["tolerance_range"]) * size[0] / 320, 2)
    parity = int(rng.integers(2))
    shifted = [i for i in range(n) if i % 2 == parity]
    px0, py0, px1, py1 = geo["picture"]
    pw = px1 - px0
    base, knob_patch = _chrome(size, geo)
    for _ in range(TRIES):
        view = _photos.sample_view(rng, keys)
        offset = max(1, round(draw_knob(rng, row["shift_range"]) * travel))
        # the photo as wide as the picture and the knob's travel; the picture's window starts travel - offset
        # px in, so that the strips show it again with the knob at the offset (and the photo to either side)
        wide = _photos.image(view, pw + travel, py1 - py0)
        picture = base.copy()
        picture[py0:py1, px0:px1] = wide[:, travel - offset:travel - offset + pw]
        state = State(size, n, shifted, offset, tolerance, marked, wide, picture, knob_patch, view.photo)
        try:
            check(state)
            return state
        except Reject as r:
            last = r
    raise last


def draw(state: State) -> np.ndarray:
    geo = _geo(state)
    rgb = state.base.copy()
    x = round(state.knob)
    _strips(rgb, geo, state.wide, state.shifted, x, state.marked)
    tx0, ty0, _, ty1 = geo["track"]
    k = geo["knob"]
    rgb[ty0 + 4:ty1 - 4, tx0 + k // 2:tx0 + x + k // 2] = FILL        # the track behind the knob, tinted
    rgb[ty0:ty0 + k, tx0 + x:tx0 + x + k] = state.knob_patch
    return rgb


def check(state: State) -> None:
    """The pixel check on the widget as first drawn: restore's fit profile of every shifted strip (the misfit
    of its edges for every knob displacement), combined as the root mean square over the strips, must be
    lowest at the true shift, clearly lower than at the start and at any shift well away, and rise within
    two tolerances of it."""
    rgb = draw(state)
    puzzle = Puzzle(rgb, np.zeros(rgb.shape[:2], np.uint8), {}, {}, extras={"layout": _geo(state)})
    offset, tol = state.offset, state.tolerance
    fits = [restore.fit_profile(puzzle, restore.Params(state.size, "", None, state.strips, i, offset, tol, {}))
            for i in state.shifted]
    fit = np.sqrt(np.mean(np.square(fits), axis=0))
    if abs(int(np.argmin(fit)) - offset) > max(1.0, tol / 3):
        raise Reject(f"{NAME}.offset_not_found")
    at = float(fit[offset])
    if fit[0] - at < restore.MIN_STEP:
        raise Reject(f"{NAME}.shift_not_visible")
    d = np.arange(len(fit))
    runner_up = float(fit[np.abs(d - offset) > max(2 * tol, 4)].min())
    if runner_up < restore.MARGIN * at or runner_up - at < restore.MIN_GAP:
        raise Reject(f"{NAME}.other_offset_fits")
    lo, hi = max(0, offset - round(2 * tol)), min(len(fit) - 1, offset + round(2 * tol))
    near = min(fit[lo] if lo < offset else np.inf, fit[hi] if hi > offset else np.inf)
    if near < restore.SHARP * at:
        raise Reject(f"{NAME}.alignment_blurry")


def instruction(state: State, lang: str) -> str:
    if lang == "zh":
        return "拖动滑块，使错位的图片条对齐，还原图片"
    return "Drag the slider until the shifted strips line up with the picture."


def act(state: State, action: dict) -> None:
    """A drag that starts on the knob moves it (and the strips) sideways by as far as the drag went, within
    the track."""
    if action["type"] != "drag" or not inside(knob_box(state), action["start"]):
        return
    dx = action["end"][0] - action["start"][0]
    state.knob = float(np.clip(state.knob + dx, 0.0, _geo(state)["travel"]))
    state.drags += 1


def tick(state: State, seconds: float) -> None:
    pass


def _error(state: State) -> float:
    return abs(state.knob - state.offset)


def done(state: State) -> bool:
    return _error(state) <= state.tolerance


def failed(state: State) -> bool:
    return False


def progress(state: State) -> float:
    """1 when lined up; before, 0.9 at most, less the farther the knob is from the offset."""
    return 1.0 if done(state) else 0.9 * (1.0 - _error(state) / _geo(state)["travel"])


def budget(state: State) -> int:
    return 1 + 4


def _drag_to(state: State, knob: float) -> dict:
    """A drag of the knob from its centre to where it stands at `knob`."""
    cx, cy = centre(knob_box(state))
    return drag((cx, cy), (cx + knob - state.knob, cy))


def expert(state: State) -> dict:
    return _drag_to(state, float(state.offset))


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """A release short of or past the alignment by 2.5 tolerances up to a fifth of the travel, within the
    track; None when neither fits."""
    travel, tol = _geo(state)["travel"], state.tolerance
    miss = float(rng.uniform(2.5 * tol, max(3 * tol, 0.2 * travel)))
    ends = [state.offset + s * miss for s in (-1, 1) if 0 <= state.offset + s * miss <= travel]
    if not ends:
        return None
    return _drag_to(state, ends[int(rng.integers(len(ends)))])


def truth(state: State) -> dict:
    geo = _geo(state)
    px0, _, px1, _ = geo["picture"]
    rows = geo["rows"]
    objects = [{"role": "picture", "label": "picture", "bbox": [float(v) for v in geo["picture"]]}]
    objects += [{"role": "target", "label": "shifted strip", "bbox": [float(px0), float(rows[i]), float(px1),
                                                                       float(rows[i + 1])]} for i in state.shifted]
    objects += [{"role": "slider_knob", "label": "slider knob", "bbox": knob_box(state)},
                {"role": "slider_track", "label": "slider track", "bbox": [float(v) for v in geo["track"]]}]
    return {"objects": objects,
            "state": {"knob": round(state.knob, 2), "offset": state.offset, "error": round(_error(state), 2),
                      "tolerance": state.tolerance, "strips": state.strips, "shifted": list(state.shifted),
                      "marked": state.marked, "photo": state.photo, "drags": state.drags}}
