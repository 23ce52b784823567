"""Option match, count rule: the reference shows some objects; the matching option shows as many (often of
another kind), the wrong ones more or fewer (often of the same kind). Counted on the instance map."""
import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import contains
from synth.families.counting import pick_kinds
from synth.families.kit import draw
from synth.families.kit.kinds import kind_by_key, turn_limit
from synth.families.option_match.panels import MIN_ITEM_PX, NAME, area_scale, check_items, grid_cell, inner

INSTRUCTION = {"en": "Click the option that shows as many objects as the picture at the top.",
               "zh": "请点击物体数量与上方图片相同的选项"}


def scatter(rng: np.random.Generator, box, count: int, keys: list[str], side: int, tilt: float) -> tuple:
    """`count` objects of about `side` px spread over `box`: (kind key, x, y, side, tilt) with x, y the top-left
    of the turned sprite. The box is cut into as many cells as hold a turned object and each object takes
    its own random cell, so none overlap."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    reach = draw.rotated_side(side, min(45.0, tilt)) + 1
    cols, rows = max(1, int(bw // reach)), max(1, int(bh // reach))
    if cols * rows < count:
        raise Reject(f"{NAME}.no_room")
    cw, ch = bw / cols, bh / rows
    out = []
    for cell, key in zip(sorted(rng.choice(cols * rows, count, replace=False).tolist()), keys):
        r, c = divmod(cell, cols)
        limit = turn_limit(key, tilt)
        t = float(rng.uniform(-limit, limit)) if limit else 0.0
        s = max(8, int(side * float(rng.uniform(0.88, 1.0))))
        turned = draw.rotated_side(s, t)
        x = x0 + c * cw + float(rng.uniform(0, max(0.0, cw - turned)))
        y = y0 + r * ch + float(rng.uniform(0, max(0.0, ch - turned)))
        out.append((key, int(x), int(y), s, round(t, 2)))
    return tuple(out)


def counts(rng: np.random.Generator, n_ref: int, n: int, near: float) -> list[int]:
    """Object counts of n options: the first equals n_ref, the others differ from it and from each other,
    each by one (a near miss) with probability `near`, else by two or three."""
    close = [c for c in (n_ref - 1, n_ref + 1) if c >= 1]
    far = [n_ref + d for d in (-3, -2, 2, 3) if n_ref + d >= 1]
    out = [n_ref]
    for _ in range(n - 1):
        pool = close if (close and (rng.random() < near or not far)) else far
        out.append(pool.pop(int(rng.integers(len(pool)))) if pool else max(out) + 1)
    return out


def sample(rng: np.random.Generator, knobs: dict, geo: dict, size: tuple[int, int]) -> tuple[tuple, list[tuple]]:
    """The reference's objects and each option's, the matching option first."""
    n = len(geo["options"])
    ref_kind, others = pick_kinds(rng, 4, 0.0)
    n_ref = knobs["count"]
    wanted = counts(rng, n_ref, n, knobs["near"])
    # one object size for the whole puzzle (size gives no hint): what the fullest panel holds
    boxes = [inner(geo["reference"], size)] + [inner(b, size) for b in geo["options"]]
    t = np.deg2rad(min(45.0, knobs["tilt"]))
    cell = min(grid_cell(b, c) for b, c in zip(boxes, [n_ref] + wanted))
    side = int(cell * 0.9 / (np.cos(t) + np.sin(t)))
    ref = scatter(rng, boxes[0], n_ref, [ref_kind.key] * n_ref, side, knobs["tilt"])
    options = []
    for i, c in enumerate(wanted):
        # the matching option is often drawn with other objects than the reference, a wrong one often with
        # the same: the count is what matters
        other = rng.random() < knobs["vary"]
        key = others[int(rng.integers(len(others)))].key if other else ref_kind.key
        options.append(scatter(rng, boxes[i + 1], c, [key] * c, side, knobs["tilt"]))
    return ref, options


def moved(content: tuple, dx: int, dy: int) -> tuple:
    """Objects placed in one panel, shifted by (dx, dy) to another."""
    return tuple((key, x + dx, y + dy, s, t) for key, x, y, s, t in content)


def paint(canvas: draw.Canvas, params, geo: dict, panels: list, nid: int) -> tuple[dict, dict]:
    """Draw each panel's objects, numbered from `nid`: their meta, and the extras {"items": panel -> ids}."""
    meta, items = {}, {}
    for pid, _, content in panels:
        items[pid] = []
        for key, x, y, s, t in content:
            canvas.paste(draw.rotated(draw.sprite(key, s), t), x, y, nid)
            meta[nid] = {"role": "item", "label": kind_by_key(key).en, "kind": key, "panel": pid}
            items[pid].append(nid)
            nid += 1
    return meta, {"items": items}


def values(params, puzzle, panels: dict, boxes: dict, areas: np.ndarray) -> tuple[dict, dict]:
    """Per panel, the objects the instance map shows within it (each whole), and no checks."""
    ref_id = len(params.options) + 1
    out = {}
    for pid, ids in puzzle.extras["items"].items():
        check_items(puzzle, ids, panels[pid], boxes, areas, MIN_ITEM_PX * area_scale(puzzle))
        out[pid] = sum(1 for i, b in boxes.items() if i > ref_id and contains(panels[pid], b)
                       and puzzle.meta[i]["role"] == "item")
    return out, {}
