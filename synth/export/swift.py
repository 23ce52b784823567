"""ms-swift: `messages` + `images` + `objects` JSONL.

    out/train.jsonl   {"messages": [system, user "<image>…", assistant], "images": ["images/…"],
                       "objects": {"ref": [...], "bbox": [[x1, y1, x2, y2]], "bbox_type": "real"}}
    out/images/…

`objects` holds the boxes the answer must hit, in pixels of the stored image (`bbox_type: "real"`). With
`--target box`, a grounding answer is swift's `<bbox>` placeholder, which swift fills with the target box in
the trained model's own convention; otherwise the answer is written in `--coords`."""
from dataclasses import replace
from pathlib import Path

from synth.export import write_jsonl
from synth.export.conversation import dialogues, messages, record_key, turn

KINDS = ("captcha", "grounding")
DESCRIPTION = "ms-swift JSONL (messages + images + objects with bbox_type)"


def objects(views: list[dict]) -> dict:
    """The accept regions of a record's turns, in order, as swift objects (a grounding turn's target box, a
    CAPTCHA's every region), named by the label's matching objects where there are any (else by the turn's
    instruction)."""
    ref, bbox = [], []
    for label in views:
        names = {tuple(o["bbox"]): o["label"] for o in label["objects"]}
        steps = label["accept"]["steps"] if label["answer"]["feasible"] else []
        for s in steps[:1] if label["kind"] == "grounding" else steps:     # a grounding answer is one box
            ref.append(names.get(tuple(s["region"]), label["instruction"]))
            bbox.append(s["region"])
    return {"ref": ref, "bbox": bbox, "bbox_type": "real"}


class Writer:
    def __init__(self, out: Path, options):
        self.out, self.options, self.records = out, options, []

    def add(self, label: dict, image_name: str) -> None:
        box_answers = label["kind"] == "grounding" and self.options.target == "box"
        for query, views in dialogues(label, self.options):
            turns = []
            for v in views:      # a feasible box answer is swift's placeholder, filled from `objects` in order
                t = turn(v, self.options)
                turns.append(replace(t, assistant="<bbox>") if box_answers and v["answer"]["feasible"] else t)
            self.records.append({"messages": messages(turns), "images": [image_name], "objects": objects(views),
                                 "key": record_key(label, query, self.options)})

    def close(self) -> dict:
        write_jsonl(self.out / "train.jsonl", self.records)
        return {"records": len(self.records), "file": "train.jsonl"}
