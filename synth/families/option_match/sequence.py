"""Option match, sequence rule: the reference shows a row of icons; the matching option shows the same icons
in the same order, the wrong ones two swapped, one replaced (often by a look-alike), shifted, reversed or
shuffled. The icons are read back from the pixels."""
import numpy as np

from synth.core.errors import Reject
from synth.families.counting import pick_kinds, similar_kinds
from synth.families.kit import draw
from synth.families.kit.icon_match import MIN_MARGIN, best_kinds, look_alike, read_icons
from synth.families.kit.kinds import emoji_kinds, kind_by_key, shape_kinds
from synth.families.option_match.panels import MIN_ITEM_PX, NAME, area_scale, check_items, inner, layout

INSTRUCTION = {"en": "Click the option showing the same icons in the same order as the top row.",
               "zh": "请点击图标及其顺序与上方完全相同的选项"}


def _kinds(rng: np.random.Generator, knobs: dict) -> tuple[list, list]:
    """k - 1 + 3 kinds of which no two look alike: the first k are the sequence's (`first` and the start of
    `rest`), the others spare."""
    for _ in range(20):
        first, rest = pick_kinds(rng, knobs["sequence"] - 1 + 3, knobs["vary"])
        keys = [first.key] + [r.key for r in rest]
        if not any(look_alike(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]):
            return first, rest
    raise Reject(f"{NAME}.look_alike_kinds")


def _changed(rng: np.random.Generator, knobs: dict, seq: list, keys: list, spare: list, pool) -> list:
    """`seq` changed one way: a near miss (two neighbours swapped, one icon replaced, shifted by one) with
    probability `near`, else reversed, shuffled or two icons replaced by spare ones."""
    k = len(seq)
    cand = list(seq)
    if rng.random() < knobs["near"]:
        how = ("swap", "swap", "replace", "shift")[int(rng.integers(4))]
    else:
        how = ("reverse", "shuffle", "far")[int(rng.integers(3))]
    if how == "swap":
        i = int(rng.integers(k - 1))
        cand[i], cand[i + 1] = cand[i + 1], cand[i]
    elif how == "shift":
        cand = cand[1:] + cand[:1]
    elif how == "reverse":
        cand = cand[::-1]
    elif how == "shuffle":
        cand = [cand[i] for i in rng.permutation(k).tolist()]
    elif how == "replace":
        i = int(rng.integers(k))
        alike = [a.key for a in similar_kinds(kind_by_key(cand[i]), pool)
                 if a.key not in keys and not any(look_alike(a.key, c) for c in keys)]
        src = alike if alike and rng.random() < knobs["vary"] else spare
        cand[i] = src[int(rng.integers(len(src)))]
    else:
        i, j = (int(v) for v in rng.choice(k, 2, replace=False))
        cand[i], cand[j] = spare[0], spare[1 % len(spare)]
    return cand


def sample(rng: np.random.Generator, knobs: dict, geo: dict, size: tuple[int, int]) -> tuple[tuple, list[tuple]]:
    """The reference's icon keys and each option's, the matching option first; no two options alike."""
    n, k = len(geo["options"]), knobs["sequence"]
    first, rest = _kinds(rng, knobs)
    keys = [first.key] + [r.key for r in rest]
    seq = [first.key] + [r.key for r in rest[:k - 1]]
    seq = [seq[i] for i in rng.permutation(k).tolist()]
    spare = [r.key for r in rest[k - 1:]]
    pool = emoji_kinds() if first.key.startswith("emoji:") else shape_kinds()
    ref = tuple(seq)
    options = [ref]
    for _ in range(200):
        if len(options) == n:
            break
        cand = _changed(rng, knobs, seq, keys, spare, pool)
        if tuple(cand) not in options:
            options.append(tuple(cand))
    if len(options) < n:
        raise Reject(f"{NAME}.no_sequences")
    return ref, options


def moved(content: tuple, dx: int, dy: int) -> tuple:
    """Icons are laid out in whatever panel they go to: nothing to move."""
    return content


def _slots(box, k: int, side: int) -> list[tuple[int, int]]:
    """Top-left corners of k icons of `side` px in a row, centred in `box`."""
    x0, y0, x1, y1 = box
    gap = ((x1 - x0) - k * side) / (k + 1)
    y = (y0 + y1 - side) // 2
    return [(int(round(x0 + gap + i * (side + gap))), y) for i in range(k)]


def icon_side(params) -> int:
    """One icon side for every panel: the largest that fits the smallest panel."""
    geo = layout(params.size, len(params.options), "sequence")
    k = len(params.reference)
    sides = []
    for box in [geo["reference"]] + geo["options"]:
        x0, y0, x1, y1 = inner(box, params.size)
        sides.append(min((y1 - y0) * 0.9, (x1 - x0) / k * 0.9))
    return int(min(sides))


def paint(canvas: draw.Canvas, params, geo: dict, panels: list, nid: int) -> tuple[dict, dict]:
    """Draw each panel's row of icons, numbered from `nid`: their meta, and the extras {"items": panel ->
    [(id, x, y)], "icon_side": side}."""
    side = icon_side(params)
    meta, items = {}, {}
    for pid, box, content in panels:
        items[pid] = []
        for key, (x, y) in zip(content, _slots(inner(box, params.size), len(content), side)):
            canvas.paste(draw.sprite(key, side), x, y, nid)
            meta[nid] = {"role": "item", "label": kind_by_key(key).en, "kind": key, "panel": pid}
            items[pid].append((nid, x, y))
            nid += 1
    return meta, {"items": items, "icon_side": side}


def values(params, puzzle, panels: dict, boxes: dict, areas: np.ndarray) -> tuple[dict, dict]:
    """Per panel, the icon keys read from its pixels (each icon whole), and the margin of the reading."""
    side = puzzle.extras["icon_side"]
    kinds = sorted({key for seq in (params.reference, *params.options) for key in seq})
    squares, grounds, where = [], [], []
    for pid, slots in puzzle.extras["items"].items():
        check_items(puzzle, [i for i, _, _ in slots], panels[pid], boxes, areas, MIN_ITEM_PX * area_scale(puzzle))
        for _, x, y in slots:
            squares.append(puzzle.rgb[y:y + side, x:x + side])
            grounds.append(puzzle.extras["plate"][y:y + side, x:x + side])
            where.append(pid)
    sprites = np.stack([draw.sprite(key, side) for key in kinds])
    best, margin = best_kinds(read_icons(np.stack(squares), np.stack(grounds), sprites))
    if margin < MIN_MARGIN:
        raise Reject(f"{NAME}.icons_confusable")
    out = {pid: tuple(kinds[j] for j, p in zip(best, where) if p == pid) for pid in puzzle.extras["items"]}
    return out, {"icon_margin": round(margin, 3)}
