"""`synth episodes`: an expert's trajectory through one episode as samples, one per step.

Each step's sample is the screenshot before the action, the step's reference (expert) action with an accept
rule for it, the action taken and its reward, and the state's ground truth (DESIGN §3, `episode`). A share
of episodes take one plausible wrong action (the task's `mistake`) that the next screenshot shows, then
recover: offline RL sees a failure and its correction. Every episode is replayed to its end; one that the
expert does not finish solved is rejected.

A step's accept rule is measured, not assumed: the region of a click is the smallest ground-truth object
under the expert's point, kept only if clicks at its corners and centre change the state exactly as the
expert's click does (else a small box round the point, probed the same way); a drag's start region and end
tolerance are found the same way."""
import copy
import json

import numpy as np

from synth import SCHEMA, __version__
from synth.core.errors import Reject
from synth.core.geometry import inside
from synth.episodes.base import FRAMES_PER_STEP
from synth.episodes.episode import Episode
from synth.labels import spec

MISTAKE_BY = 3              # a mistake is taken at one of the first MISTAKE_BY steps where the task has one
TOLERANCES = (12.0, 6.0, 3.0, 1.0)   # drag end tolerances tried, widest first (screenshot pixels)
POINT_BOXES = (3.0, 1.0)    # half sides of the boxes round a point tried when its object's box does not hold


def outcome(episode: Episode, act: dict, settled: bool = False) -> str:
    """What an action (screenshot pixels) does to the episode's state, as comparable text; with `settled`,
    only whether it ends the episode solved or failed."""
    task, state = episode.task, copy.deepcopy(episode.state)   # a family is shared, not copied
    episode.act_on(state, act)
    if settled:
        return json.dumps([task.done(state), task.failed(state)])
    return json.dumps([task.truth(state), task.done(state), task.failed(state)], sort_keys=True)


def _probe_points(box) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = box
    inset = min(1.0, (x1 - x0) / 4, (y1 - y0) / 4)
    return [(x0 + inset, y0 + inset), (x1 - inset, y0 + inset), (x0 + inset, y1 - inset), (x1 - inset, y1 - inset),
            ((x0 + x1) / 2, (y0 + y1) / 2)]


def _candidate_boxes(objects: list[dict], p) -> list[list[float]]:
    """Boxes that may be the region of an action at p: the objects under it, smallest first, then small
    boxes round p."""
    under = sorted((o["bbox"] for o in objects if inside(o["bbox"], p)), key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    return under + [[p[0] - r, p[1] - r, p[0] + r, p[1] + r] for r in POINT_BOXES]


def accept_step(episode: Episode, ref: dict, objects: list[dict]) -> dict:
    """The accept step of the expert's action `ref` (screenshot pixels), measured by probing; Reject if no
    region holds."""
    want = outcome(episode, ref)
    kind = ref["type"]
    if kind in ("type", "wait"):
        return spec.step(kind, [0, 0, 0, 0], text=ref["text"])
    for box in _candidate_boxes(objects, ref["point"]):
        if kind == "drag":
            dx, dy = ref["end"][0] - ref["point"][0], ref["end"][1] - ref["point"][1]
            if all(outcome(episode, {**ref, "point": [x, y], "end": [x + dx, y + dy]}) == want
                   for x, y in _probe_points(box)):
                return _drag_step(episode, ref, box, want)
        elif all(outcome(episode, {**ref, "point": [x, y]}) == want for x, y in _probe_points(box)):
            return spec.step(kind, box, min_duration=ref["duration"] - 0.5 if kind == "long_press" else 0.0)
    raise Reject("episode.no_accept_region")


def _drag_step(episode: Episode, ref: dict, box, want: str) -> dict:
    """A drag's accept step: its start region, and the widest end tolerance whose extremes all do what the
    expert's drag does (vertically synth.labels.reward allows at least half the region's height). A drag
    that solves the episode is matched by any drag that solves it too: a slider knob released anywhere within
    the task's tolerance leaves the state a little different, but solved all the same."""
    x, y = ref["point"]
    dx, dy = ref["end"][0] - x, ref["end"][1] - y
    settled = json.loads(want)[1]           # the expert's drag solves the episode
    if settled:
        want = outcome(episode, ref, settled=True)
    for tol in TOLERANCES:
        vertical = max(tol, (box[3] - box[1]) / 2)
        ends = [(dx - tol, dy), (dx + tol, dy), (dx, dy - vertical), (dx, dy + vertical)]
        if all(outcome(episode, {**ref, "end": [x + ex, y + ey]}, settled) == want for ex, ey in ends):
            return spec.step("drag", box, [box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy], tolerance=tol)
    raise Reject("episode.no_drag_tolerance")


def label_objects(truth: dict) -> list[dict]:
    return [{"id": i + 1, "role": o["role"], "label": o["label"], "bbox": spec.fbox(o["bbox"]),
             "visible_fraction": 1.0} for i, o in enumerate(truth["objects"])]


def play(episode: Episode, rng: np.random.Generator, mistake: bool, frames: bool) -> list[dict]:
    """Run the expert to the end of the episode, taking one of the task's mistakes first if `mistake`;
    returns per step what its sample needs. With `frames`, each step keeps FRAMES_PER_STEP (time, screenshot)
    frames: an animated task's ticks since the step before (the first step: its first screenshot, repeated),
    a still task's screenshot repeated. Reject if the episode does not end solved."""
    task = episode.task
    episode.record = task.ANIMATED and frames
    mistake_at = int(rng.integers(MISTAKE_BY)) if mistake else -1
    steps = []
    while not (episode.terminated or episode.truncated):
        image, truth = episode.image(), episode.truth()
        shown = episode.frames if episode.record and steps else [(episode.time, image)] * (FRAMES_PER_STEP * frames)
        objects = label_objects(truth)
        ref = episode.expert_action()
        wrong = task.mistake(rng, episode.state) if len(steps) >= mistake_at >= 0 else None
        taken = episode.to_image_action(wrong) if wrong is not None else ref
        if wrong is not None:
            mistake_at = -1                 # one mistake per episode
        step = {"image": image, "truth": truth, "objects": objects, "frames": shown, "time": episode.time,
                "reference": ref, "accept": accept_step(episode, ref, truth["objects"]), "taken": taken,
                "mistake": wrong is not None}
        step["reward"] = episode.step(taken)
        steps.append(step)
    if not (episode.terminated and episode.task.done(episode.state)) or sum(s["reward"] for s in steps) != 1.0:
        raise Reject("episode.not_solved")
    return steps


def _spec_action(a: dict) -> dict:
    """An episode action as a label action (synth.labels.spec.action's keys)."""
    return spec.action(a["type"], a["point"], a["end"], a["text"], a["duration"])


def step_label(key: str, episode_id: str, family: str, level: int, seed: int, episode: Episode, steps: list[dict],
               i: int, frame_ext: str) -> dict:
    """The label of step `i` of an episode (DESIGN §3 plus `episode`, `taken`, `reward`, `state`, `frames`)."""
    s, page = steps[i], episode.page
    h, w = page.rgb.shape[:2]
    last = i + 1 == len(steps)
    return {
        "schema": SCHEMA, "key": key, "kind": "episode", "family": family, "difficulty": level, "seed": seed,
        "platform": page.spec.platform, "lang": page.spec.lang, "template": page.spec.template,
        "image": {"width": int(w), "height": int(h)}, "instruction": episode.instruction,
        "answer": spec.answer(), "actions": [_spec_action(s["reference"])],
        "accept": {"order_matters": False, "partial_credit": False, "steps": [s["accept"]],
                   "neutral_regions": [[0.0, 0.0, 0.0, 0.0]]},
        "widget": spec.fbox(page.boxes["synth-widget"]), "objects": s["objects"],
        "episode": {"id": episode_id, "step": i, "steps": len(steps), "done": last, "time": float(s["time"]),
                    "return": round(float(sum(t["reward"] for t in steps)), 4)},
        "taken": _spec_action(s["taken"]), "reward": round(float(s["reward"]), 4), "mistake": s["mistake"],
        "state": json.dumps(s["truth"]["state"], sort_keys=True, ensure_ascii=False),
        "frames": [{"member": f"frame{k:03d}.{frame_ext}", "time": float(t)} for k, (t, _) in enumerate(s["frames"])],
        "params": {"task": "episode", "target": "", "version": __version__,
                   "page": {"template": page.spec.template, "variant": page.spec.variant, "mode": page.spec.mode,
                            "controls": page.spec.controls},
                   "augment": {"seed": -1, "applied": ""}, "knobs": []},
        "checks": {"passed": True, "items": [{"name": "episode_return", "value": 1.0}]},
    }

