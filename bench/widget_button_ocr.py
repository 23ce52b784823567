"""The widget's buttons against an outside reader: RapidOCR reads every control of every CAPTCHA widget.

Usage: python bench/widget_button_ocr.py DATASET [--max 1000]
(RapidOCR comes with the solvers extra: `.venv/bin/pip install -e .[solvers]`.)

For each sample's widget controls (the label's objects of role button or input):
- a text button (verify, skip) must read as the widget's text in the sample's language (case and spaces
  dropped; a similarity of at least 0.8 counts, as in bench/grounding_ocr.py);
- the answer field must read as its placeholder;
- an icon button (refresh) must show no text: no word of three or more letters or digits, and no CJK character,
  is read in its box (the reader takes the circular arrow for a "C" or "G": a glyph, not text).
The box is read as labelled, with no margin (a margin would read the next control), small crops enlarged.
Prints the agreement per control and lists the disagreements."""
import argparse
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from grounding_ocr import found, samples
from PIL import Image

from synth.screens.content.common import WIDGET_TEXT

EXPECTED = {"verify": "verify", "skip": "skip", "answer field": "placeholder"}   # label -> WIDGET_TEXT key
ICONS = ("refresh",)
WORD = re.compile(r"[^\W_]{3,}|[\u4e00-\u9fff]")   # what counts as text read in an icon button's box


def read_box(ocr, rgb: np.ndarray, box: list[float]) -> str:
    """The text read inside a box (small crops enlarged to 64 px high first)."""
    h, w = rgb.shape[:2]
    crop = rgb[max(0, int(box[1])):min(h, int(np.ceil(box[3]))), max(0, int(box[0])):min(w, int(np.ceil(box[2])))]
    if crop.size == 0:
        return ""
    if crop.shape[0] < 64:
        k = 64 / crop.shape[0]
        crop = np.array(Image.fromarray(crop).resize((round(crop.shape[1] * k), 64), Image.Resampling.LANCZOS))
    result, _ = ocr(crop)
    return " ".join(text for _, text, _ in result or [])


def check(ocr, label: dict, rgb: np.ndarray) -> list[tuple[str, bool, str, str]]:
    """(control, agrees, expected, read) for each widget control of a sample."""
    out = []
    for obj in label["objects"]:
        if obj["role"] not in ("button", "input"):
            continue
        read = read_box(ocr, rgb, obj["bbox"])
        if obj["label"] in EXPECTED:
            expected = WIDGET_TEXT[label["lang"]][EXPECTED[obj["label"]]]
            out.append((obj["label"], found(expected, read), expected, read))
        elif obj["label"] in ICONS:
            out.append((obj["label"], not WORD.search(read), "(no text)", read))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--max", type=int, default=1000, help="samples read at most")
    args = parser.parse_args()
    from rapidocr_onnxruntime import RapidOCR
    ocr = RapidOCR()
    agree, total, misses = Counter(), Counter(), []
    for i, (label, rgb) in enumerate(samples(args.dataset)):
        if i >= args.max:
            break
        if label.get("kind") != "captcha":
            continue
        for control, ok, expected, read in check(ocr, label, rgb):
            total[control] += 1
            agree[control] += ok
            if not ok:
                misses.append(f"{label['key']} {label['family']} {control}: expected {expected!r}, read {read!r}")
    for control in sorted(total):
        print(f"{control}: {agree[control]}/{total[control]} read as they should")
    print(f"all: {sum(agree.values())}/{sum(total.values())}")
    for line in misses:
        print("  " + line)
    return 0 if total and agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
