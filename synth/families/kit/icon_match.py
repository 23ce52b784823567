"""Which icon kind a drawn square shows, read from its pixels: each candidate sprite is composed onto the
square's own ground (the picture drawn without the icon) and compared with what is shown, all candidates
and squares at once at a small side. Used by match3 and option_match."""
import cv2
import numpy as np

from synth.families.kit.kinds import colours_confusable

READ_SIDE = 20          # squares are compared shrunk by a whole factor to at most about this side
MIN_MARGIN = 8.0        # grey levels (root-mean-square difference) by which the best kind must beat the next


def shrink(stack: np.ndarray, f: int) -> np.ndarray:
    """(N, s, s, c) squares shrunk by the whole factor `f` (pixel blocks averaged; rows and columns past the
    last whole block dropped), flattened to (N, (s // f)^2 * c) float32. One resize of the squares stacked in a
    column: with a whole factor no output row mixes two squares."""
    n, s = stack.shape[:2]
    m = s // f
    col = np.ascontiguousarray(stack[:, :m * f, :m * f]).reshape(n * m * f, m * f, -1).astype(np.float32)
    small = col if f == 1 else cv2.resize(col, (m, m * n), interpolation=cv2.INTER_AREA)
    return small.reshape(n, -1)


def _mul_t(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b.T as one matrix-vector product per row of b (the few candidates): a BLAS matrix product this
    small spends more time waking its thread pool than computing."""
    return np.stack([a @ row for row in b], axis=1)


def read_icons(shown: np.ndarray, ground: np.ndarray, sprites: np.ndarray, side: int = READ_SIDE) -> np.ndarray:
    """shown, ground: (N, s, s, 3) uint8 squares with and without their icon; sprites: (k, s, s, 4) uint8 RGBA
    candidates drawn as they would be. Returns the root-mean-square difference (N, k), in grey levels, of every
    square from every candidate composed onto its ground. Shrinking is linear, so the shrunk composite is the
    shrunk premultiplied sprite plus the shrunk ground times the shrunk transparency (exact where the ground
    is even within a block); the squared differences expand into matrix products, so that no (N, k) stack of
    images is built."""
    f = max(1, shown.shape[1] // side)
    s, g = shrink(shown, f), shrink(ground, f)
    alpha = sprites[..., 3:].astype(np.float32) * (1 / 255)
    pre = np.concatenate([sprites[..., :3] * alpha, np.repeat(alpha, 3, axis=3)], axis=0)   # (2k, s, s, 3)
    small = shrink(pre, f)
    k = len(sprites)
    paint, a = small[:k], small[k:]
    # |s - paint - g (1 - a)|^2 = |d - e|^2 with d = s - g, e = paint - g a
    d = s - g
    cross = _mul_t(d, paint) - _mul_t(d * g, a)
    e2 = (paint * paint).sum(1)[None] - 2 * _mul_t(g, paint * a) + _mul_t(g * g, a * a)
    sq = (d * d).sum(1)[:, None] - 2 * cross + e2
    return np.sqrt(np.maximum(sq, 0) / s.shape[1])


def best_kinds(errors: np.ndarray) -> tuple[np.ndarray, float]:
    """The best candidate per square and the smallest gap between the best and the next-best error."""
    order = np.sort(errors, axis=1)
    margin = float((order[:, 1] - order[:, 0]).min()) if errors.shape[1] > 1 else float("inf")
    return errors.argmin(axis=1), margin


def look_alike(a: str, b: str) -> bool:
    """Two kinds a person could mix up on a small, noisy icon: a circle and a hexagon of one colour (the
    hexagon reads as round), or one shape in two close hues."""
    if colours_confusable(a, b):
        return True
    if a.startswith("shape:") and b.startswith("shape:"):
        (_, ca, sa), (_, cb, sb) = a.split(":"), b.split(":")
        return ca == cb and {sa, sb} == {"circle", "hexagon"}
    return False
