"""Non-overlapping random placement of square sprites on a puzzle canvas."""
import numpy as np

from synth.families.base import Reject


def overlap(a: tuple, b: tuple) -> float:
    """Intersection area over the smaller box's area, for (x, y, size) squares."""
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[2], b[1] + b[2]) - max(a[1], b[1]))
    return ix * iy / float(min(a[2], b[2]) ** 2)


def place(rng: np.random.Generator, w: int, h: int, sizes: list[int], groups: list[int],
          max_overlap: float, reason: str, tries: int = 300) -> list[tuple[int, int, int]]:
    """Positions (x, y, size) for squares of `sizes` inside (w, h). Squares of the same group may overlap
    up to `max_overlap` (of the smaller one); squares of different groups keep a 3 px gap.
    Raises Reject(reason) when there is no room."""
    placed: list[tuple[int, int, int]] = []
    for size, group in zip(sizes, groups):
        for _ in range(tries):
            x, y = int(rng.integers(2, w - size - 1)), int(rng.integers(2, h - size - 1))
            cand = (x, y, size)
            ok = True
            for other, og in zip(placed, groups):
                if og == group:
                    ok = overlap(cand, other) <= max_overlap
                else:
                    grown = (other[0] - 3, other[1] - 3, other[2] + 6)
                    ok = overlap(cand, grown) == 0
                if not ok:
                    break
            if ok:
                placed.append(cand)
                break
        else:
            raise Reject(reason)
    return placed
