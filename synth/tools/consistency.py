"""What a label says twice, recomputed from the label alone (no re-rendering), for `synth verify`.

A label holds its answer several times over: in `answer`, in the accept steps, in the reference actions and in
the objects (DESIGN §3). An edit to one copy (a count 5 → 4, a typed text "2" → "99") leaves the others
disagreeing; each function here returns such disagreements as "field: what disagrees" messages.

- every kind: the reference actions score 1.0 under the label's accept rule;
- captcha: `answer.text` is what every type step wants; a numeric text is `answer.count`; a count answered by
  several clicks is their number, by a long press its seconds; `answer.sequence` names, in order, the objects
  the steps click; clicked `answer.cells` are the objects the steps click; an offset or angle is what the
  accept drag moves; no accept region is a distractor's box;
- grounding: each query's reference actions score 1.0 under its own accept rule; a query is feasible exactly
  when it has a target, which is an element whose box is the query's first region; the top-level answer and the
  target object are the first query's; elements lie inside the image;
- episodes (one sample per step): the key is the episode id and step, `done` marks the last step, an expert
  step takes the reference action, the rewards lie in [0, 1] and add up to the episode's `return` (checked
  across its samples by `EpisodeTally`)."""
import json
import math
import re

from synth.labels import reward, spec

_NUMBER = re.compile(r"[0-9]+")
_EPISODE_FIELDS = ("id", "step", "steps", "done", "return")


def label_disagreements(label: dict) -> list[str]:
    """Every way a label (that keeps the contract) disagrees with itself, for its kind."""
    problems = []
    if reward.score(label, label["actions"]) != 1.0:
        problems.append("actions: the reference actions do not score 1.0 under accept")
    if "queries" in label:
        problems += _grounding(label)
    elif label["kind"] == "episode":
        problems += _episode_step(label)
    else:
        problems += _captcha(label)
    return problems


def _captcha(label: dict) -> list[str]:
    """A captcha's answer against its accept steps and objects."""
    ans, steps = label["answer"], label["accept"]["steps"]
    problems = []
    typed = [s["text"] for s in steps if s["type"] == "type"]
    if ans["text"] and any(t != ans["text"] for t in typed):
        problems.append(f"answer.text: {ans['text']!r}, the accept step types {typed[0]!r}")
    if ans["count"] != -1 and _NUMBER.fullmatch(ans["text"]) and int(ans["text"]) != ans["count"]:
        problems.append(f"answer.count: {ans['count']}, answer.text says {ans['text']!r}")
    clicks = [s for s in steps if s["type"] == "click"]
    # a count answered by clicking several things (one click may pick the thing that has the count: holes)
    if ans["count"] != -1 and not typed and len(clicks) == len(steps) > 1 and ans["count"] != len(clicks):
        problems.append(f"answer.count: {ans['count']}, the accept rule wants {len(clicks)} clicks")
    presses = [s["min_duration"] for s in steps if s["type"] == "long_press"]
    if ans["count"] != -1 and presses and any(d != ans["count"] for d in presses):
        problems.append(f"answer.count: {ans['count']} s, the accept step holds for {presses[0]:g} s")
    if ans["sequence"] != [""]:
        problems += _sequence(ans["sequence"], steps, label["objects"])
    if ans["cells"] != [-1] and len(clicks) == len(steps) > 0:
        problems += _cells(ans["cells"], clicks, label["objects"])
    drags = [s for s in steps if s["type"] == "drag"]
    if drags:
        problems += _drag(ans, drags[0], label["objects"])
    distractors = {tuple(o["bbox"]) for o in label["objects"] if o["role"] == "distractor"}
    for i, s in enumerate(steps):
        if s["type"] != "type" and tuple(s["region"]) in distractors:
            problems.append(f"accept: step {i}'s region is a distractor's box")
    return problems


def _cells(cells: list[int], clicks: list[dict], objects: list[dict]) -> list[str]:
    """Clicked cells: cell c is object c + 1 (the grid's tiles come first), and the click steps are their boxes."""
    boxes = {o["id"]: o["bbox"] for o in objects}
    if [boxes.get(c + 1) for c in cells] != [s["region"] for s in clicks]:
        return [f"answer.cells: {cells} are not the cells the accept steps click"]
    return []


def _drag(ans: dict, drag: dict, objects: list[dict]) -> list[str]:
    """A drag's displacement against the answer: an offset times the screen's device scale (1, 2 or 3); an
    angle as the share of a full turn the knob travels along its track."""
    dx = drag["end_region"][0] - drag["region"][0]
    if ans["offset"] != -1.0:
        scale = dx / ans["offset"] if ans["offset"] else 0.0
        if not any(abs(scale - k) < 0.01 for k in (1, 2, 3)):
            return [f"answer.offset: {ans['offset']:g}, the accept drag moves {dx:g} px"]
    knobs = [o["bbox"] for o in objects if o["role"] == "slider_knob"]
    tracks = [o["bbox"] for o in objects if o["role"] == "slider_track"]
    if ans["angle"] != -1.0 and len(knobs) == len(tracks) == 1:
        travel = tracks[0][2] - knobs[0][2]
        if abs(ans["angle"] / 360 * travel - dx) > 0.5:
            return [f"answer.angle: {ans['angle']:g}, the accept drag moves {dx:g} of {travel:g} px"]
    return []


def _sequence(sequence: list[str], steps: list[dict], objects: list[dict]) -> list[str]:
    """`answer.sequence` against the objects the accept steps click, in order."""
    if len(sequence) != len(steps):
        return [f"answer.sequence: {len(sequence)} items, the accept rule has {len(steps)} steps"]
    for i, (name, s) in enumerate(zip(sequence, steps)):
        labels = {o["label"] for o in objects if o["bbox"] == s["region"]}
        if labels and name not in labels:
            return [f"answer.sequence: item {i} is {name!r}, accept step {i} clicks {sorted(labels)[0]!r}"]
    return []


def _grounding(label: dict) -> list[str]:
    """A grounding sample's queries against their targets, the elements and the top level."""
    problems = []
    w, h = label["image"]["width"], label["image"]["height"]
    boxes = {e["id"]: e["bbox"] for e in label["elements"]}
    for e in label["elements"]:
        b = e["bbox"]
        if not (len(b) == 4 and all(type(v) is float and math.isfinite(v) for v in b)
                and 0 <= b[0] <= b[2] <= w and 0 <= b[1] <= b[3] <= h):
            problems.append(f"elements: element {e['id']} box {b} leaves the {w}x{h} image")
    for i, q in enumerate(label["queries"]):
        if reward.score(spec.query_label(label, i), q["actions"]) != 1.0:
            problems.append(f"queries[{i}].actions: the reference actions do not score 1.0 under its accept")
        if q["feasible"] != (q["target"] >= 0):
            problems.append(f"queries[{i}].feasible: {q['feasible']}, but target is {q['target']}")
        elif q["feasible"] and q["target"] not in boxes:
            problems.append(f"queries[{i}].target: {q['target']} is not an element id")
        elif q["feasible"] and q["accept"]["steps"][0]["region"] != boxes[q["target"]]:
            problems.append(f"queries[{i}].accept: the first region is not target element {q['target']}'s box")
    q0 = spec.query_label(label, 0)
    if label["answer"] != q0["answer"]:
        problems.append("answer: not the first query's (its typed text and feasibility)")
    targets = [o["id"] for o in label["objects"] if o["role"] == "target"]
    if label["queries"][0]["feasible"] and targets != [label["queries"][0]["target"]]:
        problems.append(f"objects: the target object is {targets}, the first query's target is "
                        f"{label['queries'][0]['target']}")
    return problems


def _episode_step(label: dict) -> list[str]:
    """One episode step's fields against each other (the episode as a whole: EpisodeTally)."""
    ep = label.get("episode")
    if not (isinstance(ep, dict) and all(k in ep for k in _EPISODE_FIELDS)):
        return [f"episode: missing or lacks one of {', '.join(_EPISODE_FIELDS)}"]
    problems = []
    if type(ep["step"]) is not int or label["key"] != f"{ep['id']}-{ep['step']:03d}":
        problems.append(f"episode.step: {ep['step']!r} with id {ep['id']!r} does not make the key")
    elif not (isinstance(ep["steps"], int) and 0 <= ep["step"] < ep["steps"]):
        problems.append(f"episode.steps: {ep['steps']!r}, step is {ep['step']}")
    elif ep["done"] != (ep["step"] + 1 == ep["steps"]):
        problems.append(f"episode.done: {ep['done']!r} at step {ep['step']} of {ep['steps']}")
    r = label.get("reward")
    if not (isinstance(r, float) and 0.0 <= r <= 1.0):
        problems.append(f"reward: {r!r} is not a float in [0, 1]")
    mistake, taken = label.get("mistake"), label.get("taken")
    if not isinstance(mistake, bool):
        problems.append(f"mistake: {mistake!r} is not a bool")
    elif mistake == (label["actions"][:1] == [taken]):
        problems.append("taken: " + ("a mistake takes the reference action" if mistake
                                     else "an expert step takes an action other than the reference"))
    try:
        json.loads(label.get("state"))
    except (TypeError, ValueError, RecursionError):
        problems.append("state: not JSON text")
    return problems


class EpisodeTally:
    """The steps of each episode seen so far, to check across samples: every step present once, the same
    `steps` and `return` in all, and the rewards adding up to the return."""

    def __init__(self) -> None:
        self.episodes: dict[str, dict] = {}

    def add(self, label: dict) -> list[str]:
        """Count one episode step; a problem if it contradicts the steps seen before. A step whose episode
        fields have the wrong types is left out (label_disagreements names them)."""
        ep, r = label.get("episode"), label.get("reward")
        if not (isinstance(ep, dict) and isinstance(ep.get("id"), str) and type(ep.get("step")) is int
                and type(ep.get("steps")) is int and type(ep.get("return")) is float and type(r) is float):
            return []
        seen = self.episodes.setdefault(ep["id"], {"steps": ep["steps"], "return": ep["return"], "at": set(),
                                                    "rewards": 0.0})
        if (seen["steps"], seen["return"]) != (ep["steps"], ep["return"]):
            return [f"episode: steps/return {ep['steps']}/{ep['return']}, an earlier step of {ep['id']} says "
                    f"{seen['steps']}/{seen['return']}"]
        seen["at"].add(ep["step"])
        seen["rewards"] += r
        return []

    def problems(self) -> list[str]:
        """Episodes whose steps are missing or whose rewards do not add up to their return."""
        out = []
        for eid, seen in self.episodes.items():
            if len(seen["at"]) != seen["steps"]:
                out.append(f"{eid}: episode holds {len(seen['at'])} of its {seen['steps']} steps")
            elif abs(seen["rewards"] - seen["return"]) > 1e-3:
                out.append(f"{eid}: episode rewards add up to {seen['rewards']:g}, return says {seen['return']:g}")
        return out
