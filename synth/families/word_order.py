"""Word order (语序点选): the characters of a Chinese word or idiom, or the letters of an English word, lie
scattered and turned over a photograph among decoys; click them in the order that forms the word. The word
is not given: the instruction says how many characters it has and, at low levels, hints at its meaning."""
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit import glyphs as _glyphs
from synth.families.kit import photo as _photo
from synth.families.kit import words as _words
from synth.families.kit.kinds import turn_limit

NAME = "word_order"
DESCRIPTION = "click the scattered characters of a hidden word or idiom (or letters of an English word) in word order"
GEOMETRIC_AUGMENT = True       # mild warps keep characters readable; the answer is which glyph, not where exactly
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "number of decoy characters", +1
COVERS = ("GeeTest:word_order", "NetEase-Yidun:word_order", "Dingxiang:word_order",
          "VenusBench-CAPTCHA:text_click")
GAP = 4                 # px at 320 between the boxes of two glyphs
MIN_CONTRAST = 60.0     # RGB distance between a glyph's strokes and the rim round them
MIN_PIXELS = 80         # px at 320: smallest glyph mask
ZH_NUMBERS = {2: "两", 3: "三", 4: "四", 5: "五", 6: "六"}
EN_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
# ink colours; a glyph gets a white rim, or a dark one when its ink is light (RIM_LUMA), and a drop shadow
PALETTE = ((230, 40, 40), (255, 140, 0), (250, 210, 20), (40, 180, 70), (30, 150, 240), (150, 70, 220),
           (235, 60, 160), (20, 20, 20), (255, 255, 255), (0, 190, 190))
WHITE, DARK = (255, 255, 255), (28, 28, 28)
RIM_LUMA = 165.0        # inks lighter than this (Rec. 601 luma) get the dark rim

TABLE = LevelTable(NAME, knobs={
    "length_range": "characters of the Chinese word (an English word has two letters more)",
    "decoys_range": "number of decoy characters",
    "hint_range": "probability that the instruction hints at the meaning (always for words of 2-3 characters)",
    "size_range": "glyph size as a share of the puzzle's shorter side",
    "tilt_range": "largest turn of a glyph, degrees",
    "mix_range": "probability that a glyph takes its own typeface (otherwise the puzzle's)",
}, levels={
    1: {"length_range": (2, 2), "decoys_range": (1, 1), "hint_range": (1.0, 1.0), "size_range": (0.16, 0.18),
        "tilt_range": (0, 10), "mix_range": (0.0, 0.0)},
    2: {"length_range": (2, 3), "decoys_range": (2, 2), "hint_range": (1.0, 1.0), "size_range": (0.14, 0.16),
        "tilt_range": (0, 20), "mix_range": (0.2, 0.2)},
    3: {"length_range": (3, 4), "decoys_range": (3, 3), "hint_range": (0.6, 0.6), "size_range": (0.13, 0.15),
        "tilt_range": (0, 30), "mix_range": (0.4, 0.4)},
    4: {"length_range": (4, 4), "decoys_range": (4, 4), "hint_range": (0.3, 0.3), "size_range": (0.12, 0.14),
        "tilt_range": (0, 40), "mix_range": (0.6, 0.6)},
    5: {"length_range": (4, 4), "decoys_range": (5, 5), "hint_range": (0.0, 0.0), "size_range": (0.11, 0.13),
        "tilt_range": (0, 45), "mix_range": (0.8, 0.8)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    mode: str                   # "hanzi" | "latin"
    target: str                 # the word
    hint: bool                  # the instruction hints at the meaning
    # (role, character, x, y, font px, tilt, font index, ink rgb, rim rgb) in z-order; the word's characters
    # first, in order
    items: tuple[tuple[str, str, int, int, int, float, int, tuple, tuple], ...]
    photo: tuple                # _photo.sample_window
    knobs: dict


# ---------------------------------------------------------------- word lists

@lru_cache(maxsize=1)
def zh_entries() -> dict[str, tuple[str, str]]:
    """Every Chinese word that may be asked -> (English hint, Chinese hint)."""
    out = {}
    for cat, words in _words.ZH_WORDS.items():
        for w in words.split():
            out[w] = _words.CATEGORIES[cat]
    for w, en, zh in _words.ZH_IDIOMS:
        out[w] = (en, zh)
    return out


@lru_cache(maxsize=1)
def zh_listed() -> tuple[str, ...]:
    """Every Chinese word the decoys must not form: the asked ones and the check list."""
    return tuple(dict.fromkeys(list(zh_entries()) + _words.ZH_CHECK.split()))


@lru_cache(maxsize=1)
def en_entries() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every English word that may be asked -> (category, decoy pools for 1..5 decoys)."""
    return {w: (cat, pools) for w, cat, pools in _words.EN_WORDS}


def formable(word: str, shown: Counter) -> bool:
    return not (Counter(word) - shown)


def alternatives(mode: str, target: str, shown: list[str]) -> list[str]:
    """Listed words of the target's length other than the target that the shown characters spell."""
    have, chars = Counter(shown), set(shown)
    listed = zh_listed() if mode == "hanzi" else tuple(en_entries())
    return [w for w in listed if len(w) == len(target) and w != target and set(w) <= chars and formable(w, have)]


def decoys_allowed(mode: str, target: str, decoys: list[str]) -> bool:
    """Whether the decoys are distinct, not in the word, not look-alikes of its characters or of each other,
    and (English) all drawn from the word's pool for that many decoys (see synth.families.kit.words)."""
    if len(set(decoys)) != len(decoys) or set(decoys) & set(target):
        return False
    # a decoy must not pass for a character of the word or for another decoy (the word's own characters are
    # read together, as a word: E beside F in FLOWER is no puzzle)
    if any(_glyphs.confusable(d, c) for i, d in enumerate(decoys) for c in list(target) + decoys[i + 1:]):
        return False
    if mode == "latin":
        pools = en_entries()[target][1]
        return 0 < len(decoys) <= len(pools) and set(decoys) <= set(pools[len(decoys) - 1])
    return True


# ---------------------------------------------------------------- sampling

def pick_word(rng: np.random.Generator, mode: str, length: int, decoys: int) -> str:
    if mode == "hanzi":
        words = [w for w in zh_entries() if len(w) == length]
    else:
        words = [w for w, (_, pools) in en_entries().items()
                 if len(w) == length + 2 and len(pools[decoys - 1]) >= decoys]
    return words[int(rng.integers(len(words)))]


def pick_decoys(rng: np.random.Generator, mode: str, word: str, n: int) -> list[str]:
    pool = _words.ZH_DECOYS if mode == "hanzi" else en_entries()[word][1][n - 1]
    for _ in range(40):
        chosen = [pool[i] for i in rng.choice(len(pool), n, replace=False)]
        if decoys_allowed(mode, word, chosen) and not alternatives(mode, word, list(word) + chosen):
            return chosen
    raise Reject(f"{NAME}.no_decoys")


def ink(rng: np.random.Generator, under: np.ndarray) -> tuple[int, int, int]:
    """A palette colour far from the mean picture colour under a glyph (the best of a few tries)."""
    best, far = PALETTE[0], -1.0
    for i in rng.permutation(len(PALETTE)):
        c = PALETTE[int(i)]
        d = float(np.linalg.norm(np.float32(c) - under))
        if d >= 2.2 * MIN_CONTRAST:
            return c
        if d > far:
            best, far = c, d
    return best


def rim_for(rgb: tuple) -> tuple:
    return DARK if 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > RIM_LUMA else WHITE


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  mode: str | None = None) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("length_range", "decoys_range")) for k in row}
    mode = mode or ("hanzi", "latin")[int(rng.integers(2))]
    word = pick_word(rng, mode, knobs["length"], knobs["decoys"])
    hint = bool(mode == "hanzi" and len(word) < 4 or rng.random() < knobs["hint"])
    chars = list(word) + pick_decoys(rng, mode, word, knobs["decoys"])
    fonts = _glyphs.fonts(mode)
    base_font = int(rng.integers(len(fonts)))
    tilt = row["tilt_range"][1]
    sizes = [max(18, round(side * draw_knob(rng, row["size_range"]))) for _ in chars]
    tilts = [round(float(rng.uniform(-turn_limit(ch, tilt), turn_limit(ch, tilt))), 2) for ch in chars]
    font_of = [int(rng.integers(len(fonts))) if rng.random() < knobs["mix"] else base_font for _ in chars]
    for _ in range(6):              # no room: shrink every glyph a little and try again
        boxes = [draw.rotated_side(_glyphs.glyph_side(s), t) for s, t in zip(sizes, tilts)]
        spots = _glyphs.scatter(rng, w, h, boxes, round(GAP * side / 320) + 2)
        if spots:
            break
        sizes = [max(18, round(s * 0.92)) for s in sizes]
    else:
        raise Reject(f"{NAME}.no_room")
    photo = _photo.sample_window(rng)
    bg = _photo.backdrop(photo, w, h)
    items = []
    for i, (ch, (x, y), s, t, f, b) in enumerate(zip(chars, spots, sizes, tilts, font_of, boxes)):
        under = np.float32(cv2.mean(bg[y:y + b, x:x + b])[:3])
        rgb = ink(rng, under)
        items.append(("target" if i < len(word) else "distractor", ch, x, y, s, t, f, rgb, rim_for(rgb)))
    knobs["size_mean"] = float(np.mean(sizes)) / side
    return Params(size=size, mode=mode, target=word, hint=hint, items=tuple(items), photo=photo, knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of decoy characters."""
    return float(sum(1 for it in params.items if it[0] != "target"))


# ---------------------------------------------------------------- drawing

def render(params: Params) -> Puzzle:
    w, h = params.size
    canvas = draw.Canvas(_photo.backdrop(params.photo, w, h))
    off = max(1, round(min(w, h) / 140))
    meta = {}
    for i, (role, ch, x, y, px, tilt, font, rgb, rim) in enumerate(params.items, start=1):
        img = draw.rotated(_glyphs.glyph(ch, _glyphs.fonts(params.mode)[font], px, rgb, rim), tilt)
        shadow = np.zeros_like(img)
        shadow[..., 3] = draw.gaussian_blur(img[..., 3], 1.2)
        canvas.paste(shadow, x + off, y + off, 0, opacity=0.55, hides=False)
        canvas.paste(img, x, y, i)
        meta[i] = {"role": role, "label": ch, "kind": params.mode}
    canvas.full_area.pop(0, None)
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


# ---------------------------------------------------------------- verification

def glyph_contrast(puzzle: Puzzle, i: int, box: list[float], px: int) -> float:
    """RGB distance between a glyph's strokes and the rim round them (what sets the strokes apart, whatever
    the photo behind): the mean colour deeper inside the mask than the rim is wide against the mean colour of
    the mask's outer band."""
    x0, y0, x1, y1 = (int(v) for v in box)
    mask = (puzzle.instances[y0:y1, x0:x1] == i).view(np.uint8)
    dist = cv2.distanceTransform(cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0),
                                 cv2.DIST_L2, 3)[1:-1, 1:-1]
    rim = _glyphs.rim_width(px)
    band = (dist > 0) & (dist <= rim)
    fill = _photo.core(mask.view(bool), rim + 1)
    if np.count_nonzero(band) < 5:
        return 0.0
    crop = puzzle.rgb[y0:y1, x0:x1]
    a, b = (np.float32(cv2.mean(crop, m.view(np.uint8))[:3]) for m in (fill, band))
    return float(np.linalg.norm(a - b))


def solve(params: Params, puzzle: Puzzle) -> Task:
    side = min(params.size)
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    objects = []
    for i, m in puzzle.meta.items():
        if i not in boxes or areas[i] < 0.999 * puzzle.full_area[i]:
            raise Reject(f"{NAME}.not_fully_visible")
        if areas[i] < MIN_PIXELS * (side / 320) ** 2:
            raise Reject(f"{NAME}.too_small")
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        mask = np.zeros(puzzle.instances.shape, bool)
        mask[y0:y1, x0:x1] = puzzle.instances[y0:y1, x0:x1] == i
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(float(areas[i]) / puzzle.full_area[i], 4), "_mask": mask})
    closest = np.inf
    for a in range(len(objects)):
        for b in range(a + 1, len(objects)):
            p, q = objects[a]["bbox"], objects[b]["bbox"]
            gap = max(q[0] - p[2], p[0] - q[2], q[1] - p[3], p[1] - q[3])
            if gap < 0:
                raise Reject(f"{NAME}.overlap")
            closest = min(closest, gap)
    if closest < GAP * side / 320:
        raise Reject(f"{NAME}.too_close")
    contrast = min(glyph_contrast(puzzle, o["id"], o["bbox"], params.items[o["id"] - 1][4]) for o in objects)
    if contrast < MIN_CONTRAST:
        raise Reject(f"{NAME}.low_contrast")
    targets = [o for o in objects if o["role"] == "target"]
    word = "".join(o["label"] for o in targets)
    if word != params.target:
        raise Reject(f"{NAME}.sequence_mismatch")
    decoys = [o["label"] for o in objects if o["role"] != "target"]
    if not decoys_allowed(params.mode, word, decoys):
        raise Reject(f"{NAME}.ambiguous_decoys")
    if alternatives(params.mode, word, [o["label"] for o in objects]):
        raise Reject(f"{NAME}.second_word")
    checks = {"closest_gap_px": float(closest), "min_contrast": round(contrast, 2), "glyphs": float(len(objects))}
    return Task(rule="click_order", answer={"count": len(targets), "sequence": list(word)}, objects=objects,
                target_ids=[o["id"] for o in targets], target_boxes=[o["bbox"] for o in targets],
                points=[draw.inner_point(o["_mask"]) for o in targets], order_matters=True,
                partial_credit=False, checks=checks)


def instruction(params: Params, lang: str) -> str:
    n = len(params.target)
    zh = lang == "zh"
    if params.mode == "latin":
        cat = en_entries()[params.target][0]
        hint_en, hint_zh = _words.CATEGORIES[cat]
        if zh:
            hint = f"（提示：{hint_zh}）" if params.hint else ""
            return f"请依次点击{ZH_NUMBERS[n]}个字母，拼出一个英文单词{hint}"
        hint = f" (hint: {hint_en})." if params.hint else "."
        return f"Click the {EN_NUMBERS[n]} letters in the order that spells a word{hint}"
    hint_en, hint_zh = zh_entries()[params.target]
    if n == 4 and params.target not in _zh_plain_words():
        if zh:
            return "请按语序依次点击文字，组成一个四字成语" + (f"（释义：{hint_zh}）" if params.hint else "")
        return ("Click the characters in order to form a four-character Chinese idiom"
                + (f" meaning \"{hint_en}\"." if params.hint else "."))
    if zh:
        return f"请按语序依次点击{ZH_NUMBERS[n]}个汉字，组成一个词语" + (f"（提示：{hint_zh}）" if params.hint else "")
    return (f"Click the {EN_NUMBERS[n]} Chinese characters in the order that forms a word"
            + (f" (hint: {hint_en})." if params.hint else "."))


@lru_cache(maxsize=1)
def _zh_plain_words() -> frozenset[str]:
    return frozenset(w for words in _words.ZH_WORDS.values() for w in words.split())
