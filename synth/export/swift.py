"""ms-swift: `messages` + `images` + `objects` JSONL.

    out/train.jsonl   {"messages": [system, user "<image>…", assistant], "images": ["images/…"],
                       "objects": {"ref": [...], "bbox": [[x1, y1, x2, y2]], "bbox_type": "real"}}
    out/images/…

`objects` holds the boxes the answer must hit, in pixels of the stored image (`bbox_type: "real"`). With
`--target box`, a grounding answer is swift's `<bbox>` placeholder, which swift fills with the target box in
the trained model's own convention; otherwise the answer is written in `--coords`."""
from pathlib import Path

from synth.export import write_jsonl
from synth.export.conversation import turn

KINDS = ("captcha", "grounding")
DESCRIPTION = "ms-swift JSONL (messages + images + objects with bbox_type)"


def objects(label: dict) -> dict:
    """The accept regions as swift objects, named by the label's matching objects where there are any."""
    steps = label["accept"]["steps"] if label["answer"]["feasible"] else []
    names = {tuple(o["bbox"]): o["label"] for o in label["objects"]}
    return {"ref": [names.get(tuple(s["region"]), label["instruction"]) for s in steps],
            "bbox": [s["region"] for s in steps], "bbox_type": "real"}


class Writer:
    def __init__(self, out: Path, options):
        self.out, self.options, self.records = out, options, []

    def add(self, label: dict, image_name: str) -> None:
        t = turn(label, self.options)
        placeholder = label["kind"] == "grounding" and self.options.target == "box" and label["answer"]["feasible"]
        self.records.append({"messages": [{"role": "system", "content": t.system},
                                          {"role": "user", "content": t.user},
                                          {"role": "assistant", "content": "<bbox>" if placeholder else t.assistant}],
                             "images": [image_name], "objects": objects(label), "key": label["key"]})

    def close(self) -> dict:
        write_jsonl(self.out / "train.jsonl", self.records)
        return {"records": len(self.records), "file": "train.jsonl"}
