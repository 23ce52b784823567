"""Arithmetic: a short sum drawn as distorted characters ("7 + 5 = ?"); type the result."""
import re
from dataclasses import dataclass

import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit.distorted_text import (
    FONTS,
    Glyph,
    Line,
    dark_colour,
    layout_row,
    line_width,
    read_glyphs,
    render_glyphs,
    rounded_points,
)

NAME = "arithmetic"
DESCRIPTION = "type the result of a short sum drawn as distorted characters (7 + 5 = ?)"
ANSWERS = ("type",)             # synth.labels.reward step types of its tasks
COVERS = ("VenusBench-CAPTCHA:OCR",)
STAT, STAT_DIRECTION = "largest character rotation (degrees)", +1
OPERATORS = {"+", "−", "×", "="}
OPERATOR_TILT = 6.0        # operators turn at most this much (a turned + becomes ×)
LEVEL_SLOPE = 0.5          # a line by a − or = counts as level where it is flatter than this (about 27 degrees) ...
MAX_LEVEL_RUN = 0.3        # ... and may stay level for at most this share of the bar's width
EXPRESSION = re.compile(r"^\d+(?:[+−×]\d+)+=\?$")

TABLE = LevelTable(NAME, knobs={
    "terms_range": "number of operands",
    "max_value_range": "largest operand of a sum or difference",
    "times_range": "probability that the first operator is × (operands 2-9)",
    "minus_range": "probability that another operator is −",
    "height_range": "character height as a share of the puzzle's shorter side",
    "rotation_range": "largest rotation of a digit, degrees (operators at most 6)",
    "shear_range": "largest per-character shear",
    "jitter_range": "vertical jitter of each character as a share of its height",
    "wave_range": "wave warp amplitude as a share of the character height",
    "lines_range": "number of tall waves drawn across the sum (crossing a − or = only steeply)",
    "zigzag_range": "height of those waves, share of the character height",
    "line_width_range": "line width as a share of the character height",
    "noise_range": "speckle dots per 1000 px²",
    "font_mix_range": "probability that a character takes its own font",
    "clutter_range": "background texture strength, 0 to 1",
}, levels={
    1: {"terms_range": (2, 2), "max_value_range": (9, 9), "times_range": (0, 0), "minus_range": (0, 0),
        "height_range": (0.22, 0.25), "rotation_range": (0, 5), "shear_range": (0, 0), "jitter_range": (0, 0.04),
        "wave_range": (0, 0), "lines_range": (0, 0), "zigzag_range": (0.5, 0.6), "line_width_range": (0.02, 0.03),
        "noise_range": (0.2, 0.4), "font_mix_range": (0, 0), "clutter_range": (0.0, 0.1)},
    2: {"terms_range": (2, 2), "max_value_range": (20, 20), "times_range": (0, 0), "minus_range": (0.3, 0.3),
        "height_range": (0.2, 0.22), "rotation_range": (4, 9), "shear_range": (0, 0.06), "jitter_range": (0.02, 0.06),
        "wave_range": (0, 0.03), "lines_range": (0, 1), "zigzag_range": (0.5, 0.6), "line_width_range": (0.02, 0.03),
        "noise_range": (0.4, 0.8), "font_mix_range": (0.2, 0.2), "clutter_range": (0.1, 0.25)},
    3: {"terms_range": (2, 2), "max_value_range": (50, 50), "times_range": (0.3, 0.3), "minus_range": (0.5, 0.5),
        "height_range": (0.18, 0.2), "rotation_range": (8, 13), "shear_range": (0.04, 0.1),
        "jitter_range": (0.04, 0.08), "wave_range": (0.02, 0.05), "lines_range": (1, 1), "zigzag_range": (0.7, 0.8),
        "line_width_range": (0.025, 0.035), "noise_range": (0.8, 1.4), "font_mix_range": (0.5, 0.5),
        "clutter_range": (0.25, 0.4)},
    4: {"terms_range": (2, 3), "max_value_range": (30, 30), "times_range": (0.5, 0.5), "minus_range": (0.5, 0.5),
        "height_range": (0.16, 0.18), "rotation_range": (12, 17), "shear_range": (0.08, 0.15),
        "jitter_range": (0.06, 0.1), "wave_range": (0.04, 0.07), "lines_range": (1, 2), "zigzag_range": (0.8, 0.9),
        "line_width_range": (0.025, 0.035), "noise_range": (1.2, 2.0), "font_mix_range": (0.8, 0.8),
        "clutter_range": (0.35, 0.5)},
    5: {"terms_range": (3, 3), "max_value_range": (50, 50), "times_range": (0.7, 0.7), "minus_range": (0.5, 0.5),
        "height_range": (0.15, 0.17), "rotation_range": (16, 21), "shear_range": (0.1, 0.2),
        "jitter_range": (0.08, 0.12), "wave_range": (0.05, 0.09), "lines_range": (2, 2), "zigzag_range": (0.85, 1.0),
        "line_width_range": (0.025, 0.035), "noise_range": (1.6, 2.4), "font_mix_range": (1, 1),
        "clutter_range": (0.45, 0.6)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                                   # "" (the result is the answer)
    glyphs: tuple[Glyph, ...]                     # left to right, e.g. "1", "2", "−", "4", "=", "?"
    wave: tuple[float, float, float, float, float]
    lines: tuple[Line, ...]
    noise: float
    clutter: float
    bg_seed: int
    knobs: dict


def expression(rng: np.random.Generator, terms: int, max_value: int, times: float, minus: float,
               two_digit_first: bool) -> list[str]:
    """Tokens of a sum whose every step stays non-negative; × only first, so reading order = precedence."""
    if rng.random() < times:
        a, b = int(rng.integers(2, 10)), int(rng.integers(2, 10))
        tokens, value = [str(a), "×", str(b)], a * b
    else:
        lo = 10 if two_digit_first and max_value >= 10 else 1
        value = int(rng.integers(lo, max_value + 1))
        tokens = [str(value)]
    while len([t for t in tokens if t.isdigit()]) < terms:
        if rng.random() < minus and value >= 2:
            c = int(rng.integers(1, min(max_value, value) + 1))
            tokens += ["−", str(c)]
            value -= c
        else:
            c = int(rng.integers(1, max_value + 1))
            tokens += ["+", str(c)]
            value += c
    return tokens + ["=", "?"]


def zigzag(rng: np.random.Generator, glyphs: tuple[Glyph, ...], height: float, width: float,
           colours: list[tuple], amplitude: float) -> Line:
    """A tight wave across the whole sum, `amplitude` (share of the character height) high: it crosses each
    character steeply."""
    x0 = glyphs[0].cx - float(rng.uniform(0.6, 1.2)) * height
    x1 = glyphs[-1].cx + float(rng.uniform(0.6, 1.2)) * height
    xs = np.linspace(x0, x1, 160)
    mid = np.interp(xs, [g.cx for g in glyphs], [g.cy for g in glyphs]) + float(rng.uniform(-0.15, 0.15)) * height
    amp = amplitude * height
    lam = float(rng.uniform(1.3, 2.4)) * height
    ys = mid + amp * np.sin(2 * np.pi * (xs - x0) / lam + float(rng.uniform(0, 2 * np.pi)))
    return Line(rounded_points(xs, ys), max(1, int(round(width))), colours[int(rng.integers(len(colours)))])


def level_run(xs: np.ndarray, ys: np.ndarray, y_lo: float, y_hi: float) -> float:
    """Longest x-extent over which a curve sampled at increasing `xs` stays inside [y_lo, y_hi] while
    running flatter than LEVEL_SLOPE (slopes over a 4-sample window that spans no gap in `xs`)."""
    if len(xs) < 5:
        return 0.0
    span = xs[4:] - xs[:-4]
    slope = np.abs(ys[4:] - ys[:-4]) / np.maximum(1e-6, span)
    mid_x, mid_y = xs[2:-2], ys[2:-2]
    step = float(np.min(np.diff(xs)))
    flat = (slope < LEVEL_SLOPE) & (mid_y >= y_lo) & (mid_y <= y_hi) & (span <= 4.5 * step)   # no gaps
    best, start = 0.0, None
    for j, f in enumerate(flat):
        if f and start is None:
            start = j
        if start is not None and (not f or j == len(flat) - 1):
            end = j if f else j - 1
            best = max(best, float(mid_x[end] - mid_x[start]))
            start = None
    return best


def _runs_along(pts: np.ndarray, glyph: Glyph, height: float) -> bool:
    """Whether a line (its points as an (n, 2) array) runs level beside a − or = for long enough to pass for
    another bar."""
    xs = np.arange(glyph.cx - 0.8 * height, glyph.cx + 0.8 * height, max(1.0, height / 16))
    ys = np.interp(xs, pts[:, 0], pts[:, 1])
    return level_run(xs, ys, glyph.cy - 0.8 * height, glyph.cy + 0.8 * height) > 0.2 * height


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    ints = ("terms_range", "max_value_range", "lines_range")
    k = {name[:-6]: draw_knob(rng, row[name], integer=name in ints) for name in row}
    tokens = expression(rng, k["terms"], k["max_value"], k["times"], k["minus"], level >= 2)
    chars, gaps = [], []
    for t in tokens:
        if chars:
            gaps.append(float(rng.uniform(1.25, 1.45)))      # between tokens
        for j, c in enumerate(t):
            if j:
                gaps.append(float(rng.uniform(1.0, 1.08)))   # between the digits of one number
            chars.append(c)
    base_font = int(rng.integers(len(FONTS)))
    fonts = [int(rng.integers(len(FONTS))) if rng.random() < k["font_mix"] else base_font for _ in chars]
    angles = [float(rng.uniform(-1, 1)) * (min(k["rotation"], OPERATOR_TILT) if c in OPERATORS else k["rotation"])
              for c in chars]
    shears = [0.0 if c in OPERATORS else float(rng.uniform(-k["shear"], k["shear"])) for c in chars]
    scales = [float(rng.uniform(0.92, 1.08)) for _ in chars]
    colours = [dark_colour(rng)] * len(chars) if rng.random() < 0.5 else [dark_colour(rng) for _ in chars]
    glyphs, height = layout_row(rng, chars, size, k["height"] * side, gaps, fonts, angles, shears, scales,
                                k["jitter"], colours)
    amp = k["wave"] * height
    wave = (round(amp * float(rng.uniform(0.3, 0.7)), 3), round(amp, 3), round(float(rng.uniform(0.6, 1.2)) * w, 2),
            round(float(rng.uniform(0, 2 * np.pi)), 3), round(float(rng.uniform(0, 2 * np.pi)), 3))
    line_colours = colours + [dark_colour(rng)] if level >= 3 else [dark_colour(rng)]
    bars = [g for g in glyphs if g.char in ("−", "=")]
    width = line_width(glyphs, k["line_width"] * height)
    lines = []
    for _ in range(k["lines"]):
        for _ in range(30):   # a curve running level beside a − or = would read as one more bar
            line = zigzag(rng, glyphs, height, width, line_colours, k["zigzag"])
            pts = np.array(line.points)
            if not any(_runs_along(pts, g, height) for g in bars):
                lines.append(line)
                break
    k["height"] = height / side
    return Params(size=size, target="", glyphs=glyphs, wave=wave, lines=tuple(lines), noise=k["noise"],
                  clutter=k["clutter"], bg_seed=int(rng.integers(2**31)), knobs=k)


def stat(params: Params) -> float:
    """Difficulty statistic: the largest rotation a digit may take, degrees."""
    return params.knobs["rotation"]


def render(params: Params) -> Puzzle:
    return render_glyphs(params.size, params.glyphs, params.wave, params.lines, params.noise, params.clutter,
                         params.bg_seed)


def evaluate(expr: str) -> tuple[int, int]:
    """(value with × before + and −, value read strictly left to right) of "12−4×2"-style text."""
    parts = re.findall(r"\d+|[+−×]", expr)
    nums, ops = [int(p) for p in parts[0::2]], parts[1::2]
    ltr = nums[0]
    for op, n in zip(ops, nums[1:]):
        ltr = ltr + n if op == "+" else ltr - n if op == "−" else ltr * n
    terms, signs = [nums[0]], [1]
    for op, n in zip(ops, nums[1:]):
        if op == "×":
            terms[-1] *= n
        else:
            terms.append(n)
            signs.append(1 if op == "+" else -1)
    return sum(s * t for s, t in zip(signs, terms)), ltr


def solve(params: Params, puzzle: Puzzle) -> Task:
    order, objects, checks = read_glyphs(puzzle, NAME)
    text = "".join(puzzle.meta[i]["label"] for i in order)
    if not EXPRESSION.match(text):
        raise Reject(f"{NAME}.unreadable_expression")
    # a line may cross a − or = only steeply: one running level beside it would read as another bar
    inst = puzzle.instances
    h, w = inst.shape
    line_ids = [i for i, m in puzzle.meta.items() if m["role"] == "noise"]
    boxes = {o["id"]: o["bbox"] for o in objects}
    row_h = float(np.median([b[3] - b[1] for i, b in boxes.items() if puzzle.meta[i]["label"].isdigit()]))
    flattest = 0.0
    for i in order:
        if puzzle.meta[i]["label"] not in ("−", "="):
            continue
        x0, y0, x1, y1 = boxes[i]
        cy = (y0 + y1) / 2
        ya, yb = max(0, int(cy - 0.55 * row_h)), min(h, int(cy + 0.55 * row_h) + 1)
        xa, xb = max(0, int(x0) - 2), min(w, int(x1) + 2)
        strip = inst[ya:yb, xa:xb]
        for j in line_ids:
            on = strip == j
            cols = np.nonzero(on.any(axis=0))[0]
            if len(cols) < 5:
                continue
            rows = np.arange(on.shape[0], dtype=float)[:, None]
            ys = (on * rows).sum(axis=0)[cols] / on.sum(axis=0)[cols]
            run = level_run(cols.astype(float), ys, 0, on.shape[0]) / max(1.0, x1 - x0)
            flattest = max(flattest, run)
            if run > MAX_LEVEL_RUN:
                raise Reject(f"{NAME}.line_along_operator")
    value, ltr = evaluate(text[:-2])
    if value != ltr:
        raise Reject(f"{NAME}.precedence_ambiguous")
    if value < 0:
        raise Reject(f"{NAME}.negative_result")
    checks.update(result=float(value), operators=float(sum(c in "+−×" for c in text)),
                  longest_level_run_by_bar=round(float(flattest), 4))
    return Task(rule="type", answer={"count": value}, objects=objects, text=str(value), checks=checks)


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请计算图中算式的结果，并输入数字"
    return "Work out the calculation in the picture and type the result."
