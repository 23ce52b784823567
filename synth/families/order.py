"""Click in order: icons or characters scattered over a background; click the listed ones in the listed order."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, glyphs, grammar, placement
from synth.families.kit.kinds import emoji_kinds, kind_by_key

NAME = "order"
DESCRIPTION = "click the listed icons or characters in the listed order, among unlisted distractors"
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
COVERS = ("VenusBench-CAPTCHA:text_click", "VenusBench-CAPTCHA:icon_click", "OpenCaptchaWorld:Click_Order",
          "GeeTest:icon_click", "NetEase-Yidun:word_click")
STAT, STAT_DIRECTION = "object size (share of the puzzle side)", -1
GAP = 4                 # px at 320: smallest gap allowed between the boxes of two objects
MIN_CONTRAST = 45.0     # smallest RGB distance between a character and the ground around it
MIN_PIXELS = 60         # px at 320: smallest object mask

LATIN = "AEFHJKPRTXY347"          # no 0/O/Q/D, 1/I/L, 5/S, 2/Z, 8/B, 6/9/G, C, M/W, N, U/V
HANZI = "木火水山月田口心手马鸟鱼雨风云花草门车书米羊牛耳目竹虫石龙刀"

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of objects to click, in order",
    "distractors_range": "number of unlisted objects shown as well",
    "size_range": "object size as a share of the puzzle's shorter side",
    "tilt_range": "largest tilt of an object, degrees",
    "similar_range": "probability that an unlisted icon comes from the same category as a listed one",
    "lines_range": "number of interference curves drawn over the picture",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"count_range": (3, 3), "distractors_range": (0, 1), "size_range": (0.19, 0.22), "tilt_range": (0, 0),
        "similar_range": (0.0, 0.0), "lines_range": (0, 0), "clutter_range": (0.0, 0.1)},
    2: {"count_range": (3, 4), "distractors_range": (1, 2), "size_range": (0.16, 0.19), "tilt_range": (0, 15),
        "similar_range": (0.2, 0.2), "lines_range": (0, 1), "clutter_range": (0.1, 0.3)},
    3: {"count_range": (4, 4), "distractors_range": (1, 3), "size_range": (0.14, 0.17), "tilt_range": (0, 25),
        "similar_range": (0.4, 0.4), "lines_range": (1, 2), "clutter_range": (0.3, 0.5)},
    4: {"count_range": (4, 5), "distractors_range": (2, 3), "size_range": (0.125, 0.15), "tilt_range": (0, 35),
        "similar_range": (0.6, 0.6), "lines_range": (2, 3), "clutter_range": (0.5, 0.7)},
    5: {"count_range": (5, 5), "distractors_range": (3, 4), "size_range": (0.11, 0.13), "tilt_range": (0, 45),
        "similar_range": (0.8, 0.8), "lines_range": (3, 5), "clutter_range": (0.7, 0.9)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    mode: str                   # "icon" | "latin" | "hanzi"
    target: str                 # the listed names joined by ",", e.g. "cat,car,tree" or "K,7,R"
    # (role, name, x, y, size, tilt, font, rgb) in z-order; role "target" items come first, in click order.
    # name: emoji kind key ("emoji:cat") or a character; x, y: top-left of the tilted square; font: index
    # into the script's font list; rgb: character colour (unused for icons)
    items: tuple[tuple[str, str, int, int, int, float, int, tuple], ...]
    lines: tuple[tuple[tuple[int, int], ...], ...]         # interference curves: control points ...
    line_rgb: tuple[tuple[int, int, int], ...]              # ... and their colours
    clutter: float
    bg_seed: int
    knobs: dict


def glyph_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    """A saturated, not too light colour for a character."""
    hsv = np.uint8([[[int(rng.integers(0, 180)), int(rng.integers(170, 256)), int(rng.integers(120, 210))]]])
    return tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0])


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False,
                  mode: str | None = None) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    knobs = {
        "count": draw_knob(rng, row["count_range"], integer=True),
        "distractors": draw_knob(rng, row["distractors_range"], integer=True),
        "similar": draw_knob(rng, row["similar_range"]),
        "lines": draw_knob(rng, row["lines_range"], integer=True),
        "clutter": draw_knob(rng, row["clutter_range"]),
    }
    mode = mode or ("icon", "icon", "latin", "hanzi")[int(rng.integers(4))]
    n, m = knobs["count"], knobs["distractors"]
    if mode == "icon":
        pool = list(emoji_kinds())
        picked = [pool[i] for i in rng.choice(len(pool), n, replace=False)]
        names = [k.key for k in picked]
        cats = {k.category for k in picked}
        for _ in range(m):
            rest = [k for k in pool if k.key not in names]
            alike = [k for k in rest if k.category in cats]
            src = alike if (alike and rng.random() < knobs["similar"]) else rest
            names.append(src[int(rng.integers(len(src)))].key)
    else:
        chars = LATIN if mode == "latin" else HANZI
        names = []
        for _ in range(n + m):
            ok = [c for c in chars if not any(glyphs.confusable(c, d) for d in names)]
            names.append(ok[int(rng.integers(len(ok)))])
    tilt = row["tilt_range"][1]
    sizes = [max(18, round(side * draw_knob(rng, row["size_range"]))) for _ in names]
    tilts = [float(rng.uniform(-tilt, tilt)) if tilt else 0.0 for _ in names]
    fonts = len(glyphs.LATIN if mode == "latin" else glyphs.HANZI)   # icon puzzles: 2, as before
    font = int(rng.integers(fonts))            # one typeface per puzzle, as real ones do
    for attempt in range(4):        # no room: shrink everything a little and try again
        boxes = [draw.rotated_side(box_side(mode, s), t) for s, t in zip(sizes, tilts)]
        try:
            spots = placement.free_spots(rng, w, h, boxes, round(GAP * side / 320) + 2, f"{NAME}.no_room")
            break
        except Reject:
            if attempt == 3:
                raise
            sizes = [max(18, round(s * 0.9)) for s in sizes]
    bg_seed = int(rng.integers(2**31))
    bg = draw.background(np.random.default_rng(bg_seed), w, h, knobs["clutter"]) if mode != "icon" else None
    items = []
    for i, (name, (x, y), s, t) in enumerate(zip(names, spots, sizes, tilts)):
        rgb = (0, 0, 0)
        if mode != "icon":       # a colour that stands out from the ground under the character
            b = draw.rotated_side(box_side(mode, s), t)
            under = np.float32(cv2.mean(bg[y:y + b, x:x + b])[:3])
            for _ in range(30):
                rgb = glyph_colour(rng)
                if np.linalg.norm(np.array(rgb, np.float32) - under) >= 1.6 * MIN_CONTRAST:
                    break
        items.append(("target" if i < n else "distractor", name, x, y, s, t, font, rgb))
    lines, line_rgb = [], []
    for _ in range(knobs["lines"]):
        pts = [(int(rng.integers(-w // 8, w + w // 8)), int(rng.integers(0, h))) for _ in range(4)]
        pts[0], pts[-1] = ((int(rng.integers(-10, w // 4)), pts[0][1]),
                           (int(rng.integers(3 * w // 4, w + 10)), pts[-1][1]))
        lines.append(tuple(pts))
        line_rgb.append(glyph_colour(rng))
    knobs["size_mean"] = float(np.mean(sizes)) / side
    return Params(size=size, mode=mode, target=",".join(label(mode, nm) for nm in names[:n]),
                  items=tuple(items), lines=tuple(lines), line_rgb=tuple(line_rgb), clutter=knobs["clutter"],
                  bg_seed=bg_seed, knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: mean object size as a share of the puzzle's shorter side."""
    return params.knobs["size_mean"]


def box_side(mode: str, s: int) -> int:
    """Side of the square image an object of size `s` is drawn in."""
    return s if mode == "icon" else round(s * 1.3)


def label(mode: str, name: str) -> str:
    return kind_by_key(name).en if mode == "icon" else name


@lru_cache(maxsize=2)   # a CJK face holds ~0.6 MB; sizes vary by character, so more faces rarely hit again
def _font(path: str, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, px, index=glyphs.HANZI_INDEX if path.endswith(".ttc") else 0)


@lru_cache(maxsize=64)     # 2 x 91 x 91 bytes an entry at most at the 320 px puzzle size
def _coverage(ch: str, mode: str, font: int, px: int) -> tuple[np.ndarray, np.ndarray]:
    """Two (n, n) uint8 planes of one centred character drawn in black with a white outline: 255 - red
    (the body's coverage where the outline is, else 255) and alpha. Any ink colour follows from it."""
    path = (glyphs.LATIN if mode == "latin" else glyphs.HANZI)[font]
    n = box_side(mode, px)
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((n / 2, n / 2), ch, font=_font(path, px), fill=(0, 0, 0, 255), anchor="mm",
                             stroke_width=max(1, round(px / 18)), stroke_fill=(255, 255, 255, 255))
    rgba = np.asarray(img)
    return cv2.bitwise_not(cv2.extractChannel(rgba, 0)), cv2.extractChannel(rgba, 3)


def _ink_table() -> np.ndarray:
    """(256, 256) uint8: ink c drawn with coverage b over white, rounded as Pillow's DIV255 does."""
    x = 255 * (255 - np.arange(256)) + np.arange(256)[:, None] * np.arange(256) + 128
    return (((x >> 8) + x) >> 8).astype(np.uint8)


INK = _ink_table()


def glyph(ch: str, mode: str, font: int, px: int, rgb: tuple) -> np.ndarray:
    """RGBA image of one character of font size `px`, centred, with a white outline: the bytes
    ImageDraw.text draws on a transparent image, coloured from the cached black drawing (Pillow gives
    a pixel the outline left transparent the ink outright, which INK[c][255] = c matches)."""
    cover, alpha = _coverage(ch, mode, font, px)
    drawn = cv2.threshold(alpha, 0, 255, cv2.THRESH_BINARY)[1]     # transparent pixels stay black
    return cv2.merge([cv2.min(cv2.LUT(cover, INK[c]), drawn) for c in rgb] + [alpha])


def bezier(pts, n: int = 40) -> np.ndarray:
    """Points of the cubic Bezier curve with control points `pts`, (n, 2) float."""
    p = np.asarray(pts, np.float64)
    t = np.linspace(0, 1, n)[:, None]
    return ((1 - t) ** 3 * p[0] + 3 * (1 - t) ** 2 * t * p[1] + 3 * (1 - t) * t ** 2 * p[2] + t ** 3 * p[3])


def render(params: Params) -> Puzzle:
    w, h = params.size
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    meta = {}
    for i, (role, name, x, y, s, tilt, font, rgb) in enumerate(params.items, start=1):
        img = draw.sprite(name, s) if params.mode == "icon" else glyph(name, params.mode, font, s, rgb)
        canvas.paste(draw.rotated(img, tilt), x, y, i)
        meta[i] = {"role": role, "label": label(params.mode, name), "kind": name}
    thick = max(1, round(min(w, h) / 200))
    for pts, rgb in zip(params.lines, params.line_rgb):   # over everything, but hiding nothing
        curve = np.round(bezier(pts) * 4).astype(np.int32)
        cv2.polylines(canvas.rgb, [curve], False, rgb, thick, cv2.LINE_AA, shift=2)
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


def solve(params: Params, puzzle: Puzzle) -> Task:
    side = min(params.size)
    gap = GAP * side / 320
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    objects = []
    for i, m in puzzle.meta.items():
        if i not in boxes:
            raise Reject(f"{NAME}.not_fully_visible")
        vis = float(areas[i]) / max(1, puzzle.full_area[i])
        if vis < 0.999:
            raise Reject(f"{NAME}.not_fully_visible")
        if areas[i] < MIN_PIXELS * (side / 320) ** 2:
            raise Reject(f"{NAME}.too_small")
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        mask = np.zeros(puzzle.instances.shape, bool)
        mask[y0:y1, x0:x1] = puzzle.instances[y0:y1, x0:x1] == i
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(vis, 4), "_mask": mask, "_kind": m["kind"]})
    # no two boxes touch or come closer than the gap
    closest = np.inf
    for a in range(len(objects)):
        for b in range(a + 1, len(objects)):
            p, q = objects[a]["bbox"], objects[b]["bbox"]
            dx = max(q[0] - p[2], p[0] - q[2])
            dy = max(q[1] - p[3], p[1] - q[3])
            if dx < 0 and dy < 0:
                raise Reject(f"{NAME}.overlap")
            closest = min(closest, max(dx, dy))
    if closest < gap:
        raise Reject(f"{NAME}.too_close")
    targets = [o for o in objects if o["role"] == "target"]
    kinds = [o["_kind"] for o in objects]
    if len(set(kinds)) != len(kinds):
        raise Reject(f"{NAME}.duplicate_kind")
    if params.mode != "icon":
        if any(glyphs.confusable(a, b) for i, a in enumerate(kinds) for b in kinds[i + 1:]):
            raise Reject(f"{NAME}.confusable_glyphs")
    contrast = np.inf
    if params.mode != "icon":          # a character must stand out from the ground around it
        kernel = np.ones((5, 5), np.uint8)
        for o in objects:
            x0, y0, x1, y1 = (int(v) for v in o["bbox"])
            X0, Y0, X1, Y1 = max(0, x0 - 4), max(0, y0 - 4), x1 + 4, y1 + 4
            mk = o["_mask"][Y0:Y1, X0:X1].view(np.uint8)
            ring = (cv2.dilate(mk, kernel, iterations=1) > 0) & (mk == 0) & (puzzle.instances[Y0:Y1, X0:X1] == 0)
            if not ring.any():
                continue
            # the fill, not the white outline: pixels deeper inside the mask than the outline is wide
            dist = cv2.distanceTransform(mk, cv2.DIST_L2, 3)
            sw = max(1, round(params.items[o["id"] - 1][4] / 18))
            core = dist > sw + 1
            if np.count_nonzero(core) < 5:
                core = dist >= 0.7 * dist.max()
            crop = puzzle.rgb[Y0:Y1, X0:X1]
            fill, ground = (np.array(cv2.mean(crop, m.view(np.uint8))[:3]) for m in (core, ring))
            c = float(np.linalg.norm(fill - ground))
            contrast = min(contrast, c)
        if contrast < MIN_CONTRAST:
            raise Reject(f"{NAME}.low_contrast")
    seq = [o["label"] for o in targets]
    if seq != params.target.split(","):
        raise Reject(f"{NAME}.sequence_mismatch")
    for o in objects:
        del o["_kind"]
    checks = {"closest_gap_px": float(closest), "min_visible": min(o["visible_fraction"] for o in objects),
              "objects": float(len(objects))}
    if np.isfinite(contrast):
        checks["min_contrast"] = round(contrast, 2)
    return Task(rule="click_order", answer={"count": len(targets), "sequence": seq}, objects=objects,
                target_ids=[o["id"] for o in targets], target_boxes=[o["bbox"] for o in targets],
                points=[draw.inner_point(o["_mask"]) for o in targets], order_matters=True,
                partial_credit=False, checks=checks)


def instruction(params: Params, lang: str) -> str:
    names = params.target.split(",")
    if params.mode == "icon":
        kinds = [next(k for k in emoji_kinds() if k.en == n) for n in names]
        if lang == "zh":
            return "请依次点击：" + "、".join(k.zh for k in kinds)
        return "Click in this order: " + ", ".join(grammar.singular(k.en) for k in kinds)
    if lang == "zh":
        return "请按顺序点击：" + " ".join(names)
    return "Click in order: " + (" ".join(names) if params.mode == "hanzi" else ", ".join(names))
