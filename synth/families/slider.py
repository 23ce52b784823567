"""Slider jigsaw: a picture with a piece-shaped gap; drag the piece (cut from the gap) along its row into the gap.
The picture is a drawn landscape or, for a share of the instances that grows with the level, a photograph."""
import dataclasses
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw
from synth.families.kit import photos as _photos

NAME = "slider"
DESCRIPTION = "drag the jigsaw piece on the left along its row until it fills the piece-shaped gap in the picture"
COVERS = ("VenusBench-CAPTCHA:slider_puzzle", "OpenCaptchaWorld:Slide_Puzzle", "GeeTest:slide", "Tencent:slider",
          "NetEase-Yidun:slider", "Dingxiang:slider")
ANSWERS = ("drag",)             # synth.labels.reward step types of its tasks
GEOMETRIC_AUGMENT = False      # the answer is an exact pixel offset
STAT, STAT_DIRECTION = "accepted drag error (share of the puzzle width)", -1
PIECE, GAP, DECOY = 1, 2, 3     # instance ids
MIN_GAP_SCORE = 0.10            # the gap must darken the picture under the piece mask by at least this much
DECOY_MAX = 0.68                # any other offset must score below this share of the gap's score
MIN_EDGE_RATIO = 1.15           # gap outline edges vs picture edges on the same rows
FLOORS = {"gap": f"on the picture as shown (degraded), the gap is still the best match of the piece's shape "
                 f"(darkening at least {MIN_GAP_SCORE}, any other place below {DECOY_MAX} of it) and its outline's "
                 f"edges at least {MIN_EDGE_RATIO} x the picture's on the same rows"}
PIECE_LEFT = 0.025              # piece's left edge, share of the width
SCENERY = ("emoji:tree", "emoji:house", "emoji:sailboat", "emoji:bird", "emoji:horse", "emoji:bicycle",
           "emoji:car", "emoji:umbrella", "emoji:mushroom", "emoji:rabbit", "emoji:turtle", "emoji:bus")

TABLE = LevelTable(NAME, knobs={
    "piece_range": "side of the piece's square body, share of the puzzle width",
    "tolerance_range": "accepted horizontal drop error, pixels at width 320 (scaled with the width)",
    "contrast_range": "how much the gap darkens the picture (0 = invisible, 1 = black)",
    "outline_range": "opacity of the light outline drawn round the gap",
    "decoy_range": "probability of a second, fainter gap on the same row",
    "decoy_contrast_range": "the decoy's darkening as a share of the real gap's",
    "clutter_range": "picture busyness: texture over the landscape and number of scenery objects, 0 to 1",
    "photo_range": "probability that the picture is a photograph (else a drawn landscape of that busyness)",
}, levels={
    1: {"piece_range": (0.17, 0.19), "tolerance_range": (10, 10), "contrast_range": (0.5, 0.6),
        "outline_range": (0.8, 1.0), "decoy_range": (0.0, 0.0), "decoy_contrast_range": (0.3, 0.3),
        "clutter_range": (0.0, 0.2), "photo_range": (0.3, 0.3)},
    2: {"piece_range": (0.16, 0.18), "tolerance_range": (8, 8), "contrast_range": (0.42, 0.52),
        "outline_range": (0.6, 0.85), "decoy_range": (0.0, 0.0), "decoy_contrast_range": (0.3, 0.3),
        "clutter_range": (0.2, 0.4), "photo_range": (0.4, 0.4)},
    3: {"piece_range": (0.15, 0.17), "tolerance_range": (6, 6), "contrast_range": (0.34, 0.44),
        "outline_range": (0.45, 0.7), "decoy_range": (0.4, 0.4), "decoy_contrast_range": (0.35, 0.45),
        "clutter_range": (0.4, 0.6), "photo_range": (0.5, 0.5)},
    4: {"piece_range": (0.14, 0.16), "tolerance_range": (5, 5), "contrast_range": (0.28, 0.38),
        "outline_range": (0.3, 0.55), "decoy_range": (0.7, 0.7), "decoy_contrast_range": (0.4, 0.52),
        "clutter_range": (0.6, 0.8), "photo_range": (0.6, 0.6)},
    5: {"piece_range": (0.12, 0.14), "tolerance_range": (3.5, 3.5), "contrast_range": (0.22, 0.3),
        "outline_range": (0.15, 0.4), "decoy_range": (1.0, 1.0), "decoy_contrast_range": (0.45, 0.58),
        "clutter_range": (0.8, 1.0), "photo_range": (0.7, 0.7)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # "" (the sought thing is the gap)
    body: int                   # side of the piece's square body, pixels
    tabs: tuple[int, int, int, int]          # top, right, bottom, left: 1 tab out, -1 blank in, 0 flat
    piece_x: int                # left edge of the piece's box
    gap_x: int                  # left edge of the gap's box
    row_y: int                  # top edge of both boxes
    decoy_x: int                # left edge of the decoy gap's box, -1 for none
    decoy_tabs: tuple[int, int, int, int]
    contrast: float
    outline: float
    decoy_contrast: float       # absolute darkening of the decoy
    tolerance: float            # pixels
    clutter: float
    bg_seed: int
    knobs: dict
    view: _photos.View | None = None        # the photograph shown, None for a drawn landscape


# Photos the gap hides in: repeating patterns (a second gap-like spot) and fine textures everywhere (the
# gap's outline drowns in their edges)
PHOTO_DENY = ("grid-d", "grid-l", "licorice-d", "licorice-l", "truchet-d", "truchet-l", "pixels-d", "pixels-l",
              "OneStandsOut", "analogpattern_by_Peter_Nerlich", "GreenMeadow", "Wood")


def tab_radius(body: int) -> float:
    return 0.2 * body


def margin(body: int) -> int:
    """Room on each side of the body for an outward tab."""
    return int(np.ceil(1.6 * tab_radius(body))) + 1


@lru_cache(maxsize=32)
def piece_mask(body: int, tabs: tuple[int, int, int, int]) -> np.ndarray:
    """Anti-aliased jigsaw-piece coverage (float32 0..1) on a square of side body + 2 * margin."""
    q = 4                                     # supersampling
    m = margin(body)
    n = body + 2 * m
    big = np.zeros((n * q, n * q), np.uint8)
    x0, x1 = m * q, (m + body) * q
    cv2.rectangle(big, (x0, x0), (x1 - 1, x1 - 1), 255, -1)
    r = tab_radius(body) * q
    c = (x0 + x1) / 2
    centres = [(c, x0), (x1, c), (c, x1), (x0, c)]         # top, right, bottom, left edge midpoints
    normals = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    for t, (cx, cy), (nx, ny) in zip(tabs, centres, normals):
        if t == 0:
            continue
        px, py = cx + t * nx * 0.55 * r, cy + t * ny * 0.55 * r
        cv2.circle(big, (int(round(px)), int(round(py))), int(round(r)), 255 if t > 0 else 0, -1, cv2.LINE_AA)
    return cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255


def random_tabs(rng: np.random.Generator) -> tuple[int, int, int, int]:
    """A piece outline: at least one outward tab and one blank, so the shape has no mirror ambiguity to speak of."""
    while True:
        tabs = tuple(int(v) for v in rng.choice([-1, 0, 1], 4, p=[0.35, 0.2, 0.45]))
        if 1 in tabs and tabs.count(0) <= 1:
            return tabs


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    knobs = {k[:-6]: draw_knob(rng, row[k]) for k in row if k != "photo_range"}
    body = max(20, round(knobs["piece"] * w))
    n = body + 2 * margin(body)
    tabs = random_tabs(rng)
    piece_x = round(PIECE_LEFT * w)
    lo = piece_x + n + round(0.04 * w)                    # leave a clear strip after the piece
    hi = w - n - round(0.02 * w)
    if hi <= lo:
        raise Reject(f"{NAME}.no_room")
    row_y = int(rng.integers(round(0.04 * h), h - n - round(0.04 * h)))
    decoy = rng.random() < knobs["decoy"]
    gap_x, decoy_x, decoy_tabs = int(rng.integers(lo, hi + 1)), -1, tabs
    if decoy:
        apart = n + 4                                    # the two holes do not touch
        if hi - lo < apart:
            raise Reject(f"{NAME}.no_room")
        a = int(rng.integers(lo, hi - apart + 1))
        b = int(rng.integers(a + apart, hi + 1))
        gap_x, decoy_x = (a, b) if rng.random() < 0.5 else (b, a)
        # a different outline most of the time; at the same outline only the fainter darkening tells them apart
        if rng.random() < 0.7:
            while decoy_tabs == tabs:
                decoy_tabs = random_tabs(rng)
    tol = knobs["tolerance"] * w / 320
    bg_seed = int(rng.integers(2**31))
    # drawn after everything else, so that a landscape instance is the same as before photos came in
    photo = rng.random() < draw_knob(rng, row["photo_range"])
    view = _photos.sample_view(rng, _photos.choices(None, PHOTO_DENY)) if photo else None
    knobs.update(decoy=float(decoy), tolerance_share=tol / w, photo=float(photo))
    return Params(size=size, target="", body=body, tabs=tabs, piece_x=piece_x, gap_x=gap_x, row_y=row_y,
                  decoy_x=decoy_x, decoy_tabs=decoy_tabs, contrast=knobs["contrast"], outline=knobs["outline"],
                  decoy_contrast=knobs["contrast"] * knobs["decoy_contrast"], tolerance=tol,
                  clutter=knobs["clutter"], bg_seed=bg_seed, knobs=knobs, view=view)


def stat(params: Params) -> float:
    """Difficulty statistic: the accepted horizontal drop error as a share of the puzzle width."""
    return params.tolerance / params.size[0]


def _hsv(hh: float, s: float, v: float) -> np.ndarray:
    c = cv2.cvtColor(np.uint8([[[int(hh % 1 * 180), int(s * 255), int(v * 255)]]]), cv2.COLOR_HSV2RGB)[0, 0]
    return c.astype(np.float32)


def landscape(seed: int, w: int, h: int, clutter: float, scenery: bool = True) -> np.ndarray:
    """A photo-like outdoor picture: sky gradient, layered hills, texture and, with `scenery`, a sun and
    scenery objects (without them it can sit behind objects that are to be recognised)."""
    rng = np.random.default_rng(seed)
    full_w, full_h = w, h
    w, h = (w + 1) // 2, (h + 1) // 2          # the soft base picture is drawn at half size, then enlarged
    hue = rng.uniform(0, 1)
    top, bottom = _hsv(0.55 + 0.1 * rng.standard_normal(), 0.55, 0.85), _hsv(hue, 0.25, 0.97)
    t = np.linspace(0, 1, h, dtype=np.float32)[:, None]
    sky = top * (1 - t) + bottom * t                                   # (h, 3)
    turns = np.arange(w, dtype=np.float32) / w * 2 * np.pi            # one full turn across the width
    rows = np.arange(h, dtype=np.float32)[:, None]
    layers = int(rng.integers(2, 4))
    img = np.repeat(sky[:, None, :], w, axis=1)
    land = np.zeros((h, w), np.float32)                                 # hill coverage, 0..1
    for i in range(layers):
        base = h * (0.38 + 0.5 * (i + 1) / (layers + 1))
        y = base + sum(h * rng.uniform(0.02, 0.08) * np.sin(turns * f + rng.uniform(0, 6.3))
                       for f in (rng.uniform(0.5, 1.5), rng.uniform(2, 4)))
        colour = _hsv(rng.uniform(0.2, 0.45) if rng.random() < 0.7 else rng.uniform(0, 1),
                      rng.uniform(0.35, 0.7), 0.75 - 0.15 * i)
        r0 = max(0, int(np.floor(float(y.min()) - 0.5)))             # the rows above the ridge stay sky
        below = rows[r0:] - y[None, :]
        a = np.clip(below + 0.5, 0, 1)[..., None]                      # anti-aliased ridge
        shade = 1 - 0.25 * np.minimum(np.maximum(below, 0) * (1 / (0.3 * h)), 1)
        hill = cv2.merge([shade * c for c in colour])        # colour * shade, one plane at a time (faster)
        part = img[r0:]
        part += (hill - part) * a
        np.maximum(land[r0:], a[..., 0], out=land[r0:])
    sun = (int(rng.integers(w // 5, 4 * w // 5)), int(rng.integers(h // 10, h // 3)))
    radius = int(rng.integers(w // 16, w // 9))
    if scenery:
        sun_layer = np.zeros((h, w), np.uint8)
        cv2.circle(sun_layer, sun, radius, 255, -1, cv2.LINE_AA)
        bx, by, bw, bh = cv2.boundingRect(sun_layer)                   # blended only where the sun is
        box = (slice(by, by + bh), slice(bx, bx + bw))
        sun_a = (sun_layer[box].astype(np.float32) / 255 * (1 - land[box]))[..., None]   # behind the hills
        img[box] = img[box] * (1 - sun_a) + _hsv(0.12, 0.5, 1.0) * sun_a
    tex = draw.background(rng, w, h, 1.0).astype(np.float32)
    k = 0.12 + 0.45 * clutter
    img *= (1 - k) + tex * (k / max(float(tex.mean()), 1.0))
    w, h = full_w, full_h
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)
    for _ in range(int(round(2 + 8 * clutter)) if scenery else 0):
        key = SCENERY[int(rng.integers(len(SCENERY)))]
        s = int(rng.integers(w // 72, w // 32)) * 8       # multiples of 8 px reuse cached sprites
        x, y0 = int(rng.integers(-s // 3, w - 2 * s // 3)), int(rng.integers(h // 3, h - s // 2))
        spr = draw.sprite(key, s)
        x0, y1, x1, y2 = max(x, 0), y0, min(x + s, w), min(y0 + s, h)
        part = spr[y1 - y0:y2 - y0, x0 - x:x1 - x]
        a = part[..., 3].astype(np.float32) / 255
        a = cv2.merge([a, a, a])                    # the alpha per channel: faster than broadcasting it
        img[y1:y2, x0:x1] = img[y1:y2, x0:x1] * (1 - a) + cv2.cvtColor(part, cv2.COLOR_RGBA2RGB).astype(np.float32) * a
    return cv2.convertScaleAbs(img)             # rounds and saturates to uint8


def _ring(mask: np.ndarray, width: int) -> np.ndarray:
    """Pixels just outside a coverage mask (0..1), as 0/1 float."""
    inside = (mask >= 0.5).astype(np.uint8)
    grown = cv2.dilate(inside, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * width + 1, 2 * width + 1)))
    return (grown - inside).astype(np.float32)


def _edge(mask: np.ndarray) -> np.ndarray:
    """A soft band about 1.5 px wide along the mask's outline."""
    return np.clip(cv2.dilate(mask, np.ones((3, 3), np.uint8)) - cv2.erode(mask, np.ones((3, 3), np.uint8)), 0, 1)


def _planes(a: np.ndarray) -> np.ndarray:
    """A 2-D weight repeated on three channels (multiplying by it is faster than broadcasting `a[..., None]`)."""
    return cv2.merge([a, a, a])


def _mean_rgb(rgb: np.ndarray) -> np.ndarray:
    """rgb.astype(float32).mean(axis=2), the same values (channel sums are exact), much faster."""
    return cv2.transform(rgb.astype(np.float32), np.ones((1, 3), np.float32)) / np.float32(3)


def carve(img: np.ndarray, mask: np.ndarray, x: int, y: int, darken: float, outline: float) -> None:
    """Darken the picture under `mask` at (x, y) and draw a light outline round it, in place (float image)."""
    n = mask.shape[0]
    region = img[y:y + n, x:x + n]
    region *= _planes(1 - darken * mask)
    e = _planes(_edge(mask) * outline * 0.8)
    region[:] = region * (1 - e) + 255 * e


def render(params: Params) -> Puzzle:
    w, h = params.size
    clean = landscape(params.bg_seed, w, h, params.clutter) if params.view is None else _photos.image(params.view, w, h)
    mask = piece_mask(params.body, params.tabs)
    n = mask.shape[0]
    y = params.row_y
    img = clean.astype(np.float32)
    inst = np.zeros((h, w), np.uint8)
    carve(img, mask, params.gap_x, y, params.contrast, params.outline)
    inst[y:y + n, params.gap_x:params.gap_x + n][mask >= 0.5] = GAP
    meta = {PIECE: {"role": "piece", "label": "jigsaw piece", "kind": ""},
            GAP: {"role": "slot", "label": "gap", "kind": ""}}
    full = {PIECE: int((mask >= 0.5).sum()), GAP: int((mask >= 0.5).sum())}
    if params.decoy_x >= 0:
        dmask = piece_mask(params.body, params.decoy_tabs)
        carve(img, dmask, params.decoy_x, y, params.decoy_contrast, params.outline * 0.6)
        inst[y:y + n, params.decoy_x:params.decoy_x + n][dmask >= 0.5] = DECOY
        meta[DECOY] = {"role": "distractor", "label": "decoy gap", "kind": ""}
        full[DECOY] = int((dmask >= 0.5).sum())
    # the piece: the gap's picture content, with a drop shadow and a bright rim, sitting at the left
    px = params.piece_x
    shadow = _planes(cv2.GaussianBlur(mask, (0, 0), max(1.0, params.body / 25)) * 0.45)
    sx, sy = px + max(1, params.body // 30), y + max(1, params.body // 30)
    sy1 = min(sy + n, h)
    img[sy:sy1, sx:sx + n] *= 1 - shadow[:sy1 - sy]
    content = clean[y:y + n, params.gap_x:params.gap_x + n].astype(np.float32)
    a = _planes(mask)
    region = img[y:y + n, px:px + n]
    region[:] = region * (1 - a) + content * a
    rim = _planes(_edge(mask) * 0.85)
    region[:] = region * (1 - rim) + 255 * rim
    inst[y:y + n, px:px + n][mask >= 0.5] = PIECE
    rgb = cv2.convertScaleAbs(img)
    return Puzzle(rgb, inst, full, meta, extras={"clean": clean, "mask": mask, "row_y": y})


def gap_scores(puzzle: Puzzle, piece_box: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Two profiles over every left edge x of the piece's box on its row, measured on the darkening of the
    picture against the clean picture (the piece itself and its shadow excluded):
    `match`: correlation with the pattern of a gap of the piece's shape (dark inside, light outline), which
    peaks sharply where a hole of exactly this shape is; `strength`: mean darkening under the piece mask at x
    minus the mean darkening just outside it (how dark a hole there looks)."""
    mask = puzzle.extras["mask"]
    n = mask.shape[0]
    y = puzzle.extras["row_y"]
    lum = _mean_rgb(puzzle.rgb[y:y + n])
    lum_clean = _mean_rgb(puzzle.extras["clean"][y:y + n])
    dark = np.clip((lum_clean - lum) / np.maximum(lum_clean, 20.0), -1, 1)   # the light outline counts negative
    dark[:, :int(piece_box[2]) + 4] = 0
    pattern = mask - 1.5 * _edge(mask)
    pattern -= pattern.mean()
    match = cv2.matchTemplate(dark, pattern, cv2.TM_CCORR)[0] / float(np.abs(pattern).sum())
    ring = _ring(mask, 3)
    inside = mask.astype(np.float32)
    under = cv2.matchTemplate(dark, inside, cv2.TM_CCORR)[0] / inside.sum()
    around = cv2.matchTemplate(dark, ring, cv2.TM_CCORR)[0] / ring.sum()
    return match, under - around


def edge_ratio(puzzle: Puzzle, x: int) -> float:
    """Gradient strength on the gap's outline at x over the median gradient of the picture on the same rows."""
    mask = puzzle.extras["mask"]
    n = mask.shape[0]
    y = puzzle.extras["row_y"]
    grey = cv2.cvtColor(puzzle.rgb[y:y + n], cv2.COLOR_RGB2GRAY)
    mag = cv2.absdiff(cv2.Sobel(grey, cv2.CV_16S, 1, 0), 0).astype(np.float32) + \
        cv2.absdiff(cv2.Sobel(grey, cv2.CV_16S, 0, 1), 0).astype(np.float32)
    band = _edge(mask) > 0.5
    on = float(mag[:, x:x + n][band].mean())
    return on / max(float(np.mean(mag)), 1.0)


def solve(params: Params, puzzle: Puzzle) -> Task:
    masks = {i: puzzle.instances == i for i in puzzle.meta}
    boxes = {i: box for i, m in masks.items() if (box := draw.mask_box(m)) is not None}
    piece = masks[PIECE]
    piece_box = boxes.get(PIECE)
    if piece_box is None:
        raise Reject(f"{NAME}.piece_missing")
    match, scores = gap_scores(puzzle, piece_box)
    best = int(np.argmax(match))
    n = puzzle.extras["mask"].shape[0]
    if scores[best] < MIN_GAP_SCORE:
        raise Reject(f"{NAME}.gap_too_faint")
    if best != params.gap_x:
        raise Reject(f"{NAME}.gap_not_found")
    away = np.abs(np.arange(len(scores)) - best) > n // 2
    second = float(scores[away].max()) if away.any() else 0.0
    ratio = second / float(scores[best])
    if ratio > DECOY_MAX:
        raise Reject(f"{NAME}.decoy_too_similar")
    edges = edge_ratio(puzzle, best)
    if edges < MIN_EDGE_RATIO:
        raise Reject(f"{NAME}.gap_outline_hidden")
    # the piece shows the picture that was cut out of the gap
    mask = puzzle.extras["mask"]
    core = cv2.erode((mask >= 0.99).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    y = puzzle.extras["row_y"]
    shown = puzzle.rgb[y:y + n, params.piece_x:params.piece_x + n][core].astype(np.float32)
    cut = puzzle.extras["clean"][y:y + n, best:best + n][core].astype(np.float32)
    content_diff = float(np.abs(shown - cut).mean())
    if content_diff > 3.0:
        raise Reject(f"{NAME}.piece_content_mismatch")
    offset = float(best - params.piece_x)
    start = draw.inner_point(piece)
    tol = params.tolerance
    x0, y0, x1, y1 = piece_box
    objects = [{"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                "visible_fraction": round(cv2.countNonZero(masks[i].view(np.uint8)) / puzzle.full_area[i], 4)}
               for i, m in puzzle.meta.items() if i in boxes]
    return Task(rule="drag", answer={"offset": offset}, objects=objects, target_boxes=[piece_box], points=[start],
                end_boxes=[[x0 + offset, y0, x1 + offset, y1]],
                end_points=[[start[0] + offset, start[1]]], tolerance_px=tol,
                checks={"gap_score": round(float(scores[best]), 4), "runner_up_ratio": round(ratio, 4),
                        "edge_ratio": round(edges, 3), "piece_content_diff": round(content_diff, 3),
                        "offset_error_px": float(abs(best - params.gap_x))})


def legible(params: Params, puzzle: Puzzle, task: Task, shown: np.ndarray) -> dict[str, float]:
    """The gap floor on the degraded picture: grain and blur must leave the gap the one place of its shape,
    and its outline sharper than the picture around it."""
    seen = dataclasses.replace(puzzle, rgb=shown)
    match, scores = gap_scores(seen, task.target_boxes[0])
    best = int(np.argmax(match))
    n = puzzle.extras["mask"].shape[0]
    away = np.abs(np.arange(len(scores)) - best) > n // 2
    second = float(scores[away].max()) if away.any() else 0.0
    if best != params.gap_x or scores[best] < MIN_GAP_SCORE or second > DECOY_MAX * float(scores[best]):
        raise Reject(f"{NAME}.gap_lost_when_degraded")
    edges = edge_ratio(seen, best)
    if edges < MIN_EDGE_RATIO:
        raise Reject(f"{NAME}.gap_outline_lost_when_degraded")
    return {"shown_gap_score": round(float(scores[best]), 4), "shown_edge_ratio": round(edges, 3)}


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请向右拖动左侧的拼图块，使其完全填入图中的缺口"
    return "Drag the puzzle piece to the right until it fits into the gap."
