"""Text: distorted characters on a noisy background crossed by lines and arcs; type the characters. From level 2
on, characters are also drawn outlined (hollow) or hatched with stripes, as real CAPTCHAs draw them to defeat OCR
(bench/solver_calibration.py measures how often an outside OCR still reads each level). The glyphs are laid
out, drawn and read back by synth.families.kit.distorted_text, which arithmetic shares."""
from dataclasses import dataclass

import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit.distorted_text import (
    FONTS,
    MAX_GLYPH_OVERLAP,
    Glyph,
    Line,
    dark_colour,
    glyph_styles,
    ink_colours,
    layout_row,
    line_width,
    read_glyphs,
    render_glyphs,
    sample_lines,
)

NAME = "text"
DESCRIPTION = "type the distorted characters shown on a noisy background crossed by lines (not case-sensitive)"
ANSWERS = ("type",)             # synth.labels.reward step types of its tasks
COVERS = ("VenusBench-CAPTCHA:OCR",)
STAT, STAT_DIRECTION = "character height (share of the puzzle's shorter side)", -1

# Upper case only (the reward compares casefold()), without every member of a confusable group:
# 0/O/Q/D, 1/I/J, 5/S, 2/Z, 8/B, 6/G, 9, U/V (and VV/W), plus lower case; and, alike when hatched, 4/A, X/K/Y,
# 7/T and F/E (a strike line along the foot of an F reads as an E).
ALPHABET = "ACEHKLMNPRTUWY3"

TABLE = LevelTable(NAME, knobs={
    "length_range": "number of characters",
    "height_range": "character height as a share of the puzzle's shorter side",
    "rotation_range": "largest per-character rotation, degrees",
    "shear_range": "largest per-character shear (horizontal shift per unit height)",
    "spacing_range": "advance between characters as a share of their mean width (below 1: touching)",
    "jitter_range": "vertical jitter of each character as a share of its height",
    "wave_range": "wave warp amplitude as a share of the character height",
    "lines_range": "number of strike-through lines and arcs over the text",
    "line_width_range": "line width as a share of the character height",
    "noise_range": "speckle dots per 1000 px²",
    "font_mix_range": "probability that a character takes its own font",
    "clutter_range": "background texture strength, 0 to 1",
    "one_colour_range": "probability that all characters share one ink colour",
    "hollow_range": "probability that a character is drawn hollow (outline only)",
    "hatch_range": "probability that a character is hatched (filled with diagonal stripes)",
    "overlap_range": "largest overlap allowed between two characters (share of the smaller)",
}, levels={
    1: {"length_range": (4, 4), "height_range": (0.2, 0.22), "rotation_range": (0, 8), "shear_range": (0, 0),
        "spacing_range": (1.12, 1.2), "jitter_range": (0, 0.04), "wave_range": (0, 0), "lines_range": (0, 1),
        "line_width_range": (0.02, 0.03), "noise_range": (0.2, 0.4), "font_mix_range": (0, 0),
        "clutter_range": (0.0, 0.1), "one_colour_range": (0.4, 0.4), "hollow_range": (0, 0), "hatch_range": (0, 0),
        "overlap_range": (0.05, 0.05)},
    2: {"length_range": (4, 5), "height_range": (0.18, 0.2), "rotation_range": (4, 10), "shear_range": (0, 0.06),
        "spacing_range": (1.06, 1.14), "jitter_range": (0.02, 0.06), "wave_range": (0, 0.03), "lines_range": (1, 1),
        "line_width_range": (0.02, 0.03), "noise_range": (0.4, 0.8), "font_mix_range": (0.2, 0.2),
        "clutter_range": (0.1, 0.25), "one_colour_range": (0.3, 0.3), "hollow_range": (0.1, 0.1),
        "hatch_range": (0.15, 0.15), "overlap_range": (0.05, 0.05)},
    3: {"length_range": (5, 5), "height_range": (0.16, 0.17), "rotation_range": (6, 12), "shear_range": (0.03, 0.1),
        "spacing_range": (1.02, 1.1), "jitter_range": (0.04, 0.08), "wave_range": (0.02, 0.05), "lines_range": (1, 2),
        "line_width_range": (0.02, 0.03), "noise_range": (0.7, 1.2), "font_mix_range": (0.5, 0.5),
        "clutter_range": (0.2, 0.35), "one_colour_range": (0.2, 0.2), "hollow_range": (0.15, 0.15),
        "hatch_range": (0.4, 0.4), "overlap_range": (0.06, 0.06)},
    4: {"length_range": (5, 5), "height_range": (0.15, 0.16), "rotation_range": (8, 14), "shear_range": (0.05, 0.12),
        "spacing_range": (0.98, 1.04), "jitter_range": (0.05, 0.1), "wave_range": (0.03, 0.06), "lines_range": (1, 2),
        "line_width_range": (0.02, 0.03), "noise_range": (0.8, 1.3), "font_mix_range": (0.8, 0.8),
        "clutter_range": (0.3, 0.4), "one_colour_range": (0.1, 0.1), "hollow_range": (0.15, 0.15),
        "hatch_range": (0.65, 0.65), "overlap_range": (0.08, 0.08)},
    5: {"length_range": (6, 6), "height_range": (0.135, 0.145), "rotation_range": (10, 16), "shear_range": (0.05, 0.15),
        "spacing_range": (0.98, 1.04), "jitter_range": (0.06, 0.1), "wave_range": (0.04, 0.08), "lines_range": (2, 2),
        "line_width_range": (0.02, 0.03), "noise_range": (0.9, 1.4), "font_mix_range": (1, 1),
        "clutter_range": (0.3, 0.45), "one_colour_range": (0, 0), "hollow_range": (0, 0),
        "hatch_range": (1, 1), "overlap_range": (0.08, 0.08)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                                   # "" (the characters are the answer)
    glyphs: tuple[Glyph, ...]                     # left to right
    wave: tuple[float, float, float, float, float]  # (amp x, amp y, wavelength, phase x, phase y)
    lines: tuple[Line, ...]
    noise: float
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- the text family

def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    w, h = size
    side = min(w, h)
    k = {name[:-6]: draw_knob(rng, row[name], integer=name in ("length_range", "lines_range")) for name in row}
    n = k["length"]
    chars = [ALPHABET[int(i)] for i in rng.integers(len(ALPHABET), size=n)]
    base_font = int(rng.integers(len(FONTS)))
    fonts = [int(rng.integers(len(FONTS))) if rng.random() < k["font_mix"] else base_font for _ in chars]
    angles = [float(rng.uniform(-k["rotation"], k["rotation"])) for _ in chars]
    shears = [float(rng.uniform(-k["shear"], k["shear"])) for _ in chars]
    scales = [float(rng.uniform(0.9, 1.1)) for _ in chars]
    colours = ink_colours(rng, n, rng.random() < k["one_colour"])
    gaps = [k["spacing"] * float(rng.uniform(0.97, 1.03)) for _ in range(n - 1)]
    styles = glyph_styles(rng, n, k["hollow"], k["hatch"])
    glyphs, height = layout_row(rng, chars, size, k["height"] * side, gaps, fonts, angles, shears, scales,
                                k["jitter"], colours, styles)
    amp = k["wave"] * height
    wave = (round(amp * float(rng.uniform(0.3, 0.7)), 3), round(amp, 3), round(float(rng.uniform(0.6, 1.2)) * w, 2),
            round(float(rng.uniform(0, 2 * np.pi)), 3), round(float(rng.uniform(0, 2 * np.pi)), 3))
    ys = [g.cy for g in glyphs]
    band = (min(ys) - 0.6 * height, max(ys) + 0.6 * height)
    lines = sample_lines(rng, k["lines"], size, band, line_width(glyphs, k["line_width"] * height),
                         [dark_colour(rng)])
    k["height"] = height / side
    k["rotation_mean"] = float(np.mean(np.abs(angles)))
    return Params(size=size, target="", glyphs=glyphs, wave=wave, lines=lines, noise=k["noise"],
                  clutter=k["clutter"], bg_seed=int(rng.integers(2**31)), knobs=k)


def stat(params: Params) -> float:
    """Difficulty statistic: character height as a share of the puzzle's shorter side."""
    return params.knobs["height"]


def render(params: Params) -> Puzzle:
    return render_glyphs(params.size, params.glyphs, params.wave, params.lines, params.noise, params.clutter,
                         params.bg_seed)


def solve(params: Params, puzzle: Puzzle) -> Task:
    order, objects, checks = read_glyphs(puzzle, NAME, params.knobs.get("overlap", MAX_GLYPH_OVERLAP))
    labels = [puzzle.meta[i]["label"] for i in order]
    if any(c not in ALPHABET for c in labels):
        raise Reject(f"{NAME}.confusable_glyph")
    text = "".join(labels)
    return Task(rule="type", answer={"text": text}, objects=objects, text=text, checks=checks)


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        return "请输入图中的字符（不区分大小写）"
    return "Type the characters shown in the image (not case-sensitive)."
