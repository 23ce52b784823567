"""Option match, dice rule: the reference shows two dice; the matching option shows two that add up to the
same total (often other faces, other colours), the wrong ones other totals (a near miss shares a face and
is one off). Pips are counted on the instance map."""
import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import contains
from synth.families.kit import draw
from synth.families.kit.die import Die, die_layers
from synth.families.option_match.panels import ITEM_VISIBLE, NAME, area_scale, check_items, inner

INSTRUCTION = {"en": "Click the option whose dice add up to the same total as the dice at the top.",
               "zh": "请点击骰子点数之和与上方骰子相同的选项"}
MIN_PIP_PX = 8            # at 320 x 320 (scaled with the area): a pip smaller than this is too small
MIN_PIP_CONTRAST = 60.0   # luminance gap between pips and their die
PIP = 0.085               # pip radius, share of the die side (the pips of a six stay apart on small dice)
WHITE, COLOURED = ("white", "ivory"), ("red", "blue", "green", "black", "yellow")


def dice_pair(rng: np.random.Generator, box, values, tilt: float, body: str) -> tuple:
    """Two dice side by side in `box`."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    t = np.deg2rad(min(45.0, tilt))
    turn = np.cos(t) + np.sin(t)                 # the widest a turned die can get, over its side
    side = int(min(bh * 0.8, bw * 0.42) / turn)
    apart = min(0.46 * bw, 1.6 * side * turn)        # centre to centre
    out = []
    for k, v in enumerate(values):
        cx = x0 + bw / 2 + apart * (k - 0.5)
        cy = y0 + bh / 2 + float(rng.uniform(-0.06, 0.06)) * bh
        angle = float(rng.uniform(-tilt, tilt)) if tilt else 0.0
        out.append(Die(round(cx, 2), round(cy, 2), side, round(angle, 2), int(v), bool(rng.random() < 0.5), body,
                       PIP))
    return tuple(out)


def _faces(rng: np.random.Generator, knobs: dict, n: int) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """The reference's two faces, and each option's (the matching option first, in place; the others after
    it in random order), no two options with one total."""
    pairs = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    a, b = pairs[int(rng.integers(len(pairs)))]
    total = a + b
    same_total = [p for p in pairs if sum(p) == total and sorted(p) != sorted((a, b))]
    if same_total and rng.random() < knobs["vary"]:
        match = same_total[int(rng.integers(len(same_total)))]
    else:
        match = (b, a)
    chosen = [match]
    sums = {total}
    for _ in range(200):
        if len(chosen) == n:
            break
        if rng.random() < knobs["near"]:           # one face shared with the reference, a total one off
            keep = (a, b)[int(rng.integers(2))]
            other = total - keep + (1 if rng.random() < 0.5 else -1)
            if not 1 <= other <= 6:
                continue
            cand = (keep, other) if rng.random() < 0.5 else (other, keep)
        else:
            cand = pairs[int(rng.integers(len(pairs)))]
        if sum(cand) not in sums:
            sums.add(sum(cand))
            chosen.append(cand)
    if len(chosen) < n:
        raise Reject(f"{NAME}.no_dice_totals")
    order = [0] + rng.permutation(np.arange(1, n)).tolist()
    return (a, b), [chosen[i] for i in order]


def sample(rng: np.random.Generator, knobs: dict, geo: dict, size: tuple[int, int]) -> tuple[tuple, list[tuple]]:
    """The reference's dice and each option's, the matching option first."""
    n = len(geo["options"])
    ref_faces, chosen = _faces(rng, knobs, n)

    def body():
        pool = COLOURED if rng.random() < knobs["vary"] else WHITE
        return pool[int(rng.integers(len(pool)))]

    ref = dice_pair(rng, inner(geo["reference"], size), ref_faces, knobs["tilt"], body())
    options = [dice_pair(rng, inner(geo["options"][i], size), chosen[i], knobs["tilt"], body()) for i in range(n)]
    return ref, options


def moved(content: tuple, dx: int, dy: int) -> tuple:
    """Dice placed in one panel, shifted by (dx, dy) to another."""
    return tuple(Die(round(d.cx + dx, 2), round(d.cy + dy, 2), d.side, d.angle, d.value, d.mirror, d.body, d.pip)
                 for d in content)


def paint(canvas: draw.Canvas, params, geo: dict, panels: list, nid: int) -> tuple[dict, dict]:
    """Draw each panel's dice, numbered from `nid` (a die, then its pips): their meta, and the extras
    {"items": panel -> [(die id, pip ids)]}."""
    meta, items = {}, {}
    for pid, _, content in panels:
        items[pid] = []
        for die in content:
            x0, y0, body, pips = die_layers(die)
            canvas.paste(body, x0, y0, nid)
            die_id = nid
            meta[die_id] = {"role": "item", "label": "die", "kind": "die", "panel": pid}
            nid += 1
            pip_ids = []
            for px, py, layer in pips:
                canvas.paste(layer, x0 + px, y0 + py, nid)
                meta[nid] = {"role": "pip", "label": "pip", "kind": "pip", "panel": pid}
                pip_ids.append(nid)
                nid += 1
            items[pid].append((die_id, pip_ids))
    return meta, {"items": items}


def _pips(puzzle, grey: np.ndarray, die_id: int, pip_ids: list[int], boxes: dict) -> tuple[int, float]:
    """The pips of one die counted on the instance map, and their luminance gap to the die."""
    assert pip_ids == list(range(die_id + 1, die_id + 1 + len(pip_ids)))    # as paint numbers them
    x0, y0, x1, y1 = (int(v) for v in boxes[die_id])
    region = puzzle.instances[y0:y1, x0:x1]
    pip_px = (region > die_id) & (region <= die_id + len(pip_ids))
    count = cv2.connectedComponents(pip_px.view(np.uint8), connectivity=8)[0] - 1
    if count != len(pip_ids):
        raise Reject(f"{NAME}.pips_merge")
    luma = grey[y0:y1, x0:x1]
    contrast = abs(float(np.median(luma[pip_px])) - float(np.median(luma[region == die_id])))
    if contrast < MIN_PIP_CONTRAST:
        raise Reject(f"{NAME}.low_contrast")
    return count, contrast


def values(params, puzzle, panels: dict, boxes: dict, areas: np.ndarray) -> tuple[dict, dict]:
    """Per panel, the total of the pips the instance map shows (each die whole, its pips apart and clear),
    and the least pip contrast."""
    out, min_contrast = {}, 255.0
    grey = cv2.cvtColor(puzzle.rgb, cv2.COLOR_RGB2GRAY)
    for pid, dice in puzzle.extras["items"].items():
        total = 0
        for die_id, pip_ids in dice:
            # the pips lie on the die: the die shows whole when its body and pips together do
            shown = areas[die_id] + sum(int(areas[p]) for p in pip_ids)
            if die_id not in boxes or shown < ITEM_VISIBLE * puzzle.full_area[die_id]:
                raise Reject(f"{NAME}.item_hidden")
            if not contains(panels[pid], boxes[die_id]):
                raise Reject(f"{NAME}.item_outside_panel")
            check_items(puzzle, pip_ids, boxes[die_id], boxes, areas, MIN_PIP_PX * area_scale(puzzle))
            count, contrast = _pips(puzzle, grey, die_id, pip_ids, boxes)
            min_contrast = min(min_contrast, contrast)
            total += count
        out[pid] = total
    return out, {"min_pip_contrast": round(min_contrast, 2)}
