"""Distorted text, the engine of the text and arithmetic families: characters laid out in a row, each turned,
sheared and scaled on its own (solid, outlined or hatched), drawn over a noisy background through a shared wave
warp, with strike-through lines and arcs as instances of their own; and the checks that read the glyphs back
from the instance map (cut off, overlapping, hidden by lines, too thin, too faint, out of reading order)."""
import colorsys
import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageFont

from synth.core import paths
from synth.core.errors import Reject
from synth.families.base import Puzzle
from synth.families.kit import draw

FONTS = (paths.font("truetype/dejavu/DejaVuSans-Bold.ttf"),
         paths.font("truetype/dejavu/DejaVuSerif-Bold.ttf"),
         paths.font("truetype/liberation/LiberationSans-Bold.ttf"),
         paths.font("truetype/liberation/LiberationMono-Bold.ttf"))
MAX_GLYPH_OVERLAP = 0.05   # two glyphs may share at most this share of the smaller one's pixels
MAX_LINE_COVER = 0.25      # noise lines may hide at most this share of a glyph ...
MAX_LINE_STROKE = 0.45     # ... and be at most this share of the thinnest glyph stroke wide
MIN_CONTRAST = 45.0        # luminance gap between a glyph and the ground around it (0..255)
BORDER = 2                 # every glyph pixel stays this many pixels inside the puzzle
MIN_GAP = 0.3              # neighbouring glyph centres at least this share of a glyph's width apart in x
MAX_ROW_OFFSET = 0.6       # a glyph centre at most this share of the glyph height off the row's median
MIN_GLYPH_PX = 60          # visible pixels of a glyph (at 320 px; scales with the area)
MIN_HUE_STEP = 0.2         # neighbouring characters of different colours differ at least this much in hue
HOLLOW_WIDTH = 0.065       # outline width of a hollow character, share of its font size
HATCH_PERIOD = 0.22        # stripe period of a hatched character, share of its font size ...
HATCH_GAP = 0.1            # ... whose gaps between the stripes keep this share of the ink's coverage ...
HATCH_EDGE = 1             # ... inside a solid outline this many pixels wide ...
HATCH_CONTRAST = 1.8       # ... and whose ink needs this many times MIN_CONTRAST (the shape reads fainter)

@dataclass(frozen=True)
class Glyph:
    """One character as drawn: font, pixel size, centre, and its own distortion."""
    char: str
    font: int            # index into FONTS
    px: int              # font size in pixels
    cx: float            # centre of the transformed glyph, puzzle pixels
    cy: float
    angle: float         # clockwise degrees
    shear: float
    scale_x: float
    rgb: tuple[int, int, int]
    hollow: int = 0      # outline width in pixels of a hollow (outlined) character; 0: solid
    hatch: int = 0       # stripe period in pixels of a hatched character; 0: solid ink
    hatch_dir: int = 1   # stripes running as / (1) or as \ (-1)


@dataclass(frozen=True)
class Line:
    """A strike-through line or arc drawn over the glyphs (an instance that can hide glyph pixels)."""
    points: tuple[tuple[float, float], ...]
    width: int
    rgb: tuple[int, int, int]


@lru_cache(maxsize=64)
def _font(font: int, px: int) -> ImageFont.FreeTypeFont:
    # single characters need no text shaping: the basic layout draws the same pixels, faster. (Opened from the
    # file's bytes a face opens twice as fast, but Pillow keeps its own copy of them: ~360 KB a face, not ~190.)
    return ImageFont.truetype(FONTS[font], px, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=8)
def cap_ratio(font: int) -> float:
    """Cap height of the font as a share of its pixel size."""
    _, t, _, b = _font(font, 200).getbbox("H")
    return (b - t) / 200.0


@lru_cache(maxsize=2048)
def glyph_alpha(char: str, font: int, px: int, hollow: int = 0) -> np.ndarray:
    """Coverage (uint8) of one character, cropped to its ink with a 2 px margin (so centring a glyph
    centres its ink: a − sits mid-height like the digits beside it). With `hollow`, only an outline of that
    width round the character's shape is drawn (an outlined font: the body stays empty)."""
    mask, _ = _font(font, px).getmask2(char, mode="L")
    a = np.asarray(Image.Image()._new(mask))    # the coverage ImageDraw.text pastes, without drawing it
    x, y, w, h = cv2.boundingRect(a)       # of the non-zero pixels
    a = cv2.copyMakeBorder(a[y:y + h, x:x + w], 2 + hollow, 2 + hollow, 2 + hollow, 2 + hollow,
                           cv2.BORDER_CONSTANT, value=0)
    if hollow:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * hollow + 1, 2 * hollow + 1))
        a = cv2.subtract(cv2.dilate(a, k), a)
    return a


def transformed(g: Glyph) -> np.ndarray:
    """The glyph's coverage after its own rotation, shear and horizontal scale (nothing clipped)."""
    a = glyph_alpha(g.char, g.font, g.px, g.hollow)
    h, w = a.shape
    t = math.radians(g.angle)
    c, s = math.cos(t), math.sin(t)
    # rotation @ shear @ horizontal scale, written out
    m00, m01, m10, m11 = c * g.scale_x, c * g.shear - s, s * g.scale_x, s * g.shear + c
    ow = int(math.ceil(abs(m00) * w + abs(m01) * h)) + 2
    oh = int(math.ceil(abs(m10) * w + abs(m11) * h)) + 2
    m = np.array([[m00, m01, ow / 2 - (m00 * (w / 2) + m01 * (h / 2))],
                  [m10, m11, oh / 2 - (m10 * (w / 2) + m11 * (h / 2))]], np.float32)
    return cv2.warpAffine(a, m, (ow, oh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def placed(g: Glyph, wave: tuple) -> tuple[int, int, np.ndarray]:
    """(x0, y0, coverage) of a glyph on the puzzle after the shared wave warp; may reach past the edges."""
    a = transformed(g)
    h, w = a.shape
    x0, y0 = int(round(g.cx - w / 2)), int(round(g.cy - h / 2))
    ax, ay, lam, px, py = wave
    if ax <= 0 and ay <= 0:
        return x0, y0, a
    mx, my = int(np.ceil(ax)) + 1, int(np.ceil(ay)) + 1
    xs = np.arange(x0 - mx, x0 + w + mx, dtype=np.float32)
    ys = np.arange(y0 - my, y0 + h + my, dtype=np.float32)
    # the x shift depends on the row only and the y shift on the column only
    map_x = xs[None, :] + (ax * np.sin(2 * np.pi * ys / lam + px))[:, None] - x0
    map_y = ys[:, None] + (ay * np.sin(2 * np.pi * xs / lam + py))[None, :] - y0
    out = cv2.remap(a, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return x0 - mx, y0 - my, out


def dark_colour(rng: np.random.Generator, hue: float | None = None) -> tuple[int, int, int]:
    """A saturated dark ink colour (of a random hue unless `hue` is given)."""
    hue = float(rng.random()) if hue is None else hue
    r, g, b = colorsys.hsv_to_rgb(hue, float(rng.uniform(0.5, 1.0)), float(rng.uniform(0.2, 0.5)))
    return int(r * 255), int(g * 255), int(b * 255)


def ink_colours(rng: np.random.Generator, n: int, one: bool) -> list[tuple[int, int, int]]:
    """Ink colours of `n` characters in a row: one shared colour, or one each with neighbouring hues at least
    MIN_HUE_STEP apart (touching characters stay told apart by their colour)."""
    if one:
        return [dark_colour(rng)] * n
    hues = [float(rng.random())]
    for _ in range(n - 1):
        hues.append((hues[-1] + float(rng.uniform(MIN_HUE_STEP, 1 - MIN_HUE_STEP))) % 1.0)
    return [dark_colour(rng, hue) for hue in hues]


def glyph_styles(rng: np.random.Generator, n: int, hollow: float, hatch: float) -> list[str]:
    """How each of `n` characters is drawn: "hollow" with probability `hollow`, hatched ("/" or "\\") with
    probability `hatch`, else "solid"."""
    out = []
    for u in rng.random(n):
        if u < hatch:
            out.append("/" if u < hatch / 2 else "\\")
        else:
            out.append("hollow" if u < hatch + hollow else "solid")
    return out


def hollow_width(px: int) -> int:
    """Outline width of a hollow character of font size `px`."""
    return max(4, int(round(HOLLOW_WIDTH * px)))


def ink_width(char: str, font: int, px: int, angle: float, shear: float, scale_x: float, hollow: int = 0) -> float:
    a = transformed(Glyph(char, font, px, 0.0, 0.0, angle, shear, scale_x, (0, 0, 0), hollow))
    cols = np.nonzero(a.max(axis=0) >= draw.ALPHA_ON)[0]
    return float(cols[-1] - cols[0] + 1) if len(cols) else float(px) / 2


def layout_row(rng: np.random.Generator, chars: list[str], size: tuple[int, int], height: float,
               gaps: list[float], fonts: list[int], angles: list[float], shears: list[float],
               scales: list[float], jitter: float, colours: list[tuple],
               styles: list[str] | None = None) -> tuple[tuple[Glyph, ...], float]:
    """Glyphs on one row, centred, with advance `gap * mean neighbouring width` between neighbours; the row
    is shrunk until it fits 88% of the width. `styles` draws each character "solid", "hollow" (an outline)
    or hatched with stripes running as "/" or as "\\". Returns (glyphs, final character height in pixels)."""
    w, h = size
    styles = styles or ["solid"] * len(chars)
    for _ in range(4):
        pxs = [max(8, int(round(height / cap_ratio(f)))) for f in fonts]
        rings = [hollow_width(p) if st == "hollow" else 0 for p, st in zip(pxs, styles)]
        widths = [ink_width(c, f, p, a, s, k, o)
                  for c, f, p, a, s, k, o in zip(chars, fonts, pxs, angles, shears, scales, rings)]
        adv = [(widths[i] + widths[i + 1]) / 2 * gaps[i] for i in range(len(chars) - 1)]
        total = widths[0] / 2 + sum(adv) + widths[-1] / 2
        if total <= 0.88 * w:
            break
        height *= 0.88 * w / total * 0.98
    x = (w - total) / 2 + widths[0] / 2 + float(rng.uniform(-0.5, 0.5)) * (0.88 * w - total) / 2
    cy = h / 2 + float(rng.uniform(-0.12, 0.12)) * h
    glyphs = []
    for i, c in enumerate(chars):
        y = cy + float(rng.uniform(-jitter, jitter)) * height
        hatch = max(4, int(round(HATCH_PERIOD * pxs[i]))) if styles[i] in ("/", "\\") else 0
        glyphs.append(Glyph(c, fonts[i], pxs[i], round(x, 2), round(y, 2), round(angles[i], 2), round(shears[i], 3),
                            round(scales[i], 3), colours[i], rings[i], hatch, -1 if styles[i] == "\\" else 1))
        if i < len(adv):
            x += adv[i]
    return tuple(glyphs), height


def rounded_points(xs: np.ndarray, ys: np.ndarray) -> tuple[tuple[float, float], ...]:
    """Curve points rounded to 1/100 px, as plain floats."""
    return tuple(zip(np.round(xs, 2).tolist(), np.round(ys, 2).tolist()))


def sample_lines(rng: np.random.Generator, n: int, size: tuple[int, int], band: tuple[float, float],
                 width: float, colours: list[tuple], kinds: tuple[str, ...] = ("line", "arc", "wave"),
                 span: tuple[float, float] | None = None) -> tuple[Line, ...]:
    """`n` strike-through curves crossing the text band (y0, y1) from side to side, or over `span` (x0, x1)."""
    w, h = size
    y0, y1 = band
    lines = []
    for _ in range(n):
        kind = kinds[int(rng.integers(len(kinds)))]
        if span is None:
            xa, xb = float(rng.uniform(0, 0.15 * w)), float(rng.uniform(0.85 * w, w))
        else:
            xa, xb = span
        xs = np.linspace(xa, xb, 40)
        if kind == "line":
            ya, yb = rng.uniform(y0, y1, 2)
            ys = ya + (yb - ya) * (xs - xa) / (xb - xa)
        elif kind == "arc":    # a parabola-like arc bulging up or down through the band
            mid = float(rng.uniform(y0, y1))
            bulge = float(rng.uniform(0.3, 0.8)) * (y1 - y0) * (1 if rng.random() < 0.5 else -1)
            t = (xs - xa) / (xb - xa) * 2 - 1
            ys = mid - bulge * (1 - t ** 2) + bulge / 2
        else:                  # a sine wave along the band
            mid = float(rng.uniform(y0, y1))
            amp = float(rng.uniform(0.15, 0.4)) * (y1 - y0)
            lam = float(rng.uniform(0.4, 0.9)) * (xb - xa if span else w)
            ys = mid + amp * np.sin(2 * np.pi * xs / lam + float(rng.uniform(0, 2 * np.pi)))
        lines.append(Line(rounded_points(xs, ys), max(1, int(round(width))), colours[int(rng.integers(len(colours)))]))
    return tuple(lines)


def noisy_background(rng: np.random.Generator, w: int, h: int, clutter: float, noise: float) -> np.ndarray:
    """A CAPTCHA ground: a pastel gradient over a washed texture, faint curves and speckle dots."""
    corners = rng.integers(205, 252, (2, 2, 3)).astype(np.uint8)
    grad = cv2.resize(corners, (w, h), interpolation=cv2.INTER_LINEAR)    # a bilinear pastel gradient
    tex = draw.background(rng, w, h, clutter)
    rgb = cv2.addWeighted(grad, 0.45, tex, 0.55, 0.0)
    side = min(w, h)
    for _ in range(int(rng.integers(3, 7))):       # faint thin curves behind the text
        xs = np.linspace(0, w, 24)
        ys = float(rng.uniform(0, h)) + float(rng.uniform(0.05, 0.2)) * h * np.sin(
            2 * np.pi * xs / float(rng.uniform(0.5, 1.5) * w) + float(rng.uniform(0, 6.3)))
        col = tuple(int(v) for v in rng.integers(140, 220, 3))
        cv2.polylines(rgb, [np.stack([xs, ys], 1).astype(np.int32)], False, col, max(1, side // 320), cv2.LINE_AA)
    speckle(rng, rgb, noise, (60, 230))
    return rgb


def speckle(rng: np.random.Generator, rgb: np.ndarray, per_1000: float, shade: tuple[int, int]) -> None:
    """Scatter `per_1000` small dots per 1000 px² (1-2 px at 320, scaled) in random colours, in place."""
    h, w = rgb.shape[:2]
    n = int(per_1000 * w * h / 1000)
    if n <= 0:
        return
    d = max(1, min(w, h) // 200)
    ys, xs = rng.integers(0, h - d, n), rng.integers(0, w - d, n)
    cols = rng.integers(shade[0], shade[1], (n, 3)).astype(np.uint8)
    big = rng.random(n) < 0.4
    for dy in range(d + 1):
        for dx in range(d + 1):
            sel = slice(None) if dy == 0 and dx == 0 else big
            rgb[ys[sel] + dy, xs[sel] + dx] = cols[sel]


def flat_rgba(rgb: tuple[int, int, int], alpha: np.ndarray) -> np.ndarray:
    """An RGBA image of one colour with the given coverage."""
    return cv2.merge([np.full(alpha.shape, c, np.uint8) for c in rgb] + [alpha])


def hatched(a: np.ndarray, x0: int, y0: int, period: int, direction: int) -> np.ndarray:
    """A character's coverage `a` (top left at x0, y0) drawn as a thin outline filled with diagonal stripes
    `period` px apart (along x) running as / (direction 1) or as \\ (-1); the gaps keep HATCH_GAP of the
    coverage."""
    h, w = a.shape
    ys, xs = np.ogrid[y0:y0 + h, x0:x0 + w]
    on = (xs + direction * ys) % period < period / 2
    on |= cv2.erode(a, np.ones((2 * HATCH_EDGE + 1, 2 * HATCH_EDGE + 1), np.uint8)) < draw.ALPHA_ON
    return np.where(on, a, (a * HATCH_GAP).astype(np.uint8))


def render_glyphs(size: tuple[int, int], glyphs: tuple[Glyph, ...], wave: tuple, lines: tuple[Line, ...],
                  noise: float, clutter: float, bg_seed: int) -> Puzzle:
    """Ground, glyphs (instances 1..n, each also kept on its own full mask: the character's whole shape, even
    where it is hatched), then lines (n+1..) and a few speckles over everything.
    extras["glyphs"] = [(id, x0, y0, full bool mask)] before clipping; extras["hatched"] = ids of hatched glyphs."""
    w, h = size
    rng = np.random.default_rng(bg_seed)
    canvas = draw.Canvas(noisy_background(rng, w, h, clutter, noise))
    meta, masks = {}, []
    for i, g in enumerate(glyphs, start=1):
        x0, y0, a = placed(g, wave)
        ink = hatched(a, x0, y0, g.hatch, g.hatch_dir) if g.hatch else a
        canvas.paste(flat_rgba(g.rgb, ink), x0, y0, i)
        meta[i] = {"role": "target", "label": g.char, "kind": "glyph"}
        masks.append((i, x0, y0, a >= draw.ALPHA_ON))
    for j, ln in enumerate(lines, start=len(glyphs) + 1):
        pts = np.round(np.array(ln.points) * 4).astype(np.int32)
        # drawn on the puzzle's part of the line's box (plus its width): the same pixels as on the whole puzzle
        pad = ln.width + 3
        lo, hi = pts.min(axis=0) // 4 - pad, -(-pts.max(axis=0) // 4) + pad + 1
        ox, oy = max(0, int(lo[0])), max(0, int(lo[1]))
        mask = np.zeros((max(0, min(h, int(hi[1])) - oy), max(0, min(w, int(hi[0])) - ox)), np.uint8)
        if mask.size == 0:
            continue
        cv2.polylines(mask, [pts - np.array([4 * ox, 4 * oy], np.int32)], False, 255, ln.width, cv2.LINE_AA, shift=2)
        bx, by, bw, bh = cv2.boundingRect(mask)
        if bw == 0:
            continue
        canvas.paste(flat_rgba(ln.rgb, mask[by:by + bh, bx:bx + bw]), ox + bx, oy + by, j)
        meta[j] = {"role": "noise", "label": "line", "kind": "line"}
    speckle(rng, canvas.rgb, noise * 0.15, (40, 240))
    hatch_ids = [i for i, g in enumerate(glyphs, start=1) if g.hatch]
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta, extras={"glyphs": masks, "hatched": hatch_ids})


def _crop(mask_entry, w: int, h: int):
    """The in-puzzle part of an unclipped (id, x0, y0, mask): (x0, y0, x1, y1, mask part)."""
    _, x0, y0, m = mask_entry
    cx0, cy0 = max(0, x0), max(0, y0)
    cx1, cy1 = min(w, x0 + m.shape[1]), min(h, y0 + m.shape[0])
    return cx0, cy0, cx1, cy1, m[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]


def _luma(planes) -> np.ndarray:
    """Luminance (float32) from the R, G and B planes (uint8)."""
    r, g, b = planes
    return r.astype(np.float32) * 0.299 + g.astype(np.float32) * 0.587 + b.astype(np.float32) * 0.114


def _median(v: np.ndarray) -> float:
    """np.median of a non-empty 1-D array (the same value), without its overhead."""
    k = v.size // 2
    if v.size % 2:
        return float(np.partition(v, k)[k])
    p = np.partition(v, (k - 1, k))
    return float((p[k - 1] + p[k]) / 2)


def stroke_width(mask: np.ndarray) -> float:
    """Mean stroke width of a thin shape: twice its area over its perimeter (holes included)."""
    m = np.ascontiguousarray(mask, bool).view(np.uint8)
    contours, _ = cv2.findContours(m, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    perimeter = sum(cv2.arcLength(c, True) for c in contours)
    return 2.0 * float(cv2.countNonZero(m)) / max(1.0, perimeter)


@lru_cache(maxsize=4096)
def glyph_stroke(char: str, font: int, px: int, hollow: int = 0) -> float:
    """Stroke width of an undistorted glyph, as read_glyphs measures it."""
    return stroke_width(glyph_alpha(char, font, px, hollow) >= draw.ALPHA_ON)


def drawn_width(t: int) -> float:
    """Width that stroke_width measures on an anti-aliased OpenCV polyline of thickness `t`."""
    return 1.2 if t <= 1 else 3.2 + 1.8 * ((t - 1) // 2)


def line_width(glyphs: tuple[Glyph, ...], wanted: float) -> float:
    """A line thickness near `wanted`, capped so that lines stay well under the thinnest stroke."""
    limit = 0.85 * MAX_LINE_STROKE * min(glyph_stroke(g.char, g.font, g.px, g.hollow) for g in glyphs)
    t = max(1, int(wanted))
    while t > 1 and drawn_width(t) > limit:
        t -= 1
    return float(t)


def read_glyphs(puzzle: Puzzle, family: str, max_overlap: float = MAX_GLYPH_OVERLAP
                ) -> tuple[list[int], list[dict], dict[str, float]]:
    """Check the glyphs on the rendered masks and instance map; return (glyph ids in reading order,
    objects, checks). Rejects glyphs cut off at the border, glyphs overlapping by more than `max_overlap`,
    glyphs hidden by lines, lines nearly as thick as a stroke, glyphs too small or too faint,
    and rows whose reading order is unclear."""
    inst = puzzle.instances
    h, w = inst.shape
    scale = (w * h) / (320 * 320)
    entries = puzzle.extras["glyphs"]
    crops = {}
    for e in entries:
        i, x0, y0, m = e
        bx, by, bw, bh = cv2.boundingRect(m.view(np.uint8))
        if bw == 0:
            raise Reject(f"{family}.empty_glyph")
        if x0 + bx < BORDER or y0 + by < BORDER or x0 + bx + bw > w - BORDER or y0 + by + bh > h - BORDER:
            raise Reject(f"{family}.glyph_cut_off")
        crops[i] = _crop(e, w, h)
    # glyph-on-glyph overlap, measured on the full masks
    worst_overlap = 0.0
    ids = list(crops)
    for a in range(len(ids)):
        ax0, ay0, ax1, ay1, am = crops[ids[a]]
        for b in range(a + 1, len(ids)):
            bx0, by0, bx1, by1, bm = crops[ids[b]]
            ix0, iy0, ix1, iy1 = max(ax0, bx0), max(ay0, by0), min(ax1, bx1), min(ay1, by1)
            if ix0 >= ix1 or iy0 >= iy1:
                continue
            inter = int((am[iy0 - ay0:iy1 - ay0, ix0 - ax0:ix1 - ax0]
                         & bm[iy0 - by0:iy1 - by0, ix0 - bx0:ix1 - bx0]).sum())
            share = inter / max(1, min(int(am.sum()), int(bm.sum())))
            worst_overlap = max(worst_overlap, share)
    if worst_overlap > max_overlap:
        raise Reject(f"{family}.glyphs_overlap")
    line_ids = [i for i, m in puzzle.meta.items() if m["role"] == "noise"]
    lo_line = min(line_ids) if line_ids else 256
    striped = set(puzzle.extras.get("hatched", ()))
    objects, cents, worst_cover, worst_contrast, strokes = [], {}, 0.0, 255.0, []
    for i, (x0, y0, x1, y1, m) in crops.items():
        under = inst[y0:y1, x0:x1][m]
        full = int(m.sum())
        covered = float((under >= lo_line).sum()) / full
        worst_cover = max(worst_cover, covered)
        if covered > MAX_LINE_COVER:
            raise Reject(f"{family}.line_covers_glyph")
        strokes.append(stroke_width(m))
        vis = inst[y0:y1, x0:x1] == i
        if vis.sum() < MIN_GLYPH_PX * scale:
            raise Reject(f"{family}.glyph_too_small")
        ys, xs = np.nonzero(vis)
        cents[i] = (float(xs.mean()) + x0, float(ys.mean()) + y0, float(x1 - x0), float(y1 - y0))
        # contrast: glyph ink against the ground in a thin ring around it (other glyphs and lines excluded)
        pad = 4
        X0, Y0, X1, Y1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
        big = np.zeros((Y1 - Y0, X1 - X0), np.uint8)
        big[y0 - Y0:y1 - Y0, x0 - X0:x1 - X0] = m
        ring = (cv2.dilate(big, np.ones((7, 7), np.uint8)) > cv2.dilate(big, np.ones((3, 3), np.uint8))) \
            & (inst[Y0:Y1, X0:X1] == 0)
        if ring.sum() < 10:
            raise Reject(f"{family}.low_contrast")
        luma = _luma(cv2.split(puzzle.rgb[Y0:Y1, X0:X1]))
        ink = luma[y0 - Y0:y1 - Y0, x0 - X0:x1 - X0][vis & m]
        contrast = abs(_median(ink) - _median(luma[ring]))
        if i in striped:
            contrast /= HATCH_CONTRAST      # stripes read fainter than solid ink of the same colour
        worst_contrast = min(worst_contrast, contrast)
        if contrast < MIN_CONTRAST:
            raise Reject(f"{family}.low_contrast")
        box = [float(xs.min() + x0), float(ys.min() + y0), float(xs.max() + x0 + 1), float(ys.max() + y0 + 1)]
        objects.append({"id": i, "role": "target", "label": puzzle.meta[i]["label"], "bbox": box,
                        "visible_fraction": round(float(vis.sum()) / max(1, puzzle.full_area[i]), 4)})
    # lines stay clearly thinner than the strokes: a stroke under a line still shows, and a line of the
    # ink's colour does not pass for a stroke
    thickest = 0.0
    for j in line_ids:
        lx, ly, lw, lh = cv2.boundingRect((inst == j).view(np.uint8))
        if lw:
            thickest = max(thickest, stroke_width(inst[ly:ly + lh, lx:lx + lw] == j))
    line_ratio = thickest / min(strokes)
    if line_ratio > MAX_LINE_STROKE:
        raise Reject(f"{family}.line_too_thick")
    order = sorted(cents, key=lambda i: cents[i][0])
    widths = [cents[i][2] for i in order]
    gaps = [cents[b][0] - cents[a][0] for a, b in zip(order, order[1:])]
    min_gap = min((g / min(cents[a][2], cents[b][2]) for g, a, b in zip(gaps, order, order[1:])), default=1.0)
    if min_gap < MIN_GAP:
        raise Reject(f"{family}.reading_order_unclear")
    row = float(np.median([cents[i][1] for i in order]))
    off = max(abs(cents[i][1] - row) / cents[i][3] for i in order)
    if off > MAX_ROW_OFFSET:
        raise Reject(f"{family}.not_one_row")
    checks = {"max_glyph_overlap": round(worst_overlap, 4), "max_line_cover": round(worst_cover, 4),
              "line_to_stroke_width": round(line_ratio, 3),
              "min_contrast": round(worst_contrast, 2), "min_centre_gap": round(min_gap, 4),
              "max_row_offset": round(off, 4), "glyphs": float(len(order)), "mean_glyph_width": float(np.mean(widths)),
              "hatched_glyphs": float(len(striped))}
    return order, objects, checks
