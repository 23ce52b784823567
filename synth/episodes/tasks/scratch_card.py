"""Scratch card (刮刮乐): a card whose silver coating hides a symbol (an object picture or a short code), and
a row of 3-5 option buttons below it. Every drag scratches a band of the coating away along its line (a
fifth of the card's height wide); once the symbol shows, click the option that matches it.

The symbol counts as revealed when at least the level's share of its pixels is uncovered (measured on the
state's coating mask). Clicking an option before that, or the wrong option, fails the episode."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw

from synth.core.errors import Reject
from synth.core.geometry import centre, inside
from synth.core.levels import LevelTable, draw_knob
from synth.episodes.base import VERIFY, click, drag
from synth.families import photo_grid
from synth.families.base import Puzzle
from synth.families.counting import similar_kinds
from synth.families.kit import draw as sprites
from synth.families.kit import ui
from synth.families.kit.kinds import emoji_kinds, kind_by_key

NAME = "scratch_card"
DESCRIPTION = "scratch the coating off a card by dragging across it, then click the option showing the hidden symbol"
COVERS: tuple[str, ...] = ()     # no public benchmark or vendor type we know of is a scratch card
ANSWERS = ("drag", "click")
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, False, 0.0
SLACK = 4                       # steps beyond the expert's
BANDS = 5                       # a scratch is a fifth of the card's height wide
OVERLAP = 4                     # px by which the expert's neighbouring scratches overlap
FULL = 0.98                     # the expert scratches until this share of the symbol shows
CODE_CHARS = "ACDHKMNPRTWXY3479"    # no pair a band hiding part of a character could mix up (E/F, O/0, 1/I ...)
TRIES = 20                      # symbols tried for one that stands out on the print
GROUND, BUTTON, EDGE, INK = (246, 246, 248), (255, 255, 255), (200, 203, 210), (40, 44, 52)
PRINT, SYMBOL_INK = (252, 246, 226), (180, 30, 40)
CARDS = ((196, 32, 44), (28, 98, 180), (22, 128, 84), (112, 52, 160))     # the card's colour
TITLE = {"en": "SCRATCH & MATCH", "zh": "刮刮乐"}
COATING_TEXT = {"en": "SCRATCH HERE", "zh": "刮开涂层"}
NONE = -1

TABLE = LevelTable(NAME, knobs={
    "options_range": "number of option buttons",
    "similar_range": "probability that a wrong option looks like the answer (same category, or a code one "
                     "character off)",
    "code_range": "probability that the hidden symbol is a short code rather than a picture",
    "rows_range": "scratches across a picture it takes to uncover it (its height in scratch bands; codes take 2)",
    "needed_range": "share of the symbol's pixels that must be uncovered before an answer counts",
    "offset_range": "largest shift of the symbol from the coating's centre, share of the room there",
}, levels={
    1: {"options_range": (3, 3), "similar_range": (0.0, 0.0), "code_range": (0.2, 0.2), "rows_range": (2, 2),
        "needed_range": (0.55, 0.55), "offset_range": (0.0, 0.0)},
    2: {"options_range": (3, 4), "similar_range": (0.25, 0.25), "code_range": (0.3, 0.3), "rows_range": (2, 2),
        "needed_range": (0.6, 0.6), "offset_range": (0.1, 0.1)},
    3: {"options_range": (4, 4), "similar_range": (0.5, 0.5), "code_range": (0.4, 0.4), "rows_range": (2, 3),
        "needed_range": (0.7, 0.7), "offset_range": (0.2, 0.2)},
    4: {"options_range": (4, 5), "similar_range": (0.7, 0.7), "code_range": (0.5, 0.5), "rows_range": (2, 3),
        "needed_range": (0.8, 0.8), "offset_range": (0.3, 0.3)},
    5: {"options_range": (5, 5), "similar_range": (0.9, 0.9), "code_range": (0.5, 0.5), "rows_range": (3, 3),
        "needed_range": (0.85, 0.85), "offset_range": (0.4, 0.4)},
})


@dataclass
class State:
    size: tuple[int, int]
    geo: dict                   # layout(): card, title, coating and option boxes
    answer: str                 # kind key, or the code
    options: list[str]          # kind keys or codes, one of them the answer
    needed: float               # share of the symbol's pixels to uncover before an answer counts
    base: np.ndarray            # the puzzle with the coating whole
    under: np.ndarray           # the coating's area as printed beneath it (the symbol on the print)
    symbol: np.ndarray          # (ph, pw) bool: the symbol's pixels, coating coordinates
    far: np.ndarray             # (ph, pw) bool: points more than half a band from the symbol
    rows: list[float]           # y of the expert's scratches across the symbol, puzzle pixels
    scraped: np.ndarray         # (ph, pw) uint8: 255 where the coating is scratched off
    picked: int = NONE          # the option clicked
    revealed_at_pick: float = 0.0
    scratches: int = 0          # drags that took some coating off ...
    misses: int = 0             # ... of them, those that uncovered none of the symbol


# ---------------------------------------------------------------- layout

def layout(size: tuple[int, int], k: int) -> dict:
    """Boxes (x0, y0, x1, y1) of the card, its title band, the coating, and the k option buttons below."""
    w, h = size
    m = round(min(w, h) * 0.03)
    card = (m, m, w - m, round(h * 0.6))
    title = (card[0], card[1], card[2], card[1] + round(h * 0.085))
    pad = round(min(w, h) * 0.035)
    coat = (card[0] + pad, title[3], card[2] - pad, card[3] - pad)
    gap = round(w * 0.03)
    top, bottom = card[3] + 2 * m, h - m
    side = min(bottom - top, (w - 2 * m - (k - 1) * gap) // k, round(h * 0.26))
    ox, oy = (w - k * side - (k - 1) * gap) // 2, (top + bottom - side) // 2
    options = [(ox + i * (side + gap), oy, ox + i * (side + gap) + side, oy + side) for i in range(k)]
    return {"card": card, "title": title, "coating": coat, "options": options}


def band(geo: dict) -> int:
    """Width of the band one scratch clears."""
    x0, y0, x1, y1 = geo["card"]
    return round((y1 - y0) / BANDS)


# ---------------------------------------------------------------- symbols

@lru_cache(maxsize=64)
def code_sprite(code: str, px: int) -> np.ndarray:
    """RGBA of a code in bold at `px`, cropped to its ink (cached)."""
    f = ui.font(px, bold=True)
    left, t, r, b = f.getbbox(code)
    w, h = r - left + 4, b - t + 4
    img = Image.new("L", (w, h), 0)
    ImageDraw.Draw(img).text((2 - left, 2 - t), code, font=f, fill=255)
    a = cv2.resize(np.asarray(img), (w // ui.SCALE, h // ui.SCALE), interpolation=cv2.INTER_AREA)
    out = np.zeros((*a.shape, 4), np.uint8)
    out[..., :3] = SYMBOL_INK
    out[..., 3] = a
    return out


def symbol_sprite(key: str, height: float) -> np.ndarray:
    """The symbol drawn about `height` px tall (ink), RGBA cropped to its ink."""
    if key.startswith("emoji:"):
        ref = sprites.sprite(key, 64)[..., 3] >= sprites.ALPHA_ON
        share = cv2.boundingRect(ref.view(np.uint8))[3] / 64
        spr = sprites.sprite(key, max(16, round(height / share)))
    else:
        spr = code_sprite(key, max(10, round(height / 0.73)))      # capitals and digits: ink 0.73 of the size
    x, y, bw, bh = cv2.boundingRect((spr[..., 3] > 0).view(np.uint8))
    return spr[y:y + bh, x:x + bw]


def random_code(rng: np.random.Generator, n: int) -> str:
    return "".join(CODE_CHARS[int(i)] for i in rng.integers(len(CODE_CHARS), size=n))


def near_code(rng: np.random.Generator, code: str) -> str:
    """The code with one character changed."""
    i = int(rng.integers(len(code)))
    other = [c for c in CODE_CHARS if c != code[i]]
    return code[:i] + other[int(rng.integers(len(other)))] + code[i + 1:]


def pick_options(rng: np.random.Generator, code: bool, k: int, similar: float) -> tuple[str, list[str]]:
    """The answer and k distinct options holding it, each wrong one similar with probability `similar`."""
    if code:
        answer = random_code(rng, int(rng.integers(3, 5)))
        wrong: list[str] = []
        while len(wrong) < k - 1:
            c = near_code(rng, answer) if rng.random() < similar else random_code(rng, len(answer))
            if c != answer and c not in wrong:
                wrong.append(c)
    else:
        pool = emoji_kinds()
        target = pool[int(rng.integers(len(pool)))]
        alike = [x.key for x in similar_kinds(target, pool)]
        unlike = [x.key for x in pool if x.key != target.key and x.key not in alike]
        answer, wrong = target.key, []
        while len(wrong) < k - 1:
            src = [x for x in (alike if rng.random() < similar else unlike) if x not in wrong] or \
                  [x for x in alike + unlike if x not in wrong]
            wrong.append(src[int(rng.integers(len(src)))])
    options = wrong + [answer]
    return answer, [options[int(i)] for i in rng.permutation(k)]


def label(key: str) -> str:
    """An option's name as the label lists it: a kind's English name, or the code."""
    return kind_by_key(key).en if key.startswith("emoji:") else key


# ---------------------------------------------------------------- pictures

def coating(rng: np.random.Generator, pw: int, ph: int, lang: str) -> np.ndarray:
    """The silver coating: a grey sheen with fine grain and a printed hint to scratch it."""
    yy, xx = np.mgrid[:ph, :pw].astype(np.float32)
    v = 190 - 22 * yy / ph + 9 * np.sin((xx / pw * 2.2 + yy / ph * 1.3) * np.pi)
    grain = cv2.GaussianBlur(rng.normal(0, 9, (ph, pw)).astype(np.float32), (0, 0), 0.8)
    grey = np.clip(v + grain, 0, 255)
    rgb = np.ascontiguousarray(np.stack([grey, grey + 2, grey + 6], -1).clip(0, 255).astype(np.uint8))
    p = ui.Painter((pw, ph), (0, 0, 0))
    p.text((pw / 2, ph / 2), COATING_TEXT[lang], max(9, round(ph * 0.13)), (255, 255, 255), bold=True, anchor="mm")
    ink = cv2.cvtColor(p.finish()[0], cv2.COLOR_RGB2GRAY)
    return sprites.blend(rgb, np.full_like(rgb, 140), cv2.convertScaleAbs(ink, alpha=0.6))


def print_layer(pw: int, ph: int, spr: np.ndarray, x: int, y: int) -> tuple[np.ndarray, np.ndarray, float]:
    """What lies under the coating: the cream print with the symbol at (x, y); the symbol's mask; and its
    contrast with the print round it (photo_grid's measure)."""
    yy, xx = np.mgrid[:ph, :pw]
    stripes = ((xx + yy) // 6 % 2 == 0)[..., None] * np.int16(-6)     # faint diagonal stripes
    canvas = sprites.Canvas(np.clip(np.int16(PRINT) + stripes, 0, 255).astype(np.uint8))
    canvas.paste(spr, x, y, photo_grid.OBJECT)
    inst = canvas.instances
    mask = inst == photo_grid.OBJECT
    inst[~mask] = 1                                                   # the print round the symbol
    box = [float(x), float(y), float(x + spr.shape[1]), float(y + spr.shape[0])]
    return canvas.rgb, mask, photo_grid.contrast(Puzzle(canvas.rgb, inst, {}, {}), photo_grid.OBJECT, box)


def base_image(size: tuple[int, int], geo: dict, options: list[str], coat: np.ndarray, lang: str,
               colour: tuple[int, int, int]) -> np.ndarray:
    """The whole puzzle with the coating unscratched: the card, its title, the coating, the option buttons."""
    w, h = size
    p = ui.Painter(size, GROUND)
    p.rect(geo["card"], fill=colour, radius=round(min(w, h) * 0.03))
    tx0, ty0, tx1, ty1 = geo["title"]
    p.text(((tx0 + tx1) / 2, (ty0 + ty1) / 2 + 1), TITLE[lang], round((ty1 - ty0) * 0.55), (255, 214, 90),
           bold=True, anchor="mm")
    side = geo["options"][0][2] - geo["options"][0][0]
    for box, key in zip(geo["options"], options):
        p.rect(box, fill=BUTTON, outline=EDGE, width=1.5, radius=round(side * 0.12))
        if not key.startswith("emoji:"):
            px = min(round(side * 0.34), int(side * 0.8 * 10 / ui.text_width(key, 10, bold=True)))   # fits 0.8 of it
            p.text(centre(box), key, px, INK, bold=True, anchor="mm")
    rgb = p.finish()[0]
    for (x0, y0, *_), key in zip(geo["options"], options):
        if key.startswith("emoji:"):
            spr = sprites.sprite(key, round(side * 0.72))
            o = (side - spr.shape[0]) // 2
            region = rgb[y0 + o:y0 + o + spr.shape[0], x0 + o:x0 + o + spr.shape[1]]
            region[:] = sprites.blend(region, np.ascontiguousarray(spr[..., :3]), np.ascontiguousarray(spr[..., 3]))
    cx0, cy0, cx1, cy1 = geo["coating"]
    rgb[cy0:cy1, cx0:cx1] = coat
    return rgb


# ---------------------------------------------------------------- the Task protocol

def _symbol(rng: np.random.Generator, row: dict, geo: dict) -> tuple:
    """The options and the hidden symbol on the print: (answer, options, print, symbol mask, scratch rows)."""
    cx0, cy0, cx1, cy1 = geo["coating"]
    pw, ph = cx1 - cx0, cy1 - cy0
    b = band(geo)
    spacing = b - OVERLAP
    similar, offset = draw_knob(rng, row["similar_range"]), draw_knob(rng, row["offset_range"])
    codes = draw_knob(rng, row["code_range"])
    for _ in range(TRIES):
        code = bool(rng.random() < codes)
        rows = 2 if code else draw_knob(rng, row["rows_range"], integer=True)   # a code three bands tall is too wide
        answer, options = pick_options(rng, code, len(geo["options"]), similar)
        spr = symbol_sprite(answer, rng.uniform(rows - 0.5, rows - 0.1) * spacing)
        sh, sw = spr.shape[:2]
        n = -(-sh // spacing)                          # overlapping scratches that cover its height
        if sw > pw - 2 * b or not 2 <= n <= 3:
            continue                                   # too wide to leave room beside it, or too tall
        x = round((pw - sw) / 2 + rng.uniform(-1, 1) * offset * (pw - sw) / 2)
        y = round((ph - sh) / 2 + rng.uniform(-1, 1) * offset * (ph - sh) / 2)
        under, mask, contrast = print_layer(pw, ph, spr, x, y)
        if contrast >= photo_grid.MIN_CONTRAST:
            return answer, options, under, mask, [cy0 + y + (j + 0.5) * sh / n for j in range(n)]
    raise Reject(f"{NAME}.no_clear_symbol")


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    geo = layout(size, draw_knob(rng, row["options_range"], integer=True))
    answer, options, under, mask, rows = _symbol(rng, row, geo)
    cx0, cy0, cx1, cy1 = geo["coating"]
    coat = coating(rng, cx1 - cx0, cy1 - cy0, lang)
    colour = CARDS[int(rng.integers(len(CARDS)))]
    far = cv2.distanceTransform((~mask).view(np.uint8), cv2.DIST_L2, 3) > band(geo) / 2 + 2
    state = State(size, geo, answer, options, draw_knob(rng, row["needed_range"]),
                  base_image(size, geo, options, coat, lang, colour), under, mask, far, rows,
                  np.zeros(mask.shape, np.uint8))
    _check_expert(state)
    return state


def _band(state: State, start, end) -> np.ndarray:
    """(ph, pw) uint8: 255 where a scratch from `start` to `end` (puzzle pixels) takes the coating off."""
    cx0, cy0, _, _ = state.geo["coating"]
    out = np.zeros_like(state.scraped)
    q = 4                                               # sub-pixel ends
    a = (round((start[0] - cx0) * q), round((start[1] - cy0) * q))
    b = (round((end[0] - cx0) * q), round((end[1] - cy0) * q))
    cv2.line(out, a, b, 255, band(state.geo), cv2.LINE_8, shift=2)
    return out


def revealed(state: State) -> float:
    """Share of the symbol's pixels uncovered."""
    return float(np.count_nonzero(state.scraped[state.symbol])) / float(np.count_nonzero(state.symbol))


def _row_drag(state: State, y: float) -> dict:
    """A scratch right across the coating at height y, its round ends just inside the coating's edges."""
    x0, _, x1, _ = state.geo["coating"]
    b = band(state.geo)
    return drag((x0 + b / 2, y), (x1 - b / 2, y))


def _check_expert(state: State) -> None:
    """The expert's scratches uncover the symbol (FULL of it) before it clicks."""
    scraped = state.scraped.copy()
    for y in state.rows:
        d = _row_drag(state, y)
        scraped |= _band(state, d["start"], d["end"])
    if np.count_nonzero(scraped[state.symbol]) < FULL * np.count_nonzero(state.symbol):
        raise Reject(f"{NAME}.scratches_leave_symbol_covered")


def draw(state: State) -> np.ndarray:
    rgb = state.base.copy()
    if state.scraped.any():
        cx0, cy0, cx1, cy1 = state.geo["coating"]
        region = rgb[cy0:cy1, cx0:cx1]
        rim = cv2.dilate(state.scraped, np.ones((3, 3), np.uint8), iterations=2) > state.scraped
        np.copyto(region, cv2.convertScaleAbs(region, alpha=0.72), where=rim[..., None])   # the coating's torn edge
        np.copyto(region, state.under, where=(state.scraped > 0)[..., None])
    return rgb


def instruction(state: State, lang: str) -> str:
    if lang == "zh":
        return "拖动刮开涂层，然后点击与涂层下内容相同的选项"
    return "Drag to scratch off the coating, then click what it hides."


def act(state: State, action: dict) -> None:
    if state.picked != NONE:
        return
    if action["type"] == "drag":
        cut = _band(state, action["start"], action["end"])
        fresh = cut > state.scraped
        if fresh.any():
            state.scratches += 1
            state.misses += not fresh[state.symbol].any()
        state.scraped |= cut
    elif action["type"] == "click":
        for j, box in enumerate(state.geo["options"]):
            if inside(box, action["point"]):
                state.picked, state.revealed_at_pick = j, revealed(state)


def tick(state: State, seconds: float) -> None:
    pass


def done(state: State) -> bool:
    return (state.picked != NONE and state.options[state.picked] == state.answer
            and state.revealed_at_pick >= state.needed)


def failed(state: State) -> bool:
    return state.picked != NONE and not done(state)


def progress(state: State) -> float:
    """1 when done; before that, 0.9 times the share of the needed reveal made."""
    if done(state):
        return 1.0
    return 0.0 if failed(state) else 0.9 * min(1.0, revealed(state) / state.needed)


def budget(state: State) -> int:
    return len(state.rows) + 1 + SLACK


def expert(state: State) -> dict:
    """Scratch across the symbol along the row that uncovers most of it until it all shows, then click the
    option that matches it."""
    if state.picked != NONE:
        return VERIFY
    if revealed(state) < FULL:
        hidden = state.symbol & (state.scraped == 0)
        drags = [_row_drag(state, y) for y in state.rows]
        gains = [np.count_nonzero(hidden & (_band(state, d["start"], d["end"]) > 0)) for d in drags]
        if max(gains) > 0:
            return drags[int(np.argmax(gains))]
    return click(*centre(state.geo["options"][state.options.index(state.answer)]))


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """A scratch over a part of the coating away from the symbol: it uncovers only the bare print."""
    if state.picked != NONE:
        return None
    cx0, cy0, _, _ = state.geo["coating"]
    ys, xs = np.nonzero(state.far & (state.scraped == 0))
    b = band(state.geo)
    for _ in range(40 if len(xs) else 0):      # two coated points far from the symbol, the line between too
        i, j = (int(v) for v in rng.integers(len(xs), size=2))
        length = float(np.hypot(xs[j] - xs[i], ys[j] - ys[i]))
        t = np.linspace(0, 1, max(2, int(length / 2)))
        px, py = np.round(xs[i] + t * (xs[j] - xs[i])).astype(int), np.round(ys[i] + t * (ys[j] - ys[i])).astype(int)
        if length >= b and state.far[py, px].all():
            return drag((cx0 + xs[i] + 0.5, cy0 + ys[i] + 0.5), (cx0 + xs[j] + 0.5, cy0 + ys[j] + 0.5))
    return None


def truth(state: State) -> dict:
    cx0, cy0, _, _ = state.geo["coating"]
    x, y, w, h = cv2.boundingRect(state.symbol.view(np.uint8))
    objects = [{"role": "panel", "label": "scratch area", "bbox": [float(v) for v in state.geo["coating"]]},
               {"role": "symbol", "label": label(state.answer),
                "bbox": [float(cx0 + x), float(cy0 + y), float(cx0 + x + w), float(cy0 + y + h)]}]
    objects += [{"role": "target" if key == state.answer else "option", "label": label(key),
                 "bbox": [float(v) for v in box]} for box, key in zip(state.geo["options"], state.options)]
    return {"objects": objects,
            "state": {"mode": "picture" if state.answer.startswith("emoji:") else "code",
                      "answer": label(state.answer), "options": [label(k) for k in state.options],
                      "revealed": round(revealed(state), 4), "needed": state.needed,
                      "ready": revealed(state) >= state.needed, "scratches": state.scratches,
                      "misses": state.misses, "picked": state.picked}}
