"""Grounding text against an outside reader: RapidOCR reads what each query quotes.

Usage: python bench/grounding_ocr.py DATASET [--max 90]
(RapidOCR comes with the solvers extra: `.venv/bin/pip install -e .[solvers]`.)

- `text` and `role_text` queries: the quoted text must be read in the target's box (with a margin of half
  its height; small crops enlarged twice).
- `relation` queries: the quoted anchor must be read on the screen, with the target lying in the named
  direction from where it was read (its part of a read line, by its share of the line's characters).
- `between` queries: both quoted neighbours must be read on the screen with the target between them.
- `ordinal` queries that quote: the quoted text must be read in the target's box.
- `row` queries: the quoted row text must be read on the screen on the target's line, and a quoted target
  text in the target's box; `column` queries the same with the column text above or below the target.
- refusals that quote a name: the named control must not be read anywhere on the screen (absent icons
  quote nothing and are left out).
A quote counts as read when, with case, spaces and punctuation dropped, it is a part of the read text or
matches a part of it with a similarity of at least 0.8 (difflib). Prints the agreement per kind and lists
the disagreements."""
import argparse
import difflib
import io
import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from PIL import Image

from synth.tools.dataset import iter_samples

QUOTE = re.compile(r'"([^"]+)"|“([^”]+)”')
DIRECTIONS = {"right of": "right", "left of": "left", "above": "above", "below": "below",
              "右边": "right", "左边": "left", "上方": "above", "下方": "below"}


def norm(s: str) -> str:
    return re.sub(r"[\W_]+", "", s.casefold())


def found(quote: str, text: str) -> bool:
    q, t = norm(quote), norm(text)
    if not q:
        return True
    if q in t:
        return True
    n = len(q)
    return any(difflib.SequenceMatcher(None, q, t[i:i + n]).ratio() >= 0.8 for i in range(max(1, len(t) - n + 1)))


def samples(dataset: Path):
    """(label, RGB pixels) of every sample."""
    for _, members in iter_samples(dataset):
        image = next(v for k, v in members.items() if k != "json")
        yield json.loads(members["json"]), np.array(Image.open(io.BytesIO(image)).convert("RGB"))


def part_box(box: list[float], text: str, quote: str) -> list[float]:
    """Where `quote` lies in a line of read text: the share of the line's width its characters take (OCR reads
    a row of links as one line)."""
    t, q = norm(text), norm(quote)
    i = t.find(q)
    if i < 0 or not t:
        return box
    x0, x1 = box[0] + (box[2] - box[0]) * i / len(t), box[0] + (box[2] - box[0]) * (i + len(q)) / len(t)
    return [x0, box[1], x1, box[3]]


def read_crop(ocr, rgb: np.ndarray, box: list[float]) -> str:
    """The text read in a box, with a margin and small text enlarged (the reader misses a lone digit in a
    tight crop)."""
    h, w = rgb.shape[:2]
    pad = max(8, int((box[3] - box[1]) * 0.5))
    crop = rgb[max(0, int(box[1]) - pad):min(h, int(box[3]) + pad), max(0, int(box[0]) - pad):min(w, int(box[2]) + pad)]
    if crop.shape[0] < 64:
        crop = np.array(Image.fromarray(crop).resize((crop.shape[1] * 2, crop.shape[0] * 2), Image.Resampling.LANCZOS))
    result, _ = ocr(crop)
    return " ".join(text for _, text, _ in result or [])


def lies(direction: str, anchor: list[float], box: list[float]) -> bool:
    """Whether `box` lies in `direction` from `anchor` (beside it on the line, or in its column)."""
    if direction in ("right", "left"):
        if min(anchor[3], box[3]) - max(anchor[1], box[1]) <= 0:
            return False
        return box[0] >= anchor[2] - 4 if direction == "right" else box[2] <= anchor[0] + 4
    if min(anchor[2], box[2]) - max(anchor[0], box[0]) <= 0:
        return False
    return box[1] >= anchor[3] - 4 if direction == "below" else box[3] <= anchor[1] + 4


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--max", type=int, default=90, help="samples to read")
    args = ap.parse_args()
    try:
        from rapidocr_onnxruntime import RapidOCR
    except ImportError as e:
        raise SystemExit("RapidOCR is missing: install the extra with `.venv/bin/pip install -e .[solvers]`") from e
    ocr = RapidOCR()
    agree, total, misses = Counter(), Counter(), []
    for n, (label, rgb) in enumerate(samples(args.dataset)):
        if n >= args.max:
            break
        h, w = rgb.shape[:2]
        screen = None

        def read_screen(rgb=rgb):
            result, _ = ocr(rgb)
            return [([min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)],
                     text) for pts, text, _ in result or []]

        for q in label.get("queries") or []:
            m = QUOTE.search(q["instruction"])
            kind = q["kind"]
            if kind == "refusal" and m is None:      # an absent icon: nothing to read
                continue
            if kind == "refusal":
                screen = screen if screen is not None else read_screen()
                name = m.group(1) or m.group(2)
                ok = not any(found(name, text) for _, text in screen)
            elif m is None or kind not in ("text", "role_text", "relation", "between", "ordinal", "row", "column"):
                continue
            elif kind in ("between", "row", "column"):
                quotes = [a or b for a, b in QUOTE.findall(q["instruction"])]
                box = q["accept"]["steps"][0]["region"]
                screen = screen if screen is not None else read_screen()
                if kind == "between":
                    first, last = quotes
                    ok = any(any(found(first, t) and lies(d, part_box(b, t, first), box) for b, t in screen) and
                             any(found(last, t) and lies(o, part_box(b, t, last), box) for b, t in screen)
                             for d, o in (("right", "left"), ("below", "above")))
                else:     # en: the "Edit" link in the row (column) of "X"; zh: “X”所在行（列）的“编辑”链接
                    anchor, *target = quotes[::-1] if label["lang"] != "zh" else quotes
                    k = 1 if kind == "row" else 0      # the axis along which the text and the target overlap
                    ok = any(found(anchor, t) and min(b[k + 2], box[k + 2]) - max(b[k], box[k]) > 0 for b, t in screen)
                    ok = ok and all(found(t, read_crop(ocr, rgb, box)) for t in target)
            elif kind == "relation":
                quote = m.group(1) or m.group(2)
                direction = next(d for word, d in DIRECTIONS.items() if word in q["instruction"])
                box = q["accept"]["steps"][0]["region"]
                screen = screen if screen is not None else read_screen()
                ok = any(found(quote, text) and lies(direction, part_box(b, text, quote), box) for b, text in screen)
            else:
                quote = m.group(1) or m.group(2)
                ok = found(quote, read_crop(ocr, rgb, q["accept"]["steps"][0]["region"]))
            total[kind] += 1
            agree[kind] += ok
            if not ok:
                misses.append(f"{label['key']} [{kind}] {q['instruction']}")
        print(f"read {n + 1} samples", file=sys.stderr, end="\r")
    quoting = sum(v for k, v in total.items() if k != "refusal")
    quoted_ok = sum(v for k, v in agree.items() if k != "refusal")
    print(f"text-quoting queries read as quoted: {quoted_ok}/{quoting} ({quoted_ok / max(1, quoting):.1%})")
    for kind in sorted(total):
        what = "not found on screen" if kind == "refusal" else "agree"
        print(f"  {kind}: {agree[kind]}/{total[kind]} {what}")
    for line in misses:
        print("  miss:", line)


if __name__ == "__main__":
    main()
