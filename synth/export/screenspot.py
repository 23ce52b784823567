"""ScreenSpot: grounding records as the original ScreenSpot JSON lays them out, for existing grounding
evaluation tools.

    out/screenspot.json   [{"img_filename", "bbox": [x, y, width, height] (pixels), "instruction",
                            "data_type": "text"|"icon", "platform", "lang", "data_source", "key", "query"}]
    out/images/…

One record per query of a sample; refusal queries (the target is absent) are left out and counted, as
ScreenSpot cannot express them."""
import json
from pathlib import Path

from synth.labels import spec

KINDS = ("grounding",)
DESCRIPTION = "ScreenSpot-style JSON (img_filename, bbox as x, y, width, height, instruction, data_type)"


def record(label: dict, image_name: str, query: int = 0) -> dict:
    """Query `query` of a grounding label as a ScreenSpot-style record; data_type "text" when the target
    shows text."""
    view = spec.query_label(label, query)
    x0, y0, x1, y1 = view["accept"]["steps"][0]["region"]
    target = label["queries"][query]["target"] if label.get("queries") else None
    shows_text = (label["params"]["target"].endswith(":text") if target is None else
                  any(e["id"] == target and e["name"] and e["role"] not in ("icon", "image")
                      for e in label["elements"]))
    return {"img_filename": image_name, "bbox": [x0, y0, round(x1 - x0, 2), round(y1 - y0, 2)],
            "instruction": view["instruction"], "data_type": "text" if shows_text else "icon",
            "platform": label["platform"], "lang": label["lang"], "data_source": label["template"],
            "key": label["key"], "query": query}


class Writer:
    def __init__(self, out: Path, options):
        self.out, self.records, self.refusals = out, [], 0

    def add(self, label: dict, image_name: str) -> None:
        for i, query in enumerate(label.get("queries") or [{"feasible": True}]):
            if query["feasible"]:
                self.records.append(record(label, image_name, i))
            else:                 # ScreenSpot has no way to say "absent"
                self.refusals += 1

    def close(self) -> dict:
        (self.out / "screenspot.json").write_text(json.dumps(self.records, ensure_ascii=False, indent=1) + "\n")
        return {"records": len(self.records), "file": "screenspot.json", "skipped": {"refusal": self.refusals}}
