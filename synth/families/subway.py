"""Subway map: coloured lines through lettered stations, and a legend of line numbers; type how many stations
lie between two stations on one line, or how many lines stop at a station. Higher levels name lines only by
their number, so the legend must be read."""
import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from synth.core import paths
from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw

NAME = "subway"
DESCRIPTION = "read a subway map and its legend; type how many stations lie between two stops on a line, or how " \
              "many lines stop at a station"
ANSWERS = ("type",)             # synth.labels.reward step types of its tasks
COVERS = ("NextGenCAPTCHAs:Subway_Paths", "VenusBench-CAPTCHA:visual_reasoning")
GEOMETRIC_AUGMENT = False      # the answer is read from letters and thin lines
BLUR_AUGMENT = False           # a blur merged the ~9 px station letters and legend numbers
LABEL_PX = 12                  # label font size, px at 320 (DejaVu Sans Bold: capitals ~9 px high)
FLOORS = {"labels": f"station letters and legend numbers in DejaVu Sans Bold at {LABEL_PX} px per 320 px of "
                    f"puzzle (capitals ~9 px of the stored image on web and desktop, ~18 on phones), dark with a "
                    f"white outline, never blurred"}
STAT, STAT_DIRECTION = "number of lines on the map", +1
FONT = paths.font("truetype/dejavu/DejaVuSans-Bold.ttf")
LINES = {"red": ((215, 40, 40), "红"), "blue": ((30, 90, 210), "蓝"), "green": ((30, 150, 60), "绿"),
         "orange": ((240, 135, 20), "橙"), "purple": ((140, 60, 180), "紫"), "brown": ((130, 85, 40), "棕")}
LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"     # no I, O, Q: they pass for 1, 0 and O
MOVES = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
LABEL_GAP = 2              # px at 320 kept between a label and any line, station or other label
MIN_CLEAR = 5              # px at 320 between a station and a line that does not stop there
BIG = 1.3                  # an interchange's marker is this much wider than a stop's

TABLE = LevelTable(NAME, knobs={
    "lines_range": "number of lines",
    "stops_range": "stations per line",
    "grid_range": "station grid columns (rows: one fewer)",
    "numbered_range": "probability that the question names the line by its number (read from the legend)",
    "between_range": "probability of a 'stations between' question (otherwise: 'how many lines stop at')",
    "straight_range": "probability that a line goes straight on at a station",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"lines_range": (2, 2), "stops_range": (4, 5), "grid_range": (4, 4), "numbered_range": (0.0, 0.0),
        "between_range": (0.5, 0.5), "straight_range": (0.8, 0.8), "clutter_range": (0.0, 0.05)},
    2: {"lines_range": (2, 3), "stops_range": (4, 6), "grid_range": (4, 5), "numbered_range": (0.0, 0.0),
        "between_range": (0.5, 0.5), "straight_range": (0.7, 0.7), "clutter_range": (0.0, 0.1)},
    3: {"lines_range": (3, 3), "stops_range": (5, 6), "grid_range": (5, 5), "numbered_range": (0.5, 0.5),
        "between_range": (0.6, 0.6), "straight_range": (0.6, 0.6), "clutter_range": (0.05, 0.15)},
    4: {"lines_range": (3, 4), "stops_range": (5, 7), "grid_range": (5, 6), "numbered_range": (1.0, 1.0),
        "between_range": (0.6, 0.6), "straight_range": (0.55, 0.55), "clutter_range": (0.1, 0.2)},
    5: {"lines_range": (4, 5), "stops_range": (5, 7), "grid_range": (6, 6), "numbered_range": (1.0, 1.0),
        "between_range": (0.6, 0.6), "straight_range": (0.5, 0.5), "clutter_range": (0.1, 0.25)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                      # the question in short: "between:red:C:K" or "lines:F"
    numbered: bool                   # the question names the line by its number
    lines: tuple[tuple[str, tuple[int, ...]], ...]     # (colour, station indices in order); line k is number k + 1
    stations: tuple[tuple[float, float], ...]           # centres, puzzle pixels
    names: tuple[str, ...]                              # per station: its letter
    label_at: tuple[tuple[float, float], ...]           # per station: top-left of its label
    geometry: tuple[float, float, float, int]           # (line width, station radius, label px, legend top)
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- geometry

def track_points(stations, lines, step: float = 1.5) -> tuple[np.ndarray, np.ndarray]:
    """Points every `step` px or closer along every line's track (m, 2), and the line each lies on (m,)."""
    pts = np.asarray(stations, np.float64)
    out, owner = [], []
    for k, (_, st) in enumerate(lines):
        for a, b in zip(st, st[1:]):
            n = max(2, int(np.ceil(np.hypot(*(pts[b] - pts[a])) / step)) + 1)
            t = np.linspace(0, 1, n)[:, None]
            out.append(pts[a] * (1 - t) + pts[b] * t)
            owner.append(np.full(n, k))
    return np.concatenate(out), np.concatenate(owner)


def line_walk(rng: np.random.Generator, cols: int, rows: int, n: int, straight: float, used: set, diag: set
              ) -> list[tuple[int, int]] | None:
    """A line of n stations: a walk on the station grid that goes on straight or turns by at most 90 degrees,
    never visits a station twice, shares no track with other lines (`used`) and never crosses a diagonal
    track between stations (`diag`: the grid squares that hold one)."""
    node = (int(rng.integers(cols)), int(rng.integers(rows)))
    path, heading, own = [node], int(rng.integers(8)), set()
    for _ in range(n - 1):
        turns = [0] if rng.random() < straight else []
        turns += [int(t) for t in rng.permutation([-1, 1, -2, 2])]
        for t in turns:
            hd = (heading + t) % 8
            dx, dy = MOVES[hd]
            nxt = (path[-1][0] + dx, path[-1][1] + dy)
            edge = frozenset((path[-1], nxt))
            square = (min(path[-1][0], nxt[0]), min(path[-1][1], nxt[1])) if dx and dy else None
            if 0 <= nxt[0] < cols and 0 <= nxt[1] < rows and nxt not in path and edge not in used \
                    and (square is None or (square not in diag and square not in own)):
                path.append(nxt)
                heading = hd
                if square is not None:
                    own.add(square)
                break
        else:
            return None
    return path


# ---------------------------------------------------------------- sampling

@lru_cache(maxsize=16)
def _font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT, px)


@lru_cache(maxsize=256)
def text_size(text: str, px: int) -> tuple[int, int]:
    x0, y0, x1, y1 = _font(px).getbbox(text, stroke_width=1)
    return x1 - x0, y1 - y0


def layout(size: tuple[int, int], cols: int) -> dict:
    w, h = size
    side = min(w, h)
    legend_h = round(0.12 * h)
    m = round(0.085 * side)            # room for a label on every side of every station
    top, bottom = m, h - legend_h - m
    return {"x": (m, w - m), "y": (top, bottom), "legend_top": h - legend_h, "cols": cols, "rows": cols - 1}


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    scale = side / 320
    k = {name[:-6]: draw_knob(rng, row[name], integer=name in ("lines_range", "stops_range", "grid_range"))
         for name in row}
    geo = layout(size, k["grid"])
    cols, rows = geo["cols"], geo["rows"]
    n_lines = k["lines"]
    for _ in range(30):
        used, diag, walks = set(), set(), []
        for _ in range(n_lines):
            for _ in range(20):
                p = line_walk(rng, cols, rows, k["stops"], k["straight"], used, diag)
                if p is not None:
                    break
            else:
                break
            walks.append(p)
            for a, b in zip(p, p[1:]):
                used.add(frozenset((a, b)))
                if a[0] != b[0] and a[1] != b[1]:
                    diag.add((min(a[0], b[0]), min(a[1], b[1])))
        stations = len({n for p in walks for n in p})
        if len(walks) == n_lines and stations < sum(len(p) for p in walks) and stations <= len(LETTERS):
            break           # a map whose lines meet somewhere, with a letter for every station
    else:
        raise Reject(f"{NAME}.no_map")
    nodes = sorted({n for p in walks for n in p}, key=lambda n: (n[1], n[0]))
    index = {n: i for i, n in enumerate(nodes)}
    (x0, x1), (y0, y1) = geo["x"], geo["y"]
    sx, sy = (x1 - x0) / (cols - 1), (y1 - y0) / (rows - 1)
    jitter = 0.06 * min(sx, sy)
    stations = tuple((round(x0 + c * sx + float(rng.uniform(-jitter, jitter)), 2),
                      round(y0 + r * sy + float(rng.uniform(-jitter, jitter)), 2)) for c, r in nodes)
    colours = [list(LINES)[i] for i in rng.choice(len(LINES), n_lines, replace=False)]
    lines = tuple((c, tuple(index[n] for n in p)) for c, p in zip(colours, walks))
    names = tuple(LETTERS[i] for i in rng.choice(len(LETTERS), len(nodes), replace=False))
    lw = max(3, round(5 * scale))
    radius = max(4, round(5.5 * scale))
    px = max(LABEL_PX, round(LABEL_PX * scale))
    label_at = place_labels(rng, size, stations, lines, names, lw, radius, px, geo["legend_top"])
    # the question
    numbered = bool(rng.random() < k["numbered"])
    if rng.random() < k["between"]:
        li = int(rng.integers(n_lines))
        stops = lines[li][1]
        gap = int(rng.integers(2, len(stops)))          # stations apart along the line (>= 2: one between)
        a = int(rng.integers(0, len(stops) - gap))
        ends = (stops[a], stops[a + gap]) if rng.random() < 0.5 else (stops[a + gap], stops[a])
        target = f"between:{li}:{names[ends[0]]}:{names[ends[1]]}"
    else:
        counts = [sum(s in st for _, st in lines) for s in range(len(nodes))]
        shared = [s for s, c in enumerate(counts) if c >= 2]
        pool = shared if shared and rng.random() < 0.75 else list(range(len(nodes)))
        target = f"lines:{names[pool[int(rng.integers(len(pool)))]]}"
    k["interchanges"] = float(sum(sum(s in st for _, st in lines) >= 2 for s in range(len(nodes))))
    return Params(size=size, target=target, numbered=numbered, lines=lines, stations=stations, names=names,
                  label_at=label_at, geometry=(float(lw), float(radius), float(px), geo["legend_top"]),
                  clutter=k["clutter"], bg_seed=int(rng.integers(2**31)), knobs=k)


def place_labels(rng: np.random.Generator, size: tuple[int, int], stations, lines, names, lw: float, radius: float,
                 px: int, legend_top: int) -> tuple[tuple[float, float], ...]:
    """Top-left corner of every station's label: beside its station, clear of every line, station and label.
    What a label must keep clear of is drawn once into a mask, grown by the gap; a candidate box is free
    when the mask's integral image counts nothing inside it (rounded outwards)."""
    w, h = size
    gap = LABEL_GAP * min(w, h) / 320
    pts = np.array(stations)
    counts = np.array([sum(s in st for _, st in lines) for s in range(len(stations))])
    radii = np.where(counts >= 2, radius * BIG, radius) + 1      # + 1: the marker's soft edge
    blocked = np.zeros((h, w), np.uint8)
    for _, st in lines:
        cv2.polylines(blocked, [np.round(pts[list(st)] * 4).astype(np.int32)], False, 1,
                      int(np.ceil(lw + 4 * gap + 2)), cv2.LINE_8, shift=2)
    for (cx, cy), r in zip(stations, radii):
        cv2.circle(blocked, (round(cx * 4), round(cy * 4)), int(np.ceil((r + 2 * gap) * 4)), 1, -1, cv2.LINE_8, shift=2)
    integral = cv2.integral(blocked)
    # every station's 32 candidate boxes at once: 16 ways round it, then the same 16 a little farther
    ang = np.arange(32) * np.pi / 8
    ux, uy = np.cos(ang)[None], np.sin(ang)[None]
    size = np.array([text_size(n, px) for n in names], np.float64)
    tw, th = size[:, :1], size[:, 1:]
    d = (radii + 2 * gap + 1)[:, None]
    reach = d + np.where(np.arange(32) < 16, 0.0, 0.4 * th) + np.minimum(
        np.abs(tw / 2 / np.where(np.abs(ux) > 1e-9, ux, 1e-9)), np.abs(th / 2 / np.where(np.abs(uy) > 1e-9, uy, 1e-9)))
    for _ in range(12):             # push out the boxes whose corner still comes closer than d
        short = np.hypot(np.maximum(np.abs(ux * reach) - tw / 2, 0), np.maximum(np.abs(uy * reach) - th / 2, 0)) < d
        if not short.any():
            break
        reach = reach + short
    x0, y0 = pts[:, :1] + ux * reach - tw / 2, pts[:, 1:] + uy * reach - th / 2
    boxes = np.stack([x0, y0, x0 + tw, y0 + th], 2)                          # (stations, 32, 4)
    ok = (x0 >= 2) & (y0 >= 2) & (x0 + tw <= w - 2) & (y0 + th <= legend_top - 2)
    bx0, by0 = np.clip(np.floor(x0).astype(int), 0, w), np.clip(np.floor(y0).astype(int), 0, h)
    bx1, by1 = np.clip(np.ceil(x0 + tw).astype(int), 0, w), np.clip(np.ceil(y0 + th).astype(int), 0, h)
    ok &= (integral[by1, bx1] - integral[by0, bx1] - integral[by1, bx0] + integral[by0, bx0]) == 0
    placed, out = [], []
    for i in range(len(stations)):
        order = np.r_[rng.permutation(16), 16 + rng.permutation(16)]
        for j in order:
            if not ok[i, j]:
                continue
            bx = boxes[i, j]
            # apart from the labels placed so far
            if all(bx[2] + gap <= q[0] or q[2] <= bx[0] - gap or bx[3] + gap <= q[1] or q[3] <= bx[1] - gap
                   for q in placed):
                placed.append(bx)
                out.append((round(float(bx[0]), 2), round(float(bx[1]), 2)))
                break
        else:
            raise Reject(f"{NAME}.no_label_room")
    return tuple(out)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of lines."""
    return float(len(params.lines))


# ---------------------------------------------------------------- drawing

@lru_cache(maxsize=128)
def text_rgba(text: str, px: int, rgb: tuple = (25, 25, 30)) -> np.ndarray:
    """A label: dark bold text with a thin white outline, on a transparent image as wide as text_size."""
    tw, th = text_size(text, px)
    x0, y0, _, _ = _font(px).getbbox(text, stroke_width=1)
    img = Image.new("RGBA", (tw, th), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((-x0, -y0), text, font=_font(px), fill=(*rgb, 255), stroke_width=1,
                             stroke_fill=(255, 255, 255, 255))
    out = np.asarray(img).copy()
    out.flags.writeable = False
    return out


@lru_cache(maxsize=16)
def _disc(r: float, fill, edge, edge_w: int) -> np.ndarray:
    n = int(math.ceil(2 * r)) + 3
    out = np.zeros((n, n, 4), np.uint8)
    c = round(n / 2 * 4)
    cv2.circle(out, (c, c), round(r * 4), (*edge, 255), -1, cv2.LINE_AA, shift=2)
    cv2.circle(out, (c, c), round((r - edge_w) * 4), (*fill, 255), -1, cv2.LINE_AA, shift=2)
    out.flags.writeable = False
    return out


def render(params: Params) -> Puzzle:
    """Lines (1..L), stations (L + 1 ..), labels, legend entries. extras: per line its station ids, per station
    its label id, the legend entry ids."""
    w, h = params.size
    lw, radius, px, legend_top = params.geometry
    px = int(px)
    bg = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    canvas = draw.Canvas(cv2.addWeighted(bg, 0.5, np.full_like(bg, 248), 0.5, 0))
    meta, nid = {}, 1
    pts = np.array(params.stations)
    line_ids = []
    for k, (colour, st) in enumerate(params.lines):
        layer = np.zeros((h, w), np.uint8)
        cv2.polylines(layer, [np.round(pts[list(st)] * 4).astype(np.int32)], False, 255, int(lw), cv2.LINE_AA, shift=2)
        x, y, bw, bh = cv2.boundingRect(layer)
        rgba = np.dstack([np.full((bh, bw, 3), LINES[colour][0], np.uint8), layer[y:y + bh, x:x + bw]])
        canvas.paste(rgba, x, y, nid)
        meta[nid] = {"role": "line", "label": f"line {k + 1} ({colour})", "kind": colour}
        line_ids.append(nid)
        nid += 1
    counts = [sum(s in st for _, st in params.lines) for s in range(len(pts))]
    station_ids, label_ids = [], []
    for s, (cx, cy) in enumerate(params.stations):
        big = counts[s] >= 2
        spr = _disc(radius * (BIG if big else 1.0), (255, 255, 255), (30, 30, 35), 2 if big else 1)
        canvas.paste(spr, int(round(cx - spr.shape[1] / 2)), int(round(cy - spr.shape[0] / 2)), nid)
        meta[nid] = {"role": "station", "label": f"station {params.names[s]}", "kind": "interchange" if big else "stop"}
        station_ids.append(nid)
        nid += 1
    for s, (lx, ly) in enumerate(params.label_at):
        canvas.paste(text_rgba(params.names[s], px), int(round(lx)), int(round(ly)), nid)
        meta[nid] = {"role": "label", "label": params.names[s], "kind": "label"}
        label_ids.append(nid)
        nid += 1
    # the legend: a white strip, per line a bar of its colour and its number
    cv2.rectangle(canvas.rgb, (0, legend_top), (w - 1, h - 1), (255, 255, 255), -1)
    cv2.line(canvas.rgb, (0, legend_top), (w - 1, legend_top), (180, 180, 185), 1)
    n = len(params.lines)
    slot = w / n
    bar_w = min(0.5 * slot, 40 * w / 320)
    legend_ids = []
    cy = (legend_top + h) / 2
    for k, (colour, _) in enumerate(params.lines):
        num = text_rgba(str(k + 1), px)
        total = bar_w + 4 + num.shape[1]
        bx = k * slot + (slot - total) / 2
        bar = np.zeros((int(lw) + 2, int(bar_w), 4), np.uint8)
        bar[..., :3] = LINES[colour][0]
        bar[..., 3] = 255
        canvas.paste(bar, int(round(bx)), int(round(cy - bar.shape[0] / 2)), nid)
        canvas.paste(num, int(round(bx + bar_w + 4)), int(round(cy - num.shape[0] / 2)), nid + 1)
        meta[nid] = {"role": "legend", "label": f"legend bar of line {k + 1}", "kind": colour}
        meta[nid + 1] = {"role": "legend", "label": f"legend number {k + 1}", "kind": "label"}
        legend_ids.append((nid, nid + 1))
        nid += 2
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta,
                  extras={"lines": line_ids, "stations": station_ids, "labels": label_ids, "legend": legend_ids})


# ---------------------------------------------------------------- verification

def answer(params: Params) -> int:
    kind, *rest = params.target.split(":")
    if kind == "between":
        li, a, b = int(rest[0]), params.names.index(rest[1]), params.names.index(rest[2])
        st = params.lines[li][1]
        return abs(st.index(a) - st.index(b)) - 1
    s = params.names.index(rest[0])
    return sum(s in st for _, st in params.lines)


def solve(params: Params, puzzle: Puzzle) -> Task:
    w, h = params.size
    scale = min(w, h) / 320
    lw, radius, px, legend_top = params.geometry
    inst = puzzle.instances
    boxes = draw.instance_boxes(inst)
    areas = draw.instance_areas(inst)
    ex = puzzle.extras
    pts = np.array(params.stations)
    # the map as a graph: stations are distinct, every line a simple path, letters unique
    if len(set(params.names)) != len(params.names):
        raise Reject(f"{NAME}.duplicate_name")
    segs = []
    for k, (_, st) in enumerate(params.lines):
        if len(set(st)) != len(st):
            raise Reject(f"{NAME}.line_revisits")
        segs += [(k, a, b) for a, b in zip(st, st[1:])]
    # no line passes by a station it does not stop at, and lines meet only at stations
    track, owner = track_points(params.stations, params.lines)
    for s, p in enumerate(pts):
        other = np.array([s not in st for _, st in params.lines])[owner]
        if other.any() and np.hypot(*(track[other] - p).T).min() < radius * BIG + lw / 2 + MIN_CLEAR * scale:
            raise Reject(f"{NAME}.line_passes_station")
    a = np.array([pts[x] for _, x, _ in segs])
    b = np.array([pts[y] for _, _, y in segs])
    ends = np.array([(x, y) for _, x, y in segs])
    share = (ends[:, None, :, None] == ends[None, :, None, :]).any((2, 3))       # segments meeting at a station
    same = (np.sort(ends, 1)[:, None] == np.sort(ends, 1)[None]).all(2)
    np.fill_diagonal(same, False)
    if same.any():
        raise Reject(f"{NAME}.shared_track")
    def orient(p, q, r):
        return (q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1]) - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0])
    A, B, C, D = a[:, None], b[:, None], a[None], b[None]
    cross = (orient(C, D, A) * orient(C, D, B) < 0) & (orient(A, B, C) * orient(A, B, D) < 0)
    if (cross & ~share).any():
        raise Reject(f"{NAME}.lines_cross_between_stations")
    # on the render: stations, labels and the legend show whole; labels touch nothing else
    for i in ex["stations"] + ex["labels"] + [j for pair in ex["legend"] for j in pair]:
        if i not in boxes or areas[i] < 0.995 * puzzle.full_area[i]:
            raise Reject(f"{NAME}.covered")
    pad = max(1, round(LABEL_GAP * scale))
    for i in ex["labels"]:
        x0, y0, x1, y1 = (int(v) for v in boxes[i])
        X0, Y0, X1, Y1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
        around = inst[Y0:Y1, X0:X1]
        if np.isin(around, [0, i], invert=True).any():
            raise Reject(f"{NAME}.label_touches")
    for li in ex["lines"]:
        if li not in boxes or areas[li] < 0.5 * puzzle.full_area[li]:
            raise Reject(f"{NAME}.line_hidden")
    if any(boxes[i][3] > legend_top for i in ex["stations"] + ex["labels"] + ex["lines"]):
        raise Reject(f"{NAME}.map_in_legend")
    if px < 10 * scale:
        raise Reject(f"{NAME}.labels_too_small")
    value = answer(params)
    kind = params.target.split(":")[0]
    if kind == "between" and value < 1:
        raise Reject(f"{NAME}.nothing_between")
    objects = []
    for i, m in puzzle.meta.items():
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(float(areas[i]) / max(1, puzzle.full_area[i]), 4)})
    counts = [sum(s in st for _, st in params.lines) for s in range(len(pts))]
    checks = {"lines": float(len(params.lines)), "stations": float(len(pts)),
              "interchanges": float(sum(c >= 2 for c in counts)), "answer": float(value)}
    return Task(rule="type", answer={"count": value}, objects=objects, text=str(value), checks=checks)


def instruction(params: Params, lang: str) -> str:
    kind, *rest = params.target.split(":")
    zh = lang == "zh"
    if kind == "lines":
        return (f"有几条线路在 {rest[0]} 站停靠？请输入数字" if zh
                else f"How many lines stop at station {rest[0]}? Type the number.")
    li, a, b = int(rest[0]), rest[1], rest[2]
    colour = params.lines[li][0]
    if zh:
        line = f"{li + 1}号线" if params.numbered else f"{LINES[colour][1]}色线路"
        return f"在{line}上，{a} 站和 {b} 站之间有几个车站（不含 {a} 和 {b}）？请输入数字"
    line = f"line {li + 1}" if params.numbered else f"the {colour} line"
    return f"How many stations lie between {a} and {b} on {line} (not counting {a} and {b})? Type the number."
