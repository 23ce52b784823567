"""LLaMA-Factory: ShareGPT-style multimodal records and their `dataset_info.json` entry.

    out/<name>.json          [{"messages": [system, user "<image>…", assistant], "images": ["images/…"]}]
    out/dataset_info.json    {"<name>": {"file_name", "formatting": "sharegpt", "columns", "tags"}}
    out/images/…

Point LLaMA-Factory's `dataset_dir` at `out` and train with `dataset: <name>`; image paths are relative to
that folder."""
import json
from pathlib import Path

from synth.export.conversation import dialogues, messages, record_key, turn

KINDS = ("captcha", "grounding")
DESCRIPTION = "LLaMA-Factory sharegpt records (messages + images) with a dataset_info.json entry"


class Writer:
    def __init__(self, out: Path, options):
        self.out, self.options, self.records = out, options, []

    def add(self, label: dict, image_name: str) -> None:
        for query, views in dialogues(label, self.options):
            self.records.append({"messages": messages([turn(v, self.options) for v in views]),
                                 "images": [image_name], "key": record_key(label, query, self.options)})

    def close(self) -> dict:
        name = self.options.name
        (self.out / f"{name}.json").write_text(json.dumps(self.records, ensure_ascii=False, indent=1) + "\n")
        info = {name: {"file_name": f"{name}.json", "formatting": "sharegpt",
                       "columns": {"messages": "messages", "images": "images"},
                       "tags": {"role_tag": "role", "content_tag": "content", "user_tag": "user",
                                "assistant_tag": "assistant", "system_tag": "system"}}}
        (self.out / "dataset_info.json").write_text(json.dumps(info, indent=1) + "\n")
        return {"records": len(self.records), "file": f"{name}.json"}
