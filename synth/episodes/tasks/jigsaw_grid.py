"""Jigsaw drag and drop (拼图): a photo shown as a grid of square tiles with some slots empty (grey, outlined)
and their pieces lying shuffled in a tray below; drag every piece into its slot. A piece dropped with its
centre in an empty slot snaps into that slot: into its own it locks there, into another it stays (a visible
mistake) and can be dragged out again; dropped anywhere else it goes back to its place in the tray. Solved
as soon as every piece lies in its own slot: the picture is then whole, and such widgets check on the
last drop (NEEDS_VERIFY is False; a Verify press before that ends the episode unsolved).

Which slot a piece belongs in is checked on the pixels: every two pieces differ clearly, and putting the
pieces into the slots any other way makes the seams round the moved pieces clearly worse."""
from dataclasses import dataclass
from itertools import permutations

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import centre, inside
from synth.core.levels import LevelTable, draw_knob
from synth.episodes.base import drag
from synth.families.jigsaw import DENY, SUBTLE, neighbours
from synth.families.kit import photos

NAME = "jigsaw_grid"
DESCRIPTION = "drag the loose photo pieces from the tray into their empty slots of the picture grid"
COVERS = ("NetEase-Yidun:jigsaw", "Dingxiang:jigsaw")
ANSWERS = ("drag",)
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = False, False, 0.0
GROUND, TRAY, LINE = (245, 246, 248), (232, 235, 240), (250, 250, 250)
SLOT, SLOT_EDGE = (214, 218, 225), (160, 167, 178)       # an empty slot's fill and outline
MIN_DETAIL = 2.0            # every piece shows structure: its mean grey gradient, levels per pixel ...
MIN_PIECE_DIFF = 16.0       # ... every two pieces differ on average by this many grey levels (pixel by pixel) ...
SEAM_STEP = 12.0            # ... and any other placement worsens the seams round the moved pieces by this ...
SEAM_RATIO = 1.5            # ... and by this factor
TRIES = 5                   # views and pieces drawn before the draw is rejected

TABLE = LevelTable(NAME, knobs={
    "rows_range": "tile rows of the picture",
    "cols_range": "tile columns of the picture",
    "pieces_range": "pieces taken out into the tray",
    "subtle_range": "probability that the photo is a subtle one (soft, blurred or finely textured)",
}, levels={
    1: {"rows_range": (2, 2), "cols_range": (2, 2), "pieces_range": (2, 2), "subtle_range": (0.0, 0.0)},
    2: {"rows_range": (2, 2), "cols_range": (3, 3), "pieces_range": (2, 3), "subtle_range": (0.1, 0.1)},
    3: {"rows_range": (3, 3), "cols_range": (3, 3), "pieces_range": (3, 3), "subtle_range": (0.2, 0.2)},
    4: {"rows_range": (3, 3), "cols_range": (3, 3), "pieces_range": (3, 4), "subtle_range": (0.35, 0.35)},
    5: {"rows_range": (3, 3), "cols_range": (3, 4), "pieces_range": (4, 5), "subtle_range": (0.5, 0.5)},
})


@dataclass
class State:
    size: tuple[int, int]
    rows: int
    cols: int
    cell: int                   # tile side, pixels
    origin: tuple[int, int]     # the grid's top-left corner
    slots: list[int]            # piece i belongs in cell slots[i] (row-major)
    homes: list[tuple[int, int]]    # top-left corner of piece i's place in the tray
    base: np.ndarray            # the widget with the slots empty and the tray bare
    tiles: list[np.ndarray]     # piece i as it shows in a slot ...
    loose: list[np.ndarray]     # ... and lying in the tray (with its shadow, on the tray's colour)
    photo: str
    at: list[int]               # the cell piece i lies in, -1 in the tray
    moves: int = 0


# ---------------------------------------------------------------- layout

def _margin(size: tuple[int, int]) -> int:
    return round(0.03 * min(size))


def _gap(size: tuple[int, int]) -> int:
    return round(0.025 * size[0])


def layout(size: tuple[int, int], rows: int, cols: int, pieces: int) -> dict:
    """The largest square tile side for which the grid and a tray holding `pieces` tiles (in as many rows as
    they need) fit one above the other; the grid's corner, the tray's box and the pieces' places in it."""
    w, h = size
    m, g = _margin(size), _gap(size)
    for cell in range(min((w - 2 * m) // cols, (h - 2 * m) // rows), 8, -1):
        per_row = (w - 2 * m - g) // (cell + g)         # a gap to either side inside the tray
        tray_rows = -(-pieces // per_row)
        if 3 * m + rows * cell + tray_rows * (cell + g) + g <= h:
            break
    else:
        raise ValueError(f"{rows} x {cols} tiles and {pieces} pieces do not fit {size}")
    tray_h = tray_rows * (cell + g) + g
    top = (h - rows * cell - m - tray_h) // 2         # the grid and the tray, centred one above the other
    origin = ((w - cols * cell) // 2, top)
    tray = [m, top + rows * cell + m, w - m, top + rows * cell + m + tray_h]
    per_row = min(pieces, per_row)
    homes = []
    for i in range(pieces):
        r, c = divmod(i, per_row)
        in_row = min(per_row, pieces - r * per_row)
        x0 = (w - in_row * cell - (in_row - 1) * g) // 2
        homes.append((x0 + c * (cell + g), tray[1] + g + r * (cell + g)))
    return {"cell": cell, "origin": origin, "tray": tray, "homes": homes}


def cell_box(state: State, t: int) -> list[float]:
    """Cell t's box (row-major), in puzzle pixels."""
    (ox, oy), c = state.origin, state.cell
    x0, y0 = ox + (t % state.cols) * c, oy + (t // state.cols) * c
    return [float(x0), float(y0), float(x0 + c), float(y0 + c)]


def piece_box(state: State, i: int) -> list[float]:
    """Where piece i lies now: its cell, or its place in the tray."""
    if state.at[i] >= 0:
        return cell_box(state, state.at[i])
    x, y = state.homes[i]
    return [float(x), float(y), float(x + state.cell), float(y + state.cell)]


# ---------------------------------------------------------------- checks on the pixels

def _seams(tiles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """right[i, j], below[i, j]: mean absolute difference (0..255) between the facing edge pixels of tile j
    standing right of (below) tile i."""
    t = tiles.astype(np.float32)
    right = np.abs(t[:, None, :, -1] - t[None, :, :, 0]).mean(axis=(2, 3))
    below = np.abs(t[:, None, -1] - t[None, :, 0]).mean(axis=(2, 3))
    return right, below


def detail(tile: np.ndarray) -> float:
    """How much structure a tile shows: its mean absolute grey gradient, levels per pixel."""
    g = cv2.cvtColor(tile, cv2.COLOR_RGB2GRAY).astype(np.float32)
    return float((np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1))).mean() / 8)


def alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two tiles differ by less than MIN_PIECE_DIFF grey levels on average, pixel by pixel."""
    grey_a, grey_b = a.astype(np.float32).mean(axis=2), b.astype(np.float32).mean(axis=2)
    return float(np.abs(grey_a - grey_b).mean()) < MIN_PIECE_DIFF


def check_pieces(tiles: np.ndarray, rows: int, cols: int, slots: list[int]) -> None:
    """Reject a draw whose pieces a person could not tell apart or place without doubt: a near-uniform piece,
    two pieces alike, or another placement of the pieces in the slots whose seams round the moved pieces are
    nearly as good."""
    if min(detail(tiles[t]) for t in slots) < MIN_DETAIL:
        raise Reject(f"{NAME}.flat_piece")
    if any(alike(tiles[a], tiles[b]) for i, a in enumerate(slots) for b in slots[i + 1:]):
        raise Reject(f"{NAME}.pieces_alike")
    right, below = _seams(tiles)
    seams = [(p, q, right if across else below) for p, q, across in neighbours(rows, cols)]
    for order in permutations(range(len(slots))):
        shows = list(range(rows * cols))            # the tile each cell shows under this placement
        for i, j in enumerate(order):
            shows[slots[i]] = slots[j]
        changed = [(m[p, q], m[shows[p], shows[q]]) for p, q, m in seams if (shows[p], shows[q]) != (p, q)]
        if not changed:
            continue
        true, other = (float(np.mean(v)) for v in zip(*changed))
        if other < max(SEAM_RATIO * true, true + SEAM_STEP):
            raise Reject(f"{NAME}.placement_ambiguous")


# ---------------------------------------------------------------- drawing

def _shadowed(tile: np.ndarray, g: int) -> np.ndarray:
    """A loose piece on the tray's colour with a soft shadow below right: (side + g) square."""
    s = tile.shape[0]
    out = np.empty((s + g, s + g, 3), np.uint8)
    out[:] = TRAY
    shade = np.zeros((s + g, s + g), np.float32)
    shade[g // 2 + 1:, g // 2 + 1:][:s, :s] = 0.35
    shade = cv2.GaussianBlur(shade, (0, 0), max(1.0, g / 3))
    out[:] = (out * (1 - shade[..., None])).astype(np.uint8)
    out[:s, :s] = tile
    return out


def _base(size, geo: dict, tiles: np.ndarray, slots: list[int], rows: int, cols: int) -> np.ndarray:
    """The widget with the slots empty: the picture's fixed tiles with light lines between them, the empty
    slots grey and outlined, the tray."""
    w, h = size
    rgb = np.full((h, w, 3), GROUND, np.uint8)
    x0, y0, x1, y1 = geo["tray"]
    cv2.rectangle(rgb, (x0, y0), (x1 - 1, y1 - 1), TRAY, -1)
    (ox, oy), c = geo["origin"], geo["cell"]
    rgb[oy:oy + rows * c, ox:ox + cols * c] = LINE
    for t in range(rows * cols):
        r, q = divmod(t, cols)
        tx, ty = ox + q * c, oy + r * c
        if t in slots:
            cv2.rectangle(rgb, (tx + 1, ty + 1), (tx + c - 2, ty + c - 2), SLOT, -1)
            cv2.rectangle(rgb, (tx + 2, ty + 2), (tx + c - 3, ty + c - 3), SLOT_EDGE, 1)
        else:
            rgb[ty + 1:ty + c - 1, tx + 1:tx + c - 1] = tiles[t]
    return rgb


def _paste(rgb: np.ndarray, x: int, y: int, patch: np.ndarray) -> None:
    rgb[y:y + patch.shape[0], x:x + patch.shape[1]] = patch


# ---------------------------------------------------------------- the task

def _pieces(rng: np.random.Generator, keys: tuple[str, ...], rows: int, cols: int, k: int, c: int
            ) -> tuple[str, np.ndarray, list[int]]:
    """A photo cut into tiles of side c (less the lines between them) and the k tiles taken out as pieces,
    chosen at random among those that show structure, none alike; drawn again until check_pieces passes,
    at most TRIES times (then the last reason is raised). Returns (photo, tiles, the pieces' cells)."""
    for _ in range(TRIES):
        view = photos.sample_view(rng, keys)
        picture = photos.image(view, cols * c, rows * c)
        tiles = np.stack([picture[r * c + 1:(r + 1) * c - 1, q * c + 1:(q + 1) * c - 1]
                          for r in range(rows) for q in range(cols)])
        slots: list[int] = []
        for t in rng.permutation(rows * cols).tolist():
            if len(slots) == k:
                break
            if detail(tiles[t]) >= MIN_DETAIL and not any(alike(tiles[t], tiles[u]) for u in slots):
                slots.append(t)
        if len(slots) < k:
            last = Reject(f"{NAME}.too_few_distinct_tiles")
            continue
        slots.sort()
        try:
            check_pieces(tiles, rows, cols, slots)
            return view.photo, tiles, slots
        except Reject as r:
            last = r
    raise last


def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    rows, cols = draw_knob(rng, row["rows_range"], integer=True), draw_knob(rng, row["cols_range"], integer=True)
    k = draw_knob(rng, row["pieces_range"], integer=True)
    subtle = rng.random() < draw_knob(rng, row["subtle_range"])
    keys = photos.choices(SUBTLE, DENY) if subtle else photos.choices(None, DENY + SUBTLE)
    geo = layout(size, rows, cols, k)
    c = geo["cell"]
    photo, tiles, slots = _pieces(rng, keys, rows, cols, k, c)
    order = rng.permutation(k).tolist()            # the pieces lie shuffled in the tray
    homes = [geo["homes"][order[i]] for i in range(k)]
    g = _gap(size)
    return State(size, rows, cols, c, geo["origin"], slots, homes, _base(size, geo, tiles, slots, rows, cols),
                 [tiles[t] for t in slots], [_shadowed(tiles[t], g) for t in slots], photo, [-1] * k)


def draw(state: State) -> np.ndarray:
    rgb = state.base.copy()
    for i, t in enumerate(state.at):
        x0, y0 = (int(v) + 1 for v in piece_box(state, i)[:2])
        _paste(rgb, x0, y0, state.tiles[i] if t >= 0 else state.loose[i])
    return rgb


def instruction(state: State, lang: str) -> str:
    if lang == "zh":
        return "请将下方的拼图块拖到图中对应的空位，拼成完整图片"
    return "Drag each piece from the tray into its empty slot to complete the picture."


def _movable(state: State, p) -> int:
    """The piece under point p that can be picked up (in the tray, or in a slot not its own), or -1."""
    for i in range(len(state.slots)):
        if state.at[i] != state.slots[i] and inside(piece_box(state, i), p):
            return i
    return -1


def act(state: State, action: dict) -> None:
    """A drag picks up the piece under its start and drops it by as far as the drag went: its centre in an
    empty slot (or its own) puts it there; anywhere else sends it back to the tray."""
    if action["type"] != "drag":
        return
    i = _movable(state, action["start"])
    if i < 0:
        return
    cx, cy = centre(piece_box(state, i))
    drop = (cx + action["end"][0] - action["start"][0], cy + action["end"][1] - action["start"][1])
    target = next((t for t in state.slots if inside(cell_box(state, t), drop)), -1)
    taken = [state.at[j] for j in range(len(state.at)) if j != i]
    state.at[i] = target if target >= 0 and target not in taken else -1
    state.moves += 1


def tick(state: State, seconds: float) -> None:
    pass


def done(state: State) -> bool:
    return state.at == state.slots


def failed(state: State) -> bool:
    return False


def progress(state: State) -> float:
    """The share of pieces in their own slots."""
    return sum(a == s for a, s in zip(state.at, state.slots)) / len(state.slots)


def budget(state: State) -> int:
    return len(state.slots) + 4


def _move(state: State, i: int, box) -> dict:
    """Drag piece i from its centre to the centre of `box`."""
    return drag(centre(piece_box(state, i)), centre(box))


def _unplaced(state: State) -> tuple[list[int], list[int]]:
    """The pieces in the tray, and those in a slot not their own."""
    tray = [i for i, a in enumerate(state.at) if a < 0]
    wrong = [i for i, (a, s) in enumerate(zip(state.at, state.slots)) if a >= 0 and a != s]
    return tray, wrong


def expert(state: State) -> dict:
    """A piece whose own slot is free goes there (one in a wrong slot first); when every such slot holds a
    wrong piece, one of those goes back to the tray."""
    tray, wrong = _unplaced(state)
    free = [s for s in state.slots if s not in state.at]
    for i in wrong + tray:
        if state.slots[i] in free:
            return _move(state, i, cell_box(state, state.slots[i]))
    i = wrong[0]
    x, y = state.homes[i]
    return _move(state, i, (x, y, x + state.cell, y + state.cell))


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """A piece (from the tray if any lies there) dropped into an empty slot that is not its own; None when no
    such slot is empty."""
    tray, wrong = _unplaced(state)
    free = [s for s in state.slots if s not in state.at]
    options = [(i, s) for i in (tray or wrong) for s in free if s != state.slots[i]]
    if not options:
        return None
    i, s = options[int(rng.integers(len(options)))]
    return _move(state, i, cell_box(state, s))


def truth(state: State) -> dict:
    (ox, oy), c = state.origin, state.cell
    objects = [{"role": "picture", "label": "picture",
                "bbox": [float(ox), float(oy), float(ox + state.cols * c), float(oy + state.rows * c)]}]
    for i, t in enumerate(state.slots):
        objects.append({"role": "slot", "label": f"slot {i + 1}", "bbox": cell_box(state, t)})
        objects.append({"role": "piece", "label": f"piece {i + 1}", "bbox": piece_box(state, i)})
    return {"objects": objects,
            "state": {"rows": state.rows, "cols": state.cols, "slots": list(state.slots), "at": list(state.at),
                      "placed": sum(a == s for a, s in zip(state.at, state.slots)), "photo": state.photo,
                      "moves": state.moves}}
