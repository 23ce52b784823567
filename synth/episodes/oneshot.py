"""A one-shot CAPTCHA family (synth.families) as a task of one episode: the puzzle does not change; the
actions taken are judged together by synth.labels.reward against the family's accept rule, as a sample's label
judges them. The episode is done once they match it, and failed once an action matches nothing (a wrong
tile, a drag to the wrong place), as a real CAPTCHA fails."""
from dataclasses import dataclass, field

import numpy as np

from synth.captcha.recipe import finish, sample_params
from synth.core.errors import Exhausted, Reject, first_passing
from synth.episodes.base import action
from synth.families.base import Task
from synth.labels import reward, spec

NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, False, 0.0


@dataclass
class State:
    family: object              # the synth.families family (base.Family; a deep copy shares it)
    params: object
    task: Task
    rgb: np.ndarray             # the puzzle as shown (degraded as the level degrades it), CSS size
    lang: str
    taken: list[dict] = field(default_factory=list)    # the answering actions so far (puzzle pixels)


class OneShot:
    """A synth.families family seen as an episode task (synth.episodes.base.Task)."""
    NEEDS_VERIFY, ANIMATED, STEP_SECONDS = NEEDS_VERIFY, ANIMATED, STEP_SECONDS

    def __init__(self, family) -> None:
        self.family = family
        self.NAME, self.DESCRIPTION, self.COVERS = family.NAME, family.DESCRIPTION, family.COVERS
        self.ANSWERS, self.TABLE = family.ANSWERS, family.TABLE

    def new(self, rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
        fam = self.family

        def attempt(_: int) -> State:
            instance = finish(fam, sample_params(fam, rng, level, size, lang), level, rng)
            return State(fam, instance.params, instance.task, instance.rgb, lang)
        try:
            return first_passing(attempt, f"{fam.NAME}: no instance")
        except Exhausted:
            raise Reject(f"{fam.NAME}.no_instance") from None

    def controls(self, state: State) -> str:
        """The widget variant the page must show ("input": an answer field)."""
        return self.family.controls(state.params)

    def draw(self, state: State) -> np.ndarray:
        return state.rgb

    def instruction(self, state: State, lang: str) -> str:
        return self.family.instruction(state.params, lang)

    def accept(self, state: State) -> dict:
        """The family's accept rule in puzzle pixels (synth.captcha.label.reference, less the page's controls)."""
        t = state.task
        if t.rule == "type":
            steps = [spec.step("type", [0, 0, 0, 0], text=t.text)]
        elif t.rule in ("click_set", "click_order"):
            steps = [spec.step("click", b) for b in t.target_boxes]
        elif t.rule == "drag":
            steps = [spec.step("drag", t.target_boxes[0], t.end_boxes[0], tolerance=t.tolerance_px)]
        elif t.rule == "long_press":
            steps = [spec.step("long_press", t.target_boxes[0], min_duration=t.duration)]
        else:
            raise ValueError(f"{self.NAME}: task rule {t.rule!r} has no episode form")
        return {"order_matters": t.order_matters, "partial_credit": t.partial_credit, "steps": steps,
                "neutral_regions": []}

    def _matched(self, state: State) -> tuple[int, int]:
        """(steps matched, actions left over) of the actions taken."""
        return reward.matched(self.accept(state), state.taken)

    def act(self, state: State, act: dict) -> None:
        if act["type"] != "wait":
            state.taken.append(act)

    def tick(self, state: State, seconds: float) -> None:
        pass

    def done(self, state: State) -> bool:
        tp, extra = self._matched(state)
        return extra == 0 and tp == len(self.accept(state)["steps"])

    def failed(self, state: State) -> bool:
        return self._matched(state)[1] > 0

    def score(self, state: State) -> float:
        """The reward synth.labels.reward gives the actions taken (partial credit where the family allows it)."""
        return reward.score({"accept": self.accept(state)}, state.taken)

    def progress(self, state: State) -> float:
        tp, extra = self._matched(state)
        return 0.0 if extra else tp / len(self.accept(state)["steps"])

    def budget(self, state: State) -> int:
        return len(self.accept(state)["steps"]) + 3

    def expert(self, state: State) -> dict:
        """The reference action not yet taken (the family's answer, one action per step)."""
        t = state.task
        if t.rule == "type":
            return action("type", text=t.text)
        if t.rule == "drag":
            return action("drag", t.points[0], t.end_points[0])
        if t.rule == "long_press":
            return action("long_press", t.points[0], duration=t.duration + 0.5)
        return action("click", t.points[len(state.taken)])

    def mistake(self, rng: np.random.Generator, state: State) -> dict | None:
        return None     # a one-shot CAPTCHA has no undo: a wrong action fails it

    def truth(self, state: State) -> dict:
        objects = [{"role": o["role"], "label": o["label"], "bbox": [float(v) for v in o["bbox"]]}
                   for o in state.task.objects]
        typed = {"text": state.task.text} if state.task.text else {}
        return {"objects": objects, "state": {"answer": spec.answer(**{**state.task.answer, **typed}),
                                              "rule": state.task.rule}}

