"""What every interactive task provides: a stateful CAPTCHA that changes as the agent acts.

A task is one module in synth/episodes/tasks/ exposing the names of `Task` below. Its state is a plain
mutable object made by `new()`; everything that happens to it afterwards is decided by the actions taken
(and, for animated tasks, by the time that passes), never by fresh randomness, so an episode replays
exactly from its seed and its actions.

Coordinates are puzzle pixels at CSS size (the puzzle area is `size`, 320 x 320 or 300 x 300); the
environment maps screenshot pixels to them and back. An action is a dict with every key present:
{"type": "click" | "long_press" | "drag" | "type" | "wait", "point": [x, y], "start": [x, y], "end": [x, y],
 "text": str, "duration": seconds, "time": seconds}, as a label's actions are (synth.labels.spec.exact_action) plus the
time it is taken at; `point` is where it acts, `start` the same point (a drag's start).
The page's Verify button lies outside the puzzle; a task's expert asks for it with `VERIFY`."""
from typing import Any, Protocol

import numpy as np

from synth.core.levels import LevelTable
from synth.labels import spec

ACTION_TYPES = ("click", "long_press", "drag", "type", "wait")
FRAMES_PER_STEP = 4     # animated tasks: a step's STEP_SECONDS pass in this many ticks, one frame after each
VERIFY = {"type": "click", "target": "verify"}     # the expert's "press Verify" (the env finds the button)


def action(type_: str, point=(0.0, 0.0), end=None, text: str = "", duration: float = 0.0,
           time: float = 0.0) -> dict:
    """A label's action at exact coordinates (synth.labels.spec.exact_action) plus the `time` it is taken at;
    `end` defaults to `point` (only drags move)."""
    return {**spec.exact_action(type_, point, end, text, duration), "time": float(time)}


def click(x: float, y: float) -> dict:
    return action("click", (x, y))


def drag(start, end) -> dict:
    return action("drag", start, end)


class Task(Protocol):
    """An interactive CAPTCHA family: one module in synth/episodes/tasks/ exposing these names."""
    NAME: str
    DESCRIPTION: str
    COVERS: tuple[str, ...]         # public benchmark and vendor types it trains for, "Source:type"
    ANSWERS: tuple[str, ...]        # the action types its expert uses (ACTION_TYPES)
    TABLE: LevelTable
    NEEDS_VERIFY: bool              # the episode ends when Verify is pressed (else as soon as it is done)
    ANIMATED: bool                  # the picture changes with time: each step lets STEP_SECONDS pass
    STEP_SECONDS: float             # animated tasks: time that passes per step (0 for the others)

    def new(self, rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> Any: ...
    def draw(self, state: Any) -> np.ndarray: ...          # (H, W, 3) uint8 at `size`, at the state's time
    def instruction(self, state: Any, lang: str) -> str: ...
    def act(self, state: Any, action: dict) -> None: ...   # apply one action (puzzle pixels); may do nothing
    def tick(self, state: Any, seconds: float) -> None: ... # animated tasks: let time pass (no-op otherwise);
                                                           # draw() depends on the time reached, not the ticks
    def done(self, state: Any) -> bool: ...                # the goal is reached
    def failed(self, state: Any) -> bool: ...              # it can no longer be reached (e.g. a dot vanished)
    def progress(self, state: Any) -> float: ...           # 0..1, 1 when done: the dense reward's potential
    def budget(self, state: Any) -> int: ...               # steps before the episode is truncated
    def expert(self, state: Any) -> dict: ...              # the next action that solves it, or VERIFY
    def mistake(self, rng: np.random.Generator, state: Any) -> dict | None: ...   # a plausible wrong action
    def truth(self, state: Any) -> dict: ...               # ground truth of the state (JSON; boxes in puzzle px)
