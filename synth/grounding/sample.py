"""Pick verified grounding queries on a rendered page and write the label: one screenshot, K queries.

Each query names a different element (or, for a refusal, a control the page verifiably lacks), in one of
the instruction kinds of the run's level and one of three styles. The label's top-level `instruction`,
`accept` and `actions` are the first query's, so one-query readers keep working; `queries` holds them all
and `elements` every visible element of the page (DESIGN §3)."""
from collections import Counter
from dataclasses import dataclass

import numpy as np

from synth import SCHEMA, __version__
from synth.core.errors import Reject
from synth.core.levels import draw_knob
from synth.grounding.describe import DESCRIBERS, STYLES, has_leftovers, look_alikes, phrase, to_type
from synth.grounding.levels import MIN_SIDE_CSS, TABLE
from synth.grounding.refusal import draw_refusal
from synth.grounding.relations import spatial
from synth.labels import reward, spec
from synth.labels.checks import check_contract, check_reference
from synth.screens.browser import RenderedPage

NO_REGION = [0.0, 0.0, 0.0, 0.0]      # accept.neutral_regions needs one box; this one holds no point
# Instruction kinds that quote text outside the target (a neighbour's): not used on folder pages, whose
# targets' quotes must be readable inside their boxes
QUOTES_ELSEWHERE = ("relation", "between", "row", "column")


@dataclass
class Query:
    """One query of a sample: its target element (None for a refusal), kind, style and text."""
    el: dict | None
    kind: str
    style: str
    instruction: str
    area: float = 0.0                # the target's area, per mille of the screen
    typing: bool = False


def on_screen(el: dict, w: int, h: int) -> bool:
    x0, y0, x1, y1 = el["box"]
    return x1 > x0 and y1 > y0 and x1 > 0 and y1 > 0 and x0 < w and y0 < h


def verified(el: dict, page: RenderedPage) -> bool:
    """Visible at its centre and near its corners (not covered, not clipped), inside the screen, big enough."""
    x0, y0, x1, y1 = el["box"]
    return (el["centre_hit"] and el["corners_hit"] and el.get("nine_hit", True) and el["in_viewport"]
            and min(x1 - x0, y1 - y0) >= MIN_SIDE_CSS * page.dpr and painted(el["box"], page.rgb))


def painted(box: list[float], rgb: np.ndarray) -> bool:
    """Whether the box shows something drawn: not one flat colour (a control painted transparent or blank)."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    crop = rgb[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
    return crop.size > 0 and int((crop.max(axis=(0, 1)).astype(int) - crop.min(axis=(0, 1))).max()) >= 24


def visible_elements(page: RenderedPage) -> list[dict]:
    h, w = page.rgb.shape[:2]
    return [e for e in page.elements if on_screen(e, w, h)]


def options(page: RenderedPage, level: int, min_alikes: int, why: Counter) -> dict[str, list[tuple[dict, str, float]]]:
    """Every verified description at `level`, by kind: (element, noun phrase, area per mille)."""
    row = TABLE.row(level)
    h, w = page.rgb.shape[:2]
    visible = visible_elements(page)
    lo, hi = row["target_area_range"]
    kinds = [k for k in row["kinds"] if not (page.spec.site and k in QUOTES_ELSEWHERE)]
    found: dict[str, list] = {k: [] for k in kinds}
    placed = spatial(kinds, visible, page.texts, page.spec.lang, page.marks, page.decor_icons, page.labels, why)
    roles = Counter(e["role"] for e in visible)
    for el in visible:
        x0, y0, x1, y1 = el["box"]
        area = (x1 - x0) * (y1 - y0) / (w * h) * 1000
        if not (verified(el, page) and lo <= area <= hi and roles[el["role"]] - 1 >= min_alikes):
            continue
        for kind in kinds:
            if kind in placed:
                noun = placed[kind].get(el["index"])
            else:
                extra = {"decor_icons": page.decor_icons, "painted": page.icons} if kind == "icon" else {}
                noun = DESCRIBERS[kind](el, visible, page.texts, page.spec.lang, **extra)
            if noun is not None:
                found[kind].append((el, noun, area))
    return found


def refusal_count(index: int, k: int, share: float) -> int:
    """Refusals among the `k` queries of sample `index`: spread so that every run holds `share` of them to
    within one query."""
    return int(np.floor((index + 1) * k * share + 1e-9) - np.floor(index * k * share + 1e-9))


def pick_kind(rng: np.random.Generator, kinds: list[str], weights: dict[str, float] | None) -> str:
    """One of `kinds`: uniformly, or with `weights` (a --focus run's; a kind they do not name weighs the mean of
    the others) from one uniform draw over their cumulative sum."""
    if not weights:
        return kinds[int(rng.integers(len(kinds)))]
    default = sum(weights.values()) / len(weights)
    w = np.cumsum([weights.get(kd, default) for kd in kinds])
    return kinds[min(int(np.searchsorted(w, rng.random() * w[-1], side="right")), len(kinds) - 1)]


def choose(rng: np.random.Generator, page: RenderedPage, level: int, k: int = 1, refusals: int = 0,
           why: Counter | None = None, kind_weights: dict[str, float] | None = None) -> tuple[list[Query], dict]:
    """Up to `k` queries on distinct targets (`refusals` of them refusals, at random places) and the knobs;
    Reject if the page has no target at the level. When the page offers fewer targets than asked for, the
    refusals shrink in proportion, so that their share holds. Each query's kind is drawn from those the page
    still offers, uniformly or by `kind_weights` (pick_kind)."""
    why = why if why is not None else Counter()
    min_alikes = draw_knob(rng, TABLE.row(level)["look_alikes_range"], integer=True)
    found = options(page, level, min_alikes, why)
    targets = len({id(el) for opts in found.values() for el, _, _ in opts})
    if not targets:
        raise Reject("grounding.no_target_at_level")
    feasible = min(k - refusals, targets)
    if feasible < k - refusals:
        why["grounding.fewer_targets_than_queries"] += 1
        refusals = int(round(refusals * feasible / max(1, k - refusals)))
    queries: list[Query] = []
    used: set[int] = set()
    for _ in range(feasible):
        kinds = [kd for kd, opts in found.items() if any(id(el) not in used for el, _, _ in opts)]
        kind = pick_kind(rng, kinds, kind_weights)
        opts = [o for o in found[kind] if id(o[0]) not in used]
        el, noun, area = opts[int(rng.integers(len(opts)))]
        used.add(id(el))
        style = STYLES[int(rng.integers(len(STYLES)))]
        typing = el["role"] == "input" and kind == "field" and bool(el["sample"])
        text = to_type(noun, el["sample"], page.spec.lang) if typing else phrase(
            kind, noun, style, page.spec.lang, page.spec.platform, el["fn"])
        queries.append(Query(el, kind, "instruction" if typing else style, text, area, typing))
    named: set[str] = set()
    for _ in range(refusals):
        style = STYLES[int(rng.integers(len(STYLES)))]
        absent = draw_refusal(rng, page, style, named, TABLE.row(level)["kinds"])
        if absent is None:
            why["refusal.nothing_absent"] += 1
            break
        named.add(absent["name"])
        queries.insert(int(rng.integers(len(queries) + 1)), Query(None, "refusal", style, absent["instruction"]))
    if not queries:          # a one-query refusal whose page lacks nothing it could name
        raise Reject("refusal.nothing_absent")
    if any(has_leftovers(q.instruction) for q in queries):
        raise Reject("grounding.template_leftover")
    first = next((q for q in queries if q.el is not None), None)     # none in a one-query refusal
    alikes = look_alikes(first.el, visible_elements(page)) if first else 0
    return queries, {"target_area_permille": first.area if first else 0.0, "look_alikes": float(alikes),
                     "min_look_alikes": float(min_alikes)}


def query_entry(q: Query) -> dict:
    """A query as the label lists it: instruction, kind, style, target id, feasible, accept, actions."""
    if q.el is None:
        return {"instruction": q.instruction, "kind": q.kind, "style": q.style, "target": -1, "feasible": False,
                "accept": {"order_matters": False, "partial_credit": False, "steps": [],
                           "neutral_regions": [NO_REGION]}, "actions": []}
    box = spec.fbox(q.el["box"])
    actions, steps = [spec.action("click", point=spec.center(box))], [spec.step("click", box)]
    if q.typing:
        actions.append(spec.action("type", point=spec.center(box), text=q.el["sample"]))
        steps.append(spec.step("type", box, text=q.el["sample"]))
    return {"instruction": q.instruction, "kind": q.kind, "style": q.style, "target": int(q.el["index"]),
            "feasible": True, "accept": {"order_matters": q.typing, "partial_credit": False, "steps": steps,
                                         "neutral_regions": [NO_REGION]}, "actions": actions}


def _clipped(b: list[float], w: int, h: int) -> list[float]:
    return spec.fbox([min(max(b[0], 0), w), min(max(b[1], 0), h), min(max(b[2], 0), w), min(max(b[3], 0), h)])


def objects_of(q: Query, page: RenderedPage) -> list[dict]:
    """The first query's target and the elements that share its role (distractors); a refusal's absent
    control as an empty box."""
    h, w = page.rgb.shape[:2]
    if q.el is None:
        return [{"id": -1, "role": "absent", "label": q.instruction, "bbox": NO_REGION, "visible_fraction": 0.0}]
    el = q.el
    objects = [{"id": el["index"], "role": "target",
                "label": el["text"] or el["icon"] or el["field"] or el.get("name") or el["role"],
                "bbox": spec.fbox(el["box"]), "visible_fraction": 1.0}]
    return objects + [{"id": e["index"], "role": "distractor", "label": e["text"] or e["icon"] or e["role"],
                       "bbox": _clipped(e["box"], w, h), "visible_fraction": 1.0 if verified(e, page) else 0.0}
                      for e in visible_elements(page) if e is not el and e["role"] == el["role"]]


def make_label(key: str, kind_of_run: str, level: int, seed: int, page: RenderedPage, queries: list[Query],
               knobs: dict) -> dict:
    """The grounding label (DESIGN §3); inputs with a sample value become click-then-type tasks."""
    h, w = page.rgb.shape[:2]
    entries = [query_entry(q) for q in queries]
    first, q0 = entries[0], queries[0]
    elements = [{"id": int(e["index"]), "role": e["role"], "name": e.get("name") or e["text"],
                 "bbox": _clipped(e["box"], w, h)} for e in visible_elements(page)]
    target = ("none:refusal" if q0.el is None else f'{q0.el["role"]}:{"text" if q0.el["text"] else "icon"}')
    kinds = Counter(q.kind for q in queries)
    return {
        "schema": SCHEMA, "key": key, "kind": kind_of_run, "family": "element", "difficulty": level, "seed": seed,
        "platform": page.spec.platform, "lang": page.spec.lang, "template": page.spec.template,
        "image": {"width": int(w), "height": int(h)}, "instruction": first["instruction"],
        "answer": spec.answer(text=q0.el["sample"] if q0.typing else "", feasible=first["feasible"]),
        "actions": first["actions"], "accept": first["accept"], "widget": None, "objects": objects_of(q0, page),
        "queries": entries, "elements": elements,
        "params": {"task": "type" if q0.typing else "click", "target": target, "version": __version__,
                   "page": {"template": page.spec.template, "variant": page.spec.variant, "mode": page.spec.mode,
                            "controls": page.spec.controls},
                   "augment": {"seed": 0, "applied": ""},
                   "knobs": [{"name": k, "value": round(float(v), 4)} for k, v in
                             sorted({**knobs, "difficulty_stat": knobs["target_area_permille"]}.items())]},
        "checks": {"passed": True, "items": [
            {"name": "centre_hit", "value": 1.0}, {"name": "corners_hit", "value": 1.0},
            *({"name": "instruction_kind_" + kd, "value": float(n)} for kd, n in sorted(kinds.items()))]},
    }


def wrong_click(query: dict, label: dict) -> list[float]:
    """A click that must not solve a query: the centre of another element outside its target, else a corner
    of the screen away from it."""
    w, h = label["image"]["width"], label["image"]["height"]
    if not query["feasible"]:
        return [w / 2, h / 2]
    t = query["accept"]["steps"][0]["region"]
    for e in label["elements"]:
        p = spec.center(e["bbox"])
        if e["id"] != query["target"] and not (t[0] <= p[0] <= t[2] and t[1] <= p[1] <= t[3]):
            return p
    return [1.0, 1.0] if t[0] > 2 or t[1] > 2 else [w - 1.0, h - 1.0]


def check(label: dict) -> None:
    """Final checks: contract, and for every query the reference scores 1.0 and a wrong click less."""
    check_contract(label)
    worst = 0.0
    for i, query in enumerate(label["queries"]):
        view = spec.query_label(label, i)
        check_reference(view)
        value = reward.score(view, [{"type": "click", "point": wrong_click(query, label)}] + view["actions"][1:])
        if value >= 1.0:
            raise Reject("label.wrong_action_accepted")
        worst = max(worst, value)
    label["checks"]["items"] += [{"name": "reference_reward", "value": 1.0},
                                 {"name": "wrong_click_reward", "value": worst}]
