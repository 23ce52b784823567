"""Cube geometry shared by dice_path and box_fold: face frames, the 24 rotations, rolling, cube nets and
folding, an orthographic camera, and drawing a cube's visible faces as instances (each face a textured quad).

Conventions: world x points east, y north, z up. A face carries a frame (N, R, D): its outward normal and the
directions of its texture's right and down edges, with R x D = -N (the texture seen from outside, unmirrored)."""
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations, product

import cv2
import numpy as np

from synth.families.kit import draw

Vec = tuple[int, int, int]
# the six faces of an unturned cube: name -> (N, R, D); a texture on "top" has its up edge to the north
FRAMES: dict[str, tuple[Vec, Vec, Vec]] = {
    "top": ((0, 0, 1), (1, 0, 0), (0, -1, 0)),
    "bottom": ((0, 0, -1), (1, 0, 0), (0, 1, 0)),
    "south": ((0, -1, 0), (1, 0, 0), (0, 0, -1)),
    "north": ((0, 1, 0), (-1, 0, 0), (0, 0, -1)),
    "east": ((1, 0, 0), (0, 1, 0), (0, 0, -1)),
    "west": ((-1, 0, 0), (0, -1, 0), (0, 0, -1)),
}
FACE_OF_NORMAL = {v[0]: k for k, v in FRAMES.items()}
SHOWN = ("top", "south", "east")        # the faces a camera south-east of the cube and above it sees
# the 11 nets of a cube, landscape (rows of cells, X = a face)
NETS = (("X...", "XXXX", "X..."), ("XXX..", "..XXX"), ("XX..", ".XXX", ".X.."), ("XX..", ".XXX", "..X."),
        ("XX..", ".XXX", "...X"), ("X...", "XXXX", ".X.."), ("XX..", ".XX.", "..XX"), ("X...", "XXXX", "..X."),
        ("X...", "XXXX", "...X"), (".X..", "XXXX", ".X.."), (".X..", "XXXX", "..X."))


def neg(v) -> Vec:
    return tuple(-a for a in v)


def cross(a, b) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@lru_cache(maxsize=1)
def rotations() -> tuple[np.ndarray, ...]:
    """The 24 proper rotations of a cube as integer 3x3 matrices (the identity first)."""
    out = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = np.zeros((3, 3), np.int64)
            for row, (col, s) in enumerate(zip(perm, signs)):
                m[row, col] = s
            if round(np.linalg.det(m)) == 1:
                m.flags.writeable = False
                out.append(m)
    out.sort(key=lambda m: (not np.array_equal(m, np.eye(3)), m.tobytes()))
    return tuple(out)


def turn(m: np.ndarray, v) -> Vec:
    return tuple(int(a) for a in m @ np.asarray(v))


# rolling one cell: the cube turns about a horizontal axis so that its top goes the way it rolls
ROLLS = {"N": np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]]), "S": np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]]),
         "E": np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]), "W": np.array([[0, 0, -1], [0, 1, 0], [1, 0, 0]])}
STEPS = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


def roll(q: np.ndarray, direction: str) -> np.ndarray:
    """The orientation (body -> world rotation) after rolling one cell towards `direction` (N, E, S, W)."""
    return ROLLS[direction] @ q


def face_towards(q: np.ndarray, world_face: str) -> str:
    """Which body face of a cube turned by `q` faces the world direction `world_face`."""
    return FACE_OF_NORMAL[turn(q.T, FRAMES[world_face][0])]


# ---------------------------------------------------------------- nets

def net_cells(rows: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """(col, row) of the faces of a net given as rows of "X" and "."."""
    return tuple((c, r) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "X")


def transform_net(rows: tuple[str, ...], k: int) -> tuple[str, ...]:
    """One of the 8 symmetries of a net (k in 0..7: quarter turns, then a mirror for k >= 4)."""
    grid = [list(r) for r in rows]
    if k >= 4:
        grid = [r[::-1] for r in grid]
    for _ in range(k % 4):
        grid = [list(r) for r in zip(*grid[::-1])]
    return tuple("".join(r) for r in grid)


def fold(cells) -> dict[tuple[int, int], tuple[Vec, Vec, Vec]]:
    """Fold a net (cells (col, row); marks face the viewer, the paper folds away from them) into a cube:
    each cell's frame (N, R, D) in the cube's own axes. The first cell lies towards +z, its texture's right
    to +x. ValueError when the cells are not a net."""
    cells = list(cells)
    frames = {cells[0]: ((0, 0, 1), (1, 0, 0), (0, -1, 0))}
    todo = [cells[0]]
    while todo:
        c = todo.pop()
        n, r, d = frames[c]
        for (dc, dr), frame in (((1, 0), (r, neg(n), d)), ((-1, 0), (neg(r), n, d)),
                                ((0, 1), (d, r, neg(n))), ((0, -1), (neg(d), r, n))):
            nb = (c[0] + dc, c[1] + dr)
            if nb in cells and nb not in frames:
                frames[nb] = frame
                todo.append(nb)
    if len(frames) != len(cells) or len({f[0] for f in frames.values()}) != 6:
        raise ValueError(f"cells {cells} are not a cube net")
    return frames


def quarter_turns(r_world, position: str) -> int:
    """How a face whose texture's right edge points along `r_world` sits at a shown position: k quarter turns
    of its texture clockwise (0 = laid as the position's own frame)."""
    _, pr, pd = FRAMES[position]
    axes = [pr, pd, neg(pr), neg(pd)]
    return axes.index(tuple(r_world))


def position_axes(position: str, k: int) -> tuple[Vec, Vec]:
    """(R, D) of a texture turned k quarter turns at a shown position (the inverse of quarter_turns)."""
    n, pr, pd = FRAMES[position]
    r = [pr, pd, neg(pr), neg(pd)][k % 4]
    return r, cross(r, n)


# ---------------------------------------------------------------- camera

@dataclass(frozen=True)
class View:
    """An orthographic camera south-east of the scene, `yaw` degrees east of south and `pitch` degrees above
    the horizon; world units become `scale` pixels and the world origin lands at (ox, oy)."""
    yaw: float
    pitch: float
    scale: float
    ox: float
    oy: float

    def axes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(right, up, forward) unit vectors of the camera, in world axes."""
        return _axes(self.yaw, self.pitch)

    def project(self, pts) -> np.ndarray:
        """(n, 2) screen points of (n, 3) world points."""
        right, up, _ = _axes(self.yaw, self.pitch)
        p = np.asarray(pts, np.float64).reshape(-1, 3)
        return np.stack([self.ox + self.scale * (p @ right), self.oy - self.scale * (p @ up)], 1)

    def visible(self, normal) -> bool:
        return float(np.dot(normal, self.axes()[2])) < -1e-6


@lru_cache(maxsize=256)
def _axes(yaw: float, pitch: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y, p = np.deg2rad(yaw), np.deg2rad(pitch)
    forward = -np.array([np.cos(p) * np.sin(y), -np.cos(p) * np.cos(y), np.sin(p)])
    right = np.array([np.cos(y), np.sin(y), 0.0])
    up = np.array([-np.sin(y) * np.sin(p), np.cos(y) * np.sin(p), np.cos(p)])     # right x forward
    for v in (forward, right, up):
        v.flags.writeable = False
    return right, up, forward


def face_quad(view: View, centre, n, r, d, side: float) -> np.ndarray:
    """Screen corners (4, 2) of a face: texture top-left, top-right, bottom-right, bottom-left."""
    c = np.asarray(centre, np.float64) + np.asarray(n, np.float64) * side / 2
    r, d = np.asarray(r, np.float64) * side / 2, np.asarray(d, np.float64) * side / 2
    return view.project([c - r - d, c + r - d, c + r + d, c - r + d])


def warp_texture(texture: np.ndarray, quad: np.ndarray) -> tuple[int, int, np.ndarray]:
    """(x0, y0, RGBA) of a square RGBA texture mapped affinely onto a screen quad (TL, TR, BR, BL)."""
    n = texture.shape[0]
    x0, y0 = (int(np.floor(v)) - 1 for v in quad.min(0))
    x1, y1 = (int(np.ceil(v)) + 2 for v in quad.max(0))
    src = np.float32([[0, 0], [n, 0], [0, n]])
    dst = np.float32([quad[0] - (x0, y0), quad[1] - (x0, y0), quad[3] - (x0, y0)])
    m = cv2.getAffineTransform(src, dst)
    out = cv2.warpAffine(texture, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=(0, 0, 0, 0))
    return x0, y0, out


def unwarp(rgb: np.ndarray, quad: np.ndarray, n: int) -> np.ndarray:
    """The pixels of a screen quad (TL, TR, BR, BL) mapped back onto an n x n square (the inverse of
    warp_texture), for reading a face back from the render."""
    m = cv2.getAffineTransform(np.float32([quad[0], quad[1], quad[3]]), np.float32([[0, 0], [n, 0], [0, n]]))
    return cv2.warpAffine(rgb, m, (n, n), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def shade(texture: np.ndarray, factor: float) -> np.ndarray:
    """A texture darkened by `factor` (the side away from the light), alpha kept."""
    out = texture.copy()
    out[..., :3] = cv2.convertScaleAbs(texture[..., :3], alpha=factor)
    return out


SHADES = {"top": 1.0, "south": 0.88, "east": 0.76}


def paste_cube(canvas: draw.Canvas, view: View, centre, side: float, textures: dict[str, np.ndarray],
               frames: dict[str, tuple[Vec, Vec, Vec]], ids: dict[str, int], edge_rgb=(40, 40, 48)
               ) -> dict[str, np.ndarray]:
    """Draw the shown faces of a cube: `frames` maps each shown position to the (N, R, D) its texture is laid
    with, `textures` to the texture; face instance `ids[position]`. Returns each face's screen quad."""
    quads = {}
    width = max(1, round(side * view.scale / 34))
    for pos in SHOWN:
        n, r, d = frames[pos]
        quad = face_quad(view, centre, n, r, d, side)
        x0, y0, rgba = warp_texture(shade(textures[pos], SHADES[pos]), quad)
        canvas.paste(rgba, x0, y0, ids[pos])
        quads[pos] = quad
    for quad in quads.values():
        cv2.polylines(canvas.rgb, [np.round(quad * 4).astype(np.int32)], True, edge_rgb, width, cv2.LINE_AA, shift=2)
    return quads


def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float, n: int = 6) -> np.ndarray:
    """Outline (k, 2) of a rectangle with rounded corners."""
    r = min(r, (x1 - x0) / 2, (y1 - y0) / 2)
    centres = [(x1 - r, y0 + r), (x1 - r, y1 - r), (x0 + r, y1 - r), (x0 + r, y0 + r)]
    out = []
    for (cx, cy), start in zip(centres, (-90, 0, 90, 180)):
        a = np.deg2rad(np.linspace(start, start + 90, n))
        out.append(np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1))
    return np.concatenate(out)


def quad_mask(shape: tuple[int, int], quad: np.ndarray, inset: float = 0.0) -> np.ndarray:
    """Boolean mask of a quad's inside, shrunk towards its centre by `inset` (share of its size)."""
    c = quad.mean(0)
    q = c + (quad - c) * (1 - inset)
    m = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(m, np.round(q * 4).astype(np.int32), 1, cv2.LINE_8, shift=2)
    return m.astype(bool)
