"""Option pager (Arkose / FunCaptcha style): a reference picture on the left and one option picture on the
right, paged with two arrow buttons under it (the pager wraps round; a page number "3 / 6" says where it
is); the widget's Verify button submits the option shown. Exactly one option matches the reference by the
mode's rule: the same object turned another way ("object"), as many objects ("count"), or dice with as many
pips ("dice"). Verifying it solves the puzzle; verifying another fails it.

What every picture shows is measured on its drawing: objects and pips are counted on the instance map (each
whole, pips as separate blobs standing out from their die), and every other object kind is compared with
the reference's sprite at every turn, so that no option could pass for the match."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import centre, inside
from synth.core.levels import LevelTable, draw_knob
from synth.episodes.base import VERIFY, click
from synth.families.counting import pick_kinds, similar_kinds
from synth.families.kit import draw as drawing
from synth.families.kit import ui
from synth.families.kit.die import Die, die_layers
from synth.families.kit.kinds import emoji_kinds
from synth.families.option_match.count import scatter
from synth.families.option_match.dice import MIN_PIP_CONTRAST, PIP, dice_pair
from synth.families.option_match.panels import FRAME, grid_cell

NAME = "paged_select"
DESCRIPTION = ("page through option pictures with arrow buttons to the one matching the reference (the same "
               "object turned, as many objects, as many pips), then press Verify")
COVERS = ("Arkose:numericalmatch", "OpenCaptchaWorld:Object_Match", "OpenCaptchaWorld:Dice_Count")
ANSWERS = ("click",)
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = True, False, 0.0
MODES = ("object", "count", "dice")
GROUND, CARD, BORDER, INK, MUTED = (245, 246, 248), (255, 255, 255), (204, 208, 214), (60, 64, 72), (130, 136, 146)
ITEM_VISIBLE = 0.97       # share of an object's or pip's pixels that must show (nothing overlaps)
MIN_ITEM_PX = 30          # at 320 x 320 (scaled with the area): an object smaller than this is too small ...
MIN_PIP_PX = 8            # ... a pip
KIND_SIDE, KIND_TURN = 40, 15   # other kinds are compared with the reference at this side, every this many degrees
MIN_KIND_RMS = 25.0       # grey levels: an other kind differs from the reference this much at its best turn

TABLE = LevelTable(NAME, knobs={
    "options_range": "number of option pictures (pages)",
    "near_range": "probability that a wrong option is a near miss (a kind of the reference's category, "
                  "one object or one pip more or fewer)",
    "vary_range": "probability that an option looks unlike the reference on the surface (other objects, "
                  "another die colour or split of the pips)",
    "turn_range": "object rule: degrees the match is turned from the reference",
    "count_range": "count rule: objects in the reference",
    "dice_range": "dice rule: dice in each picture",
    "clutter_range": "picture background texture strength, 0 to 1",
}, levels={
    1: {"options_range": (3, 3), "near_range": (0.0, 0.0), "vary_range": (0.0, 0.0), "turn_range": (40, 70),
        "count_range": (2, 4), "dice_range": (1, 1), "clutter_range": (0.0, 0.1)},
    2: {"options_range": (4, 4), "near_range": (0.25, 0.25), "vary_range": (0.25, 0.25), "turn_range": (50, 100),
        "count_range": (2, 5), "dice_range": (1, 1), "clutter_range": (0.1, 0.3)},
    3: {"options_range": (5, 5), "near_range": (0.5, 0.5), "vary_range": (0.5, 0.5), "turn_range": (60, 140),
        "count_range": (3, 6), "dice_range": (1, 1), "clutter_range": (0.3, 0.5)},
    4: {"options_range": (6, 6), "near_range": (0.7, 0.7), "vary_range": (0.7, 0.7), "turn_range": (70, 180),
        "count_range": (3, 7), "dice_range": (1, 2), "clutter_range": (0.45, 0.65)},
    5: {"options_range": (7, 8), "near_range": (0.9, 0.9), "vary_range": (0.9, 0.9), "turn_range": (90, 180),
        "count_range": (4, 8), "dice_range": (2, 2), "clutter_range": (0.6, 0.8)},
})


@dataclass
class State:
    size: tuple[int, int]
    mode: str
    answer: int                 # page (0-based) of the matching option
    values: list                # what each page shows by the rule (a kind key, a count or a pip total)
    reference: object           # ... and the reference
    base: np.ndarray            # the widget without the option picture and the page number
    pictures: list              # per page: the option picture, pasted into the option card
    numbers: list               # per page: the page number patch, pasted over the pager's middle
    page: int = 0
    dice: int = 0               # dice rule: dice in each picture
    presses: int = 0


# ---------------------------------------------------------------- layout

def layout(size: tuple[int, int]) -> dict[str, list[int]]:
    """Boxes [x0, y0, x1, y1] in puzzle pixels: the two cards side by side, the pictures inside them, the
    pager under the option card (arrows and the page number between them), and the reference's caption
    beside it."""
    w, h = size
    m = round(0.03 * min(w, h))
    bar = round(0.11 * h)
    card_w = (w - 3 * m) // 2
    card_h = h - 3 * m - bar
    ref, opt = [m, m, m + card_w, m + card_h], [w - m - card_w, m, w - m, m + card_h]
    pad = max(4, round(0.016 * w))
    y0 = m + card_h + m
    return {"reference": ref, "option": opt,
            "reference_picture": [ref[0] + pad, ref[1] + pad, ref[2] - pad, ref[3] - pad],
            "option_picture": [opt[0] + pad, opt[1] + pad, opt[2] - pad, opt[3] - pad],
            "previous": [opt[0], y0, opt[0] + bar, y0 + bar], "next": [opt[2] - bar, y0, opt[2], y0 + bar],
            "number": [opt[0] + bar, y0, opt[2] - bar, y0 + bar], "caption": [ref[0], y0, ref[2], y0 + bar]}


def _picture_size(size: tuple[int, int]) -> tuple[int, int]:
    x0, y0, x1, y1 = layout(size)["option_picture"]
    return x1 - x0, y1 - y0


# ---------------------------------------------------------------- sampling

def _wrong_values(rng: np.random.Generator, ref: int, n: int, lo: int, hi: int, near: float) -> list[int]:
    """n different values in lo..hi other than ref: each one off ref (a near miss) with probability `near`
    while such remain, else further off."""
    pool = [v for v in range(lo, hi + 1) if v != ref]
    if len(pool) < n:
        raise ValueError(f"{NAME}: {n} wrong values wanted, only {len(pool)} in {lo}..{hi}: see options_range")
    out = []
    for _ in range(n):
        close = [v for v in pool if abs(v - ref) == 1]
        far = [v for v in pool if abs(v - ref) > 1]
        src = close if close and (rng.random() < near or not far) else far
        out.append(src[int(rng.integers(len(src)))])
        pool.remove(out[-1])
    return out


def _sample_object(rng, knobs, n: int, pw: int, ph: int) -> tuple[str, list[tuple]]:
    """The reference kind, and the items of the reference then the n pictures (the match first): the match
    is the reference's kind turned by the turn knob, the others other kinds (of its category with the near
    knob) at any turn."""
    pool = emoji_kinds()
    ref = pool[int(rng.integers(len(pool)))]
    alike = similar_kinds(ref, pool)
    other = [k for k in pool if k != ref and k not in alike]
    kinds = [ref]
    for _ in range(n - 1):
        src = [k for k in (alike if rng.random() < knobs["near"] else other) if k not in kinds]
        src = src or [k for k in pool if k not in kinds]
        kinds.append(src[int(rng.integers(len(src)))])
    side = int(min(pw, ph) * 0.88 / np.sqrt(2))          # any turn fits the picture
    a0 = float(rng.uniform(-20, 20))
    turn = knobs["turn"] * (1 if rng.random() < 0.5 else -1)
    angles = [a0, a0 + turn] + [float(rng.uniform(-180, 180)) for _ in range(n - 1)]

    def item(kind, angle) -> tuple:
        s = drawing.rotated_side(side, angle)
        x = (pw - s) // 2 + int(rng.integers(-(pw - s) // 4, (pw - s) // 4 + 1))
        y = (ph - s) // 2 + int(rng.integers(-(ph - s) // 4, (ph - s) // 4 + 1))
        return ((kind.key, x, y, side, round(angle, 2)),)
    return ref.key, [item(ref, angles[0])] + [item(k, a) for k, a in zip(kinds, angles[1:])]


def _sample_count(rng, knobs, n: int, pw: int, ph: int) -> tuple[int, list[tuple]]:
    """The reference count, and the items of the reference then the n pictures (the match first): one
    object size throughout (what the fullest picture holds), so size gives nothing away."""
    ref_kind, others = pick_kinds(rng, 4, 0.0)
    n_ref = knobs["count"]
    counts = [n_ref] + _wrong_values(rng, n_ref, n - 1, 1, n_ref + 4, knobs["near"])
    box = (3, 3, pw - 3, ph - 3)
    tilt = 30.0 if ref_kind.category != "shape" else 0.0
    t = np.deg2rad(tilt)
    side = int(min(grid_cell(box, c) for c in [n_ref] + counts) * 0.9 / (np.cos(t) + np.sin(t)))

    def items(key: str, c: int) -> tuple:
        return scatter(rng, box, c, [key] * c, side, tilt)
    pictures = [items(ref_kind.key, n_ref)]
    for c in counts:
        key = others[int(rng.integers(len(others)))].key if rng.random() < knobs["vary"] else ref_kind.key
        pictures.append(items(key, c))
    return n_ref, pictures


def _dice(rng, values: tuple[int, ...], pw: int, ph: int, body: str) -> tuple[Die, ...]:
    """One die centred in the picture, or a pair side by side, showing `values`."""
    tilt = 25.0
    if len(values) == 2:
        return dice_pair(rng, (0, 0, pw, ph), values, tilt, body)
    side = int(min(pw, ph) * 0.8 / (np.cos(np.deg2rad(tilt)) + np.sin(np.deg2rad(tilt))))
    angle = float(rng.uniform(-tilt, tilt))
    return (Die(pw / 2, ph / 2 + float(rng.uniform(-0.1, 0.1)) * ph, side, round(angle, 2), values[0],
                bool(rng.random() < 0.5), body, PIP),)


def _sample_dice(rng, knobs, n: int, pw: int, ph: int) -> tuple[int, list[tuple]]:
    """The reference total, and the dice of the reference then the n pictures (the match first): the match
    shows the same total (the pair split another way with the vary knob), the others other totals."""
    k = knobs["dice"]
    faces = [int(v) for v in rng.integers(1, 7, k)]
    total = sum(faces)
    wrong = _wrong_values(rng, total, n - 1, k, 6 * k, knobs["near"])

    def split(t: int) -> tuple[int, ...]:
        if k == 1:
            return (t,)
        a = int(rng.integers(max(1, t - 6), min(6, t - 1) + 1))
        return (a, t - a)

    def body() -> str:
        pool = ("red", "blue", "green", "black", "yellow") if rng.random() < knobs["vary"] else ("white", "ivory")
        return pool[int(rng.integers(len(pool)))]
    match = split(total) if rng.random() < knobs["vary"] else tuple(faces[::-1])
    sets = [tuple(faces), match] + [split(t) for t in wrong]
    return total, [_dice(rng, s, pw, ph, body()) for s in sets]


SAMPLERS = {"object": _sample_object, "count": _sample_count, "dice": _sample_dice}


# ---------------------------------------------------------------- pictures and their checks

def _picture(rng: np.random.Generator, content: tuple, size: tuple[int, int], clutter: float) -> drawing.Canvas:
    """One picture on a textured card ground: objects (key, x, y, side, tilt) with instance ids 1.., or dice
    (each body an instance, then each of its pips)."""
    pw, ph = size
    canvas = drawing.Canvas(drawing.background(rng, pw, ph, clutter))
    nid = 1
    for thing in content:
        if isinstance(thing, Die):
            x0, y0, body, pips = die_layers(thing)
            canvas.paste(body, x0, y0, nid)
            for px, py, layer in pips:
                nid += 1
                canvas.paste(layer, x0 + px, y0 + py, nid)
        else:
            key, x, y, s, t = thing
            canvas.paste(drawing.rotated(drawing.sprite(key, s), t), x, y, nid)
        nid += 1
    return canvas


def _count_shown(canvas: drawing.Canvas, least: float) -> int:
    """The objects a picture shows, each whole and big enough (else Reject)."""
    areas = drawing.instance_areas(canvas.instances)
    for i, full in canvas.full_area.items():
        if areas[i] < ITEM_VISIBLE * full:
            raise Reject(f"{NAME}.item_hidden")
        if areas[i] < least:
            raise Reject(f"{NAME}.item_too_small")
    return len(canvas.full_area)


def _pips_shown(canvas: drawing.Canvas, dice: tuple[Die, ...], least: float) -> int:
    """The pips a picture's dice show, counted as separate blobs on the instance map, each whole, big enough
    and standing out from its die (else Reject)."""
    inst, areas = canvas.instances, drawing.instance_areas(canvas.instances)
    grey = cv2.cvtColor(canvas.rgb, cv2.COLOR_RGB2GRAY)
    total, die_id = 0, 1
    for die in dice:
        pips = range(die_id + 1, die_id + 1 + die.value)
        if areas[die_id] + sum(int(areas[p]) for p in pips) < ITEM_VISIBLE * canvas.full_area[die_id]:
            raise Reject(f"{NAME}.die_hidden")
        if any(areas[p] < max(least, ITEM_VISIBLE * canvas.full_area[p]) for p in pips):
            raise Reject(f"{NAME}.pip_too_small")
        pip_px = (inst > die_id) & (inst <= die_id + die.value)
        if cv2.connectedComponents(pip_px.view(np.uint8), connectivity=8)[0] - 1 != die.value:
            raise Reject(f"{NAME}.pips_merge")
        if abs(float(np.median(grey[pip_px])) - float(np.median(grey[inst == die_id]))) < MIN_PIP_CONTRAST:
            raise Reject(f"{NAME}.pips_faint")
        total += die.value
        die_id += die.value + 1
    return total


@lru_cache(maxsize=64)
def _turns(key: str) -> np.ndarray:
    """A kind's sprite at every KIND_TURN degrees, on mid grey (N, side, side, 3) float32."""
    spr = drawing.sprite(key, KIND_SIDE).astype(np.float32)
    c = KIND_SIDE / 2 - 0.5
    out = []
    for a in range(0, 360, KIND_TURN):
        r = cv2.warpAffine(spr, cv2.getRotationMatrix2D((c, c), -a, 1.0), (KIND_SIDE, KIND_SIDE),
                           flags=cv2.INTER_LINEAR)
        alpha = r[..., 3:] / 255
        out.append(r[..., :3] * alpha + 128 * (1 - alpha))
    return np.stack(out)


def kind_difference(ref: str, other: str) -> float:
    """How unlike the reference's sprite another kind's looks at its best turn: root mean square difference
    in grey levels."""
    return float(np.sqrt(((_turns(other) - _turns(ref)[0]) ** 2).mean(axis=(1, 2, 3))).min())


def _shown(mode: str, canvas: drawing.Canvas, content: tuple, ref_value, least: tuple[float, float]):
    """What a picture shows by the rule, measured on its drawing."""
    if mode == "count":
        return _count_shown(canvas, least[0])
    if mode == "dice":
        return _pips_shown(canvas, content, least[1])
    key = content[0][0]
    _count_shown(canvas, least[0])
    if key != ref_value and kind_difference(ref_value, key) < MIN_KIND_RMS:
        raise Reject(f"{NAME}.look_alike_kind")
    return key


# ---------------------------------------------------------------- the widget's static layers

def _chrome(size: tuple[int, int], lang: str) -> np.ndarray:
    """The widget without its pictures and page number: cards, arrow buttons, caption."""
    geo = layout(size)
    w, h = size
    p = ui.Painter(size, GROUND)
    radius = round(0.025 * min(w, h))
    p.rect(geo["reference"], fill=CARD, outline=FRAME, width=2, radius=radius)
    p.rect(geo["option"], fill=CARD, outline=BORDER, width=1, radius=radius)
    for name in ("previous", "next"):
        x0, y0, x1, y1 = geo[name]
        p.ellipse([x0 + 2, y0 + 2, x1 - 2, y1 - 2], fill=FRAME)
        cx, cy, a = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) * 0.16
        tip = -1 if name == "previous" else 1
        p.line([(cx - tip * a * 0.6, cy - a), (cx + tip * a * 0.6, cy), (cx - tip * a * 0.6, cy + a)], fill=CARD,
               width=max(2, (x1 - x0) / 12))
    font = round(0.045 * h)
    p.text(centre(geo["caption"]), "参考图" if lang == "zh" else "Reference", font, MUTED, anchor="mm")
    return p.finish()[0]


def _number(size: tuple[int, int], page: int, pages: int) -> np.ndarray:
    """The page number patch "3 / 6" for the pager's middle."""
    x0, y0, x1, y1 = layout(size)["number"]
    p = ui.Painter((x1 - x0, y1 - y0), GROUND)
    p.text(((x1 - x0) / 2, (y1 - y0) / 2), f"{page + 1} / {pages}", round(0.05 * size[1]), INK, bold=True,
           anchor="mm")
    return p.finish()[0]


def _paste(rgb: np.ndarray, box, patch: np.ndarray) -> None:
    x0, y0 = box[:2]
    rgb[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]] = patch


# ---------------------------------------------------------------- the task

def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    knobs = {"options": draw_knob(rng, row["options_range"], integer=True), "near": draw_knob(rng, row["near_range"]),
             "vary": draw_knob(rng, row["vary_range"]), "turn": draw_knob(rng, row["turn_range"]),
             "count": draw_knob(rng, row["count_range"], integer=True),
             "dice": draw_knob(rng, row["dice_range"], integer=True), "clutter": draw_knob(rng, row["clutter_range"])}
    mode = MODES[int(rng.integers(len(MODES)))]
    n = knobs["options"]
    pw, ph = _picture_size(size)
    ref_value, contents = SAMPLERS[mode](rng, knobs, n, pw, ph)
    order = rng.permutation(n).tolist()        # the match (drawn first) goes to a random page
    contents = [contents[0]] + [contents[1 + i] for i in order]
    answer = order.index(0)
    scale = size[0] * size[1] / (320 * 320)
    least = (MIN_ITEM_PX * scale, MIN_PIP_PX * scale)
    canvases = [_picture(rng, c, (pw, ph), knobs["clutter"]) for c in contents]
    shown = [_shown(mode, cv, c, ref_value, least) for cv, c in zip(canvases, contents)]
    if shown[0] != ref_value or [i for i, v in enumerate(shown[1:]) if v == shown[0]] != [answer]:
        raise Reject(f"{NAME}.match_not_unique")
    geo = layout(size)
    base = _chrome(size, lang)
    _paste(base, geo["reference_picture"], canvases[0].rgb)
    return State(size, mode, answer, shown[1:], shown[0], base, [cv.rgb for cv in canvases[1:]],
                 [_number(size, p, n) for p in range(n)], dice=knobs["dice"] if mode == "dice" else 0)


def draw(state: State) -> np.ndarray:
    geo = layout(state.size)
    rgb = state.base.copy()
    _paste(rgb, geo["option_picture"], state.pictures[state.page])
    _paste(rgb, geo["number"], state.numbers[state.page])
    return rgb


def instruction(state: State, lang: str) -> str:
    zh = lang == "zh"
    if state.mode == "object":
        return "点击箭头找到与左侧相同的物体，然后点击验证" if zh else \
            "Use the arrows to find the same object as on the left, then press Verify."
    if state.mode == "count":
        return "点击箭头找到物体数量与左侧相同的图片，然后点击验证" if zh else \
            "Use the arrows to find as many objects as on the left, then press Verify."
    if state.dice == 1:
        return "点击箭头找到点数与左侧相同的骰子，然后点击验证" if zh else \
            "Use the arrows to find the die with as many pips as on the left, then press Verify."
    return "点击箭头找到点数之和与左侧相同的骰子，然后点击验证" if zh else \
        "Use the arrows to find dice with the same total as on the left, then press Verify."


def act(state: State, action: dict) -> None:
    """A click on an arrow turns the page (wrapping round); Verify (the episode's) submits the page shown."""
    if action["type"] != "click":
        return
    geo, n = layout(state.size), len(state.pictures)
    for name, step in (("previous", -1), ("next", 1)):
        if inside(geo[name], action["point"]):
            state.page = (state.page + step) % n
            state.presses += 1


def tick(state: State, seconds: float) -> None:
    pass


def done(state: State) -> bool:
    """The match is shown (Verify then solves the puzzle)."""
    return state.page == state.answer


def failed(state: State) -> bool:
    return False


def _distance(state: State) -> int:
    """Arrow presses from the page shown to the match, the shorter way round."""
    n = len(state.pictures)
    d = (state.answer - state.page) % n
    return min(d, n - d)


def progress(state: State) -> float:
    """0.8 with the match shown, less the farther it is (Verify then earns the rest)."""
    return 0.8 * (1.0 - _distance(state) / (len(state.pictures) // 2))


def budget(state: State) -> int:
    return _distance(state) + 1 + 4


def _way(state: State) -> str:
    """The arrow that reaches the match the shorter way round ("next" on a tie)."""
    n = len(state.pictures)
    return "next" if (state.answer - state.page) % n <= n // 2 else "previous"


def expert(state: State) -> dict:
    geo = layout(state.size)
    if state.page == state.answer:
        return VERIFY
    return click(*centre(geo[_way(state)]))


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """A press of the arrow that pages away from the match (or past it, when it is shown); None when both
    ways are as short."""
    geo = layout(state.size)
    if state.page == state.answer:
        return click(*centre(geo[("previous", "next")[int(rng.integers(2))]]))
    n = len(state.pictures)
    if 2 * ((state.answer - state.page) % n) == n:
        return None
    return click(*centre(geo["previous" if _way(state) == "next" else "next"]))


def truth(state: State) -> dict:
    geo = layout(state.size)
    n = len(state.pictures)
    role = "target" if state.page == state.answer else "option"
    objects = [{"role": "reference", "label": "reference picture", "bbox": geo["reference_picture"]},
               {"role": role, "label": f"option {state.page + 1} of {n}", "bbox": geo["option_picture"]},
               {"role": "button", "label": "previous option", "bbox": geo["previous"]},
               {"role": "button", "label": "next option", "bbox": geo["next"]},
               {"role": "text", "label": f"{state.page + 1} / {n}", "bbox": geo["number"]}]
    for o in objects:
        o["bbox"] = [float(v) for v in o["bbox"]]
    return {"objects": objects,
            "state": {"mode": state.mode, "page": state.page + 1, "pages": n, "match_page": state.answer + 1,
                      "presses_to_match": _distance(state), "shown": str(state.values[state.page]),
                      "reference": str(state.reference), "presses": state.presses}}
