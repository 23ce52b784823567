"""Score a proposed action sequence against a label's `accept` rule: a reward in [0, 1].

A grounding sample's queries are scored one at a time: `score(spec.query_label(label, i), actions)`. A
refusal query (the target is absent) has no steps: no action at all scores 1.0, any action 0.0.

Clicks that land in a neutral region (answer field, Verify button) are ignored. A drag is judged by where
it grabs and how far it moves the grabbed thing (see `_drag_matches`). The remaining actions
are matched one-to-one to the accept steps (in order when `order_matters`); with partial credit the
reward is the F1 of that matching, otherwise 1.0 only when every step is matched and nothing is left over.

`rules="venus"` judges instead as the VenusBench-CAPTCHA scorer does (`synth.labels.venus`)."""

from synth.core.geometry import inside
from synth.labels import venus
from synth.labels.actions import ParseError, is_grounding_answer, parse_output
from synth.labels.spec import action_point

RULES = ("synth", "venus")


def matches(step: dict, action: dict) -> bool:
    """Whether one action satisfies one accept step."""
    kind = step["type"]
    if action.get("type") != kind:
        return False
    if kind == "click":
        p = action_point(action, "point")
        return p is not None and inside(step["region"], p)
    if kind == "long_press":
        p, duration = action_point(action, "point"), action.get("duration")
        return (p is not None and inside(step["region"], p) and isinstance(duration, (int, float))
                and duration >= step["min_duration"])
    if kind == "drag":
        return _drag_matches(step, action_point(action, "start"), action_point(action, "end"))
    if kind == "type":
        return isinstance(action.get("text"), str) and action["text"].strip().casefold() == step["text"].casefold()
    return kind == "wait"       # an animated episode's step that lets time pass


def _drag_matches(step: dict, start, end) -> bool:
    """A drag grabs the thing in `region` and moves it by the displacement that takes `region` onto
    `end_region`, within `tolerance` pixels horizontally (vertically: within half the region's height)."""
    if start is None or end is None or not inside(step["region"], start):
        return False
    r, e, tol = step["region"], step["end_region"], step["tolerance"]
    want_dx, want_dy = (e[0] + e[2] - r[0] - r[2]) / 2, (e[1] + e[3] - r[1] - r[3]) / 2
    return (abs(end[0] - start[0] - want_dx) <= tol
            and abs(end[1] - start[1] - want_dy) <= max(tol, (r[3] - r[1]) / 2))


def _max_matching(steps: list[dict], actions: list[dict]) -> int:
    """Size of a maximum one-to-one matching between steps and actions (Kuhn's augmenting paths)."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set) -> bool:
        for j, a in enumerate(actions):
            if j not in seen and matches(steps[i], a):
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(augment(i, set()) for i in range(len(steps)))


def _ordered_matching(steps: list[dict], actions: list[dict]) -> int:
    """Longest prefix-respecting match: steps must be met in order by increasing actions."""
    n, j = 0, 0
    for s in steps:
        while j < len(actions) and not matches(s, actions[j]):
            j += 1
        if j == len(actions):
            break
        n, j = n + 1, j + 1
    return n


def matched(accept: dict, actions: list[dict]) -> tuple[int, int]:
    """(accept steps met, actions left over) when `actions` (dicts, neutral clicks already dropped) are matched
    one-to-one to the steps of `accept`, in order if it says so."""
    tp = (_ordered_matching if accept["order_matters"] else _max_matching)(accept["steps"], actions)
    return tp, len(actions) - tp


def score(label: dict, actions: list[dict], rules: str = "synth") -> float:
    """Reward in [0, 1] for `actions` (pixel coordinates of the stored image) under `label['accept']`, by
    synth's rules or by VenusBench-CAPTCHA's (`rules="venus"`: pass or fail)."""
    if rules == "venus":
        return venus.score(label, actions)
    if rules != "synth":
        raise ValueError(f"rules must be one of {', '.join(RULES)}, got {rules!r}")
    acc = label["accept"]
    neutral = [b for b in acc["neutral_regions"] if b[2] > b[0] and b[3] > b[1]]   # a zero box holds no click
    kept = [a for a in actions if not (isinstance(a, dict) and a.get("type") == "click" and action_point(a, "point")
                                       and any(inside(b, a["point"]) for b in neutral))]
    kept = [a for a in kept if isinstance(a, dict)]
    tp, fp = matched(acc, kept)
    fn = len(acc["steps"]) - tp
    if acc["partial_credit"]:
        return 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return 1.0 if fn == 0 and fp == 0 else 0.0


def answered_label(label: dict, output) -> dict:
    """The label an output is scored against: `label` itself, or for a bare grounding answer (`[x, y]`, a box)
    to a click-then-type query, the query's click alone. A point says where, as the grounding exports teach it
    for every query; typing the text is asked of action answers."""
    steps = label["accept"]["steps"]
    if not (is_grounding_answer(output) and any(s["type"] == "type" for s in steps)):
        return label
    where = [s for s in steps if s["type"] != "type"]
    return {**label, "accept": {**label["accept"], "steps": where, "order_matters": False}}


def score_answer(label: dict, output, rules: str = "synth") -> float:
    """Reward of a model's raw output for `label`: UI-Venus action text (0–999), a list of pixel actions, a
    grounding answer (see `answered_label`), or the refusal `[-1, -1]` (no action: 1.0 only where the target
    is absent). ParseError when it holds no readable action."""
    actions = parse_output(output, label["image"]["width"], label["image"]["height"])
    return score(answered_label(label, output), actions, rules)


def score_output(label: dict, output, rules: str = "synth") -> float:
    """`score_answer`, with 0.0 for an output that holds no readable action (an RL loop can feed it any text)."""
    try:
        return score_answer(label, output, rules)
    except ParseError:
        return 0.0
