"""Icon click (图标点选): light silhouettes of 4-7 objects, turned and scaled, lie on a photograph; a strip
inside the picture shows 2-4 of them as small dark icons, in order; click those icons in that order.

Verification reads the silhouettes back from the instance map, scaled to equal area about their centroid and
compared under every turn: each prompt icon must match its own silhouette clearly better than any other,
no two silhouettes may match each other, and each must stand out from the photo round it."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, glyphs
from synth.families.kit import photo as _photo
from synth.families.kit.kinds import emoji_kinds, kind_by_key

NAME = "icon_click"
DESCRIPTION = "click the icons on the photo in the order the prompt strip shows them (silhouettes, turned and scaled)"
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "number of icons on the photo", +1
COVERS = ("VenusBench-CAPTCHA:icon_click", "GeeTest:icon_click", "NetEase-Yidun:icon_click", "Dingxiang:icon_click")
NORM = 40                  # side of the square silhouettes are compared in ...
AREA_SHARE = 0.22          # ... scaled so that they cover this share of it
TURNS = 36                 # turns compared (every 10 degrees)
# compact shapes overlap a lot once scaled to equal area (a heart and a pear: 0.83), so the limits are high
SAME_MAX = 0.82            # two silhouettes on the photo may match at most this well (IoU, best turn)
PICK_MAX = 0.78            # ... and, on their clean sprites, at most this well to be drawn together
MATCH_MIN = 0.50           # a prompt icon matches its silhouette at least this well (thin shapes such as a
                           # bicycle overlap little once resampled) ...
MATCH_LEAD = 0.08          # ... and this much better than any other silhouette
# emoji whose silhouette is a plain blob (a ball, a face, a lemon): no shape to recognise
BLOBS = {"ball", "dog", "frog", "lemon", "strawberry", "turtle", "snail", "bus"}
MIN_CONTRAST = 48.0        # luma difference between a silhouette and the photo just round it
GAP = 6                    # px at 320 between icon boxes
PROMPT, STRIP = 100, 99    # first prompt icon id; the strip's id
FILLS = ((255, 255, 255), (255, 246, 214), (222, 238, 255), (232, 255, 232))
PROMPT_INK = (58, 60, 66)

TABLE = LevelTable(NAME, knobs={
    "targets_range": "icons to click (shown in the prompt strip)",
    "distractors_range": "other icons on the photo",
    "size_range": "icon size as a share of the puzzle's shorter side",
    "tilt_range": "largest turn of an icon, degrees",
    "similar_range": "probability that a distractor comes from the category of a target",
    "dim_range": "how much the photo is darkened under the icons (0 = not at all)",
}, levels={
    1: {"targets_range": (2, 2), "distractors_range": (2, 2), "size_range": (0.17, 0.19), "tilt_range": (0, 15),
        "similar_range": (0.0, 0.0), "dim_range": (0.3, 0.35)},
    2: {"targets_range": (2, 3), "distractors_range": (2, 2), "size_range": (0.16, 0.18), "tilt_range": (0, 25),
        "similar_range": (0.2, 0.2), "dim_range": (0.26, 0.3)},
    3: {"targets_range": (3, 3), "distractors_range": (2, 3), "size_range": (0.15, 0.17), "tilt_range": (0, 35),
        "similar_range": (0.4, 0.4), "dim_range": (0.22, 0.26)},
    4: {"targets_range": (3, 4), "distractors_range": (3, 3), "size_range": (0.14, 0.16), "tilt_range": (0, 45),
        "similar_range": (0.6, 0.6), "dim_range": (0.18, 0.22)},
    5: {"targets_range": (4, 4), "distractors_range": (3, 3), "size_range": (0.13, 0.15), "tilt_range": (0, 60),
        "similar_range": (0.8, 0.8), "dim_range": (0.15, 0.18)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # the icons to click, kind names joined by ","
    strip: str                  # "top" | "bottom": where the prompt strip is
    # (role, kind key, x, y, side px, tilt, fill rgb) in z-order; targets first, in click order
    icons: tuple[tuple[str, str, int, int, int, float, tuple], ...]
    photo: tuple
    dim: float
    knobs: dict


# ---------------------------------------------------------------- silhouettes

def upright(mask: np.ndarray) -> np.ndarray:
    """A mask (boolean, or an alpha channel) scaled about its centroid to cover AREA_SHARE of a NORM x NORM
    square: uint8 coverage 0..255."""
    m = mask.view(np.uint8) if mask.dtype == bool else (mask >= draw.ALPHA_ON).view(np.uint8)
    mom = cv2.moments(m, binaryImage=True)
    if mom["m00"] == 0:
        return np.zeros((NORM, NORM), np.uint8)
    cx, cy = mom["m10"] / mom["m00"], mom["m01"] / mom["m00"]
    s = np.sqrt(AREA_SHARE * NORM * NORM / mom["m00"])
    fit = np.float64([[s, 0, NORM / 2 - s * cx], [0, s, NORM / 2 - s * cy]])
    return cv2.warpAffine(m * 255, fit, (NORM, NORM), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)


def normalised(mask: np.ndarray) -> np.ndarray:
    """The upright normalised mask as packed bits."""
    return np.packbits((upright(mask) >= 128).ravel())


@lru_cache(maxsize=1)
def _turn_maps() -> tuple[np.ndarray, np.ndarray]:
    """Where each pixel of every turn (rows k * NORM ...) samples the upright square: one remap turns it TURNS
    times (36 warpAffine calls cost far more on small images)."""
    ys, xs = np.mgrid[0:NORM, 0:NORM].astype(np.float64)
    c = (NORM - 1) / 2
    mx, my = [], []
    for k in range(TURNS):
        t = np.deg2rad(360 * k / TURNS)        # clockwise turn in image axes: sample the point turned back
        mx.append(c + (xs - c) * np.cos(t) + (ys - c) * np.sin(t))
        my.append(c - (xs - c) * np.sin(t) + (ys - c) * np.cos(t))
    return np.vstack(mx).astype(np.float32), np.vstack(my).astype(np.float32)


def turned_bank(mask: np.ndarray) -> np.ndarray:
    """(TURNS, NORM * NORM / 8): the normalised mask at every turn, as packed bits."""
    mx, my = _turn_maps()
    turned = cv2.remap(upright(mask), mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return np.packbits((turned >= 128).reshape(TURNS, NORM * NORM), axis=1)


def best_iou(shape: np.ndarray, bank: np.ndarray) -> float:
    """Best IoU of one packed mask against a bank of packed masks (the turns of another silhouette)."""
    inter = np.bitwise_count(bank & shape).sum(1, dtype=np.int32)
    union = np.bitwise_count(bank).sum(1, dtype=np.int32) + int(np.bitwise_count(shape).sum()) - inter
    return float((inter / np.maximum(union, 1)).max())


@lru_cache(maxsize=1)
def similarity() -> tuple[tuple[str, ...], np.ndarray]:
    """(emoji kind keys but the blobs, matrix of best IoU over turns between their clean silhouettes)."""
    keys = tuple(k.key for k in emoji_kinds() if k.en not in BLOBS)
    alpha = {k: draw.sprite(k, 64)[..., 3] for k in keys}
    upright = {k: normalised(a) for k, a in alpha.items()}
    banks = {k: turned_bank(a) for k, a in alpha.items()}
    n = len(keys)
    sim = np.eye(n)
    for i in range(n):
        for j in range(i + 1, n):
            sim[i, j] = sim[j, i] = max(best_iou(upright[keys[i]], banks[keys[j]]),
                                        best_iou(upright[keys[j]], banks[keys[i]]))
    return keys, sim


# ---------------------------------------------------------------- sampling

def layout(size: tuple[int, int], strip: str) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """(scene area, prompt strip) as (x0, y0, x1, y1)."""
    w, h = size
    hb = round(h * 0.16)
    if strip == "top":
        return (0, hb, w, h), (0, 0, w, hb)
    return (0, 0, w, h - hb), (0, h - hb, w, h)


def pick_kinds(rng: np.random.Generator, k: int, m: int, similar: float) -> list[str]:
    keys, sim = similarity()
    kinds = emoji_kinds()
    cat = {kd.key: kd.category for kd in kinds}
    chosen: list[int] = []
    for slot in range(k + m):
        ok = [i for i in range(len(keys)) if i not in chosen and all(sim[i, j] <= PICK_MAX for j in chosen)]
        if slot >= k and rng.random() < similar:
            cats = {cat[keys[j]] for j in chosen[:k]}
            ok = [i for i in ok if cat[keys[i]] in cats] or ok
        if not ok:
            raise Reject(f"{NAME}.no_distinct_icons")
        chosen.append(ok[int(rng.integers(len(ok)))])
    return [keys[i] for i in chosen]


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, row[k], integer=k in ("targets_range", "distractors_range")) for k in row}
    k, m = knobs["targets"], knobs["distractors"]
    strip = "top" if rng.random() < 0.5 else "bottom"
    (sx0, sy0, sx1, sy1), _ = layout(size, strip)
    side = min(size)
    keys = pick_kinds(rng, k, m, knobs["similar"])
    tilt = row["tilt_range"][1]
    sides = [max(20, round(side * draw_knob(rng, row["size_range"]))) for _ in keys]
    tilts = [round(float(rng.uniform(-tilt, tilt)), 2) for _ in keys]
    for _ in range(6):
        boxes = [draw.rotated_side(s, t) for s, t in zip(sides, tilts)]
        spots = glyphs.scatter(rng, sx1 - sx0, sy1 - sy0, boxes, round(GAP * side / 320))
        if spots:
            break
        sides = [max(20, round(s * 0.92)) for s in sides]
    else:
        raise Reject(f"{NAME}.no_room")
    icons = []
    for i, (key, (x, y), s, t) in enumerate(zip(keys, spots, sides, tilts)):
        fill = FILLS[int(rng.integers(len(FILLS)))] if level >= 3 else FILLS[0]
        icons.append(("target" if i < k else "distractor", key, sx0 + x, sy0 + y, s, t, fill))
    return Params(size=size, target=",".join(kind_by_key(key).en for key in keys[:k]), strip=strip,
                  icons=tuple(icons), photo=_photo.sample_window(rng), dim=knobs["dim"], knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of icons on the photo."""
    return float(len(params.icons))


# ---------------------------------------------------------------- drawing

def silhouette(key: str, side: int, tilt: float, rgb: tuple) -> np.ndarray:
    """RGBA: the sprite's shape (alpha) filled with one colour, turned clockwise."""
    alpha = draw.sprite(key, side)[..., 3]
    rgba = np.dstack([np.full((side, side, 3), rgb, np.uint8), alpha])
    return draw.rotated(rgba, tilt)


def prompt_spots(size: tuple[int, int], strip: str, n: int) -> tuple[int, list[int], int]:
    """(icon side, left edges, top edge) of the prompt icons in the strip."""
    _, (x0, y0, x1, y1) = layout(size, strip)
    s = round((y1 - y0) * 0.72)
    step = s + round(s * 0.45)
    left = x0 + round((y1 - y0) * 0.3)
    return s, [left + i * step for i in range(n)], y0 + (y1 - y0 - s) // 2


def render(params: Params) -> Puzzle:
    w, h = params.size
    photo = _photo.backdrop(params.photo, w, h)
    if params.dim:
        photo = cv2.convertScaleAbs(photo, alpha=1 - params.dim)
    canvas = draw.Canvas(photo)
    off = max(1, round(min(w, h) / 160))
    meta = {}
    for i, (role, key, x, y, s, tilt, fill) in enumerate(params.icons, start=1):
        img = silhouette(key, s, tilt, fill)
        shadow = np.zeros_like(img)
        shadow[..., 3] = draw.gaussian_blur(img[..., 3], 1.5)
        canvas.paste(shadow, x + off, y + off, 0, opacity=0.75, hides=False)
        canvas.paste(img, x, y, i, opacity=0.95)
        meta[i] = {"role": role, "label": kind_by_key(key).en, "kind": key}
    # the prompt strip: a light band with the icons to click, small, dark and upright, in order
    _, (x0, y0, x1, y1) = layout(params.size, params.strip)
    band = np.dstack([np.full((y1 - y0, x1 - x0, 3), 246, np.uint8), np.full((y1 - y0, x1 - x0), 255, np.uint8)])
    canvas.paste(band, x0, y0, STRIP)
    edge = y1 - 1 if params.strip == "top" else y0
    canvas.rgb[edge] = (205, 208, 214)
    meta[STRIP] = {"role": "prompt_strip", "label": "prompt strip", "kind": ""}
    targets = [ic for ic in params.icons if ic[0] == "target"]
    s, lefts, top = prompt_spots(params.size, params.strip, len(targets))
    for j, (ic, left) in enumerate(zip(targets, lefts)):
        canvas.paste(silhouette(ic[1], s, 0.0, PROMPT_INK), left, top, PROMPT + j)
        meta[PROMPT + j] = {"role": "prompt", "label": kind_by_key(ic[1]).en, "kind": ic[1]}
    canvas.full_area.pop(0, None)
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


# ---------------------------------------------------------------- verification

def solve(params: Params, puzzle: Puzzle) -> Task:
    side = min(params.size)
    inst = puzzle.instances
    h, w = inst.shape
    boxes = draw.instance_boxes(inst)
    areas = draw.instance_areas(inst)
    scene = [i for i in puzzle.meta if i < STRIP]
    prompts = sorted(i for i in puzzle.meta if i >= PROMPT)
    masks, objects = {}, []
    lum = _photo.luminance(puzzle.rgb)
    contrast = np.inf
    for i in scene + prompts:
        if i not in boxes or areas[i] < 0.999 * puzzle.full_area[i]:
            raise Reject(f"{NAME}.not_fully_visible")
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        masks[i] = inst[y0:y1, x0:x1] == i
        if i in scene:      # light on the photo: the silhouette against the ring of pixels round it
            X0, Y0, X1, Y1 = _photo.crop_box(boxes[i], 5, w, h)
            mk = inst[Y0:Y1, X0:X1] == i
            ring = _photo.ring(mk, 3) & (inst[Y0:Y1, X0:X1] == 0)
            core = cv2.erode(mk.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool)
            if ring.any() and core.any():
                sub = lum[Y0:Y1, X0:X1]
                contrast = min(contrast, float(sub[core].mean() - sub[ring].mean()))
        full = np.zeros(inst.shape, bool)
        full[y0:y1, x0:x1] = masks[i]
        m = puzzle.meta[i]
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(float(areas[i]) / puzzle.full_area[i], 4), "_mask": full})
    if STRIP in boxes:
        objects.append({"id": STRIP, "role": "prompt_strip", "label": "prompt strip", "bbox": boxes[STRIP],
                        "visible_fraction": round(min(1.0, float(areas[STRIP]) / puzzle.full_area[STRIP]), 4),
                        "_mask": inst == STRIP})
    if contrast < MIN_CONTRAST:
        raise Reject(f"{NAME}.low_contrast")
    closest = min((max(boxes[b][0] - boxes[a][2], boxes[a][0] - boxes[b][2], boxes[b][1] - boxes[a][3],
                       boxes[a][1] - boxes[b][3]) for n, a in enumerate(scene) for b in scene[n + 1:]), default=np.inf)
    if closest < GAP * side / 320 - 1:
        raise Reject(f"{NAME}.too_close")
    # silhouettes as drawn: every turn of each scene icon, each prompt icon upright
    banks = {i: turned_bank(masks[i]) for i in scene}
    uprights = {i: normalised(masks[i]) for i in scene + prompts}
    worst_pair = max((max(best_iou(uprights[a], banks[b]), best_iou(uprights[b], banks[a]))
                      for n, a in enumerate(scene) for b in scene[n + 1:]), default=0.0)
    if worst_pair > SAME_MAX:
        raise Reject(f"{NAME}.look_alike_icons")
    targets = [i for i in scene if puzzle.meta[i]["role"] == "target"]
    if len(targets) != len(prompts):
        raise Reject(f"{NAME}.prompt_mismatch")
    lead = np.inf
    weakest = 1.0
    for p, t in zip(prompts, targets):
        scores = {i: best_iou(uprights[p], banks[i]) for i in scene}
        best = max(scores, key=scores.get)
        second = max((v for i, v in scores.items() if i != best), default=0.0)
        if best != t or scores[t] < MATCH_MIN:
            raise Reject(f"{NAME}.prompt_not_matched")
        lead, weakest = min(lead, scores[t] - second), min(weakest, scores[t])
    if lead < MATCH_LEAD:
        raise Reject(f"{NAME}.prompt_ambiguous")
    sequence = [puzzle.meta[t]["label"] for t in targets]
    if sequence != params.target.split(","):
        raise Reject(f"{NAME}.sequence_mismatch")
    by_id = {o["id"]: o for o in objects}
    checks = {"min_contrast": contrast, "max_pair_iou": worst_pair, "min_match_iou": weakest,
              "min_match_lead": lead, "closest_gap_px": float(closest), "icons": float(len(scene))}
    return Task(rule="click_order", answer={"count": len(targets), "sequence": sequence}, objects=objects,
                target_ids=targets, target_boxes=[boxes[t] for t in targets],
                points=[draw.inner_point(by_id[t]["_mask"]) for t in targets], order_matters=True,
                partial_credit=False, checks={k: round(float(v), 4) for k, v in checks.items()})


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return f"请按{'顶部' if params.strip == 'top' else '底部'}提示的顺序，依次点击图中的图标"
    return f"Click the icons in the order shown in the strip at the {params.strip}."
