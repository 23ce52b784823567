"""Slide to verify (滑动验证): a track with a knob at its left end ("Slide to verify", "向右滑动验证"); drag the
knob all the way to the right end. Higher levels shorten the track and the accepted shortfall, vary the knob
and the colours, and add look-alike controls: a slider already verified, a progress bar, an arrow button."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, ui

NAME = "drag_end"
DESCRIPTION = "drag the slider knob from the left end of its track all the way to the right end"
GEOMETRIC_AUGMENT = False      # the drop is judged on exact track geometry (a warp would move the end)
ANSWERS = ("drag",)             # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "accepted shortfall (share of the knob's travel)", -1
COVERS = ("VenusBench-CAPTCHA:drag_end", "Aliyun:slide_to_end", "NetEase-Yidun:slide_to_end",
          "Dingxiang:slide_to_end")
KNOB, TRACK, DECOY = 1, 2, 10           # instance ids (decoys 10, 11, ...)
MIN_KNOB_CONTRAST = 40.0                # RGB distance between the knob and the track round it
MIN_TRACK_CONTRAST = 18.0               # luma difference between the track and the panel round it
LABELS = {"en": ("Slide to verify", "Drag the slider to the end", "Slide right to verify", ">> Slide to unlock"),
          "zh": ("向右滑动验证", "请按住滑块，拖动到最右边", "拖动滑块完成验证", "向右滑动解锁")}
TITLES = {"en": ("Security check", "Verify you are human", "Please complete the check"),
          "zh": ("安全验证", "请完成安全验证", "人机验证")}
DONE = {"en": "Verified", "zh": "验证通过"}
LOADING = {"en": "Loading", "zh": "加载中"}
ACCENTS = ((24, 144, 255), (250, 140, 22), (114, 46, 209), (19, 194, 194), (245, 34, 45), (47, 84, 235))
# (no green: green is the verified slider's)
DECOYS = ("done", "progress", "arrow")

TABLE = LevelTable(NAME, knobs={
    "track_range": "track length as a share of the puzzle width",
    "height_range": "track height as a share of the puzzle height",
    "tolerance_range": "accepted shortfall (or overshoot) of the drop, share of the knob's travel",
    "decoys_range": "look-alike controls beside the slider",
    "faint_range": "how faint the track is against the panel, 0 (clear) to 1 (faint)",
}, levels={
    1: {"track_range": (0.84, 0.9), "height_range": (0.13, 0.14), "tolerance_range": (0.10, 0.10),
        "decoys_range": (0, 0), "faint_range": (0.0, 0.2)},
    2: {"track_range": (0.74, 0.86), "height_range": (0.12, 0.13), "tolerance_range": (0.08, 0.08),
        "decoys_range": (0, 1), "faint_range": (0.1, 0.4)},
    3: {"track_range": (0.62, 0.8), "height_range": (0.11, 0.12), "tolerance_range": (0.06, 0.06),
        "decoys_range": (1, 1), "faint_range": (0.2, 0.6)},
    4: {"track_range": (0.52, 0.74), "height_range": (0.10, 0.11), "tolerance_range": (0.045, 0.045),
        "decoys_range": (1, 2), "faint_range": (0.4, 0.8)},
    5: {"track_range": (0.45, 0.68), "height_range": (0.09, 0.10), "tolerance_range": (0.03, 0.03),
        "decoys_range": (2, 3), "faint_range": (0.6, 1.0)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # "" (the knob is the thing to drag)
    lang: str                   # language of the texts drawn in the puzzle
    label: str
    title: str
    track: tuple[int, int, int, int]        # x0, y0, x1, y1
    knob: str                   # "square" | "round" | "pill"
    knob_w: int
    accent: tuple[int, int, int]
    track_rgb: tuple[int, int, int]
    panel_rgb: tuple[int, int, int]
    decoys: tuple[tuple[str, tuple[int, int, int, int]], ...]     # (kind, box)
    tolerance: float            # px
    knobs: dict


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  lang: str | None = None) -> Params:
    row = TABLE.row(level)
    w, h = size
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k == "decoys_range") for k in row}
    drawn = ("en", "zh")[int(rng.integers(2))]
    lang = lang or drawn          # the page's language when the pipeline gives it
    th = round(h * knobs["height"])
    tw = round(w * knobs["track"])
    shape = ("square", "round", "pill")[int(rng.integers(3))] if level >= 2 else "square"
    kw = {"square": th, "round": th, "pill": round(th * 1.5)}[shape]
    tw = min(max(tw, round(4.2 * kw)), round(w * 0.92))     # room for the knob to travel 3 times its width
    # rows: the title, then slots of equal height for the slider and the decoys
    top = round(h * 0.2)
    slots = 4
    slot_h = (h - top - round(h * 0.04)) / slots
    order = [int(i) for i in rng.permutation(slots)]
    n_decoys = knobs["decoys"]
    def slot_box(k: int, bw: int, bh: int) -> tuple[int, int, int, int]:
        cy = top + slot_h * (k + 0.5)
        x0 = int(rng.integers(round(w * 0.04), max(round(w * 0.04), w - bw - round(w * 0.04)) + 1))
        return (x0, round(cy - bh / 2), x0 + bw, round(cy - bh / 2) + bh)
    track = slot_box(order[0], tw, th)
    decoys = []
    kinds = list(DECOYS)
    for j in range(n_decoys):
        kind = kinds.pop(int(rng.integers(len(kinds))))
        if kind == "done":
            box = slot_box(order[1 + j], round(w * float(rng.uniform(0.45, 0.7))), th)
        elif kind == "progress":
            x0, y0, x1, y1 = slot_box(order[1 + j], round(w * float(rng.uniform(0.5, 0.75))) + 34,
                                      max(6, round(th * 0.3)))
            box = (x0, y0, x1 - 34, y1)           # room on its right for the share it shows
        else:
            box = slot_box(order[1 + j], th, th)
        decoys.append((kind, box))
    accent = ACCENTS[int(rng.integers(len(ACCENTS)))]
    faint = knobs["faint"]
    panel = tuple(int(v) for v in rng.integers(246, 256, 3)) if rng.random() < 0.7 else (255, 255, 255)
    shade = round(44 - 20 * faint)             # the track is this much darker than the panel (24 at the faintest)
    track_rgb = tuple(max(0, v - shade) for v in panel)
    labels, titles = LABELS[lang], TITLES[lang]
    travel = tw - kw
    tol = knobs["tolerance"] * travel
    knobs.update(travel_share=travel / w, decoys=float(n_decoys))
    return Params(size=size, target="", lang=lang, label=labels[int(rng.integers(len(labels)))],
                  title=titles[int(rng.integers(len(titles)))], track=track, knob=shape, knob_w=kw, accent=accent,
                  track_rgb=track_rgb, panel_rgb=panel, decoys=tuple(decoys), tolerance=float(tol), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the accepted shortfall as a share of the knob's travel."""
    return params.knobs["tolerance"]


# ---------------------------------------------------------------- drawing

def chevrons(p: ui.Painter, cx: float, cy: float, s: float, rgb, n: int = 2) -> None:
    """n right-pointing chevrons of height s centred on (cx, cy)."""
    step = s * 0.42
    x0 = cx - step * (n - 1) / 2 - s * 0.15
    for i in range(n):
        x = x0 + i * step
        p.line([(x, cy - s / 2), (x + s * 0.32, cy), (x, cy + s / 2)], rgb, width=max(1.5, s / 6))


def knob_box(params: Params) -> tuple[int, int, int, int]:
    x0, y0, _, y1 = params.track
    return (x0, y0, x0 + params.knob_w, y1)


def draw_knob_at(p: ui.Painter, box, shape: str, fill, edge, inst: int = 0) -> None:
    x0, y0, x1, y1 = box
    r = {"square": 3, "round": (y1 - y0) / 2, "pill": (y1 - y0) / 2}[shape]
    p.rect(box, fill=fill, outline=edge, width=1.5, radius=r, inst=inst)


def render(params: Params) -> Puzzle:
    w, h = params.size
    p = ui.Painter(params.size, params.panel_rgb)
    tx0, ty0, tx1, ty1 = params.track
    th = ty1 - ty0
    grey = (120, 124, 130)
    p.text((w * 0.05, h * 0.1), params.title, max(11, round(h * 0.05)), (40, 42, 48), bold=True)
    p.line([(w * 0.05, h * 0.17), (w * 0.95, h * 0.17)], (228, 230, 234), width=1)
    radius = th / 2 if params.knob != "square" else 4
    p.rect(params.track, fill=params.track_rgb, radius=radius, inst=TRACK)
    kx0, ky0, kx1, ky1 = knob_box(params)
    label_px = max(10, round(th * 0.34))
    fit = (tx1 - kx1 - 8) / max(1.0, ui.text_width(params.label, label_px))
    if fit < 1:
        label_px = max(8, int(label_px * fit))
    label_box = p.text(((kx1 + tx1) / 2, (ty0 + ty1) / 2), params.label, label_px, grey, anchor="mm")
    # a white knob with coloured chevrons on a clearly grey track; on a faint one, a coloured knob
    white = ui.luma(params.panel_rgb) - ui.luma(params.track_rgb) >= 30
    draw_knob_at(p, knob_box(params), params.knob, (255, 255, 255) if white else params.accent, (168, 172, 178))
    chevrons(p, (kx0 + kx1) / 2, (ky0 + ky1) / 2, th * 0.34, params.accent if white else (255, 255, 255))
    # the knob is drawn over the track: mark it after
    p.rect(knob_box(params), radius={"square": 3}.get(params.knob, th / 2), inst=KNOB)
    meta = {KNOB: {"role": "slider_knob", "label": "slider knob", "kind": params.knob},
            TRACK: {"role": "slider_track", "label": "slider track", "kind": ""}}
    for j, (kind, box) in enumerate(params.decoys):
        i = DECOY + j
        x0, y0, x1, y1 = box
        bh = y1 - y0
        if kind == "done":     # a slider already slid: filled, knob at the right end, a tick and "Verified"
            p.rect(box, fill=(82, 196, 26), radius=bh / 2 if params.knob != "square" else 4, inst=i)
            k = (x1 - bh, y0, x1, y1)
            draw_knob_at(p, k, "square" if params.knob == "square" else "round", (255, 255, 255), (200, 203, 208))
            cx, cy = x1 - bh / 2, (y0 + y1) / 2
            p.line([(cx - bh * 0.18, cy), (cx - bh * 0.04, cy + bh * 0.14), (cx + bh * 0.2, cy - bh * 0.14)],
                   (82, 196, 26), width=max(1.5, bh / 10))
            p.text(((x0 + x1 - bh) / 2, cy), DONE[params.lang], max(9, round(bh * 0.34)), (255, 255, 255),
                   anchor="mm")
            meta[i] = {"role": "distractor", "label": "verified slider", "kind": kind}
        elif kind == "progress":   # a loading bar with its share
            p.rect(box, fill=(232, 234, 238), radius=bh / 2, inst=i)
            p.rect((x0, y0, x0 + round((x1 - x0) * 0.6), y1), fill=params.accent, radius=bh / 2)
            p.text((x1 + 4, (y0 + y1) / 2), "60%", max(9, round(bh * 1.2)), grey, anchor="lm")
            meta[i] = {"role": "distractor", "label": f"{LOADING['en'].lower()} bar", "kind": kind}
        else:                      # a round arrow button, alone
            p.ellipse(box, fill=params.accent, inst=i)
            p.line([(x0 + bh * 0.28, (y0 + y1) / 2), (x1 - bh * 0.28, (y0 + y1) / 2)], (255, 255, 255),
                   width=max(1.5, bh / 10))
            chevrons(p, x1 - bh * 0.36, (y0 + y1) / 2, bh * 0.3, (255, 255, 255), n=1)
            meta[i] = {"role": "distractor", "label": "arrow button", "kind": kind}
    rgb, inst = p.finish()
    full = {i: int(v) for i, v in enumerate(draw.instance_areas(inst)) if i in meta}
    full[TRACK] += full.get(KNOB, 0)          # the knob covers part of the track
    return Puzzle(rgb, inst, full, meta, extras={"label_box": label_box})


# ---------------------------------------------------------------- verification

def solve(params: Params, puzzle: Puzzle) -> Task:
    inst = puzzle.instances
    h, w = inst.shape
    boxes = draw.instance_boxes(inst)
    if KNOB not in boxes or TRACK not in boxes:
        raise Reject(f"{NAME}.slider_missing")
    knob, shown = boxes[KNOB], boxes[TRACK]
    areas = draw.instance_areas(inst)
    if areas[KNOB] < 0.999 * puzzle.full_area[KNOB]:
        raise Reject(f"{NAME}.knob_hidden")
    # the knob covers the track's left end: the track is what shows right of it, touching it
    if not (shown[0] <= knob[2] and knob[1] >= shown[1] - 1 and knob[3] <= shown[3] + 1 and knob[2] < shown[2]
            and knob[0] <= shown[0]):
        raise Reject(f"{NAME}.knob_not_at_start")
    track = [knob[0], min(knob[1], shown[1]), shown[2], max(knob[3], shown[3])]
    kw = knob[2] - knob[0]
    travel = track[2] - knob[2]
    if travel < 3 * kw:
        raise Reject(f"{NAME}.track_too_short")
    # the knob stands out from the track, the track from the panel
    kmask = inst == KNOB
    tmask = inst == TRACK
    core = cv2.erode(kmask.view(np.uint8), np.ones((5, 5), np.uint8)).view(bool)
    knob_c = float(np.linalg.norm(ui.mean_rgb(puzzle.rgb, core) - ui.mean_rgb(puzzle.rgb, tmask)))
    if knob_c < MIN_KNOB_CONTRAST:
        raise Reject(f"{NAME}.knob_low_contrast")
    around = (cv2.dilate((kmask | tmask).view(np.uint8), np.ones((7, 7), np.uint8)) > 0) & (inst == 0)
    track_c = abs(ui.luma(ui.mean_rgb(puzzle.rgb, tmask)) - ui.luma(ui.mean_rgb(puzzle.rgb, around)))
    if track_c < MIN_TRACK_CONTRAST:
        raise Reject(f"{NAME}.track_low_contrast")
    # the label stays clear of the knob; look-alikes keep clear of the slider
    lx0, _, lx1, _ = puzzle.extras["label_box"]
    if lx0 < knob[2] + 2 or lx1 > track[2]:
        raise Reject(f"{NAME}.label_over_knob")
    decoys = [i for i in puzzle.meta if i >= DECOY]
    closest = min((ui.box_gap(track, boxes[i]) for i in decoys if i in boxes), default=np.inf)
    if closest < 4:
        raise Reject(f"{NAME}.decoy_too_close")
    objects = []
    for i, m in puzzle.meta.items():
        if i in boxes:
            objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                            "visible_fraction": round(min(1.0, float(areas[i]) / max(1, puzzle.full_area[i])), 4)})
    start = draw.inner_point(kmask)
    end_box = [knob[0] + travel, knob[1], knob[2] + travel, knob[3]]
    checks = {"travel_px": travel, "knob_contrast": knob_c, "track_contrast": track_c,
              "decoys": float(len(decoys)), "closest_decoy_px": closest if np.isfinite(closest) else -1.0}
    return Task(rule="drag", answer={"offset": float(travel)}, objects=objects, target_ids=[KNOB],
                target_boxes=[knob], points=[start], end_boxes=[end_box], end_points=[[start[0] + travel, start[1]]],
                tolerance_px=params.tolerance, checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    done = any(kind == "done" for kind, _ in params.decoys)      # then say which of the two sliders
    if lang == "zh":
        return "请将未验证的滑块拖动到轨道最右端" if done else "请按住滑块，拖动到轨道最右端"
    if done:
        return "Drag the knob of the slider that is not yet verified all the way to the right."
    return "Drag the slider knob all the way to the right end of its track."
