"""The panels every rule of option_match shares: where the reference and the options go, the inside of a
panel, and the check that the items drawn in a panel show whole."""
from synth.core.errors import Reject
from synth.core.geometry import contains
from synth.families.base import Puzzle

NAME = "option_match"     # the family's name, which its reject reasons start with
MIN_ITEM_PX = 30          # at 320 x 320 (scaled with the area): an object or icon smaller than this is too small
ITEM_VISIBLE = 0.97       # share of an object's pixels that must show (objects never overlap)
FRAME = (60, 130, 230)    # the reference panel's frame


def layout(size: tuple[int, int], n: int, mode: str) -> dict:
    """The reference panel and the option panels (x0, y0, x1, y1), in puzzle pixels: the reference on top
    (as wide as the puzzle for sequences), the options below in one or two rows (sequences and dice: one or
    two columns of wide panels)."""
    w, h = size
    m = max(4, round(min(w, h) * 0.03))
    ref_h = round(h * (0.2 if mode == "sequence" else 0.3))
    ref_w = w - 2 * m if mode == "sequence" else min(w - 2 * m, round(ref_h * 1.6))
    ref = ((w - ref_w) // 2, m, (w - ref_w) // 2 + ref_w, m + ref_h)
    if mode in ("sequence", "dice"):      # a row of icons or two dice side by side want wide panels
        cols = 1 if n <= 3 else 2
    else:
        cols = n if n <= 3 else -(-n // 2)
    rows = -(-n // cols)
    top = ref[3] + m
    cw, ch = (w - m * (cols + 1)) / cols, (h - top - m * rows) / rows
    boxes = []
    for i in range(n):
        r, c = divmod(i, cols)
        x0, y0 = m + c * (cw + m), top + r * (ch + m)
        boxes.append((round(x0), round(y0), round(x0 + cw), round(y0 + ch)))
    return {"reference": ref, "options": boxes}


def inner(box, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """A panel's box less its rim (the reference frame, the card outline), where its content goes."""
    x0, y0, x1, y1 = box
    pad = max(4, round(min(x1 - x0, y1 - y0) * 0.09))
    return x0 + pad, y0 + pad, x1 - pad, y1 - pad


def grid_cell(box, count: int) -> float:
    """Side of the largest square cells of a grid of at least `count` cells that fits in `box`."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    return max(min(bw / cols, bh / -(-count // cols)) for cols in range(1, count + 1))


def area_scale(puzzle: Puzzle) -> float:
    """The puzzle's area over that of 320 x 320, which the least sizes in pixels are given at."""
    return puzzle.instances.size / (320 * 320)


def check_items(puzzle: Puzzle, ids: list[int], panel, boxes, areas, least: float) -> None:
    """Every item shows whole, big enough, inside its panel."""
    for i in ids:
        if i not in boxes or areas[i] < ITEM_VISIBLE * puzzle.full_area[i]:
            raise Reject(f"{NAME}.item_hidden")
        if areas[i] < least:
            raise Reject(f"{NAME}.item_too_small")
        if not contains(panel, boxes[i]):
            raise Reject(f"{NAME}.item_outside_panel")
