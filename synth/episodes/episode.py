"""One episode: a task's state shown in the CAPTCHA widget of a rendered page, stepped by actions in
screenshot pixels. The environment (synth.episodes.env) and the trajectory writer (synth.episodes.rollout)
both drive this class, so what an agent sees and what the shards store are the same pixels."""
from collections import Counter
from collections.abc import Callable

import numpy as np

from synth.captcha.compose import at_device_scale, compose, puzzle_origin
from synth.core.errors import first_passing
from synth.core.geometry import inside
from synth.episodes.base import FRAMES_PER_STEP, VERIFY, action
from synth.screens.browser import RenderedPage


def score(task, state) -> float:
    """The reward of a finished episode: the task's own score if it has one (one-shot families give partial
    credit), else 1.0 when done."""
    own = getattr(task, "score", None)
    return float(own(state)) if own else float(task.done(state))


class Episode:
    """A task state on a page. `dense` spreads the reward over the steps by the task's progress (each step
    earns the progress it made; the last step earns the rest), so that an episode's return is the same as
    with the sparse reward."""

    def __init__(self, task, state, page: RenderedPage, lang: str, size: tuple[int, int], dense: bool = False) -> None:
        self.task, self.state, self.page, self.size, self.dense = task, state, page, size, dense
        self.instruction = task.instruction(state, lang)
        self.origin, self.dpr = puzzle_origin(page), page.dpr
        self.verify_box = [float(v) for v in page.boxes["synth-verify"]]
        self.steps, self.time, self.earned = 0, 0.0, 0.0
        self.frames: list[tuple[float, np.ndarray]] = []   # animated: (time, screenshot) of the last step's ticks
        self.record = False                                 # keep those frames (the trajectory writer does)
        self.limit = task.budget(state)
        self.terminated = self.truncated = False
        self._potential = task.progress(state)

    # -- coordinates
    def to_puzzle(self, p) -> list[float]:
        return [(float(p[0]) - self.origin[0]) / self.dpr, (float(p[1]) - self.origin[1]) / self.dpr]

    def to_image(self, p) -> list[float]:
        return [float(p[0]) * self.dpr + self.origin[0], float(p[1]) * self.dpr + self.origin[1]]

    def box_to_image(self, box) -> list[float]:
        return self.to_image(box[:2]) + self.to_image(box[2:])

    def in_puzzle(self, p) -> bool:
        x, y = self.to_puzzle(p)
        return 0 <= x < self.size[0] and 0 <= y < self.size[1]

    # -- what the agent sees
    def image(self) -> np.ndarray:
        """The screenshot now: the page with the widget drawn for the current state."""
        return compose(self.page, at_device_scale(self.task.draw(self.state), self.dpr), self.instruction)

    # -- acting
    def step(self, act: dict) -> float:
        """Apply one action (screenshot pixels, synth.episodes.base.action's keys); returns the step's reward
        and sets `terminated` / `truncated`."""
        if self.terminated or self.truncated:
            raise RuntimeError("the episode is over: reset it")
        task, state = self.task, self.state
        self.steps += 1
        pressed = act["type"] == "click" and inside(self.verify_box, act["point"])
        if not pressed:
            self.act_on(state, act)
        if task.ANIMATED:
            self.frames = []
            for k in range(1, FRAMES_PER_STEP + 1):
                task.tick(state, task.STEP_SECONDS / FRAMES_PER_STEP)
                if self.record:
                    self.frames.append((round(self.time + k * task.STEP_SECONDS / FRAMES_PER_STEP, 4), self.image()))
            self.time = round(self.time + task.STEP_SECONDS, 4)
        solved = task.done(state) and (pressed or not task.NEEDS_VERIFY)
        self.terminated = solved or pressed or task.failed(state)
        self.truncated = not self.terminated and self.steps >= self.limit
        if self.terminated:
            final = score(task, state) if solved or not task.failed(state) else 0.0
            r = final - self.earned if self.dense else final
        elif self.dense:
            potential = task.progress(state)
            r, self._potential = potential - self._potential, potential
        else:
            r = 0.0
        self.earned += r
        return r

    def act_on(self, state, act: dict) -> None:
        """Apply an action (screenshot pixels) to `state` (this episode's or a copy of it), in puzzle pixels:
        typing and waiting act anywhere, the others only inside the puzzle."""
        if act["type"] in ("type", "wait") or self.in_puzzle(act["point"]):
            self.task.act(state, action(act["type"], self.to_puzzle(act["point"]), self.to_puzzle(act["end"]),
                                        act["text"], act["duration"], self.time))

    def expert_action(self) -> dict:
        """The expert's next action, in screenshot pixels."""
        return self.to_image_action(self.task.expert(self.state))

    def to_image_action(self, act: dict) -> dict:
        """A task's action (puzzle pixels, or VERIFY) in screenshot pixels, at the episode's time."""
        if act is VERIFY or act.get("target") == "verify":
            x0, y0, x1, y1 = self.verify_box
            return action("click", ((x0 + x1) / 2, (y0 + y1) / 2), time=self.time)
        return action(act["type"], self.to_image(act["point"]), self.to_image(act["end"]), act["text"],
                      act["duration"], self.time)

    def truth(self) -> dict:
        """The state's ground truth with boxes in screenshot pixels; the Verify button is listed last."""
        t = self.task.truth(self.state)
        objects = [{**o, "bbox": self.box_to_image(o["bbox"])} for o in t["objects"]]
        objects.append({"role": "button", "label": "verify", "bbox": list(self.verify_box)})
        return {"objects": objects, "state": t["state"], "done": bool(self.task.done(self.state)),
                "progress": float(self.task.progress(self.state)), "time": float(self.time)}


def start(task, rng: np.random.Generator, level: int, lang: str, size: tuple[int, int],
          page_for: Callable[[str], RenderedPage], dense: bool = False, why: Counter | None = None) -> Episode:
    """A new episode of `task`: its state drawn from rng, on the page `page_for(controls)` gives for the
    widget variant the state needs ("none" unless the task says otherwise). A state that fails a check
    (Reject: an ambiguous draw, an instruction too long for the widget) is drawn again; its reason is
    counted in `why`."""
    def attempt(_: int) -> Episode:
        state = task.new(rng, level, size, lang)
        controls = task.controls(state) if hasattr(task, "controls") else "none"
        episode = Episode(task, state, page_for(controls), lang, size, dense)
        episode.image()             # the instruction fits the widget's band
        return episode
    return first_passing(attempt, f"{task.NAME}: no state", why)
