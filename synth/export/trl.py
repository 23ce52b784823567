"""TRL: vision conversations with typed content, as TRL's `SFTTrainer` takes them.

    out/train.jsonl   {"messages": [{"role", "content": [{"type": "image"} | {"type": "text", "text"}]}],
                       "images": ["images/…"]}
    out/images/…

Load with `datasets.load_dataset("json", data_files="out/train.jsonl")`, then turn the relative paths into
images (README, "Training with synth")."""
from pathlib import Path

from synth.export import write_jsonl
from synth.export.conversation import turn

KINDS = ("captcha", "grounding")
DESCRIPTION = "TRL vision-SFT JSONL (messages with typed content + images), loadable by datasets"


def _text(s: str) -> dict:
    return {"type": "text", "text": s}


class Writer:
    def __init__(self, out: Path, options):
        self.out, self.options, self.records = out, options, []

    def add(self, label: dict, image_name: str) -> None:
        t = turn(label, self.options)
        user = [{"type": "image", "text": None}] + ([_text(t.user.removeprefix("<image>"))]
                                                    if t.user != "<image>" else [])
        self.records.append({"messages": [{"role": "system", "content": [_text(t.system)]},
                                          {"role": "user", "content": user},
                                          {"role": "assistant", "content": [_text(t.assistant)]}],
                             "images": [image_name], "key": label["key"]})

    def close(self) -> dict:
        write_jsonl(self.out / "train.jsonl", self.records)
        return {"records": len(self.records), "file": "train.jsonl"}
