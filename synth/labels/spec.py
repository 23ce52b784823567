"""The label contract (DESIGN §3): field types, JSON encoding and a validator used by tests and `synth verify`.

Every field keeps one JSON type in every sample: coordinates are floats, counts ints, and the keys of
`answer`, `accept`, each accept step and each object are the same in all samples, with sentinels
(-1, -1.0, "") where a family does not use one, so Arrow-based readers infer one schema."""
import json
import math

from synth import SCHEMA

ANSWER_KEYS = {"count": int, "angle": float, "text": str, "offset": float, "cells": list, "sequence": list,
               "feasible": bool}
ANSWER_UNUSED = {"count": -1, "angle": -1.0, "text": "", "offset": -1.0, "cells": [-1], "sequence": [""],
                 "feasible": True}
STEP_KEYS = {"type": str, "region": list, "end_region": list, "text": str, "tolerance": float, "min_duration": float}
OBJECT_KEYS = {"id": int, "role": str, "label": str, "bbox": list, "visible_fraction": float}
# Every action carries every key (Arrow needs one struct type for the list): `point` is where it acts,
# `start`/`end` its trajectory (equal to `point` for taps and typing; a drag's `point` is its start), `text`
# the typed text ("" otherwise), `duration` the press time in seconds (0.0 otherwise).
ACTION_KEYS = {"type": str, "point": list, "start": list, "end": list, "text": str, "duration": float}
ACTION_TYPES = {"click", "drag", "type", "long_press", "wait"}   # "wait": an episode step that lets time pass
QUERY_KEYS = {"instruction": str, "kind": str, "style": str, "target": int, "feasible": bool, "accept": dict,
              "actions": list}
ELEMENT_KEYS = {"id": int, "role": str, "name": str, "bbox": list}
TOP_KEYS = {"schema": str, "key": str, "kind": str, "family": str, "difficulty": int, "seed": int,
            "platform": str, "lang": str, "template": str, "image": dict, "instruction": str, "answer": dict,
            "actions": list, "accept": dict, "widget": (list, type(None)), "objects": list, "params": dict,
            "checks": dict}


def fbox(box) -> list[float]:
    """A box or point as rounded floats (JSON writes them with a decimal point)."""
    return [round(float(v), 2) for v in box]


def center(box: list[float]) -> list[float]:
    return [round((box[0] + box[2]) / 2, 2), round((box[1] + box[3]) / 2, 2)]


def action_point(action: dict, field: str) -> list[float] | None:
    """An action's point `field` ("point", "start", "end") if it is a well-formed [x, y], else None."""
    p = action.get(field)
    if isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p):
        return p
    return None


def answer(**values) -> dict:
    """The answer object with every key present; unused keys keep their sentinel."""
    out = {k: list(v) if isinstance(v, list) else v for k, v in ANSWER_UNUSED.items()}
    for k, v in values.items():
        out[k] = ANSWER_KEYS[k](v)
    if not out["cells"] or not out["sequence"]:
        raise ValueError("answer lists must not be empty (Arrow readers cannot type an empty list)")
    return out


def step(type_: str, region, end_region=None, text: str = "", tolerance: float = 0.0,
         min_duration: float = 0.0) -> dict:
    """One accept step; `end_region` equals `region` except for drags; `min_duration` (seconds) for long presses."""
    return {"type": type_, "region": fbox(region), "end_region": fbox(end_region if end_region is not None else region),
            "text": text, "tolerance": round(float(tolerance), 2), "min_duration": round(float(min_duration), 2)}


def exact_action(type_: str, point, end=None, text: str = "", duration: float = 0.0) -> dict:
    """An action with every key of ACTION_KEYS and its coordinates as given (as floats): `start` is `point`,
    `end` defaults to `point`. The base of `action` and of an episode's actions (synth.episodes.base.action),
    whose outcomes depend on the exact floats."""
    p = [float(point[0]), float(point[1])]
    e = [float(end[0]), float(end[1])] if end is not None else list(p)
    return {"type": type_, "point": p, "start": list(p), "end": e, "text": text, "duration": float(duration)}


def action(type_: str, point=None, end=None, text: str = "", duration: float = 0.0) -> dict:
    """One reference action of a label: `exact_action` rounded to 2 decimals. `point` is where it acts (for a
    drag: its start; for typing: the field typed into); `end` only for drags."""
    return exact_action(type_, fbox(point), fbox(end) if type_ == "drag" else None, text, round(float(duration), 2))


def query_label(label: dict, i: int) -> dict:
    """The label as if query `i` of a grounding sample were its only one (its instruction, answer, accept
    and actions), for scoring and exporting one query at a time; the label itself for i = 0 without queries."""
    queries = label.get("queries")
    if not queries:
        if i != 0:
            raise IndexError(f"sample {label['key']} has one query, not {i + 1}")
        return label
    q = queries[i]
    typed = next((s["text"] for s in q["accept"]["steps"] if s["type"] == "type"), "")
    return {**label, "instruction": q["instruction"], "accept": q["accept"], "actions": q["actions"],
            "answer": answer(text=typed, feasible=q["feasible"])}


def encode(label: dict) -> bytes:
    """Canonical JSON bytes (sorted keys, UTF-8): equal labels give equal bytes."""
    return json.dumps(label, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def _inside(point, w, h) -> bool:
    return 0 <= point[0] <= w and 0 <= point[1] <= h


def _is_box(b) -> bool:
    return (isinstance(b, list) and len(b) == 4 and all(isinstance(v, float) and math.isfinite(v) for v in b)
            and b[0] <= b[2] and b[1] <= b[3])


def validate(label: dict) -> list[str]:
    """Every way `label` breaks the contract, as short messages (empty when it is valid)."""
    errors = []
    for k, t in TOP_KEYS.items():
        if k not in label:
            errors.append(f"missing field {k}")
        elif not isinstance(label[k], t) or (t is int and isinstance(label[k], bool)):
            errors.append(f"{k} has type {type(label[k]).__name__}")
    if errors:
        return errors
    if label["schema"] != SCHEMA:
        errors.append(f"schema {label['schema']!r} is not {SCHEMA!r}")
    if "." in label["key"] or "/" in label["key"]:
        errors.append("key holds a dot or a slash")
    if not 1 <= label["difficulty"] <= 5:
        errors.append("difficulty outside 1..5")
    w, h = label["image"].get("width"), label["image"].get("height")
    if not (isinstance(w, int) and isinstance(h, int) and w > 0 and h > 0):
        return errors + ["image size is not two positive ints"]
    ans = label["answer"]
    if set(ans) != set(ANSWER_KEYS) or any(type(ans[k]) is not t for k, t in ANSWER_KEYS.items()):
        errors.append(f"answer keys/types differ from {sorted(ANSWER_KEYS)}")
    elif not (ans["cells"] and all(type(c) is int for c in ans["cells"])
              and ans["sequence"] and all(type(c) is str for c in ans["sequence"])):
        errors.append("answer cells must be non-empty ints and sequence non-empty strings")

    def check_box(name, b):
        if not _is_box(b):
            errors.append(f"{name} is not a float box")
        elif not (_inside(b[:2], w, h) and _inside(b[2:], w, h)):
            errors.append(f"{name} {b} leaves the {w}x{h} image")

    widget = label["widget"]
    if widget is not None:
        check_box("widget", widget)
    if not label["objects"]:
        errors.append("no objects")
    for o in label["objects"]:
        if set(o) != set(OBJECT_KEYS) or any(type(o[k]) is not t for k, t in OBJECT_KEYS.items()):
            errors.append(f"object {o.get('id')} keys/types differ from {sorted(OBJECT_KEYS)}")
        else:
            check_box(f"object {o['id']} bbox", o["bbox"])
    for i, a in enumerate(label["actions"]):
        if a.get("type") not in ACTION_TYPES:
            errors.append(f"action {i} has type {a.get('type')!r}")
            continue
        if set(a) != set(ACTION_KEYS) or any(type(a[k]) is not t for k, t in ACTION_KEYS.items()):
            errors.append(f"action {i} keys/types differ from {sorted(ACTION_KEYS)}")
            continue
        if a["start"] != a["point"] or (a["type"] != "drag" and a["end"] != a["point"]):
            errors.append(f"action {i}: start (and end, unless a drag) must equal point")
        for field in ("point", "start", "end"):
            p = a[field]
            if not (isinstance(p, list) and len(p) == 2 and all(type(v) is float for v in p)):
                errors.append(f"action {i} {field} is not a float point")
            elif not _inside(p, w, h):
                errors.append(f"action {i} {field} {p} leaves the image")
            elif widget is not None and not (widget[0] <= p[0] <= widget[2] and widget[1] <= p[1] <= widget[3]):
                errors.append(f"action {i} {field} {p} is outside the widget")
    acc = label["accept"]
    for k, t in {"order_matters": bool, "partial_credit": bool, "steps": list, "neutral_regions": list}.items():
        if type(acc.get(k)) is not t:
            errors.append(f"accept.{k} missing or not {t.__name__}")
    for i, s in enumerate(acc.get("steps") or []):
        if set(s) != set(STEP_KEYS) or any(type(s[k]) is not t for k, t in STEP_KEYS.items()):
            errors.append(f"accept step {i} keys/types differ from {sorted(STEP_KEYS)}")
        else:
            check_box(f"accept step {i} region", s["region"])
            check_box(f"accept step {i} end_region", s["end_region"])
    if not acc.get("steps") and label["answer"].get("feasible", True):
        errors.append("accept has no steps")
    for i, b in enumerate(acc.get("neutral_regions") or []):
        check_box(f"neutral region {i}", b)
    if not acc.get("neutral_regions"):
        errors.append("accept has no neutral regions")
    if "queries" in label:
        errors += _query_errors(label)
    return errors


def _query_errors(label: dict) -> list[str]:
    """How a grounding sample's `queries` and `elements` break the contract: each query a label of its own
    (query_label), the first one the top level, a refusal without steps or actions."""
    errors = []
    queries, elements = label["queries"], label.get("elements")
    if not isinstance(queries, list) or not queries:
        return ["queries is not a non-empty list"]
    if not isinstance(elements, list):
        return ["elements is not a list"]
    for e in elements:
        if set(e) != set(ELEMENT_KEYS) or any(type(e[k]) is not t for k, t in ELEMENT_KEYS.items()):
            errors.append(f"element {e.get('id')} keys/types differ from {sorted(ELEMENT_KEYS)}")
    for i, q in enumerate(queries):
        if set(q) != set(QUERY_KEYS) or any(type(q[k]) is not t for k, t in QUERY_KEYS.items()):
            errors.append(f"query {i} keys/types differ from {sorted(QUERY_KEYS)}")
            continue
        if q["feasible"] == bool(q["accept"].get("steps")) == bool(q["actions"]):
            view = {k: v for k, v in query_label(label, i).items() if k not in ("queries", "elements")}
            errors += [f"query {i}: {e}" for e in validate(view)]
        else:
            errors.append(f"query {i}: a feasible query has accept steps and actions, a refusal neither")
    q0 = queries[0]
    if (label["instruction"], label["accept"], label["actions"]) != (q0["instruction"], q0["accept"], q0["actions"]):
        errors.append("the top-level instruction, accept and actions are not the first query's")
    return errors
