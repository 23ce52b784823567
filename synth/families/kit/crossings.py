"""Where two polylines cross and how steeply, and whether two lines meet only at clear crossings (never running
alongside or touching elsewhere): shared by path and ribbons, whose answers depend on lines a person can follow."""
import math
from functools import lru_cache

import numpy as np


@lru_cache(maxsize=8)
def _apart(n: int) -> np.ndarray:
    """n x n: True where two segments of one polyline are not the same or neighbours."""
    i = np.arange(n)
    apart = np.abs(i[:, None] - i[None, :]) > 1
    apart.flags.writeable = False
    return apart


def crossings(a: np.ndarray, b: np.ndarray, same: bool = False) -> list[tuple[float, float, float, int]]:
    """Where polylines a and b cross: (x, y, angle in degrees 0-90, index of the segment of a).
    With `same` (a is b), neighbouring segments are not compared."""
    # only segments whose boxes overlap can cross (the margin, far above rounding, keeps every pair that could);
    # those few pairs get the exact segment intersection test
    lo_a, hi_a = np.minimum(a[:-1], a[1:]) - 1e-6, np.maximum(a[:-1], a[1:]) + 1e-6
    lo_b, hi_b = np.minimum(b[:-1], b[1:]), np.maximum(b[:-1], b[1:])
    boxes_meet = ((lo_a[:, None, 0] <= hi_b[None, :, 0]) & (lo_b[None, :, 0] <= hi_a[:, None, 0])
                  & (lo_a[:, None, 1] <= hi_b[None, :, 1]) & (lo_b[None, :, 1] <= hi_a[:, None, 1]))
    if same:
        boxes_meet &= _apart(len(boxes_meet))
    if not boxes_meet.any():
        return []
    pairs = np.argwhere(boxes_meet).tolist()
    pa, pb = a.tolist(), b.tolist()
    out = []
    for i, j in pairs:
        (px, py), (qx, qy) = pa[i], pb[j]
        rx, ry, sx, sy = pa[i + 1][0] - px, pa[i + 1][1] - py, pb[j + 1][0] - qx, pb[j + 1][1] - qy
        rxs = rx * sy - ry * sx
        if abs(rxs) <= 1e-9:
            continue
        t = ((qx - px) * sy - (qy - py) * sx) / rxs
        u = ((qx - px) * ry - (qy - py) * rx) / rxs
        if 0 <= t < 1 and 0 <= u < 1:
            cosang = abs(rx * sx + ry * sy) / (math.sqrt(rx * rx + ry * ry) * math.sqrt(sx * sx + sy * sy))
            out.append((px + t * rx, py + t * ry, math.degrees(math.acos(min(1.0, cosang))), i))
    return out


def _runs(close: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) index of every run of consecutive True values."""
    if not close.any():
        return []
    edges = np.diff(np.r_[0, close.astype(np.int8), 0])
    return list(zip(np.nonzero(edges == 1)[0].tolist(), (np.nonzero(edges == -1)[0] - 1).tolist()))


def pair_issue(a: np.ndarray, b: np.ndarray, min_angle: float, lw: float, scale: float
               ) -> tuple[str | None, list]:
    """(reject reason or None, crossings) for two polylines: they cross at least `min_angle` steeply and never
    run within a few line widths of each other except right at a crossing."""
    xs = crossings(a, b)
    for _, _, ang, _ in xs:
        if ang < min_angle:
            return "shallow_crossing", xs
    near = 2.5 * lw + 2
    sq = (a[:, None, 0] - b[None, :, 0]) ** 2 + (a[:, None, 1] - b[None, :, 1]) ** 2
    for line, d, along_b in ((a, np.sqrt(sq.min(1)), False), (b, np.sqrt(sq.min(0)), True)):
        runs = _runs(d < near)
        if not runs:
            continue
        if along_b:                 # crossing segment indices along b
            idx = [int(np.argmin(np.hypot(*(b[:-1] + np.diff(b, axis=0) / 2 - [x, y]).T))) for x, y, _, _ in xs]
        else:
            idx = [x[3] for x in xs]
        seg = np.r_[0, np.linalg.norm(np.diff(line, axis=0), axis=1)]
        for i, j in runs:           # each run of one line close to the other must hold a crossing and be short
            inside = [x for x, k in zip(xs, idx) if i - 1 <= k <= j]
            if not inside:
                return "lines_touch", xs
            allowed = 2 * near / np.sin(np.radians(min(x[2] for x in inside))) * 1.3 + 4 * scale
            if seg[i + 1:j + 1].sum() > allowed * len(inside):
                return "parallel_run", xs
    return None, xs
