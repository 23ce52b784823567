"""Shared by the geometry families (geometry_click, largest_region, misleading_click, layer_stack, mirror):
named colours and how to read them back from pixels, flat shapes (and block arrows) and how to classify them
from a mask, text sprites, rounded cards, boxes that lie inside a mask, and the objects list of a Task."""
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont
from scipy import ndimage

from synth.core import paths
from synth.core.geometry import centre, inside
from synth.families.base import Puzzle
from synth.families.kit import draw
from synth.families.kit.kinds import COLOURS as BASE_COLOURS

# ---------------------------------------------------------------- named colours

# name -> (rgb, Chinese); the first six are BASE_COLOURS, the rest widen the palette of regions and cards
COLOURS = {**BASE_COLOURS,
           "pink": ((232, 98, 170), "粉色"), "teal": ((20, 160, 160), "青色"),
           "brown": ((140, 88, 48), "棕色"), "grey": ((128, 128, 132), "灰色")}
SHAPE_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
COLOUR_CLEAR = 28.0       # a measured colour is read as a name when it lies this close (CIE76) to it ...
COLOUR_MARGIN = 18.0      # ... and this much closer than to any other name


def _lab(rgb) -> np.ndarray:
    px = np.float32(rgb).reshape(1, 1, 3) / 255
    return cv2.cvtColor(px, cv2.COLOR_RGB2LAB)[0, 0]


@lru_cache(maxsize=8)
def _palette_lab(names: tuple[str, ...]) -> np.ndarray:
    return np.stack([_lab(COLOURS[n][0]) for n in names])


def mean_rgb(rgb: np.ndarray, mask: np.ndarray, erode: int = 1) -> np.ndarray | None:
    """Mean colour of the pixels of `mask` (bool, image-sized) eroded by `erode` px, None when nothing is left."""
    box = draw.mask_box(mask)
    if box is None:
        return None
    x0, y0, x1, y1 = (int(v) for v in box)
    m = mask[y0:y1, x0:x1].view(np.uint8)
    if erode:
        m = cv2.erode(cv2.copyMakeBorder(m, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), np.ones((3, 3), np.uint8),
                      iterations=erode)[1:-1, 1:-1]
    if cv2.countNonZero(m) < 6:
        return None
    return np.float32(cv2.mean(rgb[y0:y1, x0:x1], m)[:3])


def mean_colours(rgb: np.ndarray, instances: np.ndarray, erode: int = 1,
                 boxes: dict[int, list[float]] | None = None) -> dict[int, np.ndarray]:
    """Mean colour of every instance (of `boxes`, when given: id -> [x0, y0, x1, y1]) over its pixels at least
    `erode` px inside it (all of whose (2 erode + 1)² neighbourhood is that instance); instances with under
    6 such pixels left out."""
    k = np.ones((2 * erode + 1, 2 * erode + 1), np.uint8)
    lo = cv2.erode(instances, k, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    hi = cv2.dilate(instances, k, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    core = np.where(lo == hi, instances, 0).astype(np.uint8)
    if boxes is None:
        found = ndimage.find_objects(core)
        boxes = {i: [f[1].start, f[0].start, f[1].stop, f[0].stop] for i, f in enumerate(found, start=1) if f}
    out = {}
    for i, (x0, y0, x1, y1) in boxes.items():
        x0, y0, x1, y1 = int(x0), int(y0), int(x1), int(y1)
        m = (core[y0:y1, x0:x1] == i).view(np.uint8)
        if cv2.countNonZero(m) >= 6:
            out[i] = np.float32(cv2.mean(rgb[y0:y1, x0:x1], m)[:3])
    return out


def colour_name(rgb, names: tuple[str, ...] = tuple(COLOURS)) -> str | None:
    """The palette name a mean colour reads as, or None when it is not clearly one of them."""
    if rgb is None:
        return None
    d = np.linalg.norm(_palette_lab(names) - _lab(rgb), axis=1)
    order = np.argsort(d)
    if d[order[0]] > COLOUR_CLEAR or d[order[1]] - d[order[0]] < COLOUR_MARGIN:
        return None
    return names[int(order[0])]


def colour_zh(name: str) -> str:
    return COLOURS[name][1]


def rgb_of(name: str) -> tuple[int, int, int]:
    return COLOURS[name][0]


# ---------------------------------------------------------------- flat shapes

KINDS = ("circle", "triangle", "square", "pentagon", "hexagon", "star")
KINDS_ZH = {"circle": "圆形", "triangle": "三角形", "square": "正方形", "pentagon": "五边形", "hexagon": "六边形",
            "star": "五角星"}
STAR_INNER = 0.45        # inner / outer radius of the five-pointed star


@lru_cache(maxsize=16)
def _unit(kind: str) -> np.ndarray:
    """The outline of a shape of area 1, unturned (read-only)."""
    if kind == "circle":
        a = np.linspace(0, 2 * np.pi, 72, endpoint=False)
        unit = np.stack([np.cos(a), np.sin(a)], 1)
    elif kind == "star":
        a = -np.pi / 2 + np.arange(10) * np.pi / 5
        r = np.where(np.arange(10) % 2 == 0, 1.0, STAR_INNER)
        unit = np.stack([r * np.cos(a), r * np.sin(a)], 1)
    else:
        n = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}[kind]
        start = -np.pi / 2 + (np.pi / 4 if n == 4 else 0) + (np.pi / 6 if n == 6 else 0)
        a = start + np.arange(n) * 2 * np.pi / n
        unit = np.stack([np.cos(a), np.sin(a)], 1)
    x, y = unit[:, 0], unit[:, 1]
    unit = unit / np.sqrt(0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))
    unit.setflags(write=False)
    return unit


def outline(kind: str, area: float, turn: float = 0.0) -> np.ndarray:
    """Polygon (n, 2) centred on 0 of a shape of `area` px, turned clockwise by `turn` degrees (image axes).
    Regular polygons stand on a side (triangle, square, pentagon point up), the star points up."""
    t = np.deg2rad(turn)
    c, s = np.cos(t), np.sin(t)
    return (_unit(kind) * np.sqrt(area)) @ np.array([[c, s], [-s, c]])


@lru_cache(maxsize=16)
def _unit_radii(kind: str) -> tuple[float, float]:
    pts = _unit(kind)
    a, b = pts, np.roll(pts, -1, 0)
    cross = np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])
    return float(np.hypot(*pts.T).max()), float((cross / np.hypot(*(b - a).T)).min())


def radius(kind: str, area: float) -> float:
    """Circumradius of a shape of `area` px."""
    return _unit_radii(kind)[0] * float(np.sqrt(area))


def inradius(kind: str, area: float) -> float:
    """Radius of the largest circle about the centre inside a (convex) shape of `area` px."""
    return _unit_radii(kind)[1] * float(np.sqrt(area))


def reach(kind: str, area: float, turn: float, phi: float) -> float:
    """Distance from a (star-shaped about its centre) shape's centre to its outline in direction `phi`
    (degrees, image axes)."""
    pts = outline(kind, area, turn)
    d = np.array([np.cos(np.deg2rad(phi)), np.sin(np.deg2rad(phi))])
    e = np.roll(pts, -1, 0) - pts
    def cross(u, v):
        return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
    den = cross(d, e)
    ok = np.abs(den) > 1e-12
    s = np.where(ok, cross(pts, e) / np.where(ok, den, 1), np.inf)
    t = np.where(ok, cross(pts, d) / np.where(ok, den, 1), -1)
    hit = ok & (s > 0) & (t >= -1e-9) & (t <= 1 + 1e-9)
    return float(s[hit].min())


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """`mask` (bool) with every hole filled: the insides of its outer contours."""
    box = draw.mask_box(mask)
    out = np.zeros_like(mask)
    if box is None:
        return out
    x0, y0, x1, y1 = (int(v) for v in box)
    m = mask[y0:y1, x0:x1].view(np.uint8)
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(m)
    cv2.drawContours(filled, contours, -1, 1, -1)
    out[y0:y1, x0:x1] = filled.view(bool) | mask[y0:y1, x0:x1]
    return out


@lru_cache(maxsize=256)
def shape_sprite(kind: str, area: float, turn: float, rgb: tuple, edge: float = 0.6) -> np.ndarray:
    """RGBA sprite (square, shape centred) of a flat shape with a darker outline (cached: do not modify)."""
    r = radius(kind, area)
    n = int(np.ceil(2 * r)) + 4
    pts = outline(kind, area, turn) + n / 2
    out = np.zeros((n, n, 4), np.uint8)
    poly = np.round(pts * 4).astype(np.int32)
    cv2.fillPoly(out, [poly], (*rgb, 255), cv2.LINE_AA, shift=2)
    dark = tuple(int(v * edge) for v in rgb)
    cv2.polylines(out, [poly], True, (*dark, 255), max(1, round(np.sqrt(area) / 24)), cv2.LINE_AA, shift=2)
    return out


def arrow_outline(tail, tip, width: float) -> np.ndarray:
    """A block arrow from `tail` to `tip` (head about 2.4 widths long and wide), (7, 2)."""
    tail, tip = np.float64(tail), np.float64(tip)
    d = tip - tail
    length = float(np.hypot(*d))
    u = d / max(length, 1e-9)
    n = np.array([-u[1], u[0]])
    head = min(2.4 * width, 0.5 * length)
    base = tip - u * head
    hw, sw = 1.2 * width, width / 2
    return np.array([tail + n * sw, base + n * sw, base + n * hw, tip, base - n * hw, base - n * sw, tail - n * sw])


def arrow_box(tail, tip, width: float) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) of arrow_outline(tail, tip, width)."""
    pts = arrow_outline(tail, tip, width)
    return (*(float(v) for v in pts.min(0)), *(float(v) for v in pts.max(0)))


def classify_shape(mask: np.ndarray) -> str | None:
    """The kind a whole (unoccluded) shape mask reads as, from its corners, roundness and convexity;
    None when unclear."""
    box = draw.mask_box(mask)
    if box is None:
        return None
    x0, y0, x1, y1 = (int(v) for v in box)
    m = cv2.copyMakeBorder(mask[y0:y1, x0:x1].view(np.uint8), 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0)
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    cnt = max(contours, key=cv2.contourArea)
    area = float(np.count_nonzero(m))
    if area < 40:
        return None
    hull = cv2.convexHull(cnt)
    solidity = area / max(1.0, cv2.contourArea(hull) + cv2.arcLength(hull, True) / 2)
    (_, _), reach = cv2.minEnclosingCircle(cnt)
    roundness = area / (np.pi * (reach + 0.5) ** 2)
    if solidity < 0.8:
        poly = cv2.approxPolyDP(cnt, 0.03 * cv2.arcLength(cnt, True), True)
        return "star" if 9 <= len(poly) <= 11 else None
    # a regular polygon fills this share of its circumcircle: 0.41 (triangle), 0.64, 0.76, 0.83, 1 (circle);
    # on two overlapping bands the corners decide
    found = [k for k, (lo, hi) in ROUNDNESS.items() if lo <= roundness < hi]
    if len(found) == 2:
        n = len(cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True))
        found = [k for k in found if CORNERS[k] == n]
    return found[0] if len(found) == 1 else None


ROUNDNESS = {"triangle": (0.36, 0.54), "square": (0.58, 0.735), "pentagon": (0.735, 0.80),
             "hexagon": (0.79, 0.875), "circle": (0.89, 1.01)}
CORNERS = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6, "circle": 0}


# ---------------------------------------------------------------- text

LATIN_FONT = paths.font("truetype/dejavu/DejaVuSans-Bold.ttf")
CJK_FONT = paths.font("opentype/noto/NotoSansCJK-Bold.ttc")
CJK_INDEX = 2            # the Simplified Chinese face of the Noto CJK collection


@lru_cache(maxsize=16)
def font(path: str, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, px, index=CJK_INDEX if path.endswith(".ttc") else 0)


def is_cjk(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


@lru_cache(maxsize=256)
def text_alpha(text: str, px: int) -> np.ndarray:
    """Coverage (uint8, tight box plus 1 px) of `text` at font size `px`, in DejaVu Sans Bold or, for
    Chinese, Noto Sans CJK Bold (cached: do not modify)."""
    f = font(CJK_FONT if is_cjk(text) else LATIN_FONT, px)
    left, t, r, b = f.getbbox(text)
    img = Image.new("L", (r - left + 2, b - t + 2), 0)
    ImageDraw.Draw(img).text((1 - left, 1 - t), text, font=f, fill=255)
    return np.asarray(img)


def text_size(text: str, px: int) -> tuple[int, int]:
    h, w = text_alpha(text, px).shape
    return w, h


def text_sprite(text: str, px: int, rgb: tuple) -> np.ndarray:
    """RGBA sprite of `text` in one colour."""
    a = text_alpha(text, px)
    out = np.empty((*a.shape, 4), np.uint8)
    out[..., :3] = rgb
    out[..., 3] = a
    return out


def fit_px(text: str, width: float, height: float, largest: int) -> int:
    """The largest font size up to `largest` at which `text` fits in width x height."""
    px = largest
    while px > 8:
        w, h = text_size(text, px)
        if w <= width and h <= height:
            break
        px -= 1
    return px


# ---------------------------------------------------------------- cards and boxes

@lru_cache(maxsize=32)
def round_rect_mask(w: int, h: int, r: int) -> np.ndarray:
    """(h, w) uint8 0/255 mask of a rounded rectangle (cached: read-only)."""
    m = np.zeros((h, w), np.uint8)
    r = max(0, min(r, w // 2, h // 2))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    m.setflags(write=False)
    return m


def inscribed_box(mask: np.ndarray) -> list[float] | None:
    """A large axis-aligned box [x0, y0, x1, y1] (pixel edges) all of whose pixels belong to `mask`: the
    largest square (chessboard distance) grown side by side while the new row or column stays inside."""
    box = draw.mask_box(mask)
    if box is None:
        return None
    bx0, by0, bx1, by1 = (int(v) for v in box)
    m = cv2.copyMakeBorder(mask[by0:by1, bx0:bx1].view(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    dist = cv2.distanceTransform(m, cv2.DIST_C, 3)
    y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
    d = int(dist[y, x]) - 1
    x0, y0, x1, y1 = x - d, y - d, x + d + 1, y + d + 1      # in the padded crop; all inside the mask
    grown = True
    while grown:
        grown = False
        if m[y0:y1, x0 - 1].all():
            x0, grown = x0 - 1, True
        if m[y0:y1, x1].all():
            x1, grown = x1 + 1, True
        if m[y0 - 1, x0:x1].all():
            y0, grown = y0 - 1, True
        if m[y1, x0:x1].all():
            y1, grown = y1 + 1, True
    return [float(bx0 + x0 - 1), float(by0 + y0 - 1), float(bx0 + x1 - 1), float(by0 + y1 - 1)]


def objects_of(puzzle: Puzzle, roles: dict[int, str] | None = None) -> list[dict]:
    """Objects as the label lists them (box, visible share, mask, all measured on the instance map), every
    instance of `puzzle.meta` that shows; `roles` overrides the meta's role."""
    boxes = draw.instance_boxes(puzzle.instances)
    areas = draw.instance_areas(puzzle.instances)
    out = []
    for i, m in puzzle.meta.items():
        if i not in boxes:
            continue
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        mask = np.zeros(puzzle.instances.shape, bool)
        mask[y0:y1, x0:x1] = puzzle.instances[y0:y1, x0:x1] == i
        full = puzzle.full_area.get(i, 0)
        out.append({"id": i, "role": (roles or {}).get(i, m["role"]), "label": m["label"], "bbox": boxes[i],
                    "visible_fraction": round(float(areas[i]) / full if full else 0.0, 4), "_mask": mask})
    return out


def distractor_first(objects: list[dict], instances: np.ndarray) -> list[dict]:
    """The objects with the distractors that show at the centre of their own box first (stable otherwise):
    the pipeline's last check clicks the centre of the first distractor's box, which in a pile of
    overlapping objects may well lie on another object."""
    def shows_itself(o):
        x, y = centre(o["bbox"])
        return o["role"] == "distractor" and instances[int(y), int(x)] == o["id"]
    return sorted(objects, key=lambda o: not shows_itself(o))


def boxes_clear(objects: list[dict], target_boxes: list[list[float]]) -> bool:
    """Whether no non-target object's box centre falls in a target's accept box (a click at the centre of a
    distractor must not be accepted)."""
    return not any(inside(b, centre(o["bbox"])) for o in objects if o["role"] != "target" for b in target_boxes)
