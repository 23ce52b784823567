"""Non-overlapping random placement of square sprites on a puzzle canvas."""
import numpy as np

from synth.core.errors import Reject


def place(rng: np.random.Generator, w: int, h: int, sizes: list[int], groups: list[int],
          max_overlap: float, reason: str, tries: int = 300) -> list[tuple[int, int, int]]:
    """Positions (x, y, size) for squares of `sizes` inside (w, h). Squares of the same group may overlap
    up to `max_overlap` (of the smaller one); squares of different groups keep a 3 px gap.
    Raises Reject(reason) when there is no room."""
    if max_overlap < 0:
        raise ValueError(f"max_overlap={max_overlap} must be >= 0")
    placed: list[tuple[int, int, int, int]] = []
    for size, group in zip(sizes, groups):
        # per placed square: the open ranges of top-left x and y at which a candidate meets it
        # (grown by 3 px when of another group); only those candidates need the overlap test
        near = []
        for ox, oy, os, og in placed:
            pad = 0 if og == group else 3
            near.append((ox - size - pad, ox + os + pad, oy - size - pad, oy + os + pad, ox, oy, os, pad))
        for _ in range(tries):
            x, y = int(rng.integers(2, w - size - 1)), int(rng.integers(2, h - size - 1))
            for ax, bx, ay, by, ox, oy, os, pad in near:
                if ax < x < bx and ay < y < by:
                    if pad:
                        break
                    ix = min(x + size, ox + os) - max(x, ox)
                    iy = min(y + size, oy + os) - max(y, oy)
                    if ix * iy / float(min(size, os) ** 2) > max_overlap:
                        break
            else:
                placed.append((x, y, size, group))
                break
        else:
            raise Reject(reason)
    return [(x, y, s) for x, y, s, _ in placed]


def free_spots(rng: np.random.Generator, w: int, h: int, sides: list[int], gap: int, reason: str,
               tries: int = 400) -> list[tuple[int, int]]:
    """Top-left corners of squares of `sides` inside (w, h), every pair at least `gap` apart."""
    placed: list[tuple[int, int, int]] = []
    for s in sides:
        for _ in range(tries):
            x, y = int(rng.integers(3, w - s - 2)), int(rng.integers(3, h - s - 2))
            if all(x + s + gap <= px or px + ps + gap <= x or y + s + gap <= py or py + ps + gap <= y
                   for px, py, ps in placed):
                placed.append((x, y, s))
                break
        else:
            raise Reject(reason)
    return [(x, y) for x, y, _ in placed]
