"""Letter attributes: a row or a scatter of letters, some mirrored, upside down or turned on their side (or,
another task, vowels among consonants); click every letter that has the asked attribute.

Verification reads each letter back from its mask: de-tilted and scaled to a unit square, it must match its
own drawing under its own transform, and no drawing of any letter under any transform that would answer the
task differently may match it as well (a mirrored A is an A; a mirrored b is a d; an upside-down S is an S)."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, glyphs

NAME = "letter_attr"
DESCRIPTION = "click every letter that is mirrored, upside down or turned on its side (or every vowel)"
GEOMETRIC_AUGMENT = False      # a warp tilts letters; whether one is turned is the answer
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "number of letters shown", +1
COVERS = ("OpenCaptchaWorld:Mirror", "NextGenCAPTCHAs:letter_attributes", "VenusBench-CAPTCHA:text_click")
TASKS = ("mirror", "upside_down", "sideways", "vowel")
TRANSFORMS = ("none", "mirror", "flip", "left", "right")   # flip: turned 180 degrees; left/right: 90 degrees
ASKED = {"mirror": ("mirror",), "upside_down": ("flip",), "sideways": ("left", "right"), "vowel": ()}
UPPER, LOWER = "ABCDEFGHJKLMNPQRSTUVWXYZ", "abdefghjkmnpqrtuy"     # no I/l/1, O/o/0, c/s/v/w/x/z twins
VOWELS = set("AEUaeu")
FONTS = (0, 2)                 # sans faces of glyphs.LATIN: DejaVu Sans Bold, Liberation Sans Bold
NORM = 32                      # side of the unit square letters are compared in
MATCH_MIN = 0.74               # a shown letter matches its own drawing at least this well (IoU) ...
SAME_MAX = 0.88                # ... and any drawing that answers differently at most this well, the same letter's
SELF_MAX = 0.80                # at most this well (a person knows the letter: a near-symmetric one fools more)
OTHER_MAX = 0.76               # ... and a turned letter another letter's upright drawing that answers differently
                               # at most this well, either case (a mirrored P reads as q, an m on its side as E)
GAP = 6                        # px at 320 between letter boxes
MIN_CONTRAST = 60.0            # RGB distance between a letter and the ground round it
# turned letters that read as another (or the same) letter though their masks differ more than the limits
# allow: (shown, read as), each (letter, transform); a letter on either side is unclear where they answer apart
LOOKALIKES = ((("M", "flip"), ("W", "none")), (("W", "flip"), ("M", "none")), (("N", "left"), ("Z", "none")),
              (("N", "right"), ("Z", "none")), (("Z", "left"), ("N", "none")), (("Z", "right"), ("N", "none")),
              (("u", "flip"), ("n", "none")), (("n", "flip"), ("u", "none")), (("U", "flip"), ("n", "none")),
              (("h", "flip"), ("y", "none")), (("y", "flip"), ("h", "none")), (("m", "flip"), ("w", "none")),
              (("X", "left"), ("X", "none")), (("X", "right"), ("X", "none")), (("H", "left"), ("H", "none")),
              (("H", "right"), ("H", "none")), (("P", "mirror"), ("q", "none")), (("P", "flip"), ("d", "none")))
INKS = ((25, 25, 30), (150, 30, 30), (20, 60, 150), (25, 110, 50), (100, 40, 130), (120, 70, 10))

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of letters",
    "targets_range": "number of letters with the asked attribute",
    "decoy_range": "probability that another letter shows a transform that is not asked",
    "tilt_range": "largest small random tilt of every letter, degrees",
    "lower_range": "probability that a letter is lower case",
    "scatter_range": "probability that the letters are scattered (otherwise in rows)",
    "size_range": "font size as a share of the puzzle's shorter side",
    "clutter_range": "background texture strength, 0 to 1",
}, levels={
    1: {"count_range": (5, 5), "targets_range": (1, 1), "decoy_range": (0.0, 0.0), "tilt_range": (0, 0),
        "lower_range": (0.0, 0.0), "scatter_range": (0.0, 0.0), "size_range": (0.17, 0.18),
        "clutter_range": (0.0, 0.1)},
    2: {"count_range": (6, 6), "targets_range": (1, 2), "decoy_range": (0.0, 0.0), "tilt_range": (0, 5),
        "lower_range": (0.0, 0.0), "scatter_range": (0.3, 0.3), "size_range": (0.16, 0.17),
        "clutter_range": (0.1, 0.2)},
    3: {"count_range": (7, 7), "targets_range": (2, 2), "decoy_range": (0.2, 0.2), "tilt_range": (0, 8),
        "lower_range": (0.3, 0.3), "scatter_range": (0.6, 0.6), "size_range": (0.15, 0.16),
        "clutter_range": (0.2, 0.35)},
    4: {"count_range": (8, 8), "targets_range": (2, 3), "decoy_range": (0.35, 0.35), "tilt_range": (0, 12),
        "lower_range": (0.5, 0.5), "scatter_range": (1.0, 1.0), "size_range": (0.14, 0.15),
        "clutter_range": (0.35, 0.5)},
    5: {"count_range": (9, 10), "targets_range": (2, 3), "decoy_range": (0.5, 0.5), "tilt_range": (0, 15),
        "lower_range": (0.6, 0.6), "scatter_range": (1.0, 1.0), "size_range": (0.13, 0.14),
        "clutter_range": (0.5, 0.65)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    task: str                   # one of TASKS
    target: str                 # the task again (what the label names)
    font: int                   # index into glyphs.LATIN
    # (role, letter, transform, x, y, font px, tilt, ink rgb) in z-order
    items: tuple[tuple[str, str, str, int, int, int, float, tuple], ...]
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- letter shapes

def transformed(img: np.ndarray, transform: str) -> np.ndarray:
    """A square image mirrored (left-right), turned 180 degrees, or turned 90 degrees left or right."""
    if transform == "mirror":
        return cv2.flip(img, 1)
    if transform == "flip":
        return cv2.rotate(img, cv2.ROTATE_180)
    if transform == "left":
        return cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE)
    if transform == "right":
        return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    return img


def normalised(mask: np.ndarray) -> np.ndarray:
    """A boolean mask's ink box scaled (aspect kept) and centred into a NORM x NORM square, as float32 0/1."""
    m = mask.astype(np.uint8)
    x, y, w, h = cv2.boundingRect(m)
    out = np.zeros((NORM, NORM), np.float32)
    if w == 0:
        return out
    s = (NORM - 2) / max(w, h)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    small = cv2.resize(m[y:y + h, x:x + w] * 255, (nw, nh), interpolation=cv2.INTER_AREA)
    ox, oy = (NORM - nw) // 2, (NORM - nh) // 2
    out[oy:oy + nh, ox:ox + nw] = small >= 128
    return out


@lru_cache(maxsize=4)
def templates(font: int) -> tuple[tuple[tuple[str, str], ...], np.ndarray, np.ndarray]:
    """Every letter (both cases) under every transform: (names, masks as packed bits (n, NORM * NORM / 8),
    pixel counts (n,))."""
    names, rows = [], []
    path = glyphs.LATIN[font]
    for ch in UPPER + LOWER + "IOocsvwxz":
        upright = (glyphs.master(ch, path) >= 128).view(np.uint8)
        for t in TRANSFORMS:
            names.append((ch, t))
            rows.append(normalised(transformed(upright, t).view(bool)).ravel() > 0)
    packed = np.packbits(np.stack(rows), axis=1)
    return tuple(names), packed, np.bitwise_count(packed).sum(1, dtype=np.int32)


def template(font: int, ch: str, transform: str) -> np.ndarray:
    """The flattened 0/1 mask of one letter under one transform."""
    names, packed, _ = templates(font)
    return np.unpackbits(packed[names.index((ch, transform))])[:NORM * NORM].astype(np.float32)


def ious(shape: np.ndarray, font: int) -> np.ndarray:
    """IoU of one flattened 0/1 mask against every template of a font, the best over shifts of the mask by up
    to one pixel (the ink box of a small glyph can be a pixel off either way). Counted on packed bits: a float
    matrix product would go through a threaded BLAS, slow for such small products on a busy machine."""
    _, packed, counts = templates(font)
    img = np.pad(shape.reshape(NORM, NORM) > 0, 1)
    shifted = np.packbits(np.stack([img[dy:dy + NORM, dx:dx + NORM].ravel() for dy in range(3) for dx in range(3)]),
                          axis=1)
    inter = np.bitwise_count(shifted[:, None, :] & packed[None]).sum(-1, dtype=np.int32)
    union = np.bitwise_count(shifted).sum(-1, dtype=np.int32)[:, None] + counts[None, :] - inter
    return (inter / np.maximum(union, 1)).max(0)


def answers(task: str, ch: str, transform: str) -> bool:
    """Whether a letter under a transform is one to click."""
    if task == "vowel":
        return transform == "none" and ch in VOWELS | set("IOo")
    return transform in ASKED[task]


def ambiguity(task: str, font: int, shape: np.ndarray, ch: str, transform: str) -> tuple[float, float, float]:
    """(IoU with its own drawing, best IoU of a drawing that answers the task differently, best IoU of such a
    drawing of the same letter). The vowel task shows upright letters only, so only upright drawings compete."""
    names = templates(font)[0]
    scores = ious(shape, font)
    own = float(scores[names.index((ch, transform))])
    rivals = _rivals(task, font, answers(task, ch, transform))
    same = rivals & np.array([c == ch for c, _ in names])
    return (own, float(scores[rivals].max()) if rivals.any() else 0.0,
            float(scores[same].max()) if same.any() else 0.0)


def other_letter(task: str, font: int, shape: np.ndarray, ch: str, transform: str) -> float:
    """Best IoU of an upright drawing of another letter (either case) that answers the task differently: above
    OTHER_MAX a person reads the turned letter as that one (a mirrored P as a q). 0 for an upright letter: a
    person reads it as itself (one that is another letter turned exactly is caught by SAME_MAX)."""
    if transform == "none":
        return 0.0
    names = templates(font)[0]
    rivals = _rivals(task, font, answers(task, ch, transform)) & np.array(
        [c.upper() != ch.upper() and t == "none" for c, t in names])
    return float(ious(shape, font)[rivals].max()) if rivals.any() else 0.0


@lru_cache(maxsize=32)
def _rivals(task: str, font: int, mine: bool) -> np.ndarray:
    """Which templates answer the task otherwise than `mine` (upright ones only for the vowel task)."""
    return np.array([answers(task, c, t) != mine and (task != "vowel" or t == "none")
                     for c, t in templates(font)[0]])


@lru_cache(maxsize=2048)
def clear(task: str, font: int, ch: str, transform: str) -> bool:
    """Whether a letter under a transform reads unambiguously for the task (on its clean drawing)."""
    shape = template(font, ch, transform)
    own, other, self_ = ambiguity(task, font, shape, ch, transform)
    return (own >= MATCH_MIN and other <= SAME_MAX - 0.04 and self_ <= SELF_MAX - 0.04
            and other_letter(task, font, shape, ch, transform) <= OTHER_MAX - 0.04
            and not lookalike(task, ch, transform))


def lookalike(task: str, ch: str, transform: str) -> bool:
    """Whether the letter is one side of a LOOKALIKES pair whose sides answer the task differently."""
    return any((ch, transform) in pair and answers(task, *pair[0]) != answers(task, *pair[1]) for pair in LOOKALIKES)


# ---------------------------------------------------------------- sampling

def row_spots(w: int, h: int, side: int, n: int) -> list[tuple[int, int]]:
    """Top-left corners of n squares of `side` in centred rows (as many per row as fit, rows balanced)."""
    per = max(1, min(n, (w - 8) // (side + 6)))
    rows = -(-n // per)
    per = -(-n // rows)
    out = []
    gap_y = (h - rows * side) / (rows + 1)
    for r in range(rows):
        k = min(per, n - r * per)
        gap_x = (w - k * side) / (k + 1)
        out += [(round(gap_x * (c + 1) + side * c), round(gap_y * (r + 1) + side * r)) for c in range(k)]
    return out


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  task: str | None = None) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("count_range", "targets_range")) for k in row}
    task = task or TASKS[int(rng.integers(len(TASKS)))]
    font = FONTS[int(rng.integers(len(FONTS)))]
    n, k = knobs["count"], knobs["targets"]
    others = [t for t in TRANSFORMS if t != "none" and t not in ASKED[task]]
    letters, used = [], set()
    for i in range(n):
        target = i < k
        for _ in range(60):
            lower = rng.random() < knobs["lower"]
            pool = LOWER if lower else UPPER
            ch = pool[int(rng.integers(len(pool)))]
            if task == "vowel":
                vowels = [c for c in pool if c in VOWELS]
                if target:
                    ch = vowels[int(rng.integers(len(vowels)))]
                t = "none"
            elif target:
                asked = ASKED[task]
                t = asked[int(rng.integers(len(asked)))]
            else:
                t = others[int(rng.integers(len(others)))] if rng.random() < knobs["decoy"] else "none"
            if ch.upper() not in used and answers(task, ch, t) == target and clear(task, font, ch, t):
                break
        else:
            raise Reject(f"{NAME}.no_clear_letters")
        used.add(ch.upper())
        letters.append((ch, t))
    order = [int(i) for i in rng.permutation(n)]
    px = round(side * knobs["size"])
    tilt = row["tilt_range"][1]
    tilts = [round(float(rng.uniform(-tilt, tilt)), 2) for _ in range(n)]
    box = draw.rotated_side(glyphs.glyph_side(px, rim=False), tilt)
    scatter = rng.random() < knobs["scatter"]
    for _ in range(6):
        spots = (glyphs.scatter(rng, w, h, [box] * n, round(GAP * side / 320)) if scatter
                 else row_spots(w, h, box, n))
        if spots and (scatter or len({y for _, y in spots}) <= 2):
            break
        px = round(px * 0.92)
        box = draw.rotated_side(glyphs.glyph_side(px, rim=False), tilt)
    else:
        raise Reject(f"{NAME}.no_room")
    items = []
    for j, i in enumerate(order):
        ch, t = letters[i]
        x, y = spots[j]
        b = draw.rotated_side(glyphs.glyph_side(px, rim=False), tilts[j])
        x, y = x + (box - b) // 2, y + (box - b) // 2
        ink = INKS[int(rng.integers(len(INKS)))] if level >= 3 else INKS[0]
        items.append(("target" if i < k else "distractor", ch, t, x, y, px, tilts[j], ink))
    knobs["scattered"] = float(scatter)
    return Params(size=size, task=task, target=task, font=font, items=tuple(items), clutter=knobs["clutter"],
                  bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of letters shown."""
    return float(len(params.items))


# ---------------------------------------------------------------- drawing

def letter_rgba(ch: str, transform: str, font: int, px: int, tilt: float, ink: tuple) -> np.ndarray:
    rgba = glyphs.glyph(ch, glyphs.LATIN[font], px, ink, rim_rgb=None)
    return draw.rotated(transformed(rgba, transform), tilt)


def render(params: Params) -> Puzzle:
    w, h = params.size
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    meta = {}
    for i, (role, ch, t, x, y, px, tilt, ink) in enumerate(params.items, start=1):
        canvas.paste(letter_rgba(ch, t, params.font, px, tilt, ink), x, y, i)
        meta[i] = {"role": role, "label": ch, "kind": t}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


# ---------------------------------------------------------------- verification

def shown_shape(mask: np.ndarray, tilt: float) -> np.ndarray:
    """A letter's visible mask with its small tilt undone, normalised and flattened."""
    m = mask.astype(np.uint8) * 255
    n = max(m.shape) + 4
    pad = np.zeros((n, n), np.uint8)
    oy, ox = (n - m.shape[0]) // 2, (n - m.shape[1]) // 2
    pad[oy:oy + m.shape[0], ox:ox + m.shape[1]] = m
    if tilt:
        rot = cv2.getRotationMatrix2D((n / 2, n / 2), tilt, 1.0)     # draw.rotated turned it clockwise
        pad = cv2.warpAffine(pad, rot, (n, n), flags=cv2.INTER_LINEAR)
    return normalised(pad >= 128).ravel()


def solve(params: Params, puzzle: Puzzle) -> Task:
    side = min(params.size)
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    h, w = puzzle.instances.shape
    objects, worst_own, worst_other, contrast = [], 1.0, 0.0, np.inf
    for i, m in puzzle.meta.items():
        if i not in boxes or areas[i] < 0.999 * puzzle.full_area[i]:
            raise Reject(f"{NAME}.not_fully_visible")
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        crop = puzzle.instances[y0:y1, x0:x1] == i
        _, ch, t, _, _, px, tilt, _ = params.items[i - 1]
        shape = shown_shape(crop, tilt)
        own, other, self_ = ambiguity(params.task, params.font, shape, ch, t)
        if own < MATCH_MIN:
            raise Reject(f"{NAME}.letter_unreadable")
        if (other > SAME_MAX or self_ > SELF_MAX or lookalike(params.task, ch, t)
                or other_letter(params.task, params.font, shape, ch, t) > OTHER_MAX):
            raise Reject(f"{NAME}.ambiguous_letter")
        worst_own, worst_other = min(worst_own, own), max(worst_other, other, self_)
        if answers(params.task, ch, t) != (m["role"] == "target"):
            raise Reject(f"{NAME}.role_mismatch")
        # ink against the ground just round the letter
        X0, Y0, X1, Y1 = max(0, x0 - 4), max(0, y0 - 4), min(w, x1 + 4), min(h, y1 + 4)
        inst = puzzle.instances[Y0:Y1, X0:X1]
        mk = (inst == i).view(np.uint8)
        ring = (cv2.dilate(mk, np.ones((5, 5), np.uint8)) > 0) & (mk == 0) & (inst == 0)
        inner = cv2.erode(mk, np.ones((3, 3), np.uint8))
        if ring.any() and inner.any():
            sub = puzzle.rgb[Y0:Y1, X0:X1]
            a, b = (np.float32(cv2.mean(sub, q.view(np.uint8))[:3]) for q in (inner.view(bool), ring))
            contrast = min(contrast, float(np.linalg.norm(a - b)))
        mask = np.zeros(puzzle.instances.shape, bool)
        mask[y0:y1, x0:x1] = crop
        objects.append({"id": i, "role": m["role"], "label": f"{ch} ({t})" if t != "none" else ch,
                        "bbox": boxes[i], "visible_fraction": round(float(areas[i]) / puzzle.full_area[i], 4),
                        "_mask": mask})
    if contrast < MIN_CONTRAST:
        raise Reject(f"{NAME}.low_contrast")
    closest = min((max(q["bbox"][0] - p["bbox"][2], p["bbox"][0] - q["bbox"][2], q["bbox"][1] - p["bbox"][3],
                       p["bbox"][1] - q["bbox"][3]) for a, p in enumerate(objects) for q in objects[a + 1:]),
                  default=np.inf)
    if closest < GAP * side / 320 - 2:
        raise Reject(f"{NAME}.too_close")
    targets = [o for o in objects if o["role"] == "target"]
    if not targets:
        raise Reject(f"{NAME}.no_target")
    checks = {"min_own_iou": worst_own, "max_other_iou": worst_other, "min_contrast": contrast,
              "closest_gap_px": float(closest), "letters": float(len(objects))}
    return Task(rule="click_set", answer={"count": len(targets)}, objects=objects,
                target_ids=[o["id"] for o in targets], target_boxes=[o["bbox"] for o in targets],
                points=[draw.inner_point(o["_mask"]) for o in targets], partial_credit=False,
                checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    zh = lang == "zh"
    if params.task == "mirror":
        return "请点击所有左右镜像（左右翻转）的字母" if zh else \
            "Click every letter that is mirrored (flipped left to right)."
    if params.task == "upside_down":
        return "请点击所有上下颠倒的字母" if zh else "Click every letter that is upside down."
    if params.task == "sideways":
        return "请点击所有侧躺（旋转了90度）的字母" if zh else "Click every letter that is lying on its side."
    return "请点击所有元音字母（A、E、I、O、U）" if zh else "Click every vowel (A, E, I, O or U)."
