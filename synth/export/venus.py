"""VenusBench-CAPTCHA: records in the published benchmark's schema and layout, plus SFT conversations.

    out/instruction/<name>.json   the benchmark's annotation array: images, messages (the published CAPTCHA
                                  system prompt, then the image), image_size, captcha_type, action_raw (the
                                  reference in image pixels), action_raw_rect (the box each action must hit),
                                  inorder; plus synth's key, family, difficulty, lang, platform
    out/images/<key>.<ext>
    out/train.jsonl               the same conversations with the assistant's answer: <think>…</think>
                                  <action>…</action> in UI-Venus syntax, 0–999

The answer is written to pass the benchmark's scorer: no submit click, a Click into the field before each
Type, exact text, coordinates on the 0–999 grid that land in their boxes. `action_raw` is that same answer in
pixels, so the reference and the training target agree; each is checked with `synth.labels.reward` under both rule
sets before it is written. A long press keeps no duration in this syntax (the benchmark's parser rejects the
argument): such samples are exported and listed under `lossy` in the report."""
import json
from collections import Counter
from pathlib import Path

from synth.export import Options, write_jsonl
from synth.export.answer import model_actions, to_pixels
from synth.export.coords import frame
from synth.export.prompts import VENUS_CAPTCHA_SYSTEM, VENUS_CAPTCHA_USER, think
from synth.labels import reward
from synth.labels.actions import action_block, venus_text

KINDS = ("captcha",)
DESCRIPTION = "VenusBench-CAPTCHA annotation records (instruction/<name>.json) and train.jsonl in UI-Venus syntax"


def _clamp(box: list[float], w: int, h: int) -> list[float]:
    return [min(max(box[0], 0.0), w), min(max(box[1], 0.0), h), min(max(box[2], 0.0), w), min(max(box[3], 0.0), h)]


def rects(label: dict) -> list[list[float]]:
    """The box each scored action must hit, in the benchmark's order: one per click or long press, one per
    Click+Type pair (the field), the piece's box for a drag."""
    w, h = label["image"]["width"], label["image"]["height"]
    return [_clamp(s["region"], w, h) for s in label["accept"]["steps"]]


class Writer:
    """Collects the annotation array and the conversations; writes both on close."""

    def __init__(self, out: Path, options: Options):
        if options.coords != "ui-venus":
            raise ValueError(f"format venus uses the ui-venus convention (0–999), not --coords {options.coords}")
        self.out, self.name = out, options.name
        self.records, self.train = [], []
        self.lossy, self.skipped = Counter(), Counter()

    def add(self, label: dict, image_name: str) -> None:
        f = frame("ui-venus", label["image"]["width"], label["image"]["height"])
        grid = model_actions(label, f)
        pixels = to_pixels(grid, f)
        if reward.score(label, pixels, rules="venus") != 1.0 or reward.score(label, pixels) != 1.0:
            self.skipped[label["family"]] += 1      # not expressible on the grid; never seen so far
            return
        if any(a["type"] == "long_press" for a in grid):
            self.lossy[label["family"]] += 1
        self.records.append({
            "images": [f"../{image_name}"],
            "messages": [{"role": "system", "content": VENUS_CAPTCHA_SYSTEM},
                         {"role": "user", "content": VENUS_CAPTCHA_USER}],
            "image_size": [label["image"]["width"], label["image"]["height"]],
            "captcha_type": label["family"], "action_raw": venus_text(pixels, durations=False),
            "action_raw_rect": rects(label),
            "inorder": bool(label["accept"]["order_matters"]),
            "key": label["key"], "family": label["family"], "difficulty": label["difficulty"],
            "lang": label["lang"], "platform": label["platform"]})
        answer = f"<think>{think(label)}</think>{action_block(grid, durations=False)}"
        self.train.append({"key": label["key"], "images": [image_name],
                           "messages": [{"role": "system", "content": VENUS_CAPTCHA_SYSTEM},
                                        {"role": "user", "content": VENUS_CAPTCHA_USER},
                                        {"role": "assistant", "content": answer}]})

    def close(self) -> dict:
        (self.out / "instruction").mkdir()
        path = self.out / "instruction" / f"{self.name}.json"
        path.write_text(json.dumps(self.records, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        write_jsonl(self.out / "train.jsonl", self.train)
        return {"annotations": str(path.relative_to(self.out)), "records": len(self.records),
                "lossy": {"long_press_duration_dropped": dict(sorted(self.lossy.items()))},
                "skipped": dict(sorted(self.skipped.items()))}
