"""Pick a verified grounding target on a rendered page and write its label."""
import numpy as np

from synth import SCHEMA, __version__, reward, spec
from synth.families.base import Reject
from synth.grounding.describe import DESCRIBERS, has_leftovers, look_alikes
from synth.grounding.levels import MIN_SIDE_CSS, TABLE
from synth.levels import draw
from synth.scenes.browser import RenderedPage

NO_REGION = [0.0, 0.0, 0.0, 0.0]      # accept.neutral_regions needs one box; this one holds no point
# Instruction kinds that quote text outside the target (a neighbour's): not used on folder pages, whose
# targets' quotes must be readable inside their boxes
QUOTES_ELSEWHERE = ("relation",)


def on_screen(el: dict, w: int, h: int) -> bool:
    x0, y0, x1, y1 = el["box"]
    return x1 > x0 and y1 > y0 and x1 > 0 and y1 > 0 and x0 < w and y0 < h


def verified(el: dict, page: RenderedPage) -> bool:
    """Visible at its centre and near its corners (not covered, not clipped), inside the screen, big enough."""
    x0, y0, x1, y1 = el["box"]
    return (el["centre_hit"] and el["corners_hit"] and el["in_viewport"]
            and min(x1 - x0, y1 - y0) >= MIN_SIDE_CSS * page.dpr)


def choose(rng: np.random.Generator, page: RenderedPage, level: int, lang: str) -> tuple[dict, str, str, dict]:
    """(target element, instruction kind, instruction, knobs) for one sample; Reject if the page has none."""
    row = TABLE.row(level)
    h, w = page.rgb.shape[:2]
    visible = [e for e in page.elements if on_screen(e, w, h)]
    lo, hi = row["target_area_range"]
    min_alikes = draw(rng, row["look_alikes_range"], integer=True)
    kinds = [k for k in row["kinds"] if not (page.spec.site and k in QUOTES_ELSEWHERE)]
    options = []
    for el in visible:
        x0, y0, x1, y1 = el["box"]
        area = (x1 - x0) * (y1 - y0) / (w * h) * 1000
        if not (verified(el, page) and lo <= area <= hi and look_alikes(el, visible) >= min_alikes):
            continue
        for kind in kinds:
            extra = {"decor_icons": page.decor_icons} if kind == "icon" else {}
            instruction = DESCRIBERS[kind](el, visible, page.texts, lang, **extra)
            if instruction is not None:
                options.append((el, kind, instruction, area))
    if not options:
        raise Reject("grounding.no_target_at_level")
    el, kind, instruction, area = options[int(rng.integers(len(options)))]
    if has_leftovers(instruction):
        raise Reject("grounding.template_leftover")
    return el, kind, instruction, {"target_area_permille": area, "look_alikes": float(look_alikes(el, visible)),
                                   "min_look_alikes": float(min_alikes)}


def make_label(key: str, kind_of_run: str, level: int, seed: int, page: RenderedPage, el: dict, kind: str,
               instruction: str, knobs: dict, visible: list[dict]) -> dict:
    """The grounding label (DESIGN §3): the target's box is the accept region; inputs with a sample value
    become click-then-type tasks."""
    h, w = page.rgb.shape[:2]
    box = spec.fbox(el["box"])
    typing = el["role"] == "input" and kind == "field" and bool(el["sample"])
    if typing:
        instruction = instruction_to_type(instruction, el["sample"], page.spec.lang)
    actions = [spec.action("click", point=spec.center(box))]
    steps = [spec.step("click", box)]
    if typing:
        actions.append(spec.action("type", point=spec.center(box), text=el["sample"]))
        steps.append(spec.step("type", box, text=el["sample"]))
    def clipped(b):
        return spec.fbox([min(max(b[0], 0), w), min(max(b[1], 0), h), min(max(b[2], 0), w), min(max(b[3], 0), h)])
    objects = [{"id": el["index"], "role": "target",
                "label": el["text"] or el["icon"] or el["field"] or el.get("name") or el["role"],
                "bbox": box, "visible_fraction": 1.0}]
    objects += [{"id": e["index"], "role": "distractor", "label": e["text"] or e["icon"] or e["role"],
                 "bbox": clipped(e["box"]), "visible_fraction": 1.0 if verified(e, page) else 0.0}
                for e in visible if e is not el and e["role"] == el["role"]]
    return {
        "schema": SCHEMA, "key": key, "kind": kind_of_run, "family": "element", "difficulty": level, "seed": seed,
        "platform": page.spec.platform, "lang": page.spec.lang, "template": page.spec.template,
        "image": {"width": int(w), "height": int(h)}, "instruction": instruction,
        "answer": spec.answer(text=el["sample"] if typing else ""),
        "actions": actions,
        "accept": {"order_matters": typing, "partial_credit": False, "steps": steps, "neutral_regions": [NO_REGION]},
        "widget": None, "objects": objects,
        "params": {"task": "type" if typing else "click",
                   "target": f'{el["role"]}:{"text" if el["text"] else "icon"}', "version": __version__,
                   "page": {"template": page.spec.template, "variant": page.spec.variant, "mode": page.spec.mode,
                            "controls": page.spec.controls},
                   "augment": {"seed": 0, "applied": ""},
                   "knobs": [{"name": k, "value": round(float(v), 4)} for k, v in
                             sorted({**knobs, "difficulty_stat": knobs["target_area_permille"]}.items())]},
        "checks": {"passed": True, "items": [
            {"name": "centre_hit", "value": 1.0}, {"name": "corners_hit", "value": 1.0},
            {"name": "instruction_kind_" + kind, "value": 1.0}]},
    }


def instruction_to_type(instruction: str, sample: str, lang: str) -> str:
    """Turn "Click the email field" into "Type … into the email field"."""
    if lang == "zh":
        return f"在{instruction.removeprefix('点击')}中输入“{sample}”"
    return f'Type "{sample}" into the {instruction.removeprefix("Click the ")}'


def check(label: dict) -> None:
    """Final checks: contract, reference scores 1.0, a click elsewhere scores less."""
    if spec.validate(label):
        raise Reject("label.invalid")
    if reward.score(label, label["actions"]) != 1.0:
        raise Reject("label.reference_not_accepted")
    target = label["objects"][0]["bbox"]
    others = [o["bbox"] for o in label["objects"][1:]]
    wrong = spec.center(others[0]) if others else ([1.0, 1.0] if target[0] > 2 or target[1] > 2 else
                                                   [label["image"]["width"] - 1.0, label["image"]["height"] - 1.0])
    value = reward.score(label, [{"type": "click", "point": wrong}] + label["actions"][1:])
    if value >= 1.0:
        raise Reject("label.wrong_action_accepted")
    label["checks"]["items"] += [{"name": "reference_reward", "value": 1.0}, {"name": "wrong_click_reward", "value": value}]
