"""ScreenSpot: grounding records as the original ScreenSpot JSON lays them out, for existing grounding
evaluation tools.

    out/screenspot.json   [{"img_filename", "bbox": [x, y, width, height] (pixels), "instruction",
                            "data_type": "text"|"icon", "platform", "lang", "data_source", "key"}]
    out/images/…"""
import json
from pathlib import Path

KINDS = ("grounding",)
DESCRIPTION = "ScreenSpot-style JSON (img_filename, bbox as x, y, width, height, instruction, data_type)"


def record(label: dict, image_name: str) -> dict:
    """A grounding label as a ScreenSpot-style record; data_type "text" when the target shows text."""
    x0, y0, x1, y1 = label["accept"]["steps"][0]["region"]
    return {"img_filename": image_name, "bbox": [x0, y0, round(x1 - x0, 2), round(y1 - y0, 2)],
            "instruction": label["instruction"], "data_type": label["params"]["target"].split(":")[-1],
            "platform": label["platform"], "lang": label["lang"], "data_source": label["template"],
            "key": label["key"]}


class Writer:
    def __init__(self, out: Path, options):
        self.out, self.records = out, []

    def add(self, label: dict, image_name: str) -> None:
        self.records.append(record(label, image_name))

    def close(self) -> dict:
        (self.out / "screenspot.json").write_text(json.dumps(self.records, ensure_ascii=False, indent=1) + "\n")
        return {"records": len(self.records), "file": "screenspot.json"}
