"""The VenusBench-CAPTCHA scoring rules (inclusionAI/UI-Venus `evaluation/scoring.py`), applied to a synth label.

Pass or fail, no partial credit. Where they differ from synth's own rules (`synth.labels.reward`):
- every action counts: a click on Verify or into the answer field is an extra action, not a neutral one;
- typed answers are Click + Type pairs, the click inside the field, the text compared exactly (case-sensitive,
  surrounding spaces stripped);
- a drag is one Drag that starts in the piece's box, moves horizontally in the reference direction by the
  reference distance within 5 % of it, and ends within 5 px of the reference end's y;
- clicks and long presses are matched one-to-one to the targets (in order when the order matters), the action
  type must match, no two points may be closer than 1 px; a long press's duration is not judged;
- points outside the image fail (the benchmark rejects coordinates outside 0..999).
"""
from synth.core.geometry import inside
from synth.labels.spec import action_point

DRAG_DISTANCE_TOLERANCE = 0.05   # relative
DRAG_Y_TOLERANCE = 5.0           # px
MIN_SEPARATION = 1.0             # px
POINT_TYPES = ("click", "long_press")


def score(label: dict, actions: list) -> float:
    """1.0 when `actions` (pixels of the stored image) pass the VenusBench rules for `label`, else 0.0."""
    steps = label["accept"]["steps"]
    if not all(isinstance(a, dict) for a in actions) or not actions:
        return 0.0
    w, h = label["image"]["width"], label["image"]["height"]
    if not all(inside([0, 0, w, h], p) for a in actions for p in _points(a)):
        return 0.0
    kinds = {s["type"] for s in steps}
    if kinds == {"drag"}:
        ok = _drag(steps[0], _reference_drag(label), actions)
    elif kinds == {"type"}:
        ok = _typed(steps, actions, label["accept"]["order_matters"])
    else:
        ok = _points_match(steps, actions, label["accept"]["order_matters"])
    return 1.0 if ok else 0.0


def _points(a: dict) -> list:
    fields = ("start", "end") if a.get("type") == "drag" else ("point",) if a.get("type") in POINT_TYPES else ()
    found = [action_point(a, f) for f in fields]
    return [p if p is not None else [-1.0, -1.0] for p in found]


def _distinct(points: list) -> bool:
    return all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= MIN_SEPARATION ** 2
               for i, p in enumerate(points) for q in points[i + 1:])


def _perfect(candidates: list[list[int]], n: int) -> bool:
    """Whether every action can be given its own step (Kuhn's augmenting paths); len(candidates) == n."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set) -> bool:
        for j in candidates[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return len(candidates) == n and all(augment(i, set()) for i in range(n))


def _points_match(steps: list[dict], actions: list[dict], in_order: bool) -> bool:
    if len(actions) != len(steps) or any(a.get("type") not in POINT_TYPES for a in actions):
        return False
    points = [action_point(a, "point") for a in actions]
    if None in points or not _distinct(points):
        return False

    def hit(p, a, s) -> bool:
        return a["type"] == s["type"] and inside(s["region"], p)

    if in_order:
        return all(hit(p, a, s) for p, a, s in zip(points, actions, steps))
    return _perfect([[j for j, s in enumerate(steps) if hit(p, a, s)] for p, a in zip(points, actions)], len(steps))


def _typed(steps: list[dict], actions: list[dict], in_order: bool) -> bool:
    pairs = [(actions[i], actions[i + 1]) for i in range(0, len(actions) - 1, 2)]
    if len(actions) != 2 * len(steps) or any(c.get("type") != "click" or t.get("type") != "type" for c, t in pairs):
        return False
    points = [action_point(c, "point") for c, _ in pairs]
    if None in points or not _distinct(points):
        return False

    def hit(p, t, s) -> bool:
        return isinstance(t.get("text"), str) and t["text"].strip() == s["text"].strip() and inside(s["region"], p)

    if in_order:
        return all(hit(p, t, s) for p, (_, t), s in zip(points, pairs, steps))
    return _perfect([[j for j, s in enumerate(steps) if hit(p, t, s)] for p, (_, t) in zip(points, pairs)],
                    len(steps))


def _reference_drag(label: dict) -> dict:
    return next(a for a in label["actions"] if a["type"] == "drag")


def _drag(step: dict, ref: dict, actions: list[dict]) -> bool:
    if len(actions) != 1 or actions[0].get("type") != "drag":
        return False
    start, end = action_point(actions[0], "start"), action_point(actions[0], "end")
    if start is None or end is None or not inside(step["region"], start):
        return False
    want = ref["end"][0] - ref["start"][0]
    got = end[0] - start[0]
    if abs(want) <= 1e-12:
        if abs(got) > 1e-12:
            return False
    elif got * want <= 0 or abs(got - want) / abs(want) >= DRAG_DISTANCE_TOLERANCE:
        return False
    return abs(end[1] - ref["end"][1]) < DRAG_Y_TOLERANCE
