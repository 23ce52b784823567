"""Layer stack: overlapping cards lie in a messy pile; click the card at the bottom, at the top, second from
the top or bottom, or the topmost (lowest) card of a named colour. The stacking order is read from the
instance map where cards overlap, and the answer's rank must follow from what is visible."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, geom

NAME = "layer_stack"
DESCRIPTION = "click the card at the bottom (top, second from top / bottom, topmost of a colour) of a pile of cards"
COVERS = ("NextGenCAPTCHAs:Backmost_Layer",)
GEOMETRIC_AUGMENT = False      # the accept box lies inside the answer's visible part; a warp would re-measure
                               # it as that part's bounding box, which takes in the cards above it
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "number of cards in the pile", +1
CARD_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "pink", "teal", "brown", "grey")
MODES = ("top", "bottom", "second_top", "second_bottom", "top_colour", "bottom_colour")
EDGE = 24               # px at 320: pixels along which one card is seen to go under another (a 2 px band)
MIN_SHOWN = 0.10        # every card shows at least this share of itself ...
MIN_SHOWN_PX = 700      # ... and this many px at 320
MIN_BOX = 16            # the answer card's visible part holds a box this many px (at 320) on each side
GRID = 64               # side of the coarse raster the pile is planned on
PLAN_SHOWN = 0.2        # planning keeps this share of every card in view ...
PLAN_OVERLAP = 0.12     # ... lays each card over this share of the one below it at least ...
PLAN_EVIDENCE = 150     # ... and keeps this many px (at 320) of every such overlap in view
PLAN_TRIES = 16         # places tried per card

TABLE = LevelTable(NAME, knobs={
    "cards_range": "number of cards",
    "modes_range": "which tasks are drawn: the first this many of top, bottom, second from top, second from "
                   "bottom, topmost of a colour, lowest of a colour",
    "spread_range": "how far card centres stray from the pile's centre, share of the puzzle's shorter side",
    "tilt_range": "largest turn of a card, degrees",
    "card_range": "card width as a share of the puzzle's shorter side",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"cards_range": (3, 3), "modes_range": (2, 2), "spread_range": (0.2, 0.22), "tilt_range": (0, 8),
        "card_range": (0.42, 0.46), "clutter_range": (0.0, 0.1)},
    2: {"cards_range": (4, 4), "modes_range": (2, 2), "spread_range": (0.21, 0.23), "tilt_range": (0, 15),
        "card_range": (0.4, 0.44), "clutter_range": (0.1, 0.2)},
    3: {"cards_range": (5, 5), "modes_range": (4, 4), "spread_range": (0.22, 0.24), "tilt_range": (0, 25),
        "card_range": (0.38, 0.42), "clutter_range": (0.2, 0.35)},
    4: {"cards_range": (6, 6), "modes_range": (6, 6), "spread_range": (0.24, 0.26), "tilt_range": (0, 35),
        "card_range": (0.35, 0.38), "clutter_range": (0.35, 0.5)},
    5: {"cards_range": (7, 8), "modes_range": (6, 6), "spread_range": (0.26, 0.28), "tilt_range": (0, 45),
        "card_range": (0.32, 0.35), "clutter_range": (0.5, 0.6)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # the task, e.g. "bottom", "second_top", "top_colour red"
    mode: str                   # one of MODES
    colour: str                 # the named colour ("" unless mode ends in _colour)
    # (centre x, centre y, width, height, turn degrees clockwise, colour name), from the bottom up
    cards: tuple[tuple[float, float, float, float, float, str], ...]
    answer: int                 # index (from the bottom) of the card sampled as the answer
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- geometry

@lru_cache(maxsize=16)
def _shape(w: float, h: float) -> np.ndarray:
    """The unturned rounded-rectangle outline (n, 2) of a w x h card centred on 0 (read-only)."""
    r = 0.09 * min(w, h)
    a = np.linspace(0, np.pi / 2, 7)
    arc = np.stack([np.cos(a), np.sin(a)], 1) * r
    hx, hy = w / 2 - r, h / 2 - r
    pts = np.concatenate([arc * [1, 1] + [hx, hy], arc[::-1] * [-1, 1] + [-hx, hy],
                          arc * [-1, -1] + [-hx, -hy], arc[::-1] * [1, -1] + [hx, -hy]])
    pts.setflags(write=False)
    return pts


def outline(cx: float, cy: float, w: float, h: float, turn: float) -> np.ndarray:
    """The rounded-rectangle outline (n, 2) of a card centred on (cx, cy), turned clockwise by `turn`."""
    t = np.deg2rad(turn)
    c, s = np.cos(t), np.sin(t)
    return _shape(w, h) @ np.array([[c, s], [-s, c]]) + (cx, cy)


def card_mask(card, size: tuple[int, int]) -> np.ndarray:
    """The whole card's pixels (bool, puzzle-sized), as drawn."""
    w, h = size
    out = np.zeros((h, w), np.uint8)
    cv2.fillPoly(out, [np.round(outline(*card[:5]) * 4).astype(np.int32)], 1, cv2.LINE_8, shift=2)
    return out.view(bool)


# ---------------------------------------------------------------- sampling

def target_index(mode: str, colours: list[str], colour: str) -> int:
    n = len(colours)
    if mode == "top":
        return n - 1
    if mode == "bottom":
        return 0
    if mode == "second_top":
        return n - 2
    if mode == "second_bottom":
        return 1
    named = [i for i, c in enumerate(colours) if c == colour]
    return named[-1] if mode == "top_colour" else named[0]


def _pile(rng, size, colours, cw: float, ch: float, spread: float, tilt: float) -> list[tuple]:
    """Cards laid one by one round the middle: each new one overlaps the card before it, and leaves every
    earlier card partly in view and every earlier such overlap partly in view (so that the whole order shows
    as a chain), planned on a coarse raster."""
    w, h = size
    k = GRID / max(w, h)
    top = np.zeros((round(h * k), round(w * k)), np.uint8)      # which card shows, 0 = none
    reach = np.hypot(cw, ch) / 2 + 3
    cx0, cy0 = w / 2 + float(rng.uniform(-0.04, 0.04)) * w, h / 2 + float(rng.uniform(-0.04, 0.04)) * h
    cards, full, links = [], [], []       # links: per card above the first, where it shows over the one below
    least = PLAN_EVIDENCE * (min(w, h) / 320 * k) ** 2
    for i, c in enumerate(colours, start=1):
        best = None
        for _ in range(PLAN_TRIES):
            a, r = float(rng.uniform(0, 2 * np.pi)), spread * np.sqrt(float(rng.uniform(0.1, 1.0)))
            x = float(np.clip(cx0 + r * np.cos(a), reach, w - reach))
            y = float(np.clip(cy0 + r * np.sin(a), reach, h - reach))
            card = (x, y, float(cw), float(ch), float(rng.uniform(-tilt, tilt)) if tilt else 0.0, c)
            m = np.zeros_like(top)
            cv2.fillPoly(m, [np.round(outline(*card[:5]) * k * 4).astype(np.int32)], 1, cv2.LINE_8, shift=2)
            m = m.view(bool)
            left = np.bincount(top[~m], minlength=i)[1:i]       # what stays in view of each earlier card
            shown = min((left[j] / full[j] for j in range(i - 1)), default=1.0)
            over = np.count_nonzero(m & (top == i - 1)) / max(1, np.count_nonzero(m)) if i > 1 else 1.0
            kept = min((np.count_nonzero(e & ~m) for e in links), default=least)
            score = min(shown / PLAN_SHOWN, over / PLAN_OVERLAP, kept / least)
            if best is None or score > best[0]:
                best = (score, card, m)
            if score >= 1.0:
                break
        _, card, m = best
        if i > 1:
            links.append(m & (top == i - 1))
        links = [e & ~m for e in links[:-1]] + links[-1:]
        top[m] = i
        full.append(np.count_nonzero(m))
        cards.append(card)
    return cards


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  mode: str | None = None) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    knobs = {k[:-6]: draw_knob(rng, v, integer=k in ("cards_range", "modes_range")) for k, v in row.items()}
    n = knobs["cards"]
    mode = mode or MODES[int(rng.integers(knobs["modes"]))]
    tilt = float(row["tilt_range"][1])
    colours = [CARD_COLOURS[i] for i in rng.choice(len(CARD_COLOURS), n, replace=False)]
    colour = ""
    if mode.endswith("_colour"):      # the named colour on two to four cards
        colour = colours[0]
        for i in rng.choice(n, 2 if n < 6 else 3, replace=False):
            colours[int(i)] = colour
    cw = side * knobs["card"]
    ch = cw * float(rng.uniform(0.62, 0.72))
    cards = _pile(rng, size, colours, cw, ch, side * knobs["spread"], tilt)
    knobs["cards"] = float(n)
    return Params(size=size, target=f"{mode} {colour}".strip(), mode=mode, colour=colour, cards=tuple(cards),
                  answer=target_index(mode, colours, colour), clutter=knobs["clutter"],
                  bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of cards."""
    return float(len(params.cards))


def render(params: Params) -> Puzzle:
    w, h = params.size
    side = min(w, h)
    bg = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    canvas = draw.Canvas(draw.gaussian_blur(bg, 2.0 * side / 320))
    border = max(2, round(3 * side / 320))
    off = max(2, round(3 * side / 320))
    meta = {}
    for i, card in enumerate(params.cards, start=1):
        pts = outline(*card[:5])
        x0, y0 = np.floor(pts.min(0)).astype(int) - 2
        x1, y1 = np.ceil(pts.max(0)).astype(int) + 3
        local = np.round((pts - [x0, y0]) * 4).astype(np.int32)
        spr = np.zeros((y1 - y0, x1 - x0, 4), np.uint8)
        rgb = geom.rgb_of(card[5])
        cv2.fillPoly(spr, [local], (250, 250, 250, 255), cv2.LINE_AA, shift=2)
        # the coloured face inside a white rim
        inner = outline(card[0], card[1], card[2] - 2 * border, card[3] - 2 * border, card[4])
        cv2.fillPoly(spr, [np.round((inner - [x0, y0]) * 4).astype(np.int32)], (*rgb, 255), cv2.LINE_AA, shift=2)
        cv2.polylines(spr, [local], True, (150, 150, 155, 255), 1, cv2.LINE_AA, shift=2)
        shadow = np.zeros_like(spr)
        shadow[..., 3] = draw.gaussian_blur(spr[..., 3], 2.0)
        canvas.paste(shadow, x0 + off, y0 + off, 0, opacity=0.35, hides=False)
        canvas.paste(spr, x0, y0, i)
        meta[i] = {"role": "target" if i - 1 == params.answer else "distractor", "label": f"{card[5]} card",
                   "kind": card[5]}
    canvas.full_area.pop(0, None)
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


# ---------------------------------------------------------------- verification

def above_pairs(params: Params, puzzle: Puzzle) -> tuple[set[tuple[int, int]], float]:
    """(a, b) for every two cards where b is seen to go under a: b's visible pixels run up to a's edge at
    pixels where b's outline continues under a (not where two cards merely look adjacent). Also the least
    such contact (px) behind any pair."""
    side = min(params.size)
    edge = EDGE * side / 320
    masks = [card_mask(c, params.size) for c in params.cards]
    outlines = [outline(*c[:5]) for c in params.cards]
    boxes = [(*np.floor(p.min(0)).astype(int), *np.ceil(p.max(0)).astype(int)) for p in outlines]
    inst = puzzle.instances
    h, w = inst.shape
    k = np.ones((5, 5), np.uint8)
    out, least = set(), np.inf
    for a in range(len(masks)):
        for b in range(a + 1, len(masks)):
            x0, y0 = max(boxes[a][0], boxes[b][0], 0) - 3, max(boxes[a][1], boxes[b][1], 0) - 3
            x1, y1 = min(boxes[a][2], boxes[b][2], w) + 4, min(boxes[a][3], boxes[b][3], h) + 4
            x0, y0 = max(x0, 0), max(y0, 0)
            if x0 >= x1 or y0 >= y1:
                continue
            crop = inst[y0:y1, x0:x1]
            both = masks[a][y0:y1, x0:x1] & masks[b][y0:y1, x0:x1]
            if not both.any():
                continue
            for upper, lower in ((a, b), (b, a)):
                # where the upper card hides the lower one, next to pixels where the lower one shows
                shows = cv2.dilate((crop == lower + 1).view(np.uint8), k).view(bool)
                contact = np.count_nonzero(shows & both & (crop == upper + 1))
                if contact >= edge:
                    out.add((upper + 1, lower + 1))
                    least = min(least, contact)
    return out, least


def closure(n: int, pairs: set[tuple[int, int]]) -> np.ndarray:
    """(n + 1, n + 1) bool: [a, b] when card a lies above card b by a chain of seen overlaps."""
    m = np.zeros((n + 1, n + 1), bool)
    for a, b in pairs:
        m[a, b] = True
    for k in range(1, n + 1):
        m |= m[:, k:k + 1] & m[k:k + 1, :]
    return m


def solve(params: Params, puzzle: Puzzle) -> Task:
    w, h = params.size
    side = min(w, h)
    n = len(params.cards)
    objects = geom.objects_of(puzzle)
    if len(objects) != n:
        raise Reject(f"{NAME}.card_hidden")
    by_id = {o["id"]: o for o in objects}
    area = draw.instance_areas(puzzle.instances)
    for i in range(1, n + 1):
        if by_id[i]["visible_fraction"] < MIN_SHOWN or area[i] < MIN_SHOWN_PX * (side / 320) ** 2:
            raise Reject(f"{NAME}.card_hidden")
    pairs, least = above_pairs(params, puzzle)
    over = closure(n, pairs)
    if np.any(over & over.T):
        raise Reject(f"{NAME}.cyclic_order")
    ids = list(range(1, n + 1))
    above = {i: int(over[:, i].sum()) for i in ids}      # cards certainly above card i
    below = {i: int(over[i, :].sum()) for i in ids}
    mode = params.mode
    if mode.endswith("_colour"):
        means = geom.mean_colours(puzzle.rgb, puzzle.instances, 5, {o["id"]: o["bbox"] for o in objects})
        seen = {i: geom.colour_name(means.get(i), CARD_COLOURS) for i in ids}
        if any(seen[i] != puzzle.meta[i]["kind"] for i in ids):
            raise Reject(f"{NAME}.colour_unclear")
        named = [i for i in ids if seen[i] == params.colour]
        if len(named) < 2:
            raise Reject(f"{NAME}.too_few_named")
        if mode == "top_colour":
            found = [i for i in named if all(over[i, j] for j in named if j != i)]
        else:
            found = [i for i in named if all(over[j, i] for j in named if j != i)]
    else:
        want_above = {"top": 0, "bottom": n - 1, "second_top": 1, "second_bottom": n - 2}[mode]
        found = [i for i in ids if above[i] == want_above and below[i] == n - 1 - want_above]
    if len(found) != 1:
        raise Reject(f"{NAME}.order_not_visible")
    t = found[0]
    if puzzle.meta[t]["role"] != "target":
        raise Reject(f"{NAME}.role_mismatch")
    target = by_id[t]
    box = geom.inscribed_box(target["_mask"])
    if box is None or min(box[2] - box[0], box[3] - box[1]) < MIN_BOX * side / 320:
        raise Reject(f"{NAME}.target_too_hidden")
    objects = geom.distractor_first(objects, puzzle.instances)
    point = [float((int(box[0]) + int(box[2])) // 2) + 0.5, float((int(box[1]) + int(box[3])) // 2) + 0.5]
    checks = {"cards": float(n), "seen_overlaps": float(len(pairs)), "least_contact_px": float(least),
              "target_visible": target["visible_fraction"],
              "min_visible": min(o["visible_fraction"] for o in objects)}
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[t], target_boxes=[box],
                points=[point], partial_credit=False, checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    zh = lang == "zh"
    mode = params.mode
    if mode.endswith("_colour"):
        if zh:
            where = "最上面" if mode == "top_colour" else "最下面"
            return f"请点击{where}的那张{geom.colour_zh(params.colour)}卡片"
        where = "topmost" if mode == "top_colour" else "lowest"
        return f"Click the {where} {params.colour} card in the stack."
    if zh:
        return {"top": "请点击最上面的那张卡片", "bottom": "请点击最底下的那张卡片",
                "second_top": "请点击从上往下数第二张卡片", "second_bottom": "请点击从下往上数第二张卡片"}[mode]
    return {"top": "Click the card on top of the stack.", "bottom": "Click the card at the bottom of the stack.",
            "second_top": "Click the second card from the top.",
            "second_bottom": "Click the second card from the bottom."}[mode]
