"""Rotate with arrow buttons: a round photo is shown turned away from upright; each press of an arrow
button turns it one step (the level's angle) that way. Turn it upright, then press Verify.

The photo is one photo_rotation draws, with its orientation checks (an upright a person can tell)."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import centre, inside
from synth.core.levels import LevelTable
from synth.episodes.base import VERIFY, click
from synth.families import photo_rotation
from synth.families.kit.draw import disc_mask
from synth.families.rotation import layout

NAME = "rotate_arrows"
DESCRIPTION = "press the arrow buttons to turn a round photo upright step by step, then press Verify"
COVERS = ("OpenCaptchaWorld:Rotation_Match", "Arkose:rotate")
ANSWERS = ("click",)
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = True, False, 0.0
TRIES = 30                      # photos drawn before giving up on an upright a person can tell
GROUND, BUTTON, INK = (244, 244, 244), (60, 130, 230), (255, 255, 255)

TABLE = LevelTable(NAME, knobs={
    "step_range": "degrees one button press turns the photo",
    "level_range": "photo_rotation level whose photos and checks are used",
}, levels={
    1: {"step_range": (90, 90), "level_range": (1, 1)},
    2: {"step_range": (45, 45), "level_range": (2, 2)},
    3: {"step_range": (45, 45), "level_range": (3, 3)},
    4: {"step_range": (30, 30), "level_range": (4, 4)},
    5: {"step_range": (30, 30), "level_range": (4, 4)},
})


@dataclass
class State:
    size: tuple[int, int]
    step: int                   # degrees per press
    angle: int                  # current clockwise turn away from upright, 0 <= angle < 360
    upright: np.ndarray         # the upright disc picture (d x d)
    photo: str
    presses: int = 0


def buttons(size: tuple[int, int]) -> dict[str, list[float]]:
    """The two arrow buttons' boxes, in the band below the disc: "left" turns anticlockwise."""
    w, h = size
    x, y, d = layout(size)["disc"]
    top, bottom = y + d + 0.04 * h, h - 0.03 * h
    side = bottom - top
    return {"left": [w / 2 - 0.1 * w - side, top, w / 2 - 0.1 * w, bottom],
            "right": [w / 2 + 0.1 * w, top, w / 2 + 0.1 * w + side, bottom]}


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    step = int(row["step_range"][0])
    for _ in range(TRIES):
        params = photo_rotation.sample_params(rng, int(row["level_range"][0]), size)
        angle = step * int(rng.integers(1, 360 // step))
        params = photo_rotation.Params(params.size, "", params.view, float(angle), params.tolerance, params.knobs)
        puzzle = photo_rotation.render(params)
        try:
            photo_rotation.solve(params, puzzle)      # the upright is plain and recoverable from the pixels
        except Reject:
            continue
        return State(size, step, angle, puzzle.extras["upright"], params.view.photo)
    raise Reject(f"{NAME}.no_clear_photo")


@lru_cache(maxsize=4)
def _chrome(size: tuple[int, int]) -> np.ndarray:
    """The ground and the two arrow buttons (read-only): all but the photo."""
    w, h = size
    rgb = np.full((h, w, 3), GROUND, np.uint8)
    for name, box in buttons(size).items():
        x0, y0, x1, y1 = (round(v) for v in box)
        cx, cy, r = (x0 + x1) // 2, (y0 + y1) // 2, (x1 - x0) // 2
        cv2.circle(rgb, (cx, cy), r, BUTTON, -1, cv2.LINE_AA)
        # three quarters of a circle over the top, its head at the end that turns the named way
        a = r * 0.5
        arc = cv2.ellipse2Poly((cx, cy), (round(a), round(a)), 0, 150, 390, 5).astype(np.float64)
        if name == "left":
            arc = arc[::-1] * [-1, 1] + [2 * cx, 0]
        thick = max(2, r // 7)
        cv2.polylines(rgb, [arc.round().astype(np.int32)], False, INK, thick, cv2.LINE_AA)
        tip, along = arc[-1], (arc[-1] - arc[-2]) / np.linalg.norm(arc[-1] - arc[-2])
        across = np.array([-along[1], along[0]])
        head = np.array([tip + along * a * 0.55, tip + across * a * 0.45, tip - across * a * 0.45])
        cv2.fillConvexPoly(rgb, head.round().astype(np.int32), INK, cv2.LINE_AA)
    rgb.flags.writeable = False
    return rgb


def draw(state: State) -> np.ndarray:
    rgb = _chrome(state.size).copy()
    x, y, d = layout(state.size)["disc"]
    m = cv2.getRotationMatrix2D((d / 2 - 0.5, d / 2 - 0.5), -state.angle, 1.0)
    disc = cv2.warpAffine(state.upright, m, (d, d), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    np.copyto(rgb[y:y + d, x:x + d], disc, where=disc_mask(d)[..., None])
    return rgb


def instruction(state: State, lang: str) -> str:
    if lang == "zh":
        return "点击箭头旋转图片，转正后点击验证"
    return "Use the arrows to turn the picture upright, then press Verify."


def act(state: State, action: dict) -> None:
    if action["type"] != "click":
        return
    for name, box in buttons(state.size).items():
        if inside(box, action["point"]):
            state.angle = (state.angle + (state.step if name == "right" else -state.step)) % 360
            state.presses += 1


def tick(state: State, seconds: float) -> None:
    pass


def done(state: State) -> bool:
    return state.angle == 0


def failed(state: State) -> bool:
    return False


def progress(state: State) -> float:
    """1 - the remaining turn (the shorter way) over half a circle."""
    return 1.0 - min(state.angle, 360 - state.angle) / 180.0


def budget(state: State) -> int:
    return 360 // state.step + 4


def _way(state: State) -> str:
    """The button that brings the photo upright the shorter way (clockwise on a tie)."""
    return "left" if state.angle < 180 else "right"


def expert(state: State) -> dict:
    if done(state):
        return VERIFY
    return click(*centre(buttons(state.size)[_way(state)]))


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """A press the wrong way: turns the photo further from upright (or past it). Half a turn away, both
    ways are as short: there is no wrong way."""
    if state.angle in (0, 180):
        return None
    wrong = "right" if _way(state) == "left" else "left"
    return click(*centre(buttons(state.size)[wrong]))


def truth(state: State) -> dict:
    x, y, d = layout(state.size)["disc"]
    objects = [{"role": "picture", "label": "photo", "bbox": [float(x), float(y), float(x + d), float(y + d)]}]
    objects += [{"role": "button", "label": f"turn {'clockwise' if n == 'right' else 'anticlockwise'}",
                 "bbox": [float(v) for v in box]} for n, box in buttons(state.size).items()]
    return {"objects": objects, "state": {"angle": state.angle, "step": state.step, "photo": state.photo,
                                          "presses_to_upright": min(state.angle, 360 - state.angle) // state.step}}
