"""TRL: vision conversations with typed content, as TRL's `SFTTrainer` takes them.

    out/train.jsonl   {"messages": [{"role", "content": [{"type": "image"} | {"type": "text", "text"}]}],
                       "images": ["images/…"], "key", "label": the label of the record's first query as JSON}

The `label` column is what synth.rl.trl_reward reads when GRPOTrainer passes it (README, "Closing the loop").
    out/images/…

Load with `datasets.load_dataset("json", data_files="out/train.jsonl")`, then turn the relative paths into
images (README, "Training with synth")."""
import json
from pathlib import Path

from synth.export import write_jsonl
from synth.export.conversation import dialogues, messages, record_key, turn

KINDS = ("captcha", "grounding")
DESCRIPTION = "TRL vision-SFT JSONL (messages with typed content + images), loadable by datasets"


def _text(s: str) -> dict:
    return {"type": "text", "text": s}


class Writer:
    def __init__(self, out: Path, options):
        self.out, self.options, self.records = out, options, []

    def add(self, label: dict, image_name: str) -> None:
        for query, views in dialogues(label, self.options):
            typed = []
            for m in messages([turn(v, self.options) for v in views]):
                text = m["content"]
                content = [_text(text)]
                if text.startswith("<image>"):
                    content = [{"type": "image", "text": None}] + ([_text(text.removeprefix("<image>"))]
                                                                   if text != "<image>" else [])
                typed.append({"role": m["role"], "content": content})
            self.records.append({"messages": typed, "images": [image_name],
                                 "key": record_key(label, query, self.options),
                                 "label": json.dumps(views[0], ensure_ascii=False, sort_keys=True)})

    def close(self) -> dict:
        write_jsonl(self.out / "train.jsonl", self.records)
        return {"records": len(self.records), "file": "train.jsonl"}
