"""Option match, rotation rule: the reference shows a chiral polyomino; the matching option shows it turned,
the wrong ones its mirror image turned (a near miss) or another shape. Told apart on the pixels by the
masks of synth.families.match."""
import numpy as np

from synth.core.errors import Reject
from synth.families import match as poly
from synth.families.kit import draw
from synth.families.option_match.panels import NAME

INSTRUCTION = {"en": "Click the option showing the top shape turned (a mirror image does not count).",
               "zh": "请点击由上方图形旋转得到的选项（镜像的不算）"}


def _shape(rng: np.random.Generator, cells: int) -> tuple:
    """A polyomino of `cells` cells that its mirror image and its turns cannot be mistaken for."""
    for _ in range(50):
        shape = poly.polyomino(rng, cells)
        if poly.chiral(shape) and not poly.rot_symmetric(shape):
            return shape
    raise Reject(f"{NAME}.no_chiral_shape")


def _other(rng: np.random.Generator, shape: tuple, cells: int) -> tuple:
    """A polyomino that is neither `shape` nor its mirror image, however placed."""
    for _ in range(50):
        other = poly.polyomino(rng, cells)
        if poly.cell_overlap(shape, other, mirror=True) < cells:
            return other
    raise Reject(f"{NAME}.no_other_shape")


def sample(rng: np.random.Generator, knobs: dict, geo: dict, size: tuple[int, int]) -> tuple[tuple, list[tuple]]:
    """The reference (cells, mirrored, angle, colour) and each option's, the matching option first."""
    n = len(geo["options"])
    cells = knobs["cells"]
    shape = _shape(rng, cells)
    step = knobs["angle_step"]
    base = poly.PALETTE[int(rng.integers(len(poly.PALETTE)))]

    def angle(lo: int = 1) -> float:
        return float(step * int(rng.integers(lo, 360 // step))) if step > 1 else float(rng.uniform(20, 340))

    def colour():
        return poly.PALETTE[int(rng.integers(len(poly.PALETTE)))] if rng.random() < knobs["vary"] else base

    options = [(shape, False, angle(), colour())]
    seen = set()
    for _ in range(20 * n):
        if len(options) == n:
            break
        if rng.random() < knobs["near"]:
            cand = (shape, True, angle(0), colour())        # the mirror image, turned
        else:
            cand = (_other(rng, shape, cells), False, angle(0), colour())
        if cand[:3] not in seen:         # no two wrong options alike
            seen.add(cand[:3])
            options.append(cand)
    if len(options) < n:
        raise Reject(f"{NAME}.no_other_shape")
    return (shape, False, 0.0, base), options


def moved(content: tuple, dx: int, dy: int) -> tuple:
    """A shape is drawn centred in whatever panel it goes to: nothing to move."""
    return content


def paint(canvas: draw.Canvas, params, geo: dict, panels: list, nid: int) -> tuple[dict, dict]:
    """Draw each panel's shape, centred, numbered from `nid`: their meta, and the extras {"items": panel ->
    ids}. One cell size for all options (the reference's may differ): size gives no hint."""
    smallest = min(geo["options"], key=lambda b: min(b[2] - b[0], b[3] - b[1]))
    cell = min(poly.cell_px(c[0], smallest, 0.8) for c in params.options)
    ref_id = len(params.options) + 1
    ref_cell = poly.cell_px(params.reference[0], geo["reference"], 0.8)
    meta, items = {}, {}
    for pid, box, (cells, mirrored, angle, rgb) in panels:
        spr = poly.shape_sprite(cells, ref_cell if pid == ref_id else cell, rgb, mirrored, angle)
        x0, y0, x1, y1 = box
        canvas.paste(spr, (x0 + x1 - spr.shape[1]) // 2, (y0 + y1 - spr.shape[0]) // 2, nid)
        meta[nid] = {"role": "item", "label": "mirror image" if mirrored else "shape", "kind": "shape",
                     "panel": pid}
        items[pid] = [nid]
        nid += 1
    return meta, {"items": items}


def values(params, puzzle, panels: dict, boxes: dict, areas: np.ndarray) -> tuple[dict, dict]:
    """Per panel, whether its shape is the reference turned (True) or not (False), read from the pixels;
    ambiguous options and a reference that is its own mirror image are rejected."""
    n = len(params.options)
    ref_id = n + 1
    ref = poly.normalise(poly.shape_mask(puzzle.rgb, panels[ref_id]))
    stack = poly.rotations(ref)
    mirror_sym = float(poly.best_iou(stack, poly.pack(ref[None]))[0, 1])
    if mirror_sym > poly.DIFFERENT:
        raise Reject(f"{NAME}.mirror_symmetric_reference")
    masks = poly.pack(np.stack([poly.normalise(poly.shape_mask(puzzle.rgb, panels[i + 1])) for i in range(n)]))
    scores = poly.best_iou(stack, masks)
    out = {}
    for i, (rot, mir) in enumerate(scores):
        if rot >= poly.SAME and mir <= poly.DIFFERENT:
            out[i + 1] = True
        elif rot <= poly.DIFFERENT:
            out[i + 1] = False
        else:
            raise Reject(f"{NAME}.ambiguous_option")
    out[ref_id] = True
    best_wrong = max([scores[i, 0] for i in range(n) if not out[i + 1]], default=0.0)
    return out, {"mirror_symmetry_iou": round(mirror_sym, 4), "best_wrong_iou": round(float(best_wrong), 4)}
