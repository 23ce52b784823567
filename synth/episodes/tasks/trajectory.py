"""Trajectory recall: a ball rolls from a marked start along a path (straight runs that bounce off the
walls, or a smooth curve) for a few steps, then vanishes; then 3-4 candidate paths from the same start are
drawn, each with a lettered badge. Click the badge of the path the ball took; a wrong one fails.

Checked when drawn: every two candidates lie apart by the level's gap (Hausdorff distance of the drawn
lines) and neither runs along the other for long; on one of the frames the agent sees, the ball lies at
least the gap off each wrong path, so the frames rule every wrong path out; each badge sits on its own
line, clear of the other lines and badges."""
from dataclasses import dataclass

import cv2
import numpy as np
from scipy.interpolate import CubicSpline
from scipy.spatial import cKDTree

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.episodes.base import VERIFY, action, click
from synth.families.kit.geom import rgb_of
from synth.families.kit.ui import Painter

NAME = "trajectory"
DESCRIPTION = "watch a ball roll and vanish, then click the letter of the path it took among 3-4 drawn paths"
COVERS = ("NextGenCAPTCHAs:Trajectory_Recovery",)
ANSWERS = ("click", "wait")
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, True, 0.5
LETTERS = "ABCD"
LINE_COLOURS = ("red", "blue", "green", "purple")      # candidate A's, B's, ...
GROUND, FRAME, BALL, START_INK, INK = (248, 247, 243), (206, 204, 196), (240, 130, 30), (90, 90, 96), (255, 255, 255)
MARGIN, RADIUS, BADGE = 6, 8, 11    # px at 320: arena inset, ball radius, badge radius
WAYPOINTS = 3                   # a curve's waypoints after its start
TURN = 100                      # degrees a curve turns at most from waypoint to waypoint
MEET = (20, 65)                 # degrees a bounce may meet its wall at (steeper runs back along itself)
SPACING = 2.0                   # px between the points a drawn line is measured at
CLOSE, SHARED = 5.0, 0.25       # two lines look alike when one runs within CLOSE px of the other over SHARED
TRIES = 80                      # wrong paths drawn before giving up on telling them apart
PATH_TRIES = 400                # paths drawn before giving up on one of the level's length and bounces
SLACK = 2                       # budget steps beyond the expert's

TABLE = LevelTable(NAME, knobs={
    "candidates_range": "candidate paths drawn (one is the ball's)",
    "move_steps_range": "steps the ball rolls before it vanishes",
    "length_range": "length of each path in px (at 320)",
    "bounces_range": "wall bounces of a straight-run path",
    "curve_share_range": "chance that the paths are smooth curves instead of bouncing runs",
    "same_end_range": "chance that curved candidates all end where the ball's path ends",
    "gap_range": "px every two candidates lie apart, and the ball lies off each wrong path on some frame",
}, levels={
    1: {"candidates_range": (3, 3), "move_steps_range": (4, 4), "length_range": (220, 280), "bounces_range": (0, 1),
        "curve_share_range": (0.0, 0.0), "same_end_range": (0.0, 0.0), "gap_range": (40, 40)},
    2: {"candidates_range": (3, 3), "move_steps_range": (4, 5), "length_range": (260, 340), "bounces_range": (1, 1),
        "curve_share_range": (0.3, 0.3), "same_end_range": (0.0, 0.0), "gap_range": (32, 32)},
    3: {"candidates_range": (3, 4), "move_steps_range": (5, 6), "length_range": (300, 400), "bounces_range": (1, 2),
        "curve_share_range": (0.5, 0.5), "same_end_range": (0.3, 0.3), "gap_range": (26, 26)},
    4: {"candidates_range": (4, 4), "move_steps_range": (5, 6), "length_range": (340, 440), "bounces_range": (2, 3),
        "curve_share_range": (0.5, 0.5), "same_end_range": (0.6, 0.6), "gap_range": (22, 22)},
    5: {"candidates_range": (4, 4), "move_steps_range": (6, 7), "length_range": (380, 480), "bounces_range": (2, 3),
        "curve_share_range": (0.6, 0.6), "same_end_range": (1.0, 1.0), "gap_range": (18, 18)},
})


@dataclass
class State:
    size: tuple[int, int]
    paths: list[np.ndarray]     # each candidate's polyline (n, 2), from the shared start
    answer: int                 # the candidate the ball follows
    kind: str                   # "bounce" or "curve"
    ends_at: float              # seconds the ball rolls; then it vanishes and the candidates show
    badges: list[tuple[float, float]]   # each candidate's badge centre
    radius: float
    badge: float                # badge radius
    layers: tuple[np.ndarray, np.ndarray]   # (while rolling, once the candidates show), read-only
    t: float = 0.0
    chosen: int = -1


# -- paths

def _bounce(p0: np.ndarray, angle: float, length: float, box) -> tuple[np.ndarray, list[float]]:
    """(vertices, the angle in degrees each bounce meets its wall at) of a straight run of `length` from p0
    at `angle` (radians) reflecting off the walls of box [x0, y0, x1, y1]."""
    lo, hi = np.array(box[:2], float), np.array(box[2:], float)
    p, d, left, points = p0.astype(float), np.array([np.cos(angle), np.sin(angle)]), length, [p0.astype(float)]
    meets = []
    while True:
        with np.errstate(divide="ignore", invalid="ignore"):
            reach = np.where(d > 0, (hi - p) / d, np.where(d < 0, (lo - p) / d, np.inf))
        axis = int(np.argmin(reach))
        if reach[axis] >= left:
            points.append(p + d * left)
            return np.array(points), meets
        p = p + d * reach[axis]
        left -= reach[axis]
        meets.append(float(np.degrees(np.arcsin(min(1.0, abs(d[axis]))))))
        d[axis] = -d[axis]
        points.append(p.copy())


def _curve(waypoints: np.ndarray) -> np.ndarray:
    """A smooth curve through the waypoints (a natural cubic spline over chord length), as 160 points."""
    chord = _lengths(waypoints)
    return CubicSpline(chord, waypoints, bc_type="natural")(np.linspace(0, chord[-1], 160))


def _lengths(path: np.ndarray) -> np.ndarray:
    """Arc length at each vertex."""
    return np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(path, axis=0).T))])


def _at(path: np.ndarray, s) -> np.ndarray:
    """Point(s) at arc length s along a polyline (clamped to its ends)."""
    cum = _lengths(path)
    return np.stack([np.interp(s, cum, path[:, 0]), np.interp(s, cum, path[:, 1])], -1)


def _dense(path: np.ndarray) -> np.ndarray:
    """The polyline as points SPACING apart (what its drawn line is measured at)."""
    total = _lengths(path)[-1]
    return _at(path, np.linspace(0, total, max(2, int(total / SPACING) + 1)))


def _alike(a: np.ndarray, b: np.ndarray, gap: float) -> bool:
    """Whether two drawn lines (dense points) look alike: closer than `gap` (Hausdorff distance), or one runs
    along the other (within CLOSE px) for over SHARED of its length."""
    ab, ba = cKDTree(b).query(a)[0], cKDTree(a).query(b)[0]
    return max(ab.max(), ba.max()) < gap or max(np.mean(ab <= CLOSE), np.mean(ba <= CLOSE)) > SHARED


def _path(rng, row, p0, box, scale, kind: str, end=None) -> np.ndarray:
    """A candidate from p0 (and to `end`, when given) that `_sample_path` accepts."""
    for _ in range(PATH_TRIES):
        path = _sample_path(rng, row, p0, box, scale, kind, end)
        if path is not None:
            return path
    raise Reject(f"{NAME}.no_path")


def _sample_path(rng, row, p0, box, scale, kind: str, end=None) -> np.ndarray | None:
    """One path from p0 of the level's length (and bounces), or None when the draw misses them, bounces
    too steeply (it would run back along itself) or too flat, or leaves the box."""
    lo, hi = (v * scale for v in row["length_range"])
    if kind == "bounce":
        path, meets = _bounce(p0, rng.uniform(0, 2 * np.pi), rng.uniform(lo, hi), box)
        b_lo, b_hi = row["bounces_range"]
        return path if b_lo <= len(meets) <= b_hi and all(MEET[0] <= m <= MEET[1] for m in meets) else None
    length = rng.uniform(lo, hi)
    points, a = [p0], rng.uniform(0, 2 * np.pi)
    for _ in range(WAYPOINTS):                      # each waypoint a share of the length on from the last
        points.append(points[-1] + length / WAYPOINTS * np.array([np.cos(a), np.sin(a)]))
        a += np.deg2rad(rng.uniform(-TURN, TURN))
    if end is not None:
        points[-1] = end
    path = _curve(np.array(points))
    inside = np.all((path >= box[:2]) & (path <= box[2:]))
    return path if inside and lo <= _lengths(path)[-1] <= hi else None


def _seen(path: np.ndarray, ends_at: float) -> np.ndarray:
    """The ball's centres on the frames the agent sees while it rolls (one per step, from time 0)."""
    times = np.arange(0.0, ends_at, STEP_SECONDS)
    return _at(path, times / ends_at * _lengths(path)[-1])


def _candidates(rng, row, size, ends_at) -> tuple[list[np.ndarray], str]:
    """The ball's path first, then the wrong ones, all pairwise `gap` apart and each ruled out by a frame."""
    w, h = size
    scale = w / 320
    r = RADIUS * scale
    box = [MARGIN * scale + r, MARGIN * scale + r, w - MARGIN * scale - r, h - MARGIN * scale - r]
    kind = "curve" if rng.random() < draw_knob(rng, row["curve_share_range"]) else "bounce"
    p0 = rng.uniform(box[:2], box[2:])
    n = draw_knob(rng, row["candidates_range"], integer=True)
    gap = draw_knob(rng, row["gap_range"]) * scale
    true = _path(rng, row, p0, box, scale, kind)
    same_end = kind == "curve" and rng.random() < draw_knob(rng, row["same_end_range"])
    seen, paths, dense = _seen(true, ends_at), [true], [_dense(true)]
    for _ in range(TRIES):
        if len(paths) == n:
            return paths, kind
        other = _path(rng, row, p0, box, scale, kind, true[-1] if same_end else None)
        d = _dense(other)
        if not any(_alike(d, q, gap) for q in dense) and cKDTree(d).query(seen)[0].max() >= gap:
            paths.append(other)
            dense.append(d)
    raise Reject(f"{NAME}.candidates_alike")


def _place_badges(paths: list[np.ndarray], radius: float, size) -> list[tuple[float, float]]:
    """A badge centre on each path, past its first eighth, as far from the other paths as can be (at least a
    badge's radius and a gap) and clear of the other badges and the puzzle's edge."""
    w, h = size
    dense = [_dense(p) for p in paths]
    trees = [cKDTree(d) for d in dense]
    placed: list[np.ndarray] = []
    for i, d in enumerate(dense):
        spots = d[len(d) // 8:]
        clear = np.min([trees[j].query(spots)[0] for j in range(len(paths)) if j != i], axis=0)
        if placed:
            clear = np.minimum(clear, cKDTree(placed).query(spots)[0] - radius)
        edge = np.min([spots[:, 0], spots[:, 1], w - spots[:, 0], h - spots[:, 1]], axis=0) - radius
        clear = np.where(edge >= 2, clear, -1.0)
        k = int(np.argmax(clear))
        if clear[k] < radius + 5:
            raise Reject(f"{NAME}.badge_unclear")
        placed.append(spots[k])
    return [(float(x), float(y)) for x, y in placed]


# -- drawing

def _start_box(start, radius: float) -> list[float]:
    """The start mark's ring: a ball's width and 3 px round the start."""
    return [float(start[0] - radius - 3), float(start[1] - radius - 3), float(start[0] + radius + 3),
            float(start[1] + radius + 3)]


def _layers(size, paths, badges, radius, badge) -> tuple[np.ndarray, np.ndarray]:
    """The picture while the ball rolls (ground and start mark) and once the candidates show."""
    w, h = size
    out = []
    for shown in (False, True):
        p = Painter(size, GROUND)
        p.rect([1, 1, w - 1, h - 1], outline=FRAME, width=2, radius=6)
        if shown:
            for k, path in enumerate(paths):
                p.line([tuple(v) for v in path], fill=rgb_of(LINE_COLOURS[k]), width=3)
        p.ellipse(_start_box(paths[0][0], radius), outline=START_INK, width=2)
        if shown:
            for k, (x, y) in enumerate(badges):
                p.ellipse([x - badge, y - badge, x + badge, y + badge], fill=rgb_of(LINE_COLOURS[k]), outline=INK,
                          width=1.5)
                p.text((x, y), LETTERS[k], 13, INK, bold=True, anchor="mm")
        rgb, _ = p.finish()
        rgb.setflags(write=False)
        out.append(rgb)
    return out[0], out[1]


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    scale = size[0] / 320
    ends_at = draw_knob(rng, row["move_steps_range"], integer=True) * STEP_SECONDS
    paths, kind = _candidates(rng, row, size, ends_at)
    order = rng.permutation(len(paths))                 # the ball's path under a random letter
    paths = [paths[i] for i in order]
    answer = int(np.flatnonzero(order == 0)[0])
    radius, badge = RADIUS * scale, BADGE * scale
    badges = _place_badges(paths, badge, size)
    return State(size, paths, answer, kind, ends_at, badges, radius, badge,
                 _layers(size, paths, badges, radius, badge))


def _ball_centre(state: State) -> np.ndarray:
    """The ball's centre now (where it stopped, once it has vanished)."""
    path = state.paths[state.answer]
    return _at(path, min(state.t, state.ends_at) / state.ends_at * _lengths(path)[-1])


def _choosing(state: State) -> bool:
    return state.t >= state.ends_at


def ball(rgb: np.ndarray, p, radius: float, colour: tuple[int, int, int]) -> None:
    """Draw a ball (a disc with a darker rim) centred at p, to a quarter pixel (occluder_exit's too)."""
    c, r = (round(p[0] * 4), round(p[1] * 4)), round(radius * 4)
    cv2.circle(rgb, c, r, colour, -1, cv2.LINE_AA, shift=2)
    cv2.circle(rgb, c, r, tuple(v // 2 for v in colour), 1, cv2.LINE_AA, shift=2)


def draw(state: State) -> np.ndarray:
    if _choosing(state):
        return state.layers[1].copy()
    rgb = state.layers[0].copy()
    ball(rgb, _ball_centre(state), state.radius, BALL)
    return rgb


def instruction(state: State, lang: str) -> str:
    if lang == "zh":
        return "记住小球的路线，它消失后点击该路线的字母"
    return "Watch the ball; when it vanishes, click its path's letter."


# -- acting and time

def act(state: State, action: dict) -> None:
    if action["type"] != "click" or not _choosing(state) or state.chosen >= 0:
        return
    x, y = action["point"]
    for k, (bx, by) in enumerate(state.badges):
        if np.hypot(x - bx, y - by) <= state.badge + 2:
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
    """The expert's steps (waits while the ball rolls, then one click) and a little slack."""
    return round(state.ends_at / STEP_SECONDS) + 1 + SLACK


def expert(state: State) -> dict:
    if done(state):
        return VERIFY
    if not _choosing(state):
        return action("wait", time=state.t)
    return click(*state.badges[state.answer])


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """None: every wrong letter fails the episode, and a click elsewhere changes nothing the state shows."""
    return None


def truth(state: State) -> dict:
    x, y = _ball_centre(state)
    r, b = state.radius, state.badge
    objects = [{"role": "start", "label": "start", "bbox": _start_box(state.paths[0][0], r)}]
    if _choosing(state):
        for k, path in enumerate(state.paths):
            (x0, y0), (x1, y1) = path.min(axis=0), path.max(axis=0)
            objects.append({"role": "path", "label": f"path {LETTERS[k]}",
                            "bbox": [float(x0), float(y0), float(x1), float(y1)]})
            bx, by = state.badges[k]
            objects.append({"role": "option", "label": LETTERS[k],
                            "bbox": [float(bx - b), float(by - b), float(bx + b), float(by + b)]})
    else:
        objects.append({"role": "ball", "label": "ball",
                        "bbox": [float(x - r), float(y - r), float(x + r), float(y + r)]})
    seen = _seen(state.paths[state.answer], state.ends_at)
    return {"objects": objects, "state": {
        "time": float(state.t), "phase": "choose" if _choosing(state) else "rolling",
        "ball": [float(x), float(y)], "visible": not _choosing(state), "kind": state.kind,
        "ends_at": float(state.ends_at), "answer": LETTERS[state.answer],
        "chosen": LETTERS[state.chosen] if state.chosen >= 0 else "",
        "seen": [[float(u), float(v)] for u, v in seen]}}
