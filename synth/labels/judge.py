"""Verdicts on a proposed action sequence, step by step and as a whole, against a label (a CAPTCHA sample, one
grounding query through `spec.query_label`, or one step of an episode).

Each action gets one of STEP_VERDICTS, by the first rule that applies:

1. **invalid**: not an action (not a dict, an unknown type, no well-formed point), a point outside the image,
   a click, drag or long press that starts outside the widget (a label with a widget), or on no element at all
   (a grounding label: no widget, and no element or object under the point); typing where the label asks for
   no typing.
2. **correct**: it meets an accept step not yet met (`reward.matches`): when `order_matters`, it must be the
   next step; a `wait` where the next step is a wait.
3. **wrong**: it meets a step out of order (order matters and it is not the next one).
4. **correct** too: a click in a neutral region (the answer field, the Verify button: the reward ignores them)
   that the label's reference actions click as well: how an answer is entered and submitted.
5. **exploratory**: a control that changes the state without answering: a click in a neutral region the
   reference does not click, on a widget's button other than Verify and Skip (refresh,
   a paging or turning arrow), on an accept region already met or an object already clicked when several
   unordered steps are asked for (a tile toggled again in a multi-select); a `wait` that was not asked for.
6. **wrong**: everything else, i.e. a wrong answer: a distractor (roles in DISTRACTOR_ROLES), another
   element, a non-target tile, Verify or Skip pressed when they are not the answer, a drag that grabs the
   wrong thing or moves it the wrong distance, a typed text that differs.

The sequence's verdict (one of VERDICTS) follows synth.labels.reward's score, so that `synth score`'s success
is "complete or infeasible": **complete** when the reward is 1.0 on a feasible label; **infeasible** when it is
1.0 on an infeasible one (the refusal, no action, on a grounding query whose target is absent; Skip on a CAPTCHA
without a valid target): a refusal handled as correct; **partial** when some action is correct but the reward is
below 1.0; **failed** otherwise (including no action on a feasible label)."""
from synth.core.geometry import inside
from synth.labels import reward
from synth.labels.spec import action_point

STEP_VERDICTS = ("correct", "exploratory", "invalid", "wrong")
VERDICTS = ("complete", "partial", "infeasible", "failed")
DISTRACTOR_ROLES = {"distractor", "decoy", "lure"}
ANSWER_BUTTONS = {"verify", "skip"}          # widget buttons that answer; the others only change the state
POINTER = {"click", "long_press", "drag"}


def _point(action: dict) -> list[float] | None:
    return action_point(action, "start" if action["type"] == "drag" and "start" in action else "point")


def _under(label: dict, p) -> list[dict]:
    """The objects (and a grounding sample's elements) under point p, smallest first."""
    found = [o for o in label["objects"] + label.get("elements", []) if inside(o["bbox"], p)]
    return sorted(found, key=lambda o: (o["bbox"][2] - o["bbox"][0]) * (o["bbox"][3] - o["bbox"][1]))


class _Judge:
    """The state of one sequence's judging: which steps are met, which objects were clicked."""

    def __init__(self, label: dict) -> None:
        self.label, self.accept = label, label["accept"]
        self.steps = self.accept["steps"]
        self.met = [False] * len(self.steps)
        self.clicked: set[tuple] = set()
        self.multi = not self.accept["order_matters"] and len(self.steps) > 1

    def _step_match(self, action: dict) -> str | None:
        """correct / wrong (out of order) / exploratory (met again) when the action meets some step, else None."""
        hits = [i for i, s in enumerate(self.steps) if reward.matches(s, action)]
        if not hits:
            return None
        if self.accept["order_matters"]:
            nxt = self.met.index(False) if False in self.met else -1
            if nxt in hits:
                self.met[nxt] = True
                return "correct"
            return "wrong"
        fresh = [i for i in hits if not self.met[i]]
        if fresh:
            self.met[fresh[0]] = True
            return "correct"
        return "exploratory" if self.multi else "wrong"

    def _reference_clicks(self, box: list[float]) -> bool:
        """Whether the label's reference actions click in `box` too (the answer field before typing, Verify)."""
        return any(a.get("type") == "click" and inside(box, a["point"]) for a in self.label.get("actions", []))

    def verdict(self, action) -> str:
        if not isinstance(action, dict) or action.get("type") not in (*POINTER, "type", "wait"):
            return "invalid"
        kind = action["type"]
        if kind in ("type", "wait"):
            found = self._step_match(action)
            if found:
                return found
            if kind == "wait":
                return "exploratory"
            return "wrong" if any(s["type"] == "type" for s in self.steps) else "invalid"
        return self._pointer(action)

    def _pointer(self, action: dict) -> str:
        label, p = self.label, _point(action)
        w, h = label["image"]["width"], label["image"]["height"]
        if p is None or not (0 <= p[0] <= w and 0 <= p[1] <= h):
            return "invalid"
        widget = label.get("widget")
        if widget is not None and not inside(widget, p):
            return "invalid"
        found = self._step_match(action)
        if found:
            return found
        under = _under(label, p)
        if widget is None and not under:
            return "invalid"
        neutral = [b for b in self.accept["neutral_regions"] if b[2] > b[0] and inside(b, p)]
        if action["type"] == "click" and neutral:
            return "correct" if self._reference_clicks(neutral[0]) else "exploratory"
        if any(o.get("role") in DISTRACTOR_ROLES for o in under):
            return "wrong"
        top = under[0] if under else None
        if widget is not None and top and top.get("role") == "button" and top.get("label") not in ANSWER_BUTTONS:
            return "exploratory"
        key = tuple(top["bbox"]) if top else None
        if self.multi and key is not None and key in self.clicked:
            return "exploratory"
        if key is not None:
            self.clicked.add(key)
        return "wrong"


def judge(label: dict, actions: list) -> dict:
    """{"steps": one of STEP_VERDICTS per action, "verdict": one of VERDICTS, "reward": the synth reward} for
    `actions` (pixel actions of the stored image) under `label` (rules in this module's docstring)."""
    actions = list(actions) if isinstance(actions, (list, tuple)) else []
    j = _Judge(label)
    steps = [j.verdict(a) for a in actions]
    value = reward.score(label, actions)
    feasible = bool(label["accept"]["steps"]) and label["answer"].get("feasible", True)
    if value == 1.0:
        verdict = "complete" if feasible else "infeasible"
    else:
        verdict = "partial" if "correct" in steps else "failed"
    return {"steps": steps, "verdict": verdict, "reward": value}
