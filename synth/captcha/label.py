"""A CAPTCHA sample's label: the task (puzzle pixels) placed in the page, its reference actions and accept
rule in image pixels, and the final checks every label passes before it is written."""
from synth import SCHEMA, __version__
from synth.captcha.compose import puzzle_origin, to_image
from synth.core.errors import Reject
from synth.families.base import Task
from synth.labels import reward, spec
from synth.labels.checks import check_contract, check_reference
from synth.screens.browser import RenderedPage


def scale_task(task: Task, factor: int) -> None:
    """Scale a task's geometry from puzzle pixels to `factor` times larger ones (pixel-edge boxes scale exactly)."""
    def scaled(values):
        return [[v * factor for v in item] for item in values]
    for o in task.objects:
        o["bbox"] = [v * factor for v in o["bbox"]]
    task.target_boxes, task.end_boxes = scaled(task.target_boxes), scaled(task.end_boxes)
    task.points, task.end_points = scaled(task.points), scaled(task.end_points)
    task.tolerance_px *= factor


def ui_objects(page: RenderedPage, start_id: int) -> list[dict]:
    """The widget's own controls as labelled objects."""
    roles = [("synth-verify", "button", "verify"), ("synth-refresh", "button", "refresh"),
             ("synth-answer", "input", "answer field"), ("synth-skip", "button", "skip")]
    return [{"id": start_id + i, "role": role, "label": label, "bbox": spec.fbox(page.boxes[el]),
             "visible_fraction": 1.0} for i, (el, role, label) in enumerate(roles) if el in page.boxes]


def reference(task: Task, boxes: dict[str, list[float]], origin: tuple[int, int]) -> tuple[list, list, list]:
    """(reference actions, accept steps, neutral regions) of a task, in image pixels."""
    verify = spec.fbox(boxes["synth-verify"])
    press_verify = [spec.action("click", point=spec.center(verify))]
    points = [spec.fbox(to_image(p, origin)) for p in task.points]
    targets = [to_image(b, origin) for b in task.target_boxes]
    if task.rule == "type":
        field = spec.fbox(boxes["synth-answer"])
        actions = [spec.action("click", point=spec.center(field)),
                   spec.action("type", point=spec.center(field), text=task.text)] + press_verify
        return actions, [spec.step("type", field, text=task.text)], [field, verify]
    if task.rule in ("click_set", "click_order"):
        actions = [spec.action("click", point=p) for p in points] + press_verify
        return actions, [spec.step("click", b) for b in targets], [verify]
    if task.rule == "drag":
        end = to_image(task.end_boxes[0], origin)
        actions = [spec.action("drag", point=points[0], end=to_image(task.end_points[0], origin))]
        return actions, [spec.step("drag", targets[0], end, tolerance=task.tolerance_px)], [verify]
    if task.rule == "long_press":
        actions = [spec.action("long_press", point=points[0], duration=task.duration + 0.5)]
        return actions, [spec.step("long_press", targets[0], min_duration=task.duration)], [verify]
    if task.rule == "skip":
        skip = spec.fbox(boxes["synth-skip"])
        return [spec.action("click", point=spec.center(skip))], [spec.step("click", skip)], [verify]
    raise ValueError(f"unknown task rule {task.rule!r}")


def make_label(key: str, level: int, seed: int, family, params, task: Task, page: RenderedPage, instruction: str,
               augment: dict) -> dict:
    """A CAPTCHA sample's label (the contract of synth.labels.spec), in image pixels."""
    origin = puzzle_origin(page)
    boxes = page.boxes
    objects = [{"id": o["id"], "role": o["role"], "label": o["label"], "bbox": spec.fbox(to_image(o["bbox"], origin)),
                "visible_fraction": float(o["visible_fraction"])} for o in task.objects]
    objects += ui_objects(page, 200)
    actions, steps, neutral = reference(task, boxes, origin)
    h, w = page.rgb.shape[:2]
    knobs = [{"name": k, "value": round(float(v), 4)}
             for k, v in sorted({**params.knobs, "difficulty_stat": family.stat(params)}.items())]
    checks = [{"name": k, "value": round(float(v), 4)} for k, v in sorted(task.checks.items())]
    return {
        "schema": SCHEMA, "key": key, "kind": "captcha", "family": family.NAME,
        "difficulty": level, "seed": seed, "platform": page.spec.platform, "lang": page.spec.lang,
        "template": page.spec.template, "image": {"width": int(w), "height": int(h)},
        "instruction": instruction,
        "answer": spec.answer(**{**task.answer, **({"text": task.text} if task.text else {})}),
        "actions": actions,
        "accept": {"order_matters": task.order_matters, "partial_credit": task.partial_credit,
                   "steps": steps, "neutral_regions": neutral},
        "widget": spec.fbox(boxes["synth-widget"]), "objects": objects,
        "params": {"task": task.rule, "target": params.target, "version": __version__,
                   "page": {"template": page.spec.template, "variant": page.spec.variant, "mode": page.spec.mode,
                            "controls": page.spec.controls},
                   "augment": augment, "knobs": knobs},
        "checks": {"passed": True, "items": checks},
    }


def check_label(label: dict) -> None:
    """Final checks on a finished label; rejects it (Reject) if any fails and records what ran."""
    check_contract(label)
    ref = check_reference(label)
    wx0, wy0, wx1, wy1 = label["widget"]
    w, h = label["image"]["width"], label["image"]["height"]
    outside = [2.0, 2.0] if wx0 > 4 or wy0 > 4 else [w - 2.0, h - 2.0]
    wrong = reward.score(label, [{"type": "click", "point": outside}])
    distractors = [o for o in label["objects"] if o["role"] == "distractor"]
    wrong_pick = (reward.score(label, [{"type": "click", "point": spec.center(distractors[0]["bbox"])}])
                  if distractors else 0.0)
    if wrong >= 1.0 or wrong_pick >= 1.0:
        raise Reject("label.wrong_action_accepted")
    label["checks"]["items"] += [{"name": "reference_reward", "value": ref},
                                 {"name": "outside_click_reward", "value": wrong},
                                 {"name": "distractor_click_reward", "value": wrong_pick}]
