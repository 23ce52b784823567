"""Vanishing dots: coloured dots appear at scheduled times, at places fixed when the state is drawn, and
vanish after their lifetime; a ring round each dot shows the time it has left. Click every dot of the named
colour while it is shown: the episode fails when one vanishes unclicked, or when a decoy (a dot of another
colour) is clicked, and is done when all were clicked. A click on empty ground leaves a fading cross.

The schedule is checked when it is drawn: the expert (who clicks the shown dot that expires soonest, one
per step, and waits when none is shown) clicks every dot in time."""
from dataclasses import dataclass, field

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.episodes.base import FRAMES_PER_STEP, VERIFY, action, click
from synth.families.kit.geom import colour_zh, rgb_of

NAME = "vanishing_dots"
DESCRIPTION = "click each dot of the named colour while it is shown, before it vanishes; never a decoy"
COVERS = ("NextGenCAPTCHAs:Red_Dot",)
ANSWERS = ("click", "wait")
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, True, 0.5
TICK = STEP_SECONDS / FRAMES_PER_STEP  # schedule times are multiples of this (the environment's tick)
SLACK = 3                       # budget steps beyond the expert's
TARGET_COLOURS, DECOY_COLOURS = ("blue", "green", "purple"), ("red", "orange", "yellow")
GROUND, RING_GROUND, MISS_INK = (246, 246, 248), (204, 204, 212), (120, 120, 128)
MISS_SECONDS = 1.0              # a missed click's cross fades over this long
RING = 5                        # px from a dot's rim to its countdown ring (3 px wide)
GAP = 10                        # px between any two dots' rings
TRIES = 200                     # places tried per dot

TABLE = LevelTable(NAME, knobs={
    "dots_range": "dots of the named colour to click",
    "life_range": "seconds a dot is shown",
    "interval_range": "seconds between one target dot's appearance and the next's",
    "radius_range": "dot radius in px",
    "decoys_range": "dots of another colour that must not be clicked",
}, levels={
    1: {"dots_range": (3, 4), "life_range": (3.0, 4.0), "interval_range": (1.0, 1.5), "radius_range": (16, 18),
        "decoys_range": (0, 0)},
    2: {"dots_range": (4, 5), "life_range": (2.5, 3.5), "interval_range": (0.75, 1.25), "radius_range": (14, 16),
        "decoys_range": (0, 1)},
    3: {"dots_range": (5, 7), "life_range": (2.0, 3.0), "interval_range": (0.625, 1.0), "radius_range": (12, 14),
        "decoys_range": (1, 2)},
    4: {"dots_range": (7, 9), "life_range": (1.5, 2.5), "interval_range": (0.5, 0.875), "radius_range": (10, 12),
        "decoys_range": (2, 3)},
    5: {"dots_range": (9, 12), "life_range": (1.0, 2.0), "interval_range": (0.25, 0.75), "radius_range": (8, 10),
        "decoys_range": (3, 5)},
})


@dataclass
class State:
    size: tuple[int, int]
    centres: np.ndarray         # (n, 2) dot centres, px
    appear: np.ndarray          # (n,) seconds each dot shows from ...
    vanish: np.ndarray          # (n,) ... and up to (exclusive)
    decoy: np.ndarray           # (n,) bool: a dot of the decoy colour
    radius: int
    colour: str                 # the targets' colour name
    decoy_colour: str
    steps: int                  # the expert's steps from the start
    t: float = 0.0
    clicked: dict[int, float] = field(default_factory=dict)    # dot -> time it was clicked
    misses: list[tuple[float, float, float]] = field(default_factory=list)   # (x, y, time) of empty clicks
    decoy_hit: bool = False
    expired: bool = False       # a target vanished unclicked


def _quantised(rng: np.random.Generator, rng_range: tuple) -> float:
    """A time from a range, on the tick grid."""
    return round(draw_knob(rng, rng_range) / TICK) * TICK


def _places(rng: np.random.Generator, n: int, radius: int, size: tuple[int, int]) -> np.ndarray:
    """n dot centres inside the puzzle with their rings, the rings at least GAP apart."""
    w, h = size
    edge = radius + RING + 2
    out: list[np.ndarray] = []
    for _ in range(n):
        for _ in range(TRIES):
            p = rng.uniform((edge, edge), (w - edge, h - edge))
            if all(np.hypot(*(p - q)) >= 2 * edge + GAP for q in out):
                out.append(p)
                break
        else:
            raise Reject(f"{NAME}.no_room")
    return np.array(out)


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    n = draw_knob(rng, row["dots_range"], integer=True)
    k = draw_knob(rng, row["decoys_range"], integer=True)
    radius = draw_knob(rng, row["radius_range"], integer=True)
    appear = np.cumsum([0.0] + [_quantised(rng, row["interval_range"]) for _ in range(n - 1)])
    life = [_quantised(rng, row["life_range"]) for _ in range(n + k)]
    decoy_appear = [round(rng.uniform(0, appear[-1] + STEP_SECONDS) / TICK) * TICK for _ in range(k)]
    appear = np.concatenate([appear, decoy_appear])
    state = State(size, _places(rng, n + k, radius, size), appear, appear + np.array(life),
                  np.arange(n + k) >= n, radius, str(rng.choice(TARGET_COLOURS)), str(rng.choice(DECOY_COLOURS)), 0)
    steps = _plan(state, wasted=0)
    if steps is None:
        raise Reject(f"{NAME}.too_fast")
    state.steps = steps
    return state


# -- what is shown when

def _shown(state: State, t: float) -> list[int]:
    """Dots shown at time t (appeared, not vanished, not clicked)."""
    on = (state.appear <= t) & (t < state.vanish)
    return [int(i) for i in np.flatnonzero(on) if int(i) not in state.clicked]


def _targets(state: State) -> list[int]:
    return [int(i) for i in np.flatnonzero(~state.decoy)]


def _soonest(state: State, t: float, clicked) -> int | None:
    """The shown, unclicked target that vanishes first at time t."""
    shown = [i for i in _targets(state) if state.appear[i] <= t < state.vanish[i] and i not in clicked]
    return min(shown, key=lambda i: (state.vanish[i], i)) if shown else None


def _plan(state: State, wasted: int) -> int | None:
    """Steps the expert needs from now to click every target after `wasted` steps that click nothing, or
    None when a target would vanish first."""
    t, clicked, steps = state.t, set(state.clicked), 0
    targets = _targets(state)
    while any(i not in clicked for i in targets):
        if steps >= wasted:
            i = _soonest(state, t, clicked)
            if i is not None:
                clicked.add(i)
        steps, t = steps + 1, t + STEP_SECONDS
        if any(i not in clicked and state.vanish[i] <= t for i in targets):
            return None
    return steps


# -- drawing

def _fixed(x: float, y: float) -> tuple[int, int]:
    """A point in cv2's fixed point (2 fractional bits: shift=2)."""
    return round(x * 4), round(y * 4)


def draw(state: State) -> np.ndarray:
    w, h = state.size
    rgb = np.full((h, w, 3), GROUND, np.uint8)
    r, ring = state.radius * 4, (state.radius + RING) * 4
    for i in _shown(state, state.t):
        c = _fixed(*state.centres[i])
        colour = rgb_of(state.decoy_colour if state.decoy[i] else state.colour)
        left = (state.vanish[i] - state.t) / (state.vanish[i] - state.appear[i])
        cv2.circle(rgb, c, ring, RING_GROUND, 3, cv2.LINE_AA, shift=2)
        cv2.ellipse(rgb, c, (ring, ring), -90, 0, 360 * left, colour, 3, cv2.LINE_AA, shift=2)
        cv2.circle(rgb, c, r, colour, -1, cv2.LINE_AA, shift=2)
    for x, y, when in state.misses:
        fade = (state.t - when) / MISS_SECONDS
        if fade < 1:
            ink = tuple(round(m + (g - m) * fade) for g, m in zip(GROUND, MISS_INK))
            for d in (-1, 1):
                cv2.line(rgb, _fixed(x - 5, y - 5 * d), _fixed(x + 5, y + 5 * d), ink, 2, cv2.LINE_AA, shift=2)
    return rgb


def instruction(state: State, lang: str) -> str:
    if lang == "zh":
        return f"在{colour_zh(state.colour)}圆点消失前逐个点击它们"
    return f"Click every {state.colour} dot before it vanishes."


# -- acting and time

def _hit(state: State, p) -> int | None:
    """The shown dot under point p (its disc, and 2 px round it)."""
    for i in _shown(state, state.t):
        if np.hypot(p[0] - state.centres[i][0], p[1] - state.centres[i][1]) <= state.radius + 2:
            return i
    return None


def act(state: State, action: dict) -> None:
    if action["type"] != "click" or failed(state):
        return
    i = _hit(state, action["point"])
    if i is None:
        state.misses.append((float(action["point"][0]), float(action["point"][1]), state.t))
    elif state.decoy[i]:
        state.decoy_hit = True
    else:
        state.clicked[i] = state.t


def tick(state: State, seconds: float) -> None:
    state.t += seconds
    if any(i not in state.clicked and state.vanish[i] <= state.t for i in _targets(state)):
        state.expired = True


def done(state: State) -> bool:
    return not failed(state) and all(i in state.clicked for i in _targets(state))


def failed(state: State) -> bool:
    return state.decoy_hit or state.expired


def progress(state: State) -> float:
    return len(state.clicked) / len(_targets(state))


def budget(state: State) -> int:
    return state.steps + SLACK


def expert(state: State) -> dict:
    if done(state):
        return VERIFY
    i = _soonest(state, state.t, state.clicked)
    if i is None:
        return action("wait", time=state.t)
    return click(*state.centres[i])


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """A click on empty ground just beside a shown target, when the expert can still afford the lost step."""
    shown = [i for i in _shown(state, state.t) if not state.decoy[i]]
    if not shown or _plan(state, wasted=1) is None:
        return None
    w, h = state.size
    c = state.centres[int(rng.choice(shown))]
    for _ in range(TRIES):
        a = rng.uniform(0, 2 * np.pi)
        p = c + (state.radius + rng.uniform(8, 14)) * np.array([np.cos(a), np.sin(a)])
        clear = all(np.hypot(*(p - state.centres[j])) > state.radius + 6 for j in _shown(state, state.t))
        if clear and 0 <= p[0] < w and 0 <= p[1] < h:
            return click(*p)
    return None


def truth(state: State) -> dict:
    r = state.radius
    objects = [{"role": "decoy" if state.decoy[i] else "target",
                "label": f"{state.decoy_colour if state.decoy[i] else state.colour} dot {i + 1}",
                "bbox": [float(state.centres[i][0] - r), float(state.centres[i][1] - r),
                         float(state.centres[i][0] + r), float(state.centres[i][1] + r)]}
               for i in _shown(state, state.t)]
    shown_targets = [i for i in _shown(state, state.t) if not state.decoy[i]]
    return {"objects": objects, "state": {
        "time": float(state.t), "colour": state.colour, "targets": len(_targets(state)),
        "clicked": len(state.clicked), "misses": len(state.misses),
        "shown": [f"dot {i + 1}" for i in shown_targets],
        "expires_in": [float(state.vanish[i] - state.t) for i in shown_targets],
        "decoy_hit": bool(state.decoy_hit), "expired": bool(state.expired)}}
