"""Dice roll path: a die on a square of a board seen from above at a slant (top and two side faces showing their
pips) and a path of arrows from it; the die rolls one square per arrow; type the number on top at the end."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import cube as cube
from synth.families.kit import draw
from synth.families.kit.die import FACES as PIP_LAYOUT
from synth.families.kit.die import GRID as PIP_GRID

NAME = "dice_path"
DESCRIPTION = "a die rolls along a path of arrows on a board, one square per arrow; type the number on top at the end"
ANSWERS = ("type",)             # synth.labels.reward step types of its tasks
COVERS = ("NextGenCAPTCHAs:Dice_Roll_Path", "VenusBench-CAPTCHA:visual_reasoning")
STAT, STAT_DIRECTION = "number of rolls along the path", +1
# a standard die (opposite faces add up to 7; 1, 2 and 3 run counter-clockwise round their corner)
BODY = {"top": 1, "bottom": 6, "south": 2, "north": 5, "east": 3, "west": 4}
DIE_SIDE = 0.84          # die side, in cells
TEXTURE = 64             # px of a face texture
PIP_R = 0.095            # pip radius, share of the face side
FACE_INSET = 0.16        # pips are counted inside each face shrunk by this share (its outline left out)
MIN_PIP_PX = 9           # px at 320 of each pip as drawn
MIN_PIP_CONTRAST = 70.0  # luma gap between the pips and their face
ARROW_AT = 0.55          # where along a step its arrowhead sits (the first step's clear of the die)
ARROW_FIRST = 0.8
CLEAR_PX = 2             # path pixels keep this far from the die's outline
RING = 0.3               # radius of the ring round a path's end, in cells
PATH_RGB = {"red": ((214, 48, 40), "红色"), "blue": ((36, 96, 214), "蓝色")}
DIE_BODIES = {"white": ((250, 250, 246), (28, 28, 30)), "ivory": ((242, 234, 212), (30, 30, 30)),
              "red": ((205, 40, 40), (252, 252, 252)), "blue": ((40, 80, 190), (252, 252, 252))}

TABLE = LevelTable(NAME, knobs={
    "grid_range": "board side, in squares",
    "steps_range": "number of rolls (arrows) on the path",
    "decoy_range": "probability of a second path of another colour that the die does not follow",
    "yaw_range": "camera turn east of south, degrees (the east face narrows as it falls)",
    "pitch_range": "camera height above the horizon, degrees",
    "coloured_range": "probability that the die is coloured (white pips) rather than white",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"grid_range": (3, 3), "steps_range": (1, 2), "decoy_range": (0.0, 0.0), "yaw_range": (42, 46),
        "pitch_range": (40, 44), "coloured_range": (0.0, 0.0), "clutter_range": (0.0, 0.1)},
    2: {"grid_range": (3, 4), "steps_range": (2, 3), "decoy_range": (0.0, 0.0), "yaw_range": (41, 47),
        "pitch_range": (38, 46), "coloured_range": (0.2, 0.2), "clutter_range": (0.1, 0.25)},
    3: {"grid_range": (4, 4), "steps_range": (3, 4), "decoy_range": (0.3, 0.3), "yaw_range": (40, 48),
        "pitch_range": (38, 46), "coloured_range": (0.4, 0.4), "clutter_range": (0.2, 0.4)},
    4: {"grid_range": (4, 5), "steps_range": (4, 6), "decoy_range": (0.6, 0.6), "yaw_range": (38, 50),
        "pitch_range": (36, 46), "coloured_range": (0.5, 0.5), "clutter_range": (0.3, 0.5)},
    5: {"grid_range": (5, 5), "steps_range": (6, 8), "decoy_range": (0.9, 0.9), "yaw_range": (38, 50),
        "pitch_range": (36, 46), "coloured_range": (0.6, 0.6), "clutter_range": (0.4, 0.6)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                          # the colour of the path the die follows ("red")
    grid: int
    start: tuple[int, int]               # (col, row) of the die's square; row 0 is the southern edge
    orientation: tuple[int, ...]         # the die's body -> world rotation, 9 integers row by row
    steps: str                           # the rolls, e.g. "NNEW"
    decoy: tuple[tuple[int, int], ...]   # squares of the decoy path in order (empty: none)
    body: str                            # key of DIE_BODIES
    yaw: float
    pitch: float
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- geometry

def orientation(params: Params) -> np.ndarray:
    return np.array(params.orientation, np.int64).reshape(3, 3)


def final_orientation(params: Params) -> np.ndarray:
    q = orientation(params)
    for s in params.steps:
        q = cube.roll(q, s)
    return q


def path_cells(start: tuple[int, int], steps: str) -> list[tuple[int, int]]:
    cells = [start]
    for s in steps:
        dx, dy = cube.STEPS[s]
        cells.append((cells[-1][0] + dx, cells[-1][1] + dy))
    return cells


def cell_centre(grid: int, cell: tuple[int, int], z: float = 0.0) -> tuple[float, float, float]:
    return (cell[0] + 0.5 - grid / 2, cell[1] + 0.5 - grid / 2, z)


def die_corners(grid: int, start: tuple[int, int]) -> np.ndarray:
    cx, cy, _ = cell_centre(grid, start)
    h = DIE_SIDE / 2
    return np.array([(cx + a * h, cy + b * h, c * DIE_SIDE) for a in (-1, 1) for b in (-1, 1) for c in (0, 1)])


def make_view(size: tuple[int, int], grid: int, start: tuple[int, int], yaw: float, pitch: float) -> cube.View:
    """The camera that fits the board and the die into the puzzle with a margin."""
    w, h = size
    g = grid / 2
    pts = np.concatenate([[(-g, -g, 0), (g, -g, 0), (g, g, 0), (-g, g, 0)], die_corners(grid, start)])
    unit = cube.View(yaw, pitch, 1.0, 0.0, 0.0).project(pts)
    lo, hi = unit.min(0), unit.max(0)
    m = 0.04 * min(w, h)
    scale = min((w - 2 * m) / (hi[0] - lo[0]), (h - 2 * m) / (hi[1] - lo[1]))
    ox = w / 2 - scale * (lo[0] + hi[0]) / 2
    oy = h / 2 - scale * (lo[1] + hi[1]) / 2
    return cube.View(yaw, pitch, float(scale), float(ox), float(oy))


def path_width(view: cube.View) -> int:
    return max(2, round(0.075 * view.scale))


def die_hull(view: cube.View, grid: int, start: tuple[int, int]) -> np.ndarray:
    return cv2.convexHull(view.project(die_corners(grid, start)).astype(np.float32))


def path_clear(view: cube.View, grid: int, start: tuple[int, int], cells: list[tuple[int, int]], first: bool
               ) -> bool:
    """Whether a path drawn through `cells` stays clear of the die's outline on the screen: its line (for the
    die's own path, `first`, from where it leaves the die's square), its arrowheads and its end ring."""
    hull = die_hull(view, grid, start)
    lw = path_width(view)

    def clear(pts: np.ndarray, margin: float) -> bool:
        return all(cv2.pointPolygonTest(hull, (float(x), float(y)), True) < -margin for x, y in pts)

    centres = np.array([cell_centre(grid, c) for c in cells])
    t = np.linspace(0.0, 1.0, 9)[:, None]
    line = []
    for k in range(len(cells) - 1):
        tk = t[t[:, 0] >= 0.6] if (first and k == 0) else t
        line.append(centres[k] * (1 - tk) + centres[k + 1] * tk)
    a = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    cx, cy, _ = centres[-1]
    line.append(np.stack([cx + RING * np.cos(a), cy + RING * np.sin(a), np.zeros_like(a)], 1))
    if not clear(view.project(np.concatenate(line)), lw / 2 + CLEAR_PX):
        return False
    return all(clear(tri, CLEAR_PX) for tri in arrow_points(view, grid, cells))


def hidden_cells(view: cube.View, grid: int, start: tuple[int, int]) -> set[tuple[int, int]]:
    """Squares whose centre the die hides or nearly hides on the screen (no path goes there)."""
    hull = die_hull(view, grid, start)
    margin = 0.2 * view.scale
    cells = [(x, y) for x in range(grid) for y in range(grid) if (x, y) != start]
    pts = view.project([cell_centre(grid, c) for c in cells])
    return {c for c, (px, py) in zip(cells, pts)
            if cv2.pointPolygonTest(hull, (float(px), float(py)), True) > -margin}


def walk(rng: np.random.Generator, grid: int, start: tuple[int, int], n: int, banned: set) -> str | None:
    """A random self-avoiding walk of n steps inside the board, avoiding `banned` squares (None: stuck)."""
    steps, cells = "", [start]
    for _ in range(n):
        x, y = cells[-1]
        options = [s for s, (dx, dy) in cube.STEPS.items()
                   if 0 <= x + dx < grid and 0 <= y + dy < grid and (x + dx, y + dy) not in cells
                   and (x + dx, y + dy) not in banned]
        if not options:
            return None
        s = options[int(rng.integers(len(options)))]
        steps += s
        cells.append((x + cube.STEPS[s][0], y + cube.STEPS[s][1]))
    return steps


# ---------------------------------------------------------------- sampling

def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    k = {name[:-6]: draw_knob(rng, row[name], integer=name in ("grid_range", "steps_range")) for name in row}
    grid, n = k["grid"], k["steps"]
    grid = max(grid, 3 if n <= 4 else 4)
    yaw, pitch = round(k["yaw"], 1), round(k["pitch"], 1)
    rots = cube.rotations()
    q = rots[int(rng.integers(len(rots)))]
    for _ in range(60):
        start = (int(rng.integers(grid)), int(rng.integers(grid)))
        view = make_view(size, grid, start, yaw, pitch)
        hidden = hidden_cells(view, grid, start)
        steps = walk(rng, grid, start, n, hidden)
        if steps is None:
            continue
        cells = path_cells(start, steps)
        if not path_clear(view, grid, start, cells, True):
            continue
        decoy = ()
        if rng.random() < k["decoy"]:
            free = [(x, y) for x in range(grid) for y in range(grid) if (x, y) not in cells and (x, y) not in hidden]
            d_start = free[int(rng.integers(len(free)))] if free else None
            d_steps = walk(rng, grid, d_start, max(2, n - 2), set(cells) | hidden) if d_start else None
            if d_steps is None:
                continue
            decoy = tuple(path_cells(d_start, d_steps))
            if not path_clear(view, grid, start, list(decoy), False):
                continue
        break
    else:
        raise Reject(f"{NAME}.no_clear_path")
    coloured = rng.random() < k["coloured"]
    body = ("red", "blue")[int(rng.integers(2))] if coloured else ("white", "ivory")[int(rng.integers(2))]
    target = "red" if body != "red" else "blue"
    return Params(size=size, target=target, grid=grid, start=start, orientation=tuple(int(v) for v in q.ravel()),
                  steps=steps, decoy=decoy, body=body, yaw=yaw, pitch=pitch, clutter=k["clutter"],
                  bg_seed=int(rng.integers(2**31)), knobs=k)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of rolls."""
    return float(len(params.steps))


# ---------------------------------------------------------------- drawing

@lru_cache(maxsize=32)
def face_texture(value: int, body: str) -> np.ndarray:
    """A die face (TEXTURE px square, RGBA) with its pips, unturned; read-only (cached)."""
    body_rgb, pip_rgb = DIE_BODIES[body]
    n = TEXTURE
    out = np.zeros((n, n, 4), np.uint8)
    out[..., :3] = body_rgb
    out[..., 3] = 255
    r = PIP_R * n
    for u, v in PIP_LAYOUT[value]:
        c = (int(round((n / 2 + u * PIP_GRID * n) * 4)), int(round((n / 2 + v * PIP_GRID * n) * 4)))
        cv2.circle(out, c, int(round(r * 4)), (*pip_rgb, 255), -1, cv2.LINE_AA, shift=2)
    out.flags.writeable = False
    return out


def die_frames(q: np.ndarray) -> tuple[dict[str, tuple], dict[str, int]]:
    """Per shown position: the face's frame in the world and the value it shows."""
    frames, values = {}, {}
    for pos in cube.SHOWN:
        face = cube.face_towards(q, pos)
        n, r, d = cube.FRAMES[face]
        frames[pos] = (cube.turn(q, n), cube.turn(q, r), cube.turn(q, d))
        values[pos] = BODY[face]
    return frames, values


def _board(canvas: draw.Canvas, view: cube.View, grid: int) -> None:
    g = grid / 2
    light, dark, line = (238, 240, 236), (214, 220, 212), (120, 128, 120)
    for x in range(grid):
        for y in range(grid):
            quad = view.project([(x - g, y - g, 0), (x + 1 - g, y - g, 0), (x + 1 - g, y + 1 - g, 0),
                                 (x - g, y + 1 - g, 0)])
            cv2.fillConvexPoly(canvas.rgb, np.round(quad * 4).astype(np.int32), light if (x + y) % 2 else dark,
                               cv2.LINE_AA, shift=2)
    lw = max(1, round(view.scale / 60))
    for i in range(grid + 1):
        for a, b in (((i - g, -g, 0), (i - g, g, 0)), ((-g, i - g, 0), (g, i - g, 0))):
            p = np.round(view.project([a, b]) * 4).astype(np.int32)
            cv2.line(canvas.rgb, tuple(p[0]), tuple(p[1]), line, lw, cv2.LINE_AA, shift=2)


def arrow_points(view: cube.View, grid: int, cells: list[tuple[int, int]]) -> list[np.ndarray]:
    """Screen triangles (3, 2) of the arrowheads, one per step."""
    out = []
    size = path_width(view) * 3.4
    for k, (a, b) in enumerate(zip(cells, cells[1:])):
        pa, pb = view.project([cell_centre(grid, a), cell_centre(grid, b)])
        d = (pb - pa) / max(1e-6, np.linalg.norm(pb - pa))
        tip = pa + (pb - pa) * (ARROW_FIRST if k == 0 else ARROW_AT) + d * size * 0.6
        base = tip - d * size
        nrm = np.array([-d[1], d[0]])
        out.append(np.array([tip, base + nrm * size * 0.55, base - nrm * size * 0.55]))
    return out


def path_layer(size: tuple[int, int], view: cube.View, grid: int, cells: list[tuple[int, int]]) -> np.ndarray:
    """Alpha (h, w) of a path: the line through the squares, an arrowhead per step, a ring round the end."""
    w, h = size
    layer = np.zeros((h, w), np.uint8)
    lw = path_width(view)
    pts = view.project([cell_centre(grid, c) for c in cells])
    cv2.polylines(layer, [np.round(pts * 4).astype(np.int32)], False, 255, lw, cv2.LINE_AA, shift=2)
    for tri in arrow_points(view, grid, cells):
        cv2.fillConvexPoly(layer, np.round(tri * 4).astype(np.int32), 255, cv2.LINE_AA, shift=2)
    cx, cy, _ = cell_centre(grid, cells[-1])
    a = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    ring = view.project(np.stack([cx + RING * np.cos(a), cy + RING * np.sin(a), np.zeros_like(a)], 1))
    cv2.polylines(layer, [np.round(ring * 4).astype(np.int32)], True, 255, lw, cv2.LINE_AA, shift=2)
    return layer


def _paste_layer(canvas: draw.Canvas, layer: np.ndarray, rgb: tuple, instance: int) -> None:
    x, y, bw, bh = cv2.boundingRect(layer)
    canvas.paste(np.dstack([np.full((bh, bw, 3), rgb, np.uint8), layer[y:y + bh, x:x + bw]]), x, y, instance)


def render(params: Params) -> Puzzle:
    """Board, decoy path (5), path (4), then the die's top, south and east faces (1, 2, 3)."""
    w, h = params.size
    canvas = draw.Canvas(draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter))
    view = make_view(params.size, params.grid, params.start, params.yaw, params.pitch)
    _board(canvas, view, params.grid)
    meta = {}
    decoy_colour = "blue" if params.target == "red" else "red"
    if params.decoy:
        _paste_layer(canvas, path_layer(params.size, view, params.grid, list(params.decoy)),
                     PATH_RGB[decoy_colour][0], 5)
        meta[5] = {"role": "distractor", "label": f"{decoy_colour} path", "kind": "path"}
    cells = path_cells(params.start, params.steps)
    _paste_layer(canvas, path_layer(params.size, view, params.grid, cells), PATH_RGB[params.target][0], 4)
    meta[4] = {"role": "path", "label": f"{params.target} path", "kind": "path"}
    frames, values = die_frames(orientation(params))
    textures = {pos: face_texture(values[pos], params.body) for pos in cube.SHOWN}
    ids = {"top": 1, "south": 2, "east": 3}
    centre = cell_centre(params.grid, params.start, DIE_SIDE / 2)
    quads = cube.paste_cube(canvas, view, centre, DIE_SIDE, textures, frames, ids)
    for pos, i in ids.items():
        meta[i] = {"role": "target", "label": f"die {pos} face showing {values[pos]}", "kind": "die face"}
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta,
                  extras={"quads": quads, "view": view, "arrows": arrow_points(view, params.grid, cells)})


# ---------------------------------------------------------------- verification

def count_pips(puzzle: Puzzle, face_id: int, quad: np.ndarray, body: str) -> tuple[int, float, int]:
    """(pips seen, luma gap between pips and face, smallest pip in px) on a face's visible pixels, away from
    its outline."""
    x0, y0 = (max(0, int(v)) for v in np.floor(quad.min(0)))
    x1, y1 = (int(v) + 1 for v in np.ceil(quad.max(0)))
    inst = puzzle.instances[y0:y1, x0:x1]
    inner = (inst == face_id) & cube.quad_mask(inst.shape, quad - (x0, y0), FACE_INSET)
    luma = cv2.cvtColor(puzzle.rgb[y0:y1, x0:x1], cv2.COLOR_RGB2GRAY).astype(np.float32)
    vals = luma[inner]
    if vals.size < 20:
        return 0, 0.0, 0
    body_rgb, pip_rgb = DIE_BODIES[body]
    mid = (float(np.percentile(vals, 2)) + float(np.percentile(vals, 98))) / 2
    ink = inner & ((luma < mid) if sum(pip_rgb) < sum(body_rgb) else (luma > mid))
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink.view(np.uint8), connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    if not len(areas) or not (inner & ~ink).any():
        return int(len(areas)), 0.0, 0
    gap = abs(float(np.median(luma[ink])) - float(np.median(luma[inner & ~ink])))
    return int(len(areas)), gap, int(areas.min())


def solve(params: Params, puzzle: Puzzle) -> Task:
    w, h = params.size
    scale = w * h / (320 * 320)
    inst = puzzle.instances
    boxes = draw.instance_boxes(inst)
    areas = draw.instance_areas(inst)
    cells = path_cells(params.start, params.steps)
    if len(set(cells)) != len(cells) or not all(0 <= x < params.grid and 0 <= y < params.grid for x, y in cells):
        raise Reject(f"{NAME}.bad_path")          # the die would leave the board or cross its own track
    frames, values = die_frames(orientation(params))
    checks = {}
    min_contrast, min_pip = 255.0, 10**9
    for i, pos in ((1, "top"), (2, "south"), (3, "east")):
        if i not in boxes:
            raise Reject(f"{NAME}.face_hidden")
        x0, y0, x1, y1 = boxes[i]
        if x0 < 2 or y0 < 2 or x1 > w - 2 or y1 > h - 2:
            raise Reject(f"{NAME}.die_cut_off")
        quad = puzzle.extras["quads"][pos]
        qx0, qy0 = (int(v) for v in np.floor(quad.min(0)))
        qx1, qy1 = (int(v) + 1 for v in np.ceil(quad.max(0)))
        region = inst[qy0:qy1, qx0:qx1]
        if (region[cube.quad_mask(region.shape, quad - (qx0, qy0), 0.12)] > 3).any():
            raise Reject(f"{NAME}.face_covered")       # something other than the die's faces shows on a face
        seen, contrast, smallest = count_pips(puzzle, i, puzzle.extras["quads"][pos], params.body)
        if seen != values[pos]:
            raise Reject(f"{NAME}.pips_unreadable")
        if smallest < MIN_PIP_PX * scale:
            raise Reject(f"{NAME}.pip_too_small")
        if contrast < MIN_PIP_CONTRAST:
            raise Reject(f"{NAME}.low_contrast")
        min_contrast, min_pip = min(min_contrast, contrast), min(min_pip, smallest)
    # every arrowhead of the path shows, and the ring round its end
    for tri in puzzle.extras["arrows"]:
        c = tri.mean(0)
        if not (0 <= c[0] < w and 0 <= c[1] < h) or inst[int(c[1]), int(c[0])] != 4:
            raise Reject(f"{NAME}.arrow_hidden")
    path_vis = float(areas[4]) / max(1, puzzle.full_area[4])
    if path_vis < 0.8:
        raise Reject(f"{NAME}.path_hidden")
    if params.decoy and float(areas[5]) / max(1, puzzle.full_area[5]) < 0.95:
        raise Reject(f"{NAME}.decoy_hidden")
    top = BODY[cube.face_towards(final_orientation(params), "top")]
    objects = []
    for i, m in puzzle.meta.items():
        objects.append({"id": i, "role": m["role"], "label": m["label"], "bbox": boxes[i],
                        "visible_fraction": round(float(areas[i]) / max(1, puzzle.full_area[i]), 4)})
    checks.update({"rolls": float(len(params.steps)), "min_pip_contrast": round(min_contrast, 2),
                   "min_pip_px": float(min_pip), "path_visible": round(path_vis, 4), "final_top": float(top)})
    return Task(rule="type", answer={"count": top}, objects=objects, text=str(top), checks=checks)


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return (f"骰子沿{PATH_RGB[params.target][1]}箭头逐格滚动，每个箭头滚一格。到达终点时朝上的是几点？"
                "请输入数字")
    return (f"The die rolls one square per arrow along the {params.target} arrows. "
            "Which number is on top at the end? Type it.")
