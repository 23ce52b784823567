"""Misleading click: a big, bright decoy that arrows point at begs to be clicked, while the instruction asks
for something else: the button that does not say "Continue", the word that is not a colour, or the shape
that no arrow points to. The answer is a set of boxes; the decoy is always wrong. Legibility (text size and
contrast), visibility and where each arrow points are measured on the render."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, geom

NAME = "misleading_click"
DESCRIPTION = ("ignore the big decoy: click the button not saying X, the word naming no colour, the shape no arrow "
               "points to")
COVERS = ("OpenCaptchaWorld:Misleading_Click", "VenusBench-CAPTCHA:visual_reasoning")
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "number of items shown", +1
MODES = ("button", "word", "arrow")
# button mode: the word most buttons say, other words, and look-alikes of the first (higher levels)
SAY = {"latin": ("Continue", "Next", "Submit", "Confirm", "Verify"),
       "hanzi": ("继续", "下一步", "提交", "确认", "验证")}
OTHER = {"latin": ("Cancel", "Back", "Skip", "Close", "Help", "Later"),
         "hanzi": ("取消", "返回", "跳过", "关闭", "帮助", "稍后")}
ALIKE = {"Continue": "Contact", "Next": "Nest", "Submit": "Summit", "Confirm": "Conform", "Verify": "Verity",
         "继续": "继承", "下一步": "下一页", "提交": "提示", "确认": "确定", "验证": "验收"}
# word mode: colour names (with the ink they name) and words that name no colour (no ORANGE: also a fruit)
COLOUR_WORDS = {"latin": {"RED": "red", "BLUE": "blue", "GREEN": "green", "YELLOW": "yellow", "PURPLE": "purple",
                          "PINK": "pink", "BROWN": "brown", "GREY": "grey"},
                "hanzi": {"红色": "red", "蓝色": "blue", "绿色": "green", "黄色": "yellow", "紫色": "purple",
                          "粉色": "pink", "棕色": "brown", "灰色": "grey"}}
PLAIN_WORDS = {"latin": ("TABLE", "RIVER", "HORSE", "CHAIR", "CLOUD", "TRAIN", "BREAD", "MUSIC", "WINDOW", "CANDLE"),
               "hanzi": ("桌子", "河流", "椅子", "火车", "面包", "音乐", "窗户", "蜡烛", "书本", "钥匙")}
INKS = ("red", "blue", "green", "purple", "pink", "brown", "orange", "teal")   # no yellow: too pale on white
SHAPES = ("circle", "square", "triangle", "star", "hexagon", "pentagon")
MIN_TEXT = 11           # px at 320: smallest text height
MIN_CONTRAST = 70.0     # RGB distance between text and what it is written on
RAY = 0.5               # share of the puzzle side an arrow's pointing ray is followed
CONE = 8.0              # degrees: rays this far either side must not reach another shape first
LURE_RGB = (235, 60, 40)

TABLE = LevelTable(NAME, knobs={
    "items_range": "number of buttons, words or shapes, the decoy included",
    "targets_range": "number of items that are the answer",
    "decoy_range": "how tempting the decoy is, 0 (a little larger) to 1 (huge, glowing, three arrows)",
    "alike_range": "probability that an answer button says a look-alike of the word (Contact for Continue)",
    "stroop_range": "probability that a colour word is written in another colour's ink",
    "far_range": "how far the arrows stand from what they point at, share of the puzzle side (shape task)",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"items_range": (3, 3), "targets_range": (1, 1), "decoy_range": (0.2, 0.3), "alike_range": (0.0, 0.0),
        "stroop_range": (0.0, 0.0), "far_range": (0.02, 0.03), "clutter_range": (0.0, 0.1)},
    2: {"items_range": (4, 4), "targets_range": (1, 1), "decoy_range": (0.35, 0.5), "alike_range": (0.0, 0.0),
        "stroop_range": (0.3, 0.3), "far_range": (0.02, 0.05), "clutter_range": (0.1, 0.2)},
    3: {"items_range": (5, 5), "targets_range": (1, 1), "decoy_range": (0.5, 0.7), "alike_range": (0.3, 0.3),
        "stroop_range": (0.6, 0.6), "far_range": (0.03, 0.07), "clutter_range": (0.2, 0.35)},
    4: {"items_range": (6, 6), "targets_range": (1, 2), "decoy_range": (0.7, 0.9), "alike_range": (0.5, 0.5),
        "stroop_range": (0.8, 0.8), "far_range": (0.04, 0.09), "clutter_range": (0.35, 0.5)},
    5: {"items_range": (7, 7), "targets_range": (1, 2), "decoy_range": (0.9, 1.0), "alike_range": (0.7, 0.7),
        "stroop_range": (1.0, 1.0), "far_range": (0.05, 0.11), "clutter_range": (0.5, 0.6)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # what the rule is about: the word buttons say, "colour", or "arrow"
    mode: str                   # "button" | "word" | "arrow"
    script: str                 # "latin" | "hanzi": the script of the text in the picture
    # items in z-order: (role, text or shape kind, x0, y0, x1, y1, fill colour name, ink colour name, decoy,
    # font px); role "target" / "distractor"; the decoy is a distractor
    items: tuple[tuple[str, str, int, int, int, int, str, str, bool, int], ...]
    # arrows: (tail x, tail y, tip x, tip y, width, index of the item pointed at, lure)
    arrows: tuple[tuple[float, float, float, float, float, int, bool], ...]
    glow: float                 # opacity of the halo round the decoy
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- placement

def _free(box, taken, gap) -> bool:
    x0, y0, x1, y1 = box
    return all(x1 + gap <= a or c + gap <= x0 or y1 + gap <= b or d + gap <= y0 for a, b, c, d in taken)


# ---------------------------------------------------------------- sampling

def _buttons(rng, knobs, size, script, level):
    """Rows of buttons, one of them the decoy: wider, taller and brighter, with lure arrows either side."""
    w, h = size
    side = min(w, h)
    n, k = knobs["items"], knobs["targets"]
    say = SAY[script][int(rng.integers(len(SAY[script])))]
    others = list(OTHER[script])
    labels = []
    for _ in range(k):
        if rng.random() < knobs["alike"] and ALIKE[say] not in labels:
            labels.append(ALIKE[say])
        else:
            pick = [o for o in others if o not in labels]
            labels.append(pick[int(rng.integers(len(pick)))])
    roles = ["target"] * k + ["distractor"] * (n - 1 - k)
    texts = labels + [say] * (n - 1 - k)
    order = rng.permutation(n - 1)
    roles, texts = [roles[i] for i in order], [texts[i] for i in order]
    cols = 1 if n <= 4 else 2
    rows = -(-(n - 1) // cols)
    strength = knobs["decoy"]
    decoy_h = 1.0 + 0.8 * strength
    m = round(side * 0.05)
    unit = (h - 2 * m) / (rows + decoy_h)
    decoy_row = int(rng.integers(rows + 1))
    items, arrows = [], []
    y = m
    fill = ("grey", "blue", "teal")[int(rng.integers(3))]
    cells = iter(range(n - 1))
    for r in range(rows + 1):
        if r == decoy_row:
            bh = unit * decoy_h * 0.78
            bw = w * (0.5 + 0.2 * strength)
            x0 = (w - bw) / 2
            y0 = y + (unit * decoy_h - bh) / 2
            px = geom.fit_px(say, bw * 0.78, bh * 0.62, round(bh * 0.55))
            items.append(("distractor", say, round(x0), round(y0), round(x0 + bw), round(y0 + bh),
                          ("orange", "green", "red")[int(rng.integers(3))], "white", True, px))
            n_arrows = 0 if strength < 0.3 else (1 if strength < 0.6 else 2)
            room = x0 - 4 - 0.02 * w
            for j in range(n_arrows if room >= 0.07 * w else 0):
                sgn = (-1, 1)[j] if n_arrows == 2 else (-1, 1)[int(rng.integers(2))]
                edge = x0 if sgn < 0 else x0 + bw
                tip = (edge + sgn * 0.02 * w, y0 + bh / 2)
                tail = (tip[0] + sgn * min(room, 0.16 * w), y0 + bh / 2)
                arrows.append((*tail, *tip, max(4.0, side * 0.025), len(items) - 1, True))
            y += unit * decoy_h
            continue
        bh = unit * 0.66
        gap = w * 0.04
        bw = (w - 2 * m - (cols - 1) * gap) / cols if cols > 1 else w * 0.56
        for c in range(cols):
            i = next(cells, None)
            if i is None:
                break
            x0 = m + c * (bw + gap) if cols > 1 else (w - bw) / 2
            y0 = y + (unit - bh) / 2
            px = geom.fit_px(texts[i], bw * 0.78, bh * 0.62, round(bh * 0.55))
            items.append((roles[i], texts[i], round(x0), round(y0), round(x0 + bw), round(y0 + bh), fill, "dark",
                          False, px))
        y += unit
    return say, items, arrows


def _words(rng, knobs, size, script, level):
    """Words scattered over the puzzle; the decoy is a huge colour word with lure arrows either side."""
    w, h = size
    side = min(w, h)
    n, k = knobs["items"], knobs["targets"]
    colours = COLOUR_WORDS[script]
    names = list(colours)
    plain = [PLAIN_WORDS[script][i] for i in rng.choice(len(PLAIN_WORDS[script]), k, replace=False)]
    cwords = [names[i] for i in rng.choice(len(names), n - k, replace=False)]
    strength = knobs["decoy"]
    px = round(side * (0.075 if script == "latin" else 0.08))
    big = round(px * (1.3 + 0.6 * strength))

    def ink(word):
        meant = colours.get(word)
        if meant and rng.random() >= knobs["stroop"]:
            return meant
        pool = [c for c in INKS if c != meant]
        return pool[int(rng.integers(len(pool)))]

    items, arrows, taken = [], [], []
    pad = 4
    # the decoy first: a big colour word, with its arrows, in a band across the puzzle
    dw, dh = geom.text_size(cwords[0], big)
    n_arrows = 0 if strength < 0.3 else (1 if strength < 0.6 else 2)
    alen = side * (0.08 + 0.03 * strength)
    width = max(4.0, side * 0.022)
    span = dw + 2 * pad + n_arrows * (alen + 0.03 * w)
    if span > w - 8:
        raise Reject(f"{NAME}.no_room")
    for _ in range(40):
        bx = float(rng.uniform(4 + (alen + 0.03 * w if n_arrows else 0), w - 4 - dw - 2 * pad
                               - (alen + 0.03 * w if n_arrows == 2 else 0)))
        by = float(rng.uniform(4, h - 4 - dh - 2 * pad))
        box = (round(bx), round(by), round(bx + dw + 2 * pad), round(by + dh + 2 * pad))
        if box[2] <= w - 4 and box[0] >= 4:
            break
    else:
        raise Reject(f"{NAME}.no_room")
    items.append(("distractor", cwords[0], *box, "", ink(cwords[0]), True, big))
    taken.append(box)
    cy = (box[1] + box[3]) / 2
    sides = [(-1, 1)[int(rng.integers(2))]] if n_arrows == 1 else ([-1, 1] if n_arrows == 2 else [])
    for sgn in sides:
        edge = box[0] if sgn < 0 else box[2]
        tip = (edge + sgn * 0.02 * w, cy)
        tail = (tip[0] + sgn * alen, cy)
        arrows.append((*tail, *tip, width, 0, True))
        taken.append(tuple(round(v) for v in geom.arrow_box(tail, tip, width)))
    words = plain + cwords[1:]
    roles = ["target"] * k + ["distractor"] * (n - 1 - k)
    order = rng.permutation(len(words))
    for i in order:
        word = words[i]
        ww, wh = geom.text_size(word, px)
        for _ in range(200):
            x, y = float(rng.uniform(4, w - 4 - ww - 2 * pad)), float(rng.uniform(4, h - 4 - wh - 2 * pad))
            box = (round(x), round(y), round(x + ww + 2 * pad), round(y + wh + 2 * pad))
            if _free(box, taken, round(side * 0.025)):
                break
        else:
            raise Reject(f"{NAME}.no_room")
        taken.append(box)
        items.append((roles[i], word, *box, "", ink(word), False, px))
    return "colour", items, arrows


def _pointer(rng, centre, radius, far, side, taken_boxes, w, h):
    """An arrow pointing at a shape from some free direction: (tail, tip) or None."""
    length = side * 0.11
    width = max(3.0, side * 0.016)
    for _ in range(30):
        a = float(rng.uniform(0, 2 * np.pi))
        u = np.array([np.cos(a), np.sin(a)])
        tip = np.float64(centre) + u * (radius + far)
        tail = tip + u * length
        box = geom.arrow_box(tail, tip, width)
        if box[0] < 3 or box[1] < 3 or box[2] > w - 3 or box[3] > h - 3:
            continue
        if _free(box, taken_boxes, 3):
            return (float(tail[0]), float(tail[1])), (float(tip[0]), float(tip[1])), float(width), box
    return None


def _shapes(rng, knobs, size, script, level):
    """Shapes, each pointed at by an arrow but for the answers; the decoy is the largest, with three arrows."""
    w, h = size
    side = min(w, h)
    n, k = knobs["items"], knobs["targets"]
    strength = knobs["decoy"]
    far = side * knobs["far"]
    area = (side * 0.1) ** 2
    kinds = [SHAPES[int(rng.integers(len(SHAPES)))] for _ in range(n)]
    fills = [geom.SHAPE_COLOURS[int(rng.integers(len(geom.SHAPE_COLOURS)))] for _ in range(n)]
    areas = [area * (1.6 + 1.6 * strength)] + [area * float(rng.uniform(0.85, 1.15)) for _ in range(n - 1)]
    radii = [geom.radius(kd, a) for kd, a in zip(kinds, areas)]
    roles = ["distractor"] + ["target"] * k + ["distractor"] * (n - 1 - k)
    # room for the arrows round every shape: place discs of radius + arrow reach
    reach = far + side * 0.11 + 4
    for _attempt in range(3):
        placed = []
        for r, role in zip(radii, roles):
            rr = r + (reach if role != "target" else 6)
            for _ in range(300):
                x, y = float(rng.uniform(r + 4, w - r - 4)), float(rng.uniform(r + 4, h - r - 4))
                if all(np.hypot(x - px, y - py) >= r + pr + max(rr - r, prr - pr) + 4 for px, py, pr, prr in placed):
                    placed.append((x, y, r, rr))
                    break
            else:
                break
        if len(placed) == n:
            break
        reach *= 0.85
        far *= 0.7
    else:
        raise Reject(f"{NAME}.no_room")
    items, arrows = [], []
    taken = []
    for i, ((x, y, r, _), kind, fill, role) in enumerate(zip(placed, kinds, fills, roles)):
        box = (round(x - r), round(y - r), round(x + r), round(y + r))
        items.append((role, kind, *box, fill, "", i == 0, 0))
        taken.append(box)
    wanted = [(0, 1 if strength < 0.4 else (2 if strength < 0.8 else 3))]
    wanted += [(i, 1) for i, role in enumerate(roles) if role == "distractor" and i > 0]
    for i, count in wanted:
        x, y, r, _ = placed[i]
        for _ in range(count):
            got = _pointer(rng, (x, y), r, far if i else far + side * 0.02, side, taken, w, h)
            if got is None:
                raise Reject(f"{NAME}.no_room_for_arrow")
            tail, tip, width, box = got
            arrows.append((*tail, *tip, width, i, i == 0))
            taken.append(box)
    return "arrow", items, arrows


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  mode: str | None = None, lang: str | None = None) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, v, integer=k in ("items_range", "targets_range")) for k, v in row.items()}
    mode = mode or MODES[int(rng.integers(len(MODES)))]
    drawn = ("latin", "hanzi")[int(rng.integers(2))]
    script = {"en": "latin", "zh": "hanzi"}.get(lang, drawn)      # the page's language when the pipeline gives it
    build = {"button": _buttons, "word": _words, "arrow": _shapes}[mode]
    target, items, arrows = build(rng, knobs, size, script, level)
    knobs["shown"] = float(len(items))
    return Params(size=size, target=target, mode=mode, script=script, items=tuple(items), arrows=tuple(arrows),
                  glow=0.0 if knobs["decoy"] < 0.45 else 0.35 + 0.4 * knobs["decoy"], clutter=knobs["clutter"],
                  bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of items shown (the decoy included)."""
    return float(len(params.items))


# ---------------------------------------------------------------- drawing

INK_DARK, INK_WHITE = (30, 34, 40), (255, 255, 255)


def render(params: Params) -> Puzzle:
    w, h = params.size
    side = min(w, h)
    bg = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    canvas = draw.Canvas(draw.gaussian_blur(bg, 2.0 * side / 320))
    meta = {}
    n = len(params.items)
    extras = {"text_masks": {}}
    for i, (role, text, x0, y0, x1, y1, fill, ink, decoy, px) in enumerate(params.items, start=1):
        if decoy and params.glow:        # a soft halo behind the decoy
            m = round(side * 0.05)
            halo = np.zeros((y1 - y0 + 2 * m, x1 - x0 + 2 * m, 4), np.uint8)
            halo[..., :3] = (255, 220, 60)
            if params.mode == "arrow":       # round the shape, not a box
                cv2.circle(halo, (halo.shape[1] // 2, halo.shape[0] // 2), (x1 - x0) // 2, (255, 220, 60, 255), -1)
            else:
                cv2.rectangle(halo, (m, m), (x1 - x0 + m, y1 - y0 + m), (255, 220, 60, 255), -1)
            halo[..., 3] = draw.gaussian_blur(halo[..., 3], m / 2.2)
            canvas.paste(halo, x0 - m, y0 - m, 0, opacity=params.glow, hides=False)
        if params.mode == "arrow":
            area = ((x1 - x0) / 2 / geom.radius(text, 1.0)) ** 2
            spr = geom.shape_sprite(text, float(area), 0.0, geom.rgb_of(fill))
            canvas.paste(spr, (x0 + x1 - spr.shape[1]) // 2, (y0 + y1 - spr.shape[0]) // 2, i)
            meta[i] = {"role": role, "label": f"{fill} {text}", "kind": text}
            continue
        if params.mode == "button":
            bw, bh = x1 - x0, y1 - y0
            r = round(min(bw, bh) * 0.25)
            face = np.zeros((bh, bw, 4), np.uint8)
            mask = geom.round_rect_mask(bw, bh, r)
            tint = geom.rgb_of(fill)
            face[..., :3] = tint if decoy else tuple(int(0.25 * v + 0.75 * 245) for v in tint)   # pale but the decoy
            face[..., 3] = mask
            shadow = np.zeros_like(face)
            shadow[..., 3] = draw.gaussian_blur(mask, 2.0)
            canvas.paste(shadow, x0 + 2, y0 + 3, 0, opacity=0.3, hides=False)
            canvas.paste(face, x0, y0, i)
            colour = INK_WHITE if ink == "white" else INK_DARK
        else:           # a word on a white chip; the chip is what a click must hit
            colour = tuple(int(v * 0.85) for v in geom.rgb_of(ink))
            chip = np.zeros((y1 - y0, x1 - x0, 4), np.uint8)
            chip[..., :3] = 252
            chip[..., 3] = geom.round_rect_mask(x1 - x0, y1 - y0, round(min(x1 - x0, y1 - y0) * 0.2))
            canvas.paste(chip, x0, y0, i, opacity=0.92)
        spr = geom.text_sprite(text, px, colour)
        tx, ty = (x0 + x1 - spr.shape[1]) // 2, (y0 + y1 - spr.shape[0]) // 2
        canvas.paste(spr, tx, ty, 0, hides=False)
        extras["text_masks"][i] = (tx, ty, spr[..., 3] >= 160)
        label = "decoy" if decoy else text
        meta[i] = {"role": role, "label": label, "kind": text}
    for j, (tx, ty, hx, hy, width, _, lure) in enumerate(params.arrows, start=n + 1):
        pts = geom.arrow_outline((tx, ty), (hx, hy), width)
        x0, y0 = np.floor(pts.min(0)).astype(int) - 2
        x1, y1 = np.ceil(pts.max(0)).astype(int) + 2
        spr = np.zeros((y1 - y0, x1 - x0, 4), np.uint8)
        rgb = LURE_RGB if lure else (45, 50, 60)
        cv2.fillPoly(spr, [np.round((pts - [x0, y0]) * 4).astype(np.int32)], (*rgb, 255), cv2.LINE_AA, shift=2)
        canvas.paste(spr, x0, y0, j)
        meta[j] = {"role": "lure" if lure else "arrow", "label": "arrow", "kind": "arrow"}
    canvas.full_area.pop(0, None)
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta, extras=extras)


# ---------------------------------------------------------------- verification

def _legible(params: Params, puzzle: Puzzle, i: int, obj: dict) -> float:
    """Contrast (RGB distance) between an item's text and what it is written on; Reject when too small."""
    side = min(params.size)
    tx, ty, core = puzzle.extras["text_masks"][i]
    if core.shape[0] < MIN_TEXT * side / 320:
        raise Reject(f"{NAME}.text_too_small")
    h, w = core.shape
    crop = puzzle.rgb[ty:ty + h, tx:tx + w]
    ink = cv2.erode(core.view(np.uint8), np.ones((2, 2), np.uint8))
    near = cv2.dilate(core.view(np.uint8), np.ones((5, 5), np.uint8))
    mine = obj["_mask"][ty:ty + h, tx:tx + w]
    ground = (near == 0) & mine
    if cv2.countNonZero(ink) < 8 or np.count_nonzero(ground) < 8:
        raise Reject(f"{NAME}.text_unreadable")
    a = np.array(cv2.mean(crop, ink)[:3])
    b = np.array(cv2.mean(crop, ground.view(np.uint8))[:3])
    contrast = float(np.linalg.norm(a - b))
    if contrast < MIN_CONTRAST:
        raise Reject(f"{NAME}.low_contrast")
    return contrast


def pointed(params: Params, puzzle: Puzzle) -> list[set[int]]:
    """Per arrow, the instances its pointing rays (the axis and CONE either side) reach first."""
    side = min(params.size)
    h, w = puzzle.instances.shape
    n = len(params.items)
    out = []
    for j, (tx, ty, hx, hy, *_rest) in enumerate(params.arrows, start=n + 1):
        u = np.array([hx - tx, hy - ty]) / max(np.hypot(hx - tx, hy - ty), 1e-9)
        hits = set()
        for dev in (-CONE, 0.0, CONE):
            t = np.deg2rad(dev)
            v = np.array([u[0] * np.cos(t) - u[1] * np.sin(t), u[0] * np.sin(t) + u[1] * np.cos(t)])
            steps = np.arange(1, RAY * side)
            xs = np.round(hx + v[0] * steps).astype(int)
            ys = np.round(hy + v[1] * steps).astype(int)
            ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
            ids = puzzle.instances[ys[ok], xs[ok]]
            ids = ids[(ids != 0) & (ids != j)]
            if len(ids):
                hits.add(int(ids[0]))
            elif dev == 0.0:
                hits.add(0)           # the axis itself must reach something
        out.append(hits)
    return out


def solve(params: Params, puzzle: Puzzle) -> Task:
    objects = geom.objects_of(puzzle)
    n = len(params.items)
    if len(objects) != n + len(params.arrows) or any(o["visible_fraction"] < 0.999 for o in objects):
        raise Reject(f"{NAME}.item_hidden")
    by_id = {o["id"]: o for o in objects}
    checks = {"items": float(n), "arrows": float(len(params.arrows))}
    if params.mode == "arrow":
        hit = pointed(params, puzzle)
        reached = [0] * (n + 1)
        for (*_, aim, _lure), hits in zip(params.arrows, hit):
            if hits != {aim + 1}:          # every ray of an arrow reaches the shape it was drawn for, first
                raise Reject(f"{NAME}.arrow_unclear")
            reached[aim + 1] += 1
        found = [i for i in range(1, n + 1) if reached[i] == 0]
        checks["most_arrows_on_one"] = float(max(reached))
    else:
        contrast = [_legible(params, puzzle, i, by_id[i]) for i in range(1, n + 1)]
        checks["min_text_contrast"] = min(contrast)
        if params.mode == "button":
            found = [i for i in range(1, n + 1) if params.items[i - 1][1] != params.target]
        else:
            colours = COLOUR_WORDS[params.script]
            found = [i for i in range(1, n + 1) if params.items[i - 1][1] not in colours]
        decoys = [o for o in objects if o["id"] <= n and params.items[o["id"] - 1][8]]
        if len(decoys) != 1 or decoys[0]["id"] in found:
            raise Reject(f"{NAME}.decoy_is_an_answer")
    if not found or any(puzzle.meta[i]["role"] != "target" for i in found) or \
            sum(puzzle.meta[i]["role"] == "target" for i in range(1, n + 1)) != len(found):
        raise Reject(f"{NAME}.role_mismatch")
    targets = [by_id[i] for i in found]
    boxes = [t["bbox"] for t in targets]
    if not geom.boxes_clear(objects, boxes):
        raise Reject(f"{NAME}.box_covers_another")
    # the decoy first among the distractors: the pipeline's last check clicks it and must score nothing
    objects.sort(key=lambda o: not (o["id"] <= n and params.items[o["id"] - 1][8]))
    return Task(rule="click_set", answer={"count": len(targets)}, objects=objects, target_ids=found,
                target_boxes=boxes, points=[draw.inner_point(t["_mask"]) for t in targets],
                partial_credit=len(targets) > 1, checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    many = sum(it[0] == "target" for it in params.items) > 1
    if lang == "zh":
        every = "所有" if many else ""
        if params.mode == "button":
            return f"请点击{every}文字不是“{params.target}”的按钮"
        if params.mode == "word":
            return f"请点击{every}不是颜色名称的词"
        return f"请点击{every}没有箭头指向的图形"
    if params.mode == "button":
        return (f'Click every button that does not say "{params.target}".' if many
                else f'Click the button that does not say "{params.target}".')
    if params.mode == "word":
        return "Click every word that is not a colour." if many else "Click the word that is not a colour."
    return "Click every shape that no arrow points to." if many else "Click the shape that no arrow points to."
