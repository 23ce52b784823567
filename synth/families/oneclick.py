"""One click (无感/一键验证, checkbox CAPTCHAs): a sign-in form with a verification box, a checkbox beside "I'm
not a robot" (or a one-tap "Click to verify" button); click it. Higher levels add look-alike controls: the
form's own button, links (privacy, help, another language) and a second checkbox ("Remember me"), smaller
targets and other layouts. No vendor marks: generic colours and a plain shield emblem."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, ui

NAME = "oneclick"
DESCRIPTION = "tick the \"I'm not a robot\" checkbox (or press the one-tap verify button) among look-alike controls"
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "clickable look-alikes shown", +1
COVERS = ("VenusBench-CAPTCHA:oneclick_login", "reCAPTCHA:checkbox", "hCaptcha:checkbox", "GeeTest:one_tap",
          "NetEase-Yidun:one_tap", "Dingxiang:one_tap")
TARGET = 1                     # instance ids: the target, then look-alikes from DECOY, fields from FIELD
DECOY, FIELD = 10, 30
MIN_BOX_CONTRAST = 60.0        # RGB distance between a checkbox's outline and the box it sits in
MIN_BUTTON_CONTRAST = 40.0     # ... between a button and the page
MIN_GAP = 3                    # px between clickable things
CHECK = {"en": ("I'm not a robot", "I am human", "Verify you are human"),
         "zh": ("我不是机器人", "我是真人", "确认您是真人")}
BUTTON = {"en": ("Click to verify", "Tap to verify", "Verify I'm human"),
          "zh": ("点击验证", "点击按钮进行验证", "一键验证")}
OTHER_CHECK = {"en": ("Remember me", "Keep me signed in", "Subscribe to news"),
               "zh": ("记住我", "保持登录", "订阅资讯")}
TITLE = {"en": ("Sign in", "Create account", "Log in to continue"), "zh": ("登录", "注册账号", "登录后继续")}
FIELDS = {"en": ("Email", "Password"), "zh": ("邮箱", "密码")}
SUBMIT = {"en": ("Sign in", "Continue", "Submit"), "zh": ("登录", "继续", "提交")}
LINKS = {"en": ("Privacy", "Terms", "Help", "Forgot password?", "中文"),
         "zh": ("隐私", "条款", "帮助", "忘记密码？", "English")}
ACCENTS = ((26, 115, 232), (0, 150, 136), (230, 81, 0), (94, 53, 177), (46, 125, 50), (216, 27, 96))
DECOY_KINDS = ("submit", "link", "checkbox", "language", "link2")

TABLE = LevelTable(NAME, knobs={
    "decoys_range": "clickable look-alikes: the form's button, links, a second checkbox, a language switch",
    "box_range": "checkbox side (button height / 1.6) as a share of the puzzle's shorter side",
    "button_range": "probability of a one-tap verify button instead of a checkbox",
    "dark_range": "probability of a dark verification box",
}, levels={
    1: {"decoys_range": (0, 0), "box_range": (0.085, 0.09), "button_range": (0.3, 0.3), "dark_range": (0.0, 0.0)},
    2: {"decoys_range": (1, 1), "box_range": (0.078, 0.084), "button_range": (0.3, 0.3), "dark_range": (0.1, 0.1)},
    3: {"decoys_range": (2, 2), "box_range": (0.07, 0.076), "button_range": (0.35, 0.35), "dark_range": (0.2, 0.2)},
    4: {"decoys_range": (3, 3), "box_range": (0.064, 0.07), "button_range": (0.35, 0.35), "dark_range": (0.3, 0.3)},
    5: {"decoys_range": (4, 5), "box_range": (0.058, 0.064), "button_range": (0.4, 0.4), "dark_range": (0.4, 0.4)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # the label of the checkbox (or button) to click
    mode: str                   # "checkbox" | "button"
    lang: str                   # language of the texts drawn in the puzzle
    title: str
    dark: bool
    accent: tuple[int, int, int]
    box: int                    # checkbox side px (button height = 1.6 x)
    # rows top to bottom: (kind, text, extra text); kind "widget" is the verification box
    rows: tuple[tuple[str, str, str], ...]
    knobs: dict


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  lang: str | None = None) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k == "decoys_range") for k in row}
    drawn = ("en", "zh")[int(rng.integers(2))]
    lang = lang or drawn          # the page's language when the pipeline gives it
    def pick(options):
        return options[int(rng.integers(len(options)))]
    mode = "button" if rng.random() < knobs["button"] else "checkbox"
    target = pick(BUTTON[lang] if mode == "button" else CHECK[lang])
    kinds = [DECOY_KINDS[int(i)] for i in rng.permutation(len(DECOY_KINDS))][:knobs["decoys"]]
    rows = [("field", FIELDS[lang][0], "")]
    if level >= 3 or rng.random() < 0.5:
        rows.append(("field", FIELDS[lang][1], ""))
    rows.append(("widget", target, ""))
    if "checkbox" in kinds:
        rows.append(("checkbox", pick(OTHER_CHECK[lang]), ""))
    if "submit" in kinds:
        rows.append(("submit", pick(SUBMIT[lang]), ""))
    links = [k for k in kinds if k in ("link", "link2", "language")]
    if links:
        texts = {"link": LINKS[lang][int(rng.integers(3))], "link2": LINKS[lang][3], "language": LINKS[lang][4]}
        rows.append(("links", "|".join(texts[k] for k in links), ""))
    # the verification box moves: anywhere after the fields
    widget = rows.pop(next(i for i, r in enumerate(rows) if r[0] == "widget"))
    fields = sum(1 for r in rows if r[0] == "field")
    rows.insert(int(rng.integers(fields, len(rows) + 1)), widget)
    knobs["look_alikes"] = float(len(kinds))
    return Params(size=size, target=target, mode=mode, lang=lang, title=pick(TITLE[lang]),
                  dark=bool(rng.random() < knobs["dark"]), accent=pick(ACCENTS),
                  box=max(14, round(min(size) * knobs["box"])), rows=tuple(rows), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of clickable look-alikes."""
    return params.knobs["look_alikes"]


# ---------------------------------------------------------------- drawing

def shield(p: ui.Painter, cx: float, cy: float, s: float, rgb) -> None:
    """A plain shield with a tick: a generic 'protected' emblem."""
    pts = [(cx - s / 2, cy - s / 2.4), (cx, cy - s / 1.8), (cx + s / 2, cy - s / 2.4), (cx + s / 2.2, cy + s / 8),
           (cx, cy + s / 1.8), (cx - s / 2.2, cy + s / 8)]
    p.draw.polygon([(x * ui.SCALE, y * ui.SCALE) for x, y in pts], fill=rgb)
    p.line([(cx - s / 5, cy), (cx - s / 20, cy + s / 6), (cx + s / 4, cy - s / 6)], (255, 255, 255), width=s / 9)


def row_heights(params: Params) -> list[float]:
    b = params.box
    return [{"field": 1.45 * b, "widget": 2.7 * b, "checkbox": 1.1 * b, "submit": 1.6 * b, "links": 0.9 * b}[k]
            for k, _, _ in params.rows]


def render(params: Params) -> Puzzle:
    w, h = params.size
    page = (255, 255, 255)
    p = ui.Painter(params.size, page)
    b = params.box
    txt = (32, 33, 36)
    muted = (95, 99, 104)
    left, right = round(w * 0.07), round(w * 0.93)
    title_h = 2.0 * b
    heights = row_heights(params)
    gap = (h - title_h - sum(heights)) / (len(heights) + 1)
    if gap < 3:
        raise Reject(f"{NAME}.no_room")
    p.text((left, title_h * 0.55), params.title, round(b * 0.95), txt, bold=True)
    meta, extras, y = {}, {"labels": {}}, title_h + gap
    decoy, field = DECOY, FIELD
    px = max(11, round(b * 0.62))
    for (kind, text, _), rh in zip(params.rows, heights):
        y0, y1, cy = y, y + rh, y + rh / 2
        if kind == "field":
            p.rect((left, y0, right, y1), fill=(255, 255, 255), outline=(200, 203, 208), width=1, radius=4, inst=field)
            p.text((left + 10, cy), text, px, (150, 153, 158))
            meta[field] = {"role": "field", "label": text.lower(), "kind": "field"}
            field += 1
        elif kind == "widget":
            bg, edge, ink = ((40, 42, 46), (70, 72, 78), (232, 234, 237)) if params.dark else \
                ((249, 249, 249), (211, 211, 211), (32, 33, 36))
            p.rect((left, y0, right, y1), fill=bg, outline=edge, width=1, radius=3)
            shield(p, right - b * 1.1, cy - b * 0.25, b * 1.05, params.accent)
            p.text((right - b * 1.1, cy + b * 0.75), "Protected" if params.lang == "en" else "安全保护",
                   max(8, round(b * 0.3)), muted if not params.dark else (160, 163, 168), anchor="mm")
            if params.mode == "checkbox":
                bx0 = left + round(b * 0.55)
                box = (bx0, round(cy - b / 2), bx0 + b, round(cy - b / 2) + b)
                p.rect(box, fill=(255, 255, 255), outline=(88, 91, 96) if not params.dark else (186, 189, 194),
                       width=max(1.5, b / 12), radius=2, inst=TARGET)
                extras["labels"][TARGET] = p.text((box[2] + b * 0.5, cy), text, px, ink)
            else:
                bw = min(right - left - 2.6 * b, ui.text_width(text, px, True) + 3.2 * b)
                bh = round(1.6 * b)
                box = (left + round(b * 0.5), round(cy - bh / 2), left + round(b * 0.5 + bw), round(cy - bh / 2) + bh)
                p.rect(box, fill=params.accent, radius=bh / 2, inst=TARGET)
                shield(p, box[0] + bh * 0.55, cy, bh * 0.5, (255, 255, 255))
                extras["labels"][TARGET] = p.text(((box[0] + bh + box[2]) / 2, cy), text, px, (255, 255, 255),
                                                  bold=True, anchor="mm")
            meta[TARGET] = {"role": "target", "label": text, "kind": params.mode}
            extras["widget"] = (left, y0, right, y1)
        elif kind == "checkbox":
            s = round(b * 0.8)
            box = (left, round(cy - s / 2), left + s, round(cy - s / 2) + s)
            p.rect(box, fill=(255, 255, 255), outline=(88, 91, 96), width=max(1.5, b / 12), radius=2, inst=decoy)
            extras["labels"][decoy] = p.text((box[2] + b * 0.4, cy), text, px, txt)
            meta[decoy] = {"role": "distractor", "label": text, "kind": "checkbox"}
            decoy += 1
        elif kind == "submit":
            p.rect((left, y0, right, y1), fill=(60, 64, 67) if params.mode == "button" else params.accent, radius=4,
                   inst=decoy)
            p.text(((left + right) / 2, cy), text, px, (255, 255, 255), bold=True, anchor="mm")
            meta[decoy] = {"role": "distractor", "label": text, "kind": "button"}
            decoy += 1
        else:               # links, spread over the row
            parts = text.split("|")
            for j, t in enumerate(parts):
                x = left + (right - left) * (j + 0.5) / len(parts)
                p.text((x, cy), t, max(9, round(px * 0.9)), params.accent, anchor="mm", inst=decoy)
                meta[decoy] = {"role": "distractor", "label": t, "kind": "link"}
                decoy += 1
        y = y1 + gap
    rgb, inst = p.finish()
    areas = draw.instance_areas(inst)
    full = {i: int(areas[i]) for i in meta}
    return Puzzle(rgb, inst, full, meta, extras=extras)


# ---------------------------------------------------------------- verification

def solve(params: Params, puzzle: Puzzle) -> Task:
    inst = puzzle.instances
    boxes = draw.instance_boxes(inst)
    side = min(params.size)
    if TARGET not in boxes:
        raise Reject(f"{NAME}.target_missing")
    tb = boxes[TARGET]
    if min(tb[2] - tb[0], tb[3] - tb[1]) < 12 * side / 320:
        raise Reject(f"{NAME}.target_too_small")
    mask = inst == TARGET
    if params.mode == "checkbox":    # the box's outline against the verification box it sits in
        x0, y0, x1, y1 = (int(v) for v in tb)
        inner = np.zeros_like(mask)
        inner[y0 + 3:y1 - 3, x0 + 3:x1 - 3] = True
        outline = mask & ~inner
        around = (cv2.dilate(mask.view(np.uint8), np.ones((7, 7), np.uint8)) > 0) & (inst == 0)
        contrast = float(np.linalg.norm(ui.mean_rgb(puzzle.rgb, outline) - ui.mean_rgb(puzzle.rgb, around)))
        limit = MIN_BOX_CONTRAST
    else:
        core = cv2.erode(mask.view(np.uint8), np.ones((5, 5), np.uint8)).view(bool)
        around = (cv2.dilate(mask.view(np.uint8), np.ones((9, 9), np.uint8)) > 0) & (inst == 0)
        contrast = float(np.linalg.norm(ui.mean_rgb(puzzle.rgb, core) - ui.mean_rgb(puzzle.rgb, around)))
        limit = MIN_BUTTON_CONTRAST
    if contrast < limit:
        raise Reject(f"{NAME}.low_contrast")
    # the label that names the target is the target's own, shown whole beside (or on) it, and unique
    labels = puzzle.extras["labels"]
    lx0, ly0, lx1, ly1 = labels[TARGET]
    h, w = inst.shape
    if lx0 < 0 or lx1 > w or ly0 < 0 or ly1 > h:
        raise Reject(f"{NAME}.label_clipped")
    if params.mode == "checkbox" and not (lx0 >= tb[2] and ly0 < tb[3] and ly1 > tb[1]):
        raise Reject(f"{NAME}.label_not_beside_box")
    if puzzle.meta[TARGET]["label"] != params.target or \
            any(m["label"] == params.target for i, m in puzzle.meta.items() if i != TARGET):
        raise Reject(f"{NAME}.label_not_unique")
    clickable = [i for i, m in puzzle.meta.items() if m["role"] in ("target", "distractor")]
    closest = min((ui.box_gap(boxes[a], boxes[b]) for n, a in enumerate(clickable) for b in clickable[n + 1:]
                   if a in boxes and b in boxes), default=np.inf)
    if closest < MIN_GAP:
        raise Reject(f"{NAME}.controls_too_close")
    areas = draw.instance_areas(inst)
    objects = [{"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                "visible_fraction": round(min(1.0, float(areas[i]) / max(1, puzzle.full_area[i])), 4),
                "_mask": inst == i}
               for i, m in puzzle.meta.items() if i in boxes]
    checks = {"target_contrast": contrast, "target_side_px": min(tb[2] - tb[0], tb[3] - tb[1]),
              "look_alikes": float(sum(1 for m in puzzle.meta.values() if m["role"] == "distractor")),
              "closest_gap_px": closest if np.isfinite(closest) else -1.0}
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[TARGET], target_boxes=[tb],
                points=[draw.inner_point(mask)], partial_credit=False,
                checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    t = params.target
    if params.mode == "button":
        return f"请点击“{t}”按钮完成验证" if lang == "zh" else f"Click the \"{t}\" button to verify."
    return f"请勾选“{t}”复选框" if lang == "zh" else f"Tick the \"{t}\" checkbox."
