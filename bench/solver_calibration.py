"""Difficulty against an outside solver: ddddocr's OCR on `text` and `arithmetic`, its slide_match on `slider`.

Every sample is drawn as the pipeline draws it for the web platform (320x320 puzzle, dpr 1, which is pasted
into the page unscaled): sample_params, render, solve (rejected instances are redrawn), the level's
degradations, and a JPEG round trip at the screenshot quality. The solver then sees only pixels:
- text / arithmetic: the glyph region (the row of characters with a margin) goes to `DdddOcr.classification`;
  text counts as read when the result equals the answer ignoring case and spaces; arithmetic when the
  expression it reads evaluates to the answer, read as a solver that knows the format would (see read_sum).
- slider: the piece (its pixels, black outside its outline, as a transparent piece image reads once flattened)
  is matched with `DdddOcr.slide_match` against the picture to the right of the piece, on the piece's rows (it
  slides along its row; `--slide-anywhere` searches the whole height); a success is a drop within the family's
  accept tolerance.

Run: .venv/bin/python bench/solver_calibration.py [--n 40] [--families text,arithmetic,slider] [--seed 0]
Prints one Markdown table (rate per level, n per cell). Needs the `solvers` extra (pip install -e .[solvers]).
"""
import argparse
import io
import re
import sys
import time

import cv2
import numpy as np
from PIL import Image

from synth.captcha.augment import degrade
from synth.core import jpeg
from synth.core.errors import Reject
from synth.core.levels import LEVELS
from synth.families import FAMILIES
from synth.screens.pages import PLATFORMS

SIZE = PLATFORMS["web"]["puzzle"]
MAX_ATTEMPTS = 60              # redraws of one sample, as in the pipeline
PAD = 0.35                     # margin around the glyph row, share of the row height
FAMILY_ORDER = ("text", "arithmetic", "slider")   # slider last: its module may be changing under us


def solver():
    try:
        import ddddocr
    except ImportError as e:   # an optional dependency
        raise SystemExit("ddddocr is missing: install the extra with `.venv/bin/pip install -e .[solvers]`") from e
    return ddddocr.DdddOcr(show_ad=False)


def shown(family, seed: int, index: int, level: int):
    """(params, task, rgb as the sample shows it, instances) of one sample; redraws rejected instances."""
    for attempt in range(MAX_ATTEMPTS):
        rng = np.random.default_rng([seed, level, index, attempt])
        try:
            params = family.sample_params(rng, level, SIZE)
            puzzle = family.render(params)
            task = family.solve(params, puzzle)
        except Reject:
            continue
        rgb, instances, _ = degrade(puzzle.rgb, puzzle.instances, level, family.GEOMETRIC_AUGMENT,
                                    int(rng.integers(2**31)))
        _, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, jpeg.QUALITY])
        rgb = cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        return params, task, rgb, instances
    raise RuntimeError(f"{family.NAME} level {level} sample {index}: nothing passed in {MAX_ATTEMPTS} attempts")


def glyph_region(rgb: np.ndarray, instances: np.ndarray, task) -> Image.Image:
    """The row of characters with a margin, as a CAPTCHA image of the characters alone would show it."""
    ids = [o["id"] for o in task.objects]
    ys, xs = np.nonzero(np.isin(instances, ids))
    h, w = instances.shape
    pad = PAD * (ys.max() - ys.min() + 1)
    x0, x1 = max(0, int(xs.min() - pad)), min(w, int(xs.max() + pad) + 1)
    y0, y1 = max(0, int(ys.min() - pad)), min(h, int(ys.max() + pad) + 1)
    return Image.fromarray(rgb[y0:y1, x0:x1])


def png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def normalise_text(s: str) -> str:
    return re.sub(r"\s+", "", s).casefold()


LOOKALIKES = str.maketrans({"×": "*", "x": "*", "X": "*", "−": "-", "—": "-", "一": "-", "十": "+"})


def read_sum(s: str) -> int | None:
    """The value of the sum an OCR string spells ("12-4x2=?" -> 4), × before + and −; None if it spells none.
    Reads as a solver that knows the format would: look-alike symbols mapped (x for ×, 十 for +), and the
    "=?" tail cut off: everything before the last "=", or, with no "=" read, all but the last two characters
    (an "=?" misread as two other characters, "12+4=?" as "12+472")."""
    s = re.sub(r"\s+", "", s.translate(LOOKALIKES))
    s = s[:s.rindex("=")] if "=" in s else s[:-2]
    if not re.fullmatch(r"\d+(?:[-+*]\d+)+", s):
        return None
    terms = re.findall(r"[-+]?[^-+]+", s)
    total = 0
    for t in terms:
        sign = -1 if t.startswith("-") else 1
        value = 1
        for f in t.lstrip("+-").split("*"):
            value *= int(f)
        total += sign * value
    return total


def judge_ocr(ocr, name: str, task, rgb, instances) -> bool:
    got = ocr.classification(png(glyph_region(rgb, instances, task)))
    if name == "text":
        return normalise_text(got) == normalise_text(task.text)
    return read_sum(got) == int(task.text)


def judge_slide(ocr, task, rgb, instances, row_only: bool = True) -> bool:
    """slide_match of the piece against the picture right of it (only the piece's rows with `row_only`: the
    piece slides along its row); success: the drop lands within the tolerance."""
    x0, y0, x1, y1 = (int(round(v)) for v in task.target_boxes[0])
    piece_id = int(instances[int(task.points[0][1]), int(task.points[0][0])])
    inside = instances[y0:y1, x0:x1] == piece_id
    piece = np.where(inside[..., None], rgb[y0:y1, x0:x1], 0).astype(np.uint8)
    left = x1 + 1                       # the background starts past the piece, so it cannot match itself
    background = rgb[y0:y1, left:] if row_only else rgb[:, left:]
    result = ocr.slide_match(png(Image.fromarray(piece)), png(Image.fromarray(background)))
    drop_x0 = left + result["target"][0] - piece.shape[1] // 2      # slide_match answers the centre
    return abs(drop_x0 - (x0 + task.answer["offset"])) <= task.tolerance_px


def measure(ocr, name: str, n: int, seed: int, row_only: bool = True) -> dict[int, float]:
    family = FAMILIES[name]
    rates = {}
    for level in LEVELS:
        hits = 0
        for i in range(n):
            _, task, rgb, instances = shown(family, seed, i, level)
            if name == "slider":
                hits += judge_slide(ocr, task, rgb, instances, row_only)
            else:
                hits += judge_ocr(ocr, name, task, rgb, instances)
        rates[level] = hits / n
    return rates


def table(results: dict[str, dict[int, float]], n: int) -> str:
    head = "| family | measure | " + " | ".join(f"L{lv}" for lv in LEVELS) + " | n per level |"
    rows = [head, "|---|---|" + "---|" * len(LEVELS) + "---|"]
    for name, rates in results.items():
        what = "slide_match success" if name == "slider" else "OCR read rate"
        rows.append(f"| {name} | {what} | " + " | ".join(f"{rates[lv]:.2f}" for lv in LEVELS) + f" | {n} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40, help="samples per family and level")
    ap.add_argument("--families", default=",".join(FAMILY_ORDER))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--slide-anywhere", action="store_true",
                    help="slider: search the whole picture, not the piece's rows")
    args = ap.parse_args(argv)
    names = [f for f in FAMILY_ORDER if f in args.families.split(",")]
    ocr = solver()
    results = {}
    for name in names:
        t = time.perf_counter()
        results[name] = measure(ocr, name, args.n, args.seed, not args.slide_anywhere)
        print(f"{name}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
    print(table(results, args.n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
