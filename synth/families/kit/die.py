"""A die, as dice, dice_path and option_match draw it: its faces' pip layout, body colours, and the die drawn
turned as a body layer and one layer per pip (so that each pip is an instance of its own)."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.families.kit import draw

GRID = 0.27               # pip offsets from the die centre, share of the side
FACES = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
BODIES = {"white": ((246, 244, 238), (25, 25, 25)), "ivory": ((238, 228, 200), (30, 30, 30)),
          "red": ((200, 40, 40), (250, 250, 250)), "blue": ((40, 80, 190), (250, 250, 250)),
          "green": ((30, 130, 70), (250, 250, 250)), "black": ((35, 35, 40), (245, 245, 245)),
          "yellow": ((240, 200, 40), (30, 30, 30))}


@dataclass(frozen=True)
class Die:
    """A die as drawn: centre (puzzle pixels), side, turn, the face shown and its look."""
    cx: float
    cy: float
    side: int
    angle: float           # clockwise degrees
    value: int             # 1..6 pips drawn
    mirror: bool           # 2, 3 and 6 drawn along the other diagonal / axis
    body: str              # key of BODIES
    pip: float             # pip radius, share of the side


def rounded_square(side: float, radius: float, n: int = 6) -> np.ndarray:
    """Outline (k, 2) of a rounded square centred on the origin."""
    h = side / 2 - radius
    centres = np.repeat([(h, -h), (h, h), (-h, h), (-h, -h)], n, axis=0)
    a = np.deg2rad((np.arange(-90, 270, 90)[:, None] + np.linspace(0, 90, n)).ravel())
    return centres + radius * np.stack([np.cos(a), np.sin(a)], 1)


def pip_offsets(die: Die) -> list[tuple[float, float]]:
    """Pip centres relative to the die centre, in puzzle pixels (turned with the die)."""
    t = np.deg2rad(die.angle)
    c, s = np.cos(t), np.sin(t)
    out = []
    for u, v in FACES[die.value]:
        if die.mirror:
            u, v = (-u, v) if die.value in (2, 3) else (v, u)
        x, y = u * GRID * die.side, v * GRID * die.side
        out.append((c * x - s * y, s * x + c * y))
    return out


def die_layers(die: Die) -> tuple[int, int, np.ndarray, list[tuple[int, int, np.ndarray]]]:
    """(x0, y0, body RGBA, [(x, y, pip RGBA)]) of one die on a local square; a pip's x, y place it in
    the body's frame."""
    n = draw.rotated_side(die.side, die.angle) + 4
    x0, y0 = int(round(die.cx - n / 2)), int(round(die.cy - n / 2))
    ox, oy = die.cx - x0, die.cy - y0
    t = np.deg2rad(die.angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    outline = rounded_square(die.side, 0.18 * die.side) @ rot.T + [ox, oy]
    alpha = np.zeros((n, n), np.uint8)
    cv2.fillPoly(alpha, [np.round(outline * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    body_rgb, pip_rgb = BODIES[die.body]
    # a soft light from the top left, and a darker rim
    ramp = np.linspace(1.06, 0.9, n, dtype=np.float32)
    shade = (ramp[None, :] + ramp[:, None]) / 2
    rgb = cv2.merge([cv2.convertScaleAbs(shade, alpha=c) for c in body_rgb])
    rim = tuple(int(v * 0.6) for v in body_rgb) if sum(body_rgb) > 200 else (110, 110, 115)
    cv2.polylines(rgb, [np.round(outline * 4).astype(np.int32)], True, rim, max(1, die.side // 40), cv2.LINE_AA,
                  shift=2)
    body = cv2.merge([rgb, alpha])
    pips = []
    r = die.pip * die.side
    for px, py in pip_offsets(die):
        a = np.zeros((n, n), np.uint8)
        cv2.circle(a, (int(round((ox + px) * 4)), int(round((oy + py) * 4))), int(round(r * 4)), 255, -1,
                   cv2.LINE_AA, shift=2)
        bx, by, bw, bh = cv2.boundingRect(a)      # the pip's layer is transparent outside this box
        layer = np.empty((bh, bw, 4), np.uint8)
        layer[..., :3] = pip_rgb
        layer[..., 3] = a[by:by + bh, bx:bx + bw]
        pips.append((bx, by, layer))
    return x0, y0, body, pips
