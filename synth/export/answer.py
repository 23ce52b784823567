"""A label's answer as a model writes it: the action sequence trainers teach (no submit click, a focus click
before each Type) with coordinates in a model's convention, written and read back in UI-Venus action syntax
(synth.labels.actions: read them with its parse_venus / parse_grounding on the frame's grid).

Coordinates are integers of the convention's grid, chosen so that the point read back still lands in its
target: the nearest grid point to the reference that maps back inside the accept region (for a drag, the
end is chosen so that the displacement read back is the closest the grid allows)."""
from synth.core.geometry import inside
from synth.export.coords import Frame
from synth.labels import actions as syntax


def answer_actions(label: dict) -> list[dict]:
    """The reference actions without the final submit: a click in a neutral region (Verify) is dropped unless
    it focuses a field that the next action types into."""
    acts = label["actions"]
    neutral = label["accept"]["neutral_regions"]

    def submit(i: int, a: dict) -> bool:
        focus = i + 1 < len(acts) and acts[i + 1]["type"] == "type"
        return a["type"] == "click" and not focus and any(inside(b, a["point"]) for b in neutral)

    return [a for i, a in enumerate(acts) if not submit(i, a)]


def _nearest_inside(frame: Frame, p, region) -> list[int]:
    """The grid point nearest to `p` whose pixel lies in `region` (p's own rounding when no neighbour does)."""
    q = frame.to_model(p)
    candidates = [[q[0] + dx, q[1] + dy] for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    hits = [c for c in candidates if inside(region, frame.to_pixels(c))]
    if not hits:
        return q
    return min(hits, key=lambda c: sum((a - b) ** 2 for a, b in zip(frame.to_pixels(c), p)))


def _region_of(label: dict, point) -> list[float] | None:
    """The accept region (or neutral field) that contains `point`, smallest first."""
    boxes = [s["region"] for s in label["accept"]["steps"]] + label["accept"]["neutral_regions"]
    hits = [b for b in boxes if inside(b, point)]
    return min(hits, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if hits else None


def model_actions(label: dict, frame: Frame) -> list[dict]:
    """`answer_actions` with every coordinate on `frame`'s grid: {"type", "point"|"start"+"end" (ints), "text",
    "duration"}."""
    out = []
    for a in answer_actions(label):
        if a["type"] == "drag":
            region = _region_of(label, a["start"]) or [0, 0, frame.width, frame.height]
            s = _nearest_inside(frame, a["start"], region)
            ps = frame.to_pixels(s)
            want = [a["end"][0] - a["start"][0] + ps[0], a["end"][1]]
            e = frame.to_model(want)
            e = min(([e[0] + d, e[1]] for d in (-1, 0, 1)),
                    key=lambda c: abs(frame.to_pixels(c)[0] - want[0]))
            out.append({"type": "drag", "start": s, "end": e})
        elif a["type"] == "type":
            out.append({"type": "type", "text": a["text"]})
        else:
            region = _region_of(label, a["point"]) or [0, 0, frame.width, frame.height]
            out.append({"type": a["type"], "point": _nearest_inside(frame, a["point"], region),
                        "duration": a["duration"]})
    return out


def to_pixels(actions: list[dict], frame: Frame) -> list[dict]:
    """Model-grid actions back to pixel actions of the stored image."""
    out = []
    for a in actions:
        b = dict(a)
        for f in ("point", "start", "end"):
            if f in a:
                b[f] = [round(v, 2) for v in frame.to_pixels(a[f])]
        out.append(b)
    return out


def grounding_text(label: dict, frame: Frame, target: str) -> str:
    """A grounding answer: `[x, y]` (point) or `[x0, y0, x1, y1]` (box) on `frame`'s grid; `[-1, -1]` when the
    label marks the target absent."""
    if not label["answer"]["feasible"]:
        return syntax.grounding_text(syntax.REFUSAL)
    region = label["accept"]["steps"][0]["region"]
    if target == "box":
        return syntax.grounding_text(frame.box(region))
    point = next(a["point"] for a in label["actions"] if a["type"] == "click")
    return syntax.grounding_text(_nearest_inside(frame, point, region))

