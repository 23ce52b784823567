"""Drawing primitives shared by the families: sprites of the object kinds, backgrounds, compositing with
instance maps."""
from functools import lru_cache

import cv2
import numpy as np
from scipy import ndimage

from synth.core.paths import ASSETS, BACKGROUNDS
from synth.families.kit.kinds import COLOURS

ALPHA_ON = 128   # sprite pixels with alpha >= this belong to the object in the instance map


@lru_cache(maxsize=64)
def _emoji_rgba(name: str) -> np.ndarray:
    img = cv2.imread(str(ASSETS / "emoji" / f"{name}.png"), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise FileNotFoundError(f"missing sprite assets/emoji/{name}.png")
    return cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA)


def _shape_polygon(shape: str, n: int) -> np.ndarray | None:
    c, r = n / 2, n / 2 - 1
    if shape == "triangle":
        pts = [(c, 1), (n - 2, n - 2), (1, n - 2)]
    elif shape == "square":
        pts = [(2, 2), (n - 3, 2), (n - 3, n - 3), (2, n - 3)]
    elif shape == "diamond":
        pts = [(c, 1), (n - 2, c), (c, n - 2), (1, c)]
    elif shape == "hexagon":
        pts = [(c + r * np.cos(a), c + r * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 7)[:-1]]
    elif shape == "star":
        pts = [(c + (r if i % 2 == 0 else r * 0.42) * np.sin(i * np.pi / 5),
                c - (r if i % 2 == 0 else r * 0.42) * np.cos(i * np.pi / 5)) for i in range(10)]
    elif shape == "cross":
        a, b = n * 0.34, n * 0.66
        pts = [(a, 1), (b, 1), (b, a), (n - 2, a), (n - 2, b), (b, b), (b, n - 2), (a, n - 2), (a, b), (1, b), (1, a),
               (a, a)]
    else:
        return None
    return np.round(np.array(pts) * 4).astype(np.int32)   # 2 bits of sub-pixel precision


SMALL_SPRITE = 48   # sprites up to this side share a larger cache: most draws, little memory each


def sprite(key: str, size: int) -> np.ndarray:
    """RGBA (size x size, uint8) image of a kind, object centred, aspect kept (cached: do not modify)."""
    return (_small_sprite if size <= SMALL_SPRITE else _large_sprite)(key, size)


@lru_cache(maxsize=1280)   # at most 1280 x 48 x 48 x 4 bytes = 11 MB
def _small_sprite(key: str, size: int) -> np.ndarray:
    return _draw_sprite(key, size)


@lru_cache(maxsize=8)      # 1.1 MB at the largest side drawn on 320 px puzzles (189 px)
def _large_sprite(key: str, size: int) -> np.ndarray:
    return _draw_sprite(key, size)


def _draw_sprite(key: str, size: int) -> np.ndarray:
    if key.startswith("emoji:"):
        src = _emoji_rgba(key.split(":", 1)[1])
        h, w = src.shape[:2]
        s = size / max(h, w)
        small = cv2.resize(src, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
        out = np.zeros((size, size, 4), np.uint8)
        y, x = (size - small.shape[0]) // 2, (size - small.shape[1]) // 2
        out[y:y + small.shape[0], x:x + small.shape[1]] = small
        return out
    _, colour, shape = key.split(":")
    out = np.zeros((size, size, 4), np.uint8)
    rgb = COLOURS[colour][0]
    if shape == "circle":
        cv2.circle(out, (size * 2, size * 2), size * 2 - 4, (*rgb, 255), -1, cv2.LINE_AA, shift=2)
    else:
        cv2.fillPoly(out, [_shape_polygon(shape, size)], (*rgb, 255), cv2.LINE_AA, shift=2)
    return out


def rotated_side(size: int, angle: float) -> int:
    """Side of the square that holds a `size` square turned by `angle` degrees."""
    t = np.deg2rad(angle)
    return int(np.ceil(size * (abs(np.cos(t)) + abs(np.sin(t))) - 1e-9))


def rotated(rgba: np.ndarray, angle_cw: float) -> np.ndarray:
    """Rotate an RGBA sprite clockwise about its centre onto a canvas of `rotated_side` (nothing clipped)."""
    if angle_cw % 360 == 0:
        return rgba
    h = rgba.shape[0]
    side = rotated_side(h, angle_cw)
    m = cv2.getRotationMatrix2D((h / 2, h / 2), -angle_cw, 1.0)
    m[:, 2] += (side - h) / 2
    return cv2.warpAffine(rgba, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


@lru_cache(maxsize=1)
def _textures() -> tuple[np.ndarray, ...]:
    files = sorted(BACKGROUNDS.glob("texture-*.jpg"))
    if not files:
        raise FileNotFoundError("no textures in backgrounds/: run backgrounds/make_backgrounds.py")
    return tuple(cv2.cvtColor(cv2.imread(str(f)), cv2.COLOR_BGR2RGB) for f in files)


def background(rng: np.random.Generator, w: int, h: int, clutter: float) -> np.ndarray:
    """A puzzle background: a texture crop, washed out towards white as clutter falls (0..1)."""
    textures = _textures()
    tex = textures[int(rng.integers(len(textures)))]
    side = int(rng.integers(160, 512))
    x, y = (int(v) for v in rng.integers(0, 512 - side + 1, 2))
    crop = cv2.resize(tex[y:y + side, x:x + side], (w, h), interpolation=cv2.INTER_LINEAR)
    wash = 0.85 * (1.0 - clutter)
    return cv2.convertScaleAbs(crop, alpha=1 - wash, beta=245 * wash)   # one uint8 pass, no float copies


def blend(under: np.ndarray, over: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """`over` on `under` (uint8 RGB, same shape) with per-pixel uint8 alpha, in uint8 arithmetic
    (within 1 of exact rounding; exact where alpha is 0 or 255)."""
    a3 = cv2.cvtColor(alpha, cv2.COLOR_GRAY2RGB)
    return cv2.add(cv2.multiply(over, a3, scale=1 / 255), cv2.multiply(under, 255 - a3, scale=1 / 255))


def gaussian_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """cv2.GaussianBlur(img, (0, 0), sigma) of a uint8 image, with the same kernel applied by
    sepFilter2D: about twice as fast, within a grey level or two of it."""
    k = cv2.getGaussianKernel(int(round(sigma * 6 + 1)) | 1, sigma)
    return cv2.sepFilter2D(img, -1, k, k)



def round_rect(img: np.ndarray, box, rgb, radius: int, border=None) -> None:
    """A filled rounded rectangle on `img` in place, drawn with OpenCV primitives, with a 1 px `border`
    (RGB) if given."""
    x0, y0, x1, y1 = box
    r = max(1, min(radius, (x1 - x0) // 2, (y1 - y0) // 2))
    col = tuple(int(v) for v in rgb)
    cv2.rectangle(img, (x0 + r, y0), (x1 - 1 - r, y1 - 1), col, -1)
    cv2.rectangle(img, (x0, y0 + r), (x1 - 1, y1 - 1 - r), col, -1)
    corners = ((x0 + r, y0 + r), (x1 - 1 - r, y0 + r), (x1 - 1 - r, y1 - 1 - r), (x0 + r, y1 - 1 - r))
    for c in corners:
        cv2.circle(img, c, r, col, -1)
    if border is not None:
        b = tuple(int(v) for v in border)
        for p, q in (((x0 + r, y0), (x1 - 1 - r, y0)), ((x0 + r, y1 - 1), (x1 - 1 - r, y1 - 1)),
                     ((x0, y0 + r), (x0, y1 - 1 - r)), ((x1 - 1, y0 + r), (x1 - 1, y1 - 1 - r))):
            cv2.line(img, p, q, b, 1)
        for c, a in zip(corners, (180, 270, 0, 90)):
            cv2.ellipse(img, c, (r, r), 0, a, a + 90, b, 1)



@lru_cache(maxsize=8)
def disc_mask(d: int) -> np.ndarray:
    """Boolean d x d mask of a disc (a round picture) inside the square (cached: read-only)."""
    circle = np.zeros((d, d), np.uint8)
    cv2.circle(circle, (d // 2, d // 2), d // 2 - 1, 1, -1)
    disc = circle.astype(bool)
    disc.setflags(write=False)
    return disc


class Canvas:
    """An RGB image plus a z-ordered instance map: later pastes cover earlier ones."""

    def __init__(self, rgb: np.ndarray) -> None:
        self.rgb = rgb
        self.instances = np.zeros(rgb.shape[:2], np.uint8)
        self.full_area: dict[int, int] = {}

    def paste(self, rgba: np.ndarray, x: int, y: int, instance: int, opacity: float = 1.0,
              hides: bool = True) -> None:
        """Alpha-blend `rgba` with its top-left at (x, y); where it is opaque enough and `hides`,
        the instance map takes `instance`. Parts outside the canvas are clipped (and counted as hidden)."""
        h, w = rgba.shape[:2]
        H, W = self.instances.shape
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
        alpha = cv2.extractChannel(rgba, 3)
        on = alpha >= ALPHA_ON
        self.full_area[instance] = int(np.count_nonzero(on))
        if x0 >= x1 or y0 >= y1:
            return
        src = rgba[y0 - y:y1 - y, x0 - x:x1 - x]
        a = alpha[y0 - y:y1 - y, x0 - x:x1 - x]
        if opacity != 1.0:
            a = cv2.convertScaleAbs(a, alpha=opacity)
        region = self.rgb[y0:y1, x0:x1]
        region[...] = blend(region, cv2.cvtColor(src, cv2.COLOR_RGBA2RGB), a)
        if hides:
            self.instances[y0:y1, x0:x1][on[y0 - y:y1 - y, x0 - x:x1 - x]] = instance


def median_of_counts(counts: np.ndarray) -> float:
    """The median (as np.median gives it) of uint8 values given as a count per value."""
    count = np.cumsum(counts)
    n = int(count[-1])
    middle = np.searchsorted(count, [(n - 1) // 2, n // 2], side="right")
    return (int(middle[0]) + int(middle[1])) / 2


def instance_boxes(instances: np.ndarray) -> dict[int, list[float]]:
    """[x0, y0, x1, y1] pixel-edge box of every instance id present in the map, in one pass."""
    return {i + 1: [float(sx.start), float(sy.start), float(sx.stop), float(sy.stop)]
            for i, found in enumerate(ndimage.find_objects(instances)) if found is not None
            for sy, sx in [found]}


def instance_areas(instances: np.ndarray) -> np.ndarray:
    """Pixels of every instance id 0..255 in the (uint8) map, as int64: np.bincount(instances.ravel(),
    minlength=256), counted by calcHist, which does not widen every pixel to int64 first."""
    return cv2.calcHist([instances], [0], None, [256], [0, 256]).ravel().astype(np.int64)


def mask_box(mask: np.ndarray) -> list[float] | None:
    """[x0, y0, x1, y1] pixel-edge box of a boolean mask, or None if empty."""
    x, y, w, h = cv2.boundingRect(np.asarray(mask, bool).view(np.uint8))
    if w == 0:
        return None
    return [float(x), float(y), float(x + w), float(y + h)]


def inner_point(mask: np.ndarray) -> list[float]:
    """A point deep inside a mask (the maximum of its distance transform), as pixel-centre [x, y];
    [0.5, 0.5] for an empty mask. Measured on the mask's bounding box plus a 1 px ring of background:
    the same distances as on the whole (zero-padded) mask, since every path to background outside the
    box crosses that ring (up to float rounding, which can pick another of two equally deep pixels)."""
    m = np.asarray(mask, bool).view(np.uint8)
    x0, y0, w, h = cv2.boundingRect(m)
    if w == 0:
        return [0.5, 0.5]
    crop = cv2.copyMakeBorder(m[y0:y0 + h, x0:x0 + w], 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    dist = cv2.distanceTransform(crop, cv2.DIST_L2, 3)[1:-1, 1:-1]
    y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
    return [float(x0 + x) + 0.5, float(y0 + y) + 0.5]
