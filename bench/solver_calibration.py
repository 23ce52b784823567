"""Difficulty against outside solvers: ddddocr and RapidOCR read `text`, `arithmetic`, `word_order` and
`letter_attr`; ddddocr's slide_match solves `slider`.

Every sample is drawn as the pipeline draws it for the web platform (320x320 puzzle, dpr 1, which is pasted
into the page unscaled): sample_params, render, solve (rejected instances are redrawn), the level's
degradations, and a JPEG round trip at the screenshot quality. The solver then sees only pixels:
- text / arithmetic: the glyph region (the row of characters with a margin) goes to `DdddOcr.classification`;
  text counts as read when the result equals the answer ignoring case and spaces; arithmetic when the
  expression it reads evaluates to the answer, read as a solver that knows the format would (see read_sum).
- word_order: each target character's box (with a margin, enlarged to 64 px) is read alone, as a click solver
  that has found the characters would; a sample counts when every character of the word reads right (the
  solver must still find the word's order: an upper bound on what it solves).
- letter_attr (RapidOCR only: it scores what it reads): each letter's box is read with every turn of the family
  undone in turn (none, mirror, 180 degrees, 90 left, 90 right); the solver takes the turn whose reading scores
  best as the letter's and clicks the letters whose turn (or, for the vowel task, whose letter) is asked; a
  sample counts when the clicked set is the label's.
- slider: the piece (its pixels, black outside its outline, as a transparent piece image reads once flattened)
  is matched with `DdddOcr.slide_match` against the picture to the right of the piece, on the piece's rows (it
  slides along its row; `--slide-anywhere` searches the whole height); a success is a drop within the family's
  accept tolerance.

Run: .venv/bin/python bench/solver_calibration.py [--n 40] [--families text,...] [--solvers ddddocr,rapidocr]
Prints one Markdown table (rate per family, solver and level; n per cell). Needs the `solvers` extra
(pip install -e .[solvers]): ddddocr (MIT) and rapidocr-onnxruntime (Apache-2.0), models inside their wheels.
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
FAMILY_ORDER = ("text", "arithmetic", "word_order", "letter_attr", "slider")
SOLVERS = ("ddddocr", "rapidocr")
GLYPH_PX = 64                  # a single character's crop is enlarged to at least this height before reading
UNDO = {"none": None, "mirror": ("flip", 1), "flip": ("rotate", cv2.ROTATE_180),     # what undoes each turn
        "left": ("rotate", cv2.ROTATE_90_CLOCKWISE), "right": ("rotate", cv2.ROTATE_90_COUNTERCLOCKWISE)}
MISSING = "{} is missing: install the extra with `.venv/bin/pip install -e .[solvers]`"


class Dddd:
    """ddddocr's bundled OCR and slide matcher."""
    name = "ddddocr"

    def __init__(self):
        try:
            import ddddocr
        except ImportError as e:   # an optional dependency
            raise SystemExit(MISSING.format("ddddocr")) from e
        self.ocr = ddddocr.DdddOcr(show_ad=False)

    def read(self, rgb: np.ndarray) -> str:
        return self.ocr.classification(png(Image.fromarray(rgb)))


class Rapid:
    """RapidOCR's bundled recogniser (PP-OCR models on onnxruntime). Every crop given is one line of text (the
    glyph row, one character), so it is read without the text detector, which would only cost time."""
    name = "rapidocr"

    def __init__(self):
        try:
            from rapidocr_onnxruntime import RapidOCR
        except ImportError as e:
            raise SystemExit(MISSING.format("rapidocr-onnxruntime")) from e
        self.engine = RapidOCR()

    def read(self, rgb: np.ndarray) -> str:
        return self.scored(rgb)[0]

    def scored(self, rgb: np.ndarray) -> tuple[str, float]:
        """(text, confidence) of the crop read as one line."""
        found, _ = self.engine(rgb, use_det=False, use_cls=False, use_rec=True)
        return (found[0][0], float(found[0][1])) if found else ("", 0.0)


def solver(name: str):
    return {"ddddocr": Dddd, "rapidocr": Rapid}[name]()


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
    got = ocr.read(np.asarray(glyph_region(rgb, instances, task)))
    if name == "text":
        return normalise_text(got) == normalise_text(task.text)
    return read_sum(got) == int(task.text)


def glyph_crop(rgb: np.ndarray, box) -> np.ndarray:
    """One character's box with a margin of PAD of its size, enlarged to at least GLYPH_PX high."""
    x0, y0, x1, y1 = box
    pad = PAD * max(x1 - x0, y1 - y0)
    h, w = rgb.shape[:2]
    crop = rgb[max(0, int(y0 - pad)):min(h, int(y1 + pad) + 1), max(0, int(x0 - pad)):min(w, int(x1 + pad) + 1)]
    scale = max(1.0, GLYPH_PX / crop.shape[0])
    return cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC) if scale > 1 else crop


def judge_word(ocr, task, rgb) -> bool:
    """Every character of the word, read alone from its box, is that character."""
    by_id = {o["id"]: o for o in task.objects}
    return all(normalise_text(ocr.read(glyph_crop(rgb, by_id[i]["bbox"]))) == normalise_text(by_id[i]["label"])
               for i in task.target_ids)


def undone(crop: np.ndarray, turn: str) -> np.ndarray:
    how = UNDO[turn]
    if how is None:
        return crop
    return cv2.flip(crop, how[1]) if how[0] == "flip" else cv2.rotate(crop, how[1])


def judge_letters(ocr, params, task, rgb) -> bool | None:
    """The letters clicked by reading each one under every undone turn (RapidOCR scores) are the label's."""
    if not hasattr(ocr, "scored"):
        return None
    from synth.families.letter_attr import ASKED, VOWELS
    clicked = set()
    for o in task.objects:
        if o["role"] not in ("target", "distractor"):
            continue
        crop = glyph_crop(rgb, o["bbox"])
        reads = {turn: ocr.scored(undone(crop, turn)) for turn in UNDO}
        turn = max(reads, key=lambda t: reads[t][1])
        letter = reads[turn][0].strip()[:1]
        if (params.task == "vowel" and turn == "none" and letter in VOWELS) or turn in ASKED[params.task]:
            clicked.add(o["id"])
    return clicked == set(task.target_ids)


def judge_slide(ocr, task, rgb, instances, row_only: bool = True) -> bool | None:
    """slide_match of the piece against the picture right of it (only the piece's rows with `row_only`: the
    piece slides along its row); success: the drop lands within the tolerance."""
    x0, y0, x1, y1 = (int(round(v)) for v in task.target_boxes[0])
    if not isinstance(ocr, Dddd):                 # RapidOCR has no slide matcher
        return None
    piece_id = int(instances[int(task.points[0][1]), int(task.points[0][0])])
    inside = instances[y0:y1, x0:x1] == piece_id
    piece = np.where(inside[..., None], rgb[y0:y1, x0:x1], 0).astype(np.uint8)
    left = x1 + 1                       # the background starts past the piece, so it cannot match itself
    background = rgb[y0:y1, left:] if row_only else rgb[:, left:]
    result = ocr.ocr.slide_match(png(Image.fromarray(piece)), png(Image.fromarray(background)))
    drop_x0 = left + result["target"][0] - piece.shape[1] // 2      # slide_match answers the centre
    return abs(drop_x0 - (x0 + task.answer["offset"])) <= task.tolerance_px


def judge(ocr, name: str, params, task, rgb, instances, row_only: bool) -> bool | None:
    """Whether the solver beats one sample; None when it cannot try this family."""
    if name == "slider":
        return judge_slide(ocr, task, rgb, instances, row_only)
    if name == "word_order":
        return judge_word(ocr, task, rgb)
    if name == "letter_attr":
        return judge_letters(ocr, params, task, rgb)
    return judge_ocr(ocr, name, task, rgb, instances)


def measure(ocr, name: str, n: int, seed: int, row_only: bool = True) -> dict[int, float] | None:
    """Solve rate per level over n samples a level; None when the solver cannot try the family."""
    family = FAMILIES[name]
    rates = {}
    for level in LEVELS:
        hits = 0
        for i in range(n):
            params, task, rgb, instances = shown(family, seed, i, level)
            won = judge(ocr, name, params, task, rgb, instances, row_only)
            if won is None:
                return None
            hits += won
        rates[level] = hits / n
    return rates


MEASURES = {"slider": "slide_match success", "word_order": "every word character read",
            "letter_attr": "clicked set right"}


def table(results: dict[tuple[str, str], dict[int, float]], n: int) -> str:
    head = "| family | solver | measure | " + " | ".join(f"L{lv}" for lv in LEVELS) + " | n per level |"
    rows = [head, "|---|---|---|" + "---|" * len(LEVELS) + "---|"]
    for (name, who), rates in results.items():
        what = MEASURES.get(name, "OCR read rate")
        rows.append(f"| {name} | {who} | {what} | " + " | ".join(f"{rates[lv]:.2f}" for lv in LEVELS) + f" | {n} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40, help="samples per family and level")
    ap.add_argument("--families", default=",".join(FAMILY_ORDER))
    ap.add_argument("--solvers", default=",".join(SOLVERS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--slide-anywhere", action="store_true",
                    help="slider: search the whole picture, not the piece's rows")
    args = ap.parse_args(argv)
    names = [f for f in FAMILY_ORDER if f in args.families.split(",")]
    unknown = set(args.families.split(",")) - set(FAMILY_ORDER) | set(args.solvers.split(",")) - set(SOLVERS)
    if unknown:
        raise SystemExit(f"unknown family or solver: {', '.join(sorted(unknown))}")
    solvers = [solver(who) for who in SOLVERS if who in args.solvers.split(",")]
    results = {}
    for name in names:
        for ocr in solvers:
            t = time.perf_counter()
            rates = measure(ocr, name, args.n, args.seed, not args.slide_anywhere)
            if rates is not None:
                results[name, ocr.name] = rates
            print(f"{name} / {ocr.name}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
    print(table(results, args.n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
