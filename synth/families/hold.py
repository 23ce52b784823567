"""Press and hold: a "Press & Hold" button (round with a fingerprint, or a pill); hold the right one long enough."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from synth.core import paths
from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, grammar

NAME = "hold"
DESCRIPTION = "press and hold a button (the one of the named colour when there are several) for the stated seconds"
ANSWERS = ("long_press",)       # synth.labels.reward step types of its tasks
COVERS = ("OpenCaptchaWorld:Hold_Button", "PerimeterX:press_and_hold")
STAT, STAT_DIRECTION = "button size (share of the puzzle side)", -1
# the button's caption in the page's language, and a bold face that has its glyphs
LABEL = {"en": ("Press & Hold", paths.font("truetype/dejavu/DejaVuSans-Bold.ttf")),
         "zh": ("按住验证", paths.font("opentype/noto/NotoSansCJK-Bold.ttc"))}
MIN_DECOY_DE = 22.0        # CIELAB distance between the target's fill and any decoy's
MIN_VISIBLE_DE = 12.0      # ... and between the target's fill and the ground around it
# the degradations may turn every hue by up to 20 degrees (level 5), so a decoy whose hue is close to the
# target's could then look more like the named colour than the target does: target and decoys keep this
# far apart on the hue circle (nominal palette hues; the measured hues must keep MIN_HUE_GAP - 9)
MIN_HUE_GAP = 45.0
# named button colours; look-alike decoys are the hue-nearest colours at least MIN_HUE_GAP away
PALETTE = {"red": ((215, 48, 45), "红色"), "orange": ((240, 128, 28), "橙色"), "yellow": ((236, 190, 28), "黄色"),
           "green": ((42, 160, 72), "绿色"), "teal": ((20, 150, 160), "青色"), "blue": ((38, 104, 220), "蓝色"),
           "purple": ((136, 68, 190), "紫色"), "pink": ((232, 92, 160), "粉色")}
WHEEL = list(PALETTE)


def hue(rgb) -> float:
    """Hue in degrees (0..360) of an RGB colour."""
    return float(cv2.cvtColor(np.asarray(rgb, np.float32).reshape(1, 1, 3) / 255, cv2.COLOR_RGB2HSV)[0, 0, 0])


def hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return min(d, 360 - d)


@lru_cache(maxsize=1)
def partners() -> dict[str, list[str]]:
    """For each colour, the colours that may be its decoys, nearest hue first."""
    hues = {n: hue(c) for n, (c, _) in PALETTE.items()}
    return {a: sorted((b for b in WHEEL if hue_gap(hues[a], hues[b]) >= MIN_HUE_GAP),
                      key=lambda b: hue_gap(hues[a], hues[b])) for a in WHEEL}

TABLE = LevelTable(NAME, knobs={
    "buttons_range": "number of buttons (one target, the rest decoys of other colours)",
    "seconds_range": "how long the button must be held, whole seconds",
    "size_range": "button diameter (pill height x 2.2) as a share of the puzzle's shorter side",
    "similar_range": "probability that a decoy's colour is one of the two hue-nearest allowed beside the target's",
    "shade_range": "largest random change of a button colour per RGB channel",
    "clutter_range": "background texture strength, 0 to 1",
}, levels={
    1: {"buttons_range": (1, 1), "seconds_range": (2, 3), "size_range": (0.40, 0.44), "similar_range": (0.0, 0.0),
        "shade_range": (0, 0), "clutter_range": (0.0, 0.15)},
    2: {"buttons_range": (1, 2), "seconds_range": (2, 4), "size_range": (0.35, 0.39), "similar_range": (0.0, 0.0),
        "shade_range": (0, 6), "clutter_range": (0.15, 0.35)},
    3: {"buttons_range": (2, 3), "seconds_range": (3, 5), "size_range": (0.30, 0.34), "similar_range": (0.3, 0.3),
        "shade_range": (0, 10), "clutter_range": (0.35, 0.55)},
    4: {"buttons_range": (3, 4), "seconds_range": (3, 6), "size_range": (0.26, 0.30), "similar_range": (0.6, 0.6),
        "shade_range": (0, 14), "clutter_range": (0.55, 0.75)},
    5: {"buttons_range": (4, 4), "seconds_range": (4, 8), "size_range": (0.22, 0.26), "similar_range": (0.9, 0.9),
        "shade_range": (0, 18), "clutter_range": (0.75, 0.95)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                   # colour name of the button to hold
    style: str                    # "round" (fingerprint disc, caption below) | "pill" (rounded bar with text)
    buttons: tuple[tuple[str, tuple[int, int, int], int, int, int, int], ...]   # (colour name, rgb, cx, cy, w, h)
    target_index: int
    seconds: int
    lang: str                     # language of the buttons' caption (LABEL)
    clutter: float
    bg_seed: int
    knobs: dict


def pick_colours(rng: np.random.Generator, k: int, similar: float) -> list[str]:
    """A target colour first, then k - 1 decoy colours, each with probability `similar` one of the two
    hue-nearest colours allowed beside the target."""
    target = WHEEL[int(rng.integers(len(WHEEL)))]
    allowed = partners()[target]
    near = allowed[:2]
    chosen = [target]
    for _ in range(k - 1):
        pool = [c for c in near if c not in chosen] if rng.random() < similar else []
        pool = (pool or [c for c in allowed if c not in chosen and c not in near]
                or [c for c in allowed if c not in chosen])
        chosen.append(pool[int(rng.integers(len(pool)))])
    return chosen


def slots(size: tuple[int, int], style: str, k: int, d: int) -> list[tuple[int, int, int, int]]:
    """Centre and size (cx, cy, w, h) of k buttons: discs on a grid (caption below), pills stacked."""
    w, h = size
    if style == "pill":
        bh = round(d / 2.2)
        bw = min(round(w * 0.78), max(round(d * 2.4), round(w * 0.6)))
        gap = (h - k * bh) / (k + 1)
        return [(w // 2, round(gap * (i + 1) + bh * i + bh / 2), bw, bh) for i in range(k)]
    cols = {1: 1, 2: 2, 3: 3, 4: 2}[k]
    rows = (k + cols - 1) // cols
    cw, ch = w / cols, h / rows
    out = []
    for i in range(k):
        r, c = divmod(i, cols)
        out.append((round(cw * (c + 0.5)), round(ch * (r + 0.5) - d * 0.12), d, d))
    return out


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  lang: str = "en") -> Params:
    """A hold instance whose buttons are captioned in `lang` (the page's language)."""
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("buttons_range", "seconds_range")) for k in row}
    k = knobs["buttons"]
    style = "round" if rng.random() < 0.6 else "pill"
    d = round(min(size) * knobs["size"])
    if style == "round" and k == 3:          # three discs in a row must fit across
        d = min(d, round(size[0] / 3 * 0.8))
    names = pick_colours(rng, k, knobs["similar"])
    order = [int(i) for i in rng.permutation(k)]
    spots = slots(size, style, k, d)
    jitter = round(min(size) * 0.02)
    buttons = []
    for name, (cx, cy, bw, bh) in zip([names[i] for i in order], spots):
        rgb = np.asarray(PALETTE[name][0]) + rng.integers(-int(knobs["shade"]), int(knobs["shade"]) + 1, 3)
        buttons.append((name, tuple(int(v) for v in np.clip(rgb, 0, 255)),
                        cx + int(rng.integers(-jitter, jitter + 1)), cy + int(rng.integers(-jitter, jitter + 1)),
                        bw, bh))
    knobs["button_share"] = d / min(size)
    return Params(size=size, target=names[0], style=style, buttons=tuple(buttons), target_index=order.index(0),
                  seconds=knobs["seconds"], lang=lang, clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)),
                  knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: button diameter (pill height x 2.2) as a share of the puzzle's shorter side."""
    return params.knobs["button_share"]


@lru_cache(maxsize=32)
def font(path: str, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, px)


@lru_cache(maxsize=256)
def text_layer(lang: str, px: int) -> np.ndarray:
    """Anti-aliased coverage (uint8) of the caption LABEL[lang] in its bold face, cropped to its ink."""
    text, path = LABEL[lang]
    f = font(path, px)
    x0, y0, x1, y1 = f.getbbox(text)
    im = Image.new("L", (x1 - x0 + 2, y1 - y0 + 2), 0)
    ImageDraw.Draw(im).text((1 - x0, 1 - y0), text, font=f, fill=255)
    return np.asarray(im)


def fingerprint(img: np.ndarray, cx: int, cy: int, r: int, colour: tuple) -> None:
    """A stylised fingerprint: nested open arcs, in place."""
    t = max(1, round(r / 9))
    for j, rr in enumerate(range(max(2, r // 5), r, max(2, round(r / 4.5)))):
        gap = 35 + 20 * (j % 2)
        start = 200 + 15 * j
        cv2.ellipse(img, (cx, cy + r // 8), (rr, round(rr * 1.2)), 0, start, start + 360 - gap, colour, t, cv2.LINE_AA)


def blend_text(rgb: np.ndarray, cover: np.ndarray, x: int, y: int, colour: tuple) -> tuple[int, int, int, int]:
    """Paint text coverage at (x, y) (clipped to the image) and return its ink box (x0, y0, x1, y1)."""
    h, w = rgb.shape[:2]
    th, tw = cover.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + tw, w), min(y + th, h)
    a = cover[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32)[..., None] / 255
    rgb[y0:y1, x0:x1] = (rgb[y0:y1, x0:x1] * (1 - a) + np.asarray(colour, np.float32) * a + 0.5).astype(np.uint8)
    ys, xs = np.nonzero(cover >= 64)
    return x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1


def ink_colour(rgb: tuple) -> tuple:
    """White on dark fills, near-black on light ones."""
    return (255, 255, 255) if 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] < 175 else (40, 40, 40)


SHADOW_MARGIN = 8


@lru_cache(maxsize=64)
def button_layers(style: str, bw: int, bh: int) -> tuple[np.ndarray, np.ndarray]:
    """A button's coverage (uint8) and the ground's weight under its soft drop shadow (float32 (h, w, 1)), on a
    window reaching SHADOW_MARGIN past the button, the button's centre at (margin + bw // 2, margin + bh // 2)."""
    m = SHADOW_MARGIN
    shape = np.zeros((bh + 2 * m + 1, bw + 2 * m + 1), np.uint8)
    shadow = np.zeros_like(shape)
    ccx, ccy = m + bw // 2, m + bh // 2
    if style == "round":
        r = bw // 2
        cv2.circle(shadow, (ccx + 2, ccy + 3), r, 255, -1, cv2.LINE_AA)
        cv2.circle(shape, (ccx, ccy), r, 255, -1, cv2.LINE_AA)
    else:
        r = bh // 2
        for layer, dx, dy in ((shadow, 2, 3), (shape, 0, 0)):
            cv2.rectangle(layer, (ccx - bw // 2 + r + dx, ccy - r + dy), (ccx + bw // 2 - r + dx, ccy + r + dy),
                          255, -1)
            for ex in (ccx - bw // 2 + r, ccx + bw // 2 - r):
                cv2.circle(layer, (ex + dx, ccy + dy), r, 255, -1, cv2.LINE_AA)
    weight = 1 - cv2.GaussianBlur(shadow, (0, 0), 3).astype(np.float32)[..., None] * (0.3 / 255)
    return shape, weight


def render(params: Params) -> Puzzle:
    w, h = params.size
    rgb = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    inst = np.zeros((h, w), np.uint8)
    meta, full, texts = {}, {}, {}
    for i, (name, colour, cx, cy, bw, bh) in enumerate(params.buttons, start=1):
        # work in a window round the button (shadow included), clipped to the puzzle; c* are window coordinates
        shape_full, weight_full = button_layers(params.style, bw, bh)
        ux0, uy0 = cx - bw // 2 - SHADOW_MARGIN, cy - bh // 2 - SHADOW_MARGIN
        wx0, wy0 = max(0, ux0), max(0, uy0)
        wx1, wy1 = min(w, ux0 + shape_full.shape[1]), min(h, uy0 + shape_full.shape[0])
        shape = shape_full[wy0 - uy0:wy1 - uy0, wx0 - ux0:wx1 - ux0]
        weight = weight_full[wy0 - uy0:wy1 - uy0, wx0 - ux0:wx1 - ux0]
        win = rgb[wy0:wy1, wx0:wx1]
        ccx, ccy = cx - wx0, cy - wy0
        r = bw // 2 if params.style == "round" else bh // 2
        ring = max(3, round(r * 0.14))
        light = tuple(int(v + (255 - v) * 0.55) for v in colour)
        a = shape.astype(np.float32) * np.float32(1 / 255)
        fill = np.asarray(light if params.style == "round" else colour, np.float32)
        # (win * weight) * (1 - a) + fill * a in float32, one OpenCV pass per operation (the same products)
        under = cv2.multiply(cv2.multiply(win, cv2.merge([weight[..., 0]] * 3), dtype=cv2.CV_32F),
                             cv2.merge([1 - a] * 3))
        win[:] = cv2.convertScaleAbs(cv2.add(under, cv2.merge([a * f for f in fill])))
        if params.style == "round":
            # light outer ring (the hold-progress track), solid disc inside, white fingerprint
            cv2.circle(win, (ccx, ccy), r - ring, colour, -1, cv2.LINE_AA)
            fingerprint(win, ccx, ccy, round((r - ring) * 0.62), (255, 255, 255))
            px = max(9, round(r * 0.3))
            cover = text_layer(params.lang, px)
            while cover.shape[1] > 2 * r - 6 and px > 9:
                px -= 1
                cover = text_layer(params.lang, px)
            tx, ty = cx - cover.shape[1] // 2, cy + r + max(4, r // 6)
            pad = 3
            box = (tx - pad, ty - pad, tx + cover.shape[1] + pad, ty + cover.shape[0] + pad)
            cv2.rectangle(rgb, box[:2], (box[2] - 1, box[3] - 1), (250, 250, 250), -1)
            texts[i] = blend_text(rgb, cover, tx, ty, (50, 50, 50)) + box
        else:
            ink = ink_colour(colour)
            fr = round(r * 0.62)
            fx = ccx - bw // 2 + r + max(2, r // 4)
            fingerprint(win, fx, ccy - fr // 8, fr, ink)
            px = max(9, round(r * 0.72))
            room = (ccx + bw // 2 - r // 2) - (fx + fr + r // 3)
            cover = text_layer(params.lang, px)
            while cover.shape[1] > room and px > 9:
                px -= 1
                cover = text_layer(params.lang, px)
            tx = wx0 + fx + fr + r // 3 + (room - cover.shape[1]) // 2
            texts[i] = blend_text(rgb, cover, tx, cy - cover.shape[0] // 2, ink) + (
                cx - bw // 2 + r // 2, cy - r, cx + bw // 2 - r // 2, cy + r)
        on = shape >= 128
        inst[wy0:wy1, wx0:wx1][on] = i
        full[i] = int(on.sum())
        role = "target" if i - 1 == params.target_index else "distractor"
        meta[i] = {"role": role, "label": f"{name} press-and-hold button", "kind": name}
    return Puzzle(rgb, inst, full, meta, extras={"texts": texts})


def lab(rgb) -> np.ndarray:
    return cv2.cvtColor(np.asarray(rgb, np.float32).reshape(1, 1, 3) / 255, cv2.COLOR_RGB2Lab)[0, 0]


@lru_cache(maxsize=1)
def palette_lab() -> dict[str, np.ndarray]:
    return {n: lab(c) for n, (c, _) in PALETTE.items()}


def _counts(plane: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """How many pixels of a uint8 plane take each value under a 0/1 mask (exact counts)."""
    return cv2.calcHist([plane], [0], mask, [256], [0, 256]).ravel().astype(np.int64)


def fill_colour(puzzle: Puzzle, i: int, box: list[float]) -> np.ndarray:
    """The button's fill as drawn: the median of the more saturated half of its pixels (leaving out the
    white or dark fingerprint and text, and the light ring)."""
    x0, y0, x1, y1 = (int(v) for v in box)
    on = (puzzle.instances[y0:y1, x0:x1] == i).view(np.uint8)
    r, g, b = cv2.split(puzzle.rgb[y0:y1, x0:x1])
    sat = cv2.subtract(cv2.max(cv2.max(r, g), b), cv2.min(cv2.min(r, g), b))
    keep = on & (sat >= draw.median_of_counts(_counts(sat, on))).view(np.uint8)
    return np.array([draw.median_of_counts(_counts(c, keep)) for c in (r, g, b)], np.float32)


def surround(puzzle: Puzzle, i: int, box: list[float]) -> np.ndarray:
    """Median colour of the ground in a band just outside the button."""
    k = max(5, int((box[2] - box[0]) * 0.15)) | 1
    h, w = puzzle.instances.shape
    x0, y0, x1, y1 = max(0, int(box[0]) - k), max(0, int(box[1]) - k), min(w, int(box[2]) + k), min(h, int(box[3]) + k)
    inst = puzzle.instances[y0:y1, x0:x1]
    band = cv2.dilate((inst == i).astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool) & (inst == 0)
    return np.median(puzzle.rgb[y0:y1, x0:x1][band].astype(np.float32), axis=0)


def solve(params: Params, puzzle: Puzzle) -> Task:
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    w, h = params.size
    fills, measured, names = {}, {}, palette_lab()
    for i, m in puzzle.meta.items():
        if i not in boxes or areas[i] < 0.97 * puzzle.full_area[i]:
            raise Reject(f"{NAME}.button_hidden")
        measured[i] = fill_colour(puzzle, i, boxes[i])
        fills[i] = lab(measured[i])
        if min(names, key=lambda n: float(np.linalg.norm(names[n] - fills[i]))) != m["kind"]:
            raise Reject(f"{NAME}.colour_misnamed")
        ink = puzzle.extras["texts"][i]
        if ink[0] < ink[4] or ink[1] < ink[5] or ink[2] > ink[6] or ink[3] > ink[7] or ink[0] < 0 or ink[2] > w \
                or ink[3] > h:
            raise Reject(f"{NAME}.label_overflow")
    target = params.target_index + 1
    ground_de = float(np.linalg.norm(fills[target] - lab(surround(puzzle, target, boxes[target]))))
    if ground_de < MIN_VISIBLE_DE:
        raise Reject(f"{NAME}.button_not_visible")
    decoy_de = min([float(np.linalg.norm(fills[target] - fills[i])) for i in fills if i != target], default=100.0)
    if decoy_de < MIN_DECOY_DE:
        raise Reject(f"{NAME}.decoy_too_similar")
    hues = {i: hue(rgb) for i, rgb in measured.items()}
    decoy_hue = min([hue_gap(hues[target], hues[i]) for i in hues if i != target], default=180.0)
    if decoy_hue < MIN_HUE_GAP - 9:
        raise Reject(f"{NAME}.hue_too_close")
    # the captions and buttons must not run into each other
    rects = [boxes[i] for i in fills] + [list(puzzle.extras["texts"][i][4:]) for i in fills]
    for a_i in range(len(rects)):
        for b_i in range(a_i + 1, len(rects)):
            a, b = rects[a_i], rects[b_i]
            if params.style == "pill" and abs(a_i - b_i) == len(fills):
                continue               # a pill's text sits inside its own pill
            if min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1]):
                raise Reject(f"{NAME}.layout_overlap")
    mask = puzzle.instances == target
    objects = [{"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                "visible_fraction": round(float(areas[i]) / puzzle.full_area[i], 4),
                "_mask": puzzle.instances == i} for i, m in puzzle.meta.items()]
    return Task(rule="long_press", answer={"count": params.seconds}, objects=objects, target_ids=[target],
                target_boxes=[boxes[target]], points=[draw.inner_point(mask)], duration=float(params.seconds),
                checks={"target_ground_de": round(ground_de, 2), "min_decoy_de": round(decoy_de, 2),
                        "min_decoy_hue_gap": round(decoy_hue, 1),
                        "buttons": float(len(fills))})


def instruction(params: Params, lang: str) -> str:
    s = params.seconds
    if len(params.buttons) == 1:
        return f"请按住按钮 {s} 秒" if lang == "zh" else f"Press and hold the button for {grammar.count(s, 'second')}."
    if lang == "zh":
        return f"请按住{PALETTE[params.target][1]}的按钮 {s} 秒"
    return f"Press and hold the {params.target} button for {grammar.count(s, 'second')}."
