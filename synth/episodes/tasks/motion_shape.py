"""Motion-defined shape: a field of random dots in which the dots inside a hidden shape (circle, triangle,
square, star, pentagon, hexagon, or a digit or letter) drift one way and the others the opposite way or
every which way, so that any one frame shows only evenly spread dots and the shape shows only as the dots
move. Below, 3-5 buttons show candidate shapes; click the one the dots drew. A wrong button fails.

The dots are two endless textures, each one dot per cell of a grid at a random place in its cell: the
shape shows the dots of the first, the rest of the field those of the second (dots are born and die at the
shape's edge as the textures slide). A dot that moves at random takes a fresh place in its cell and a
fresh direction every LIFE seconds. Positions are closed-form in time.

Checked on the frames of a whole episode when drawn: the dot ink inside the shape is as dense as in the
band round it and in the rest of the field (within DENSITY_TOL) on every frame, and from one step's frame
to the next the dots inside the shape match their coherent shift clearly more (MOTION_MARGIN) than the
dots outside it do."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import centre, inside
from synth.core.levels import LevelTable, draw_knob
from synth.episodes.base import FRAMES_PER_STEP, VERIFY, action, click
from synth.families.kit import geom, glyphs
from synth.families.kit.ui import Painter

NAME = "motion_shape"
DESCRIPTION = "a shape drawn only by the motion of random dots: click the candidate shape the moving dots form"
COVERS = ("NextGenCAPTCHAs:Spooky_Shape_Grid", "NextGenCAPTCHAs:Spooky_Text", "NextGenCAPTCHAs:Spooky_Circle")
ANSWERS = ("click", "wait")
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, True, 0.5
TICK = STEP_SECONDS / FRAMES_PER_STEP  # the environment's tick: the checks look at every frame it draws
SHAPES = ("circle", "triangle", "square", "star", "pentagon", "hexagon")
CHARACTERS = tuple("234578AEHKLTXZ")
CELL = 8                        # px: one dot per cell of each texture
LIFE = 0.25                     # seconds a randomly moving dot keeps its place and direction
CANON = 64                      # px of the masks the candidates are compared at
WATCH_STEPS = 2                 # the expert waits this many steps before it answers
BUDGET = WATCH_STEPS + 1 + 3    # the expert's steps (watch, then one click) and a little slack
DENSITY_TOL = 0.15              # ink inside / ink round the shape may differ this much from 1 on any frame
MOTION_MARGIN = 0.25            # the inside's match to the coherent shift beats the outside's by this much
FIELD_BG, DOT = 28, 236         # grey levels of the field and its dots
GROUND, BUTTON, BUTTON_EDGE, SILHOUETTE = (242, 243, 246), (255, 255, 255), (196, 200, 210), (52, 56, 66)
STAMP = ((0, 0, 255), (-1, 0, 255), (1, 0, 255), (0, -1, 255), (0, 1, 255),
         (-1, -1, 120), (1, -1, 120), (-1, 1, 120), (1, 1, 120))      # a dot: (dx, dy, ink)

TABLE = LevelTable(NAME, knobs={
    "coherence_range": "share of the dots that move with their region (the rest move at random)",
    "shift_range": "px the coherent dots move per step",
    "random_outside_range": "chance that the dots outside the shape move at random instead of the opposite way",
    "options_range": "candidate shapes offered",
    "similarity_range": "overlap (IoU) of the wrong candidates with the right one, lo..hi",
    "size_range": "height of the hidden shape as a share of the field's",
}, levels={
    1: {"coherence_range": (1.0, 1.0), "shift_range": (6, 6), "random_outside_range": (0.0, 0.0),
        "options_range": (3, 3), "similarity_range": (0.0, 0.45), "size_range": (0.8, 0.9)},
    2: {"coherence_range": (0.9, 0.9), "shift_range": (5, 5), "random_outside_range": (0.0, 0.0),
        "options_range": (3, 4), "similarity_range": (0.0, 0.55), "size_range": (0.75, 0.85)},
    3: {"coherence_range": (0.8, 0.8), "shift_range": (4, 4), "random_outside_range": (0.5, 0.5),
        "options_range": (4, 4), "similarity_range": (0.3, 0.62), "size_range": (0.7, 0.8)},
    4: {"coherence_range": (0.7, 0.7), "shift_range": (4, 4), "random_outside_range": (1.0, 1.0),
        "options_range": (4, 5), "similarity_range": (0.4, 0.68), "size_range": (0.65, 0.75)},
    5: {"coherence_range": (0.6, 0.6), "shift_range": (3, 3), "random_outside_range": (1.0, 1.0),
        "options_range": (5, 5), "similarity_range": (0.5, 0.72), "size_range": (0.6, 0.7)},
})


@dataclass
class Texture:
    """One dot per grid cell, each moving with the texture's velocity or at random (closed form in time)."""
    cells: np.ndarray           # (n, 2) each dot's cell corner, px in the field
    place: np.ndarray           # (n, 2) its place in the cell at time 0
    coherent: np.ndarray        # (n,) bool: it moves with `velocity`
    velocity: np.ndarray        # (2,) px per second
    phase: np.ndarray           # (n,) seconds: a random dot's lives start at -phase
    places: np.ndarray          # (lives, n, 2) a random dot's place in its cell in each life
    headings: np.ndarray        # (lives, n, 2) its velocity in each life


@dataclass
class State:
    size: tuple[int, int]
    field: tuple[int, int, int, int]    # the dot field's box, integer px [x0, y0, x1, y1)
    mask: np.ndarray            # (fh, fw) bool: the hidden shape in the field
    inner: Texture              # shown inside the shape
    outer: Texture              # shown outside it
    options: list[str]          # candidate names, left to right
    buttons: list[list[float]]  # their boxes
    answer: int
    outside: str                # "opposite" or "random": how the dots outside move
    static: np.ndarray          # ground and buttons (read-only)
    t: float = 0.0
    chosen: int = -1


# -- shapes

@lru_cache(maxsize=64)
def _canon(name: str) -> np.ndarray:
    """The candidate's ink (uint8 coverage) fitted in a CANON square, its box centred (read-only)."""
    if name in SHAPES:
        poly = geom.outline(name, 1.0)
        lo, hi = poly.min(0), poly.max(0)
        pts = (poly - (lo + hi) / 2) * ((CANON - 1) / (hi - lo).max()) + CANON / 2
        out = np.zeros((CANON, CANON), np.uint8)
        cv2.fillPoly(out, [np.round(pts * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    else:
        ink = glyphs.master(name, glyphs.LATIN[0])
        x, y, w, h = cv2.boundingRect((ink > 127).astype(np.uint8))
        s = CANON / max(w, h)
        small = cv2.resize(ink[y:y + h, x:x + w], (max(1, round(w * s)), max(1, round(h * s))),
                           interpolation=cv2.INTER_AREA)
        out = np.zeros((CANON, CANON), np.uint8)
        oy, ox = (CANON - small.shape[0]) // 2, (CANON - small.shape[1]) // 2
        out[oy:oy + small.shape[0], ox:ox + small.shape[1]] = small
    out.setflags(write=False)
    return out


def _iou(a: str, b: str) -> float:
    ma, mb = _canon(a) > 127, _canon(b) > 127
    return float(np.sum(ma & mb) / np.sum(ma | mb))


def _pick_options(rng, row) -> tuple[list[str], int]:
    """(candidates, index of the right one): wrong ones overlap the right one within the level's window,
    topped up with the most alike below its top when the window holds too few."""
    pool = SHAPES + CHARACTERS
    right = str(rng.choice(pool))
    n = draw_knob(rng, row["options_range"], integer=True)
    lo, hi = row["similarity_range"]
    others = [p for p in pool if p != right and _iou(p, right) <= hi]
    window = [p for p in others if _iou(p, right) >= lo]
    wrong = [str(p) for p in rng.permutation(window)[:n - 1]]
    if len(wrong) < n - 1:
        rest = sorted((p for p in others if p not in wrong), key=lambda p: -_iou(p, right))
        wrong += rest[:n - 1 - len(wrong)]
    options = wrong + [right]
    order = rng.permutation(n)
    return [options[i] for i in order], int(np.flatnonzero(order == n - 1)[0])


# -- dots

def _texture(rng, shape: tuple[int, int], coherence: float, velocity, speed: float, lives: int) -> Texture:
    """A texture over a field of `shape` (whole cells): a `coherence` share of its dots drift with `velocity`,
    the rest wander at `speed` for `lives` lives (then start over)."""
    fw, fh = shape
    gx, gy = np.meshgrid(np.arange(0, fw, CELL), np.arange(0, fh, CELL))
    cells = np.stack([gx.ravel(), gy.ravel()], 1).astype(float)
    n = len(cells)
    turn = rng.uniform(0, 2 * np.pi, (lives, n))
    return Texture(cells, rng.uniform(0, CELL, (n, 2)), rng.random(n) < coherence, np.asarray(velocity, float),
                   rng.uniform(0, LIFE, n), rng.uniform(0, CELL, (lives, n, 2)),
                   speed * np.stack([np.cos(turn), np.sin(turn)], -1))


def _dots(tex: Texture, t: float, shape: tuple[int, int]) -> np.ndarray:
    """(n, 2) integer dot centres in the field at time t (the field wraps round)."""
    life = np.floor((t + tex.phase) / LIFE)
    k = life.astype(int) % len(tex.places)
    idx = np.arange(len(tex.cells))
    wander = tex.cells + tex.places[k, idx] + tex.headings[k, idx] * (t + tex.phase - life * LIFE)[:, None]
    drift = tex.cells + tex.place + tex.velocity * t
    p = np.where(tex.coherent[:, None], drift, wander)
    return np.floor(p).astype(int) % np.array(shape)


def _ink(state: State, t: float) -> np.ndarray:
    """(fh, fw) uint8 dot ink of the field at time t."""
    x0, y0, x1, y1 = state.field
    fw, fh = x1 - x0, y1 - y0
    ink = np.zeros((fh + 2, fw + 2), np.uint8)
    for tex, keep in ((state.inner, True), (state.outer, False)):
        p = _dots(tex, t, (fw, fh))
        p = p[state.mask[p[:, 1], p[:, 0]] == keep]
        for dx, dy, v in STAMP:
            ys, xs = p[:, 1] + 1 + dy, p[:, 0] + 1 + dx
            ink[ys, xs] = np.maximum(ink[ys, xs], v)
    return ink[1:-1, 1:-1]


@lru_cache(maxsize=1)
def _grey_lut() -> np.ndarray:
    return np.round(FIELD_BG + np.arange(256) * (DOT - FIELD_BG) / 255).astype(np.uint8)


def draw(state: State) -> np.ndarray:
    rgb = state.static.copy()
    x0, y0, x1, y1 = state.field
    rgb[y0:y1, x0:x1] = _grey_lut()[_ink(state, state.t)][..., None]
    return rgb


# -- layout

def _layout(size: tuple[int, int], n: int) -> tuple[tuple[int, int, int, int], list[list[float]]]:
    """The field's box (sides whole cells) and n option buttons in a row below it."""
    w, h = size
    fw = (w - 16) // CELL * CELL
    fh = int(h * 0.7) // CELL * CELL
    x0, y0 = (w - fw) // 2, 8
    band_top, band_bottom = y0 + fh + 8, h - 8
    side = min(band_bottom - band_top, (fw - (n - 1) * 8) / n)
    left = w / 2 - (n * side + (n - 1) * 8) / 2
    top = (band_top + band_bottom) / 2 - side / 2
    return (x0, y0, x0 + fw, y0 + fh), [[left + k * (side + 8), top, left + k * (side + 8) + side, top + side]
                                         for k in range(n)]


def _static(size, buttons, options) -> np.ndarray:
    """Ground and the option buttons, each with its candidate's silhouette."""
    p = Painter(size, GROUND)
    for box in buttons:
        p.rect(box, fill=BUTTON, outline=BUTTON_EDGE, width=1.5, radius=6)
    rgb, _ = p.finish()
    for box, name in zip(buttons, options):
        x0, y0, x1 = (round(v) for v in box[:3])
        pad = round((x1 - x0) * 0.18)
        side = x1 - x0 - 2 * pad
        a = cv2.resize(_canon(name), (side, side), interpolation=cv2.INTER_AREA)[..., None] / 255.0
        region = rgb[y0 + pad:y0 + pad + side, x0 + pad:x0 + pad + side]
        region[:] = np.round(region * (1 - a) + np.array(SILHOUETTE) * a).astype(np.uint8)
    rgb.setflags(write=False)
    return rgb


def _hidden_mask(rng, row, name: str, field) -> np.ndarray:
    """The hidden shape's mask in the field: the candidate's ink scaled to the level's height at a random
    place, a cell clear of the field's edge."""
    x0, y0, x1, y1 = field
    fw, fh = x1 - x0, y1 - y0
    side = round(draw_knob(rng, row["size_range"]) * fh)
    ink = cv2.resize(_canon(name), (side, side), interpolation=cv2.INTER_LINEAR) > 127
    ys, xs = np.nonzero(ink)
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = ink.shape
    ox = int(rng.integers(CELL, max(CELL + 1, fw - w - CELL)))
    oy = int(rng.integers(CELL, max(CELL + 1, fh - h - CELL)))
    mask = np.zeros((fh, fw), bool)
    mask[oy:oy + h, ox:ox + w] = ink[:fh - oy, :fw - ox]
    return mask


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    options, answer = _pick_options(rng, row)
    field, buttons = _layout(size, len(options))
    fx0, fy0, fx1, fy1 = field
    mask = _hidden_mask(rng, row, options[answer], field)
    coherence = draw_knob(rng, row["coherence_range"])
    shift = draw_knob(rng, row["shift_range"])
    a = rng.uniform(0, 2 * np.pi)
    step = np.round(shift * np.array([np.cos(a), np.sin(a)]))   # whole px per step: crisp frames to compare
    velocity, speed = step / STEP_SECONDS, float(np.hypot(*step)) / STEP_SECONDS
    outside = "random" if rng.random() < draw_knob(rng, row["random_outside_range"]) else "opposite"
    lives = int(np.ceil(BUDGET * STEP_SECONDS / LIFE)) + 2
    shape = (fx1 - fx0, fy1 - fy0)
    inner = _texture(rng, shape, coherence, velocity, speed, lives)
    outer = _texture(rng, shape, 0.0 if outside == "random" else coherence, -velocity, speed, lives)
    state = State(size, field, mask, inner, outer, options, buttons, answer, outside,
                  _static(size, buttons, options))
    _check(state)
    return state


def _check(state: State) -> None:
    """No frame of the episode shows the shape by its density (against the band round it, and against the
    whole rest of the field); each step the expert watches shows it by motion."""
    step = np.round(state.inner.velocity * STEP_SECONDS).astype(int)
    grow = int(np.abs(step).max()) + 2
    mask = state.mask.view(np.uint8)
    ring = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4 * CELL + 1, 4 * CELL + 1))
    band = (cv2.dilate(mask, ring) > 0) & ~state.mask
    core = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=grow) > 0
    rest = cv2.erode((~state.mask).view(np.uint8), np.ones((3, 3), np.uint8), iterations=grow) > 0
    times = np.arange(0, budget(state) * STEP_SECONDS + TICK / 2, TICK)
    frames = {float(t): _ink(state, t) / 255.0 for t in times}
    for ink in frames.values():
        inner = ink[state.mask].mean()
        if any(abs(inner / ink[around].mean() - 1) > DENSITY_TOL for around in (band, ~state.mask)):
            raise Reject(f"{NAME}.density_cue")
    for t in np.arange(WATCH_STEPS) * STEP_SECONDS:
        before, after = frames[float(t)] > 0.5, frames[float(t + STEP_SECONDS)] > 0.5
        moved = np.roll(before, (step[1], step[0]), axis=(0, 1)) & after
        if moved[core].sum() / after[core].sum() < moved[rest].sum() / after[rest].sum() + MOTION_MARGIN:
            raise Reject(f"{NAME}.motion_unclear")


def instruction(state: State, lang: str) -> str:
    if lang == "zh":
        return "观察运动的点，点击它们组成的形状"
    return "Watch the moving dots, then click the shape they form."


# -- acting and time

def act(state: State, action: dict) -> None:
    if action["type"] != "click" or state.chosen >= 0:
        return
    for k, box in enumerate(state.buttons):
        if inside(box, action["point"]):
            state.chosen = k


def tick(state: State, seconds: float) -> None:
    state.t += seconds


def done(state: State) -> bool:
    return state.chosen == state.answer


def failed(state: State) -> bool:
    return state.chosen not in (-1, state.answer)


def progress(state: State) -> float:
    return float(done(state))


def budget(state: State) -> int:
    return BUDGET


def expert(state: State) -> dict:
    if done(state):
        return VERIFY
    if state.t < WATCH_STEPS * STEP_SECONDS:
        return action("wait", time=state.t)
    return click(*centre(state.buttons[state.answer]))


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """None: every wrong button fails the episode, and a click elsewhere changes nothing the state shows."""
    return None


def truth(state: State) -> dict:
    fx0, fy0 = state.field[:2]
    ys, xs = np.nonzero(state.mask)
    objects = [{"role": "field", "label": "dot field", "bbox": [float(v) for v in state.field]},
               {"role": "hidden_shape", "label": state.options[state.answer],
                "bbox": [float(fx0 + xs.min()), float(fy0 + ys.min()), float(fx0 + xs.max() + 1),
                         float(fy0 + ys.max() + 1)]}]
    objects += [{"role": "option", "label": name, "bbox": [float(v) for v in box]}
                for name, box in zip(state.options, state.buttons)]
    return {"objects": objects, "state": {
        "time": float(state.t), "answer": state.options[state.answer], "options": list(state.options),
        "velocity": [float(v) for v in state.inner.velocity], "outside": state.outside,
        "coherence": float(state.inner.coherent.mean()),
        "chosen": state.options[state.chosen] if state.chosen >= 0 else ""}}
