"""Occluder exit: a ball rolls at constant velocity towards an opaque wall and passes behind it; the
wall's far edge has labelled exits (A, B, ...). Click the exit the ball will come out of before it comes
out. Several balls at the higher levels, the one meant named by its colour.

The answer is accepted until the named ball starts to re-emerge; then the episode fails unanswered, since
an answer given once the ball shows on the far side would read the exit off the picture instead of
predicting it. A wrong exit fails at once.

Checked when drawn: the exit is computed from the latent motion (the named ball's straight path crosses
the far edge inside its exit), and it stays the same exit when the direction the agent reads off the
visible run is off by the level's tolerance; neighbouring exits lie at least a ball's width apart; the
ball is seen moving on at least two frames before it hides and hides on at least one frame before it
re-emerges; balls never overlap while they show (drawn so)."""
from dataclasses import dataclass

import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import centre, inside
from synth.core.levels import LevelTable, draw_knob
from synth.episodes.base import FRAMES_PER_STEP, VERIFY, action, click
from synth.episodes.tasks.trajectory import ball
from synth.families.kit.geom import colour_zh, rgb_of
from synth.families.kit.ui import Painter

NAME = "occluder_exit"
DESCRIPTION = "a ball rolls behind a wall: click the labelled exit on the far edge where it will come out"
COVERS = ("NextGenCAPTCHAs:Temporal_Object_Continuity",)
ANSWERS = ("click", "wait")
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, True, 0.5
TICK = STEP_SECONDS / FRAMES_PER_STEP  # the environment's tick: overlaps are checked on its frames
COLOURS = ("red", "blue", "green", "purple", "orange")
LETTERS = "ABCDEF"              # the exits' labels, top to bottom
GROUND, WALL, WALL_EDGE, SLOT, INK = (236, 242, 248), (96, 100, 112), (70, 74, 84), (250, 214, 90), (255, 255, 255)
RADIUS = 9                      # ball radius at 320 px
MARGIN = 0.05                   # share of the height above the first exit and below the last
GATE_SHARE = 0.6                # share of an exit's spacing its slot spans
EXIT_ROOM = 2.5                 # ball diameters between the far edge and the puzzle's edge
TRIES = 60
SLACK = 2                       # budget steps beyond the expert's

TABLE = LevelTable(NAME, knobs={
    "gates_range": "labelled exits on the wall's far edge",
    "speed_range": "ball speed in px per second (at 320 px)",
    "visible_range": "seconds the named ball rolls in view before it touches the wall",
    "hidden_range": "seconds the named ball is wholly behind the wall",
    "slope_range": "degrees the ball's path slopes from the horizontal",
    "balls_range": "balls rolling (one is named by colour when there are more)",
    "tolerance_range": "degrees the read direction may be off and still give the same exit",
}, levels={
    1: {"gates_range": (3, 3), "speed_range": (45, 55), "visible_range": (1.5, 2.0), "hidden_range": (0.75, 1.25),
        "slope_range": (5, 20), "balls_range": (1, 1), "tolerance_range": (6, 6)},
    2: {"gates_range": (3, 4), "speed_range": (55, 65), "visible_range": (1.25, 1.75), "hidden_range": (1.0, 1.25),
        "slope_range": (10, 25), "balls_range": (1, 1), "tolerance_range": (5, 5)},
    3: {"gates_range": (4, 5), "speed_range": (65, 80), "visible_range": (1.0, 1.5), "hidden_range": (1.0, 1.5),
        "slope_range": (10, 30), "balls_range": (1, 2), "tolerance_range": (4, 4)},
    4: {"gates_range": (5, 5), "speed_range": (75, 90), "visible_range": (1.0, 1.25), "hidden_range": (1.0, 1.5),
        "slope_range": (15, 35), "balls_range": (2, 3), "tolerance_range": (3.5, 3.5)},
    5: {"gates_range": (5, 6), "speed_range": (85, 100), "visible_range": (1.0, 1.0), "hidden_range": (1.25, 1.5),
        "slope_range": (15, 40), "balls_range": (3, 3), "tolerance_range": (3, 3)},
})


@dataclass
class State:
    size: tuple[int, int]
    start: np.ndarray           # (n, 2) ball centres at time 0; ball 0 is the named one
    velocity: np.ndarray        # (n, 2) px per second
    colours: list[str]
    radius: float
    wall: tuple[int, int]       # the wall's columns [x0, x1)
    far: int                    # the column of its far edge (x0 or x1)
    gates: list[list[float]]    # each exit's box (slot and letter), top to bottom
    answer: int                 # the exit the named ball comes out of
    tolerance: float            # degrees its slope may be misread by and still give that exit
    hidden_at: float            # the named ball is wholly behind the wall from this time ...
    emerges_at: float           # ... until it starts to show on the far side
    static: np.ndarray          # ground, wall and exits (read-only)
    t: float = 0.0
    chosen: int = -1            # the exit clicked, -1 before
    late: bool = False          # the named ball re-emerged unanswered


# -- the latent motion

def _exit_y(y_in: float, slope: float, width: float) -> float:
    """Where a path entering the near edge at y_in with `slope` (degrees, + down) crosses the far edge."""
    return y_in + np.tan(np.deg2rad(slope)) * width


def _gate_spans(h: int, n: int) -> list[tuple[float, float]]:
    """(top, bottom) of each exit's slot, evenly along the far edge."""
    spacing = h * (1 - 2 * MARGIN) / n
    half = GATE_SHARE * spacing / 2
    return [(h * MARGIN + (k + 0.5) * spacing - half, h * MARGIN + (k + 0.5) * spacing + half) for k in range(n)]


def _gate_of(spans, y: float) -> int:
    """The exit whose slot holds y, -1 for none."""
    return next((k for k, (a, b) in enumerate(spans) if a <= y <= b), -1)


def _exits(spans, y_in: float, slope: float, width: float, tol: float) -> set[int]:
    """The exits a path entering at y_in comes out of when its slope is read off by up to `tol` degrees
    either way (-1 for the wall between exits)."""
    return {_gate_of(spans, _exit_y(y_in, slope + d, width)) for d in (-tol, 0.0, tol)}


def _named_path(rng, row, size, spans, r, tol):
    """(x at time 0, y at time 0, velocity, wall's near and far x, answer) of the named ball, in the frame
    where it rolls rightwards; None when the sampled path does not fit or misreading its slope by `tol`
    degrees could give another exit."""
    w, h = size
    scale = w / 320
    speed = draw_knob(rng, row["speed_range"]) * scale
    slope = draw_knob(rng, row["slope_range"]) * float(rng.choice((-1, 1)))
    vx, vy = speed * np.cos(np.deg2rad(slope)), speed * np.sin(np.deg2rad(slope))
    run = vx * draw_knob(rng, row["visible_range"])
    width = round(2 * r + vx * draw_knob(rng, row["hidden_range"]))
    spare = w - (2 + r + run + r + width + EXIT_ROOM * 2 * r)
    if spare < 0:
        return None
    near = round(2 + r + run + r + rng.uniform(0, spare))
    answer = int(rng.integers(len(spans)))
    a, b = spans[answer]
    y_out = (a + b) / 2 + rng.uniform(-0.15, 0.15) * (b - a)
    y_in = _exit_y(y_out, -slope, width)
    if _exits(spans, y_in, slope, width, tol) != {answer}:
        return None
    x0 = near - r - run
    y0 = y_in - vy / vx * (near - x0)
    if not (r + 1 <= min(y0, y_out) and max(y0, y_out) <= h - r - 1):
        return None
    return x0, y0, np.array([vx, vy]), near, near + width, answer


def _other_path(rng, row, size, near, far, r, until):
    """(start, velocity) of a ball that rolls behind the same wall at some time up to `until` (rightwards)."""
    w, h = size
    speed = draw_knob(rng, row["speed_range"]) * w / 320
    slope = draw_knob(rng, row["slope_range"]) * float(rng.choice((-1, 1)))
    v = speed * np.array([np.cos(np.deg2rad(slope)), np.sin(np.deg2rad(slope))])
    touch = rng.uniform(0.25, until)                # it touches the wall at this time
    y_touch = rng.uniform(r + 1, h - r - 1)
    start = np.array([near - r, y_touch]) - v * touch
    for x in (-r, far + r):                         # its path stays in the puzzle while it shows
        y = y_touch + v[1] / v[0] * (x - (near - r))
        if not r + 1 <= y <= h - r - 1:
            return None
    return start, v


def _positions(state: State, t: float) -> np.ndarray:
    return state.start + state.velocity * t


def _visible_box(p, r: float, wall: tuple[int, int], size: tuple[int, int]) -> list[float] | None:
    """The part of a ball of radius r at p that shows (outside the wall's columns and inside the puzzle),
    or None."""
    w, h = size
    x0, y0, x1, y1 = p[0] - r, p[1] - r, p[0] + r, p[1] + r
    a, b = wall
    if x1 <= a or x0 >= b:
        box = [x0, y0, x1, y1]
    elif x0 < a:
        box = [x0, y0, float(a), y1]
    elif x1 > b:
        box = [float(b), y0, x1, y1]
    else:
        return None
    box = [max(0.0, box[0]), max(0.0, box[1]), min(float(w), box[2]), min(float(h), box[3])]
    return [float(v) for v in box] if box[0] < box[2] and box[1] < box[3] else None


def _overlap(start: np.ndarray, velocity: np.ndarray, r: float, wall, size, until: float) -> bool:
    """Whether two balls that show come closer than their diameter and a gap, on any frame up to `until`."""
    for t in np.arange(0.0, until, TICK):
        ps = start + velocity * t
        shown = [p for p in ps if _visible_box(p, r, wall, size) is not None]
        if any(np.hypot(*(p - q)) < 2 * r + 4 for i, p in enumerate(shown) for q in shown[i + 1:]):
            return True
    return False


# -- drawing

def _static(size, wall, far, gates) -> np.ndarray:
    """Ground, the wall and its exits: a slot on the far edge and a lettered box each."""
    h = size[1]
    p = Painter(size, GROUND)
    p.rect([wall[0], 0, wall[1], h], fill=WALL)
    for y in range(12, h, 24):                      # faint courses, so that it reads as a wall
        p.line([(wall[0], y), (wall[1], y)], fill=WALL_EDGE, width=1)
    for box, letter in zip(gates, LETTERS):
        slot = [far - 5, box[1], far, box[3]] if far == wall[1] else [far, box[1], far + 5, box[3]]
        p.rect(slot, fill=SLOT)
        p.rect([box[0], box[1], box[2], box[3]], outline=SLOT, width=1.5, radius=4)
        p.text(centre(box), letter, 15, INK, bold=True, anchor="mm")
    rgb, _ = p.finish()
    rgb.setflags(write=False)
    return rgb


def draw(state: State) -> np.ndarray:
    rgb = state.static.copy()
    for p, colour in zip(_positions(state, state.t), state.colours):
        ball(rgb, p, state.radius, rgb_of(colour))
    a, b = state.wall
    rgb[:, a:b] = state.static[:, a:b]               # the wall hides whatever is behind it
    return rgb


def _others(rng, row, size, near, far, r, until, start, velocity) -> tuple[np.ndarray, np.ndarray]:
    """The named ball's (start, velocity) with the level's other balls added, none overlapping another
    while they show."""
    for _ in range(draw_knob(rng, row["balls_range"], integer=True) - 1):
        for _ in range(TRIES):
            other = _other_path(rng, row, size, near, far, r, until)
            if other is None:
                continue
            more_start, more_velocity = np.vstack([start, other[0]]), np.vstack([velocity, other[1]])
            if not _overlap(more_start, more_velocity, r, (near, far), size, until):
                start, velocity = more_start, more_velocity
                break
        else:
            raise Reject(f"{NAME}.no_path_for_others")
    return start, velocity


def _gate_boxes(spans, wall: tuple[int, int], far: int, w: int) -> list[list[float]]:
    """Each exit's box: its slot's span along the far edge, a letter's width into the wall."""
    depth = (-1 if far == wall[1] else 1) * 22 * w / 320
    return [[float(min(far, far + depth)), a, float(max(far, far + depth)), b] for a, b in spans]


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    w, h = size
    r = RADIUS * w / 320
    spans = _gate_spans(h, draw_knob(rng, row["gates_range"], integer=True))
    tol = draw_knob(rng, row["tolerance_range"])
    for _ in range(TRIES):
        named = _named_path(rng, row, size, spans, r, tol)
        if named is not None:
            break
    else:
        raise Reject(f"{NAME}.no_clear_path")
    x0, y0, v, near, far, answer = named
    hidden_at, emerges_at = (near + r - x0) / v[0], (far - r - x0) / v[0]
    start, velocity = _others(rng, row, size, near, far, r, emerges_at + 1.0, np.array([[x0, y0]]), np.array([v]))
    if rng.integers(2):                              # roll leftwards: mirror the picture
        start[:, 0], velocity[:, 0] = w - start[:, 0], -velocity[:, 0]
        near, far = w - near, w - far
    wall = (min(near, far), max(near, far))
    gates = _gate_boxes(spans, wall, far, w)
    colours = [str(c) for c in rng.choice(COLOURS, len(start), replace=False)]
    state = State(size, start, velocity, colours, r, wall, far, gates, answer, tol, hidden_at, emerges_at,
                  _static(size, wall, far, gates))
    _check(state)
    return state


def _check(state: State) -> None:
    """The named ball shows moving on at least two frames and hides on at least one; its latent path comes
    out of its exit, also when its slope is misread by the tolerance; exits lie a ball's width apart."""
    frames = np.arange(0.0, state.emerges_at, STEP_SECONDS)
    if np.count_nonzero(frames < state.hidden_at) < 2 or not np.any(frames >= state.hidden_at):
        raise Reject(f"{NAME}.too_fast_to_see")
    spans = [(box[1], box[3]) for box in state.gates]
    if any(b[0] - a[1] < 2 * state.radius for a, b in zip(spans, spans[1:])):
        raise Reject(f"{NAME}.exits_too_close")
    (x, y), (vx, vy) = state.start[0], state.velocity[0]
    near = state.wall[0] if state.far == state.wall[1] else state.wall[1]
    slope = float(np.degrees(np.arctan2(vy, abs(vx))))
    y_in = y + vy / vx * (near - x)
    if _exits(spans, y_in, slope, float(state.wall[1] - state.wall[0]), state.tolerance) != {state.answer}:
        raise Reject(f"{NAME}.exit_unclear")


def instruction(state: State, lang: str) -> str:
    named = len(state.colours) > 1
    if lang == "zh":
        who = f"{colour_zh(state.colours[0])}小球" if named else "小球"
        return f"{who}会从哪个出口出来？请在它出来前点击该出口"
    who = f"the {state.colours[0]} ball" if named else "the ball"
    return f"Click the exit where {who} will come out."


# -- acting and time

def act(state: State, action: dict) -> None:
    if action["type"] != "click" or state.chosen >= 0 or state.late:
        return
    for k, box in enumerate(state.gates):
        if inside(box, action["point"]):
            state.chosen = k


def tick(state: State, seconds: float) -> None:
    state.t += seconds
    if state.chosen < 0 and state.t >= state.emerges_at:
        state.late = True


def done(state: State) -> bool:
    return state.chosen == state.answer


def failed(state: State) -> bool:
    return state.late or state.chosen not in (-1, state.answer)


def progress(state: State) -> float:
    return float(done(state))


def budget(state: State) -> int:
    """The expert's steps (waits until the named ball hides, then one click) and a little slack."""
    return int(np.ceil(state.hidden_at / STEP_SECONDS)) + 1 + SLACK


def expert(state: State) -> dict:
    if done(state):
        return VERIFY
    if state.t < state.hidden_at:
        return action("wait", time=state.t)
    return click(*centre(state.gates[state.answer]))


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """None: every wrong exit fails the episode, and a click elsewhere changes nothing the state shows."""
    return None


def truth(state: State) -> dict:
    h = state.size[1]
    positions = _positions(state, state.t)
    objects = [{"role": "occluder", "label": "wall",
                "bbox": [float(state.wall[0]), 0.0, float(state.wall[1]), float(h)]}]
    objects += [{"role": "gate", "label": letter, "bbox": [float(v) for v in box]}
                for letter, box in zip(LETTERS, state.gates)]
    for p, colour in zip(positions, state.colours):
        box = _visible_box(p, state.radius, state.wall, state.size)
        if box is not None:
            objects.append({"role": "ball", "label": f"{colour} ball", "bbox": box})
    v = state.velocity[0]
    p = positions[0]
    return {"objects": objects, "state": {
        "time": float(state.t), "colour": state.colours[0], "ball": [float(p[0]), float(p[1])],
        "velocity": [float(v[0]), float(v[1])], "hidden": bool(state.hidden_at <= state.t < state.emerges_at),
        "exit_gate": LETTERS[state.answer],
        "exit_point": [float(state.far), float(p[1] + v[1] / v[0] * (state.far - p[0]))],
        "hidden_at": float(state.hidden_at), "emerges_at": float(state.emerges_at),
        "chosen": LETTERS[state.chosen] if state.chosen >= 0 else "",
        "balls": [[float(q[0]), float(q[1])] for q in positions]}}
