"""Grounding samples: targets from the rendered DOM, unique instructions, exact boxes."""
import json
import subprocess
import sys

import pytest

from synth import reward, spec
from synth.cli import main
from synth.grounding.describe import LEFTOVERS, relation, text
from synth.grounding.levels import SCREENS
from tests.conftest import read_samples


@pytest.fixture(scope="module")
def grounding_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("g") / "grounding"
    assert main(["grounding", "--difficulty", "3", "--n", "12", "--seed", "5", "--out", str(out), "--workers", "2",
                 "--shard-size", "6"]) == 0
    return out


def test_labels_meet_the_contract_and_reference_hits_the_target(grounding_set):
    samples = read_samples(grounding_set)
    assert len(samples) == 12
    for s in samples:
        lab = s["label"]
        assert spec.validate(lab) == [] and lab["kind"] == "grounding" and lab["widget"] is None
        target = lab["objects"][0]
        assert target["role"] == "target"
        x0, y0, x1, y1 = target["bbox"]
        px, py = lab["actions"][0]["point"]
        assert x0 <= px <= x1 and y0 <= py <= y1
        assert reward.score(lab, lab["actions"]) == 1.0
        for other in lab["objects"][1:]:
            p = spec.center(other["bbox"])
            if not (x0 <= p[0] <= x1 and y0 <= p[1] <= y1):
                assert reward.score(lab, [{"type": "click", "point": p}] + lab["actions"][1:]) < 1.0
        assert not any(s in lab["instruction"] for s in LEFTOVERS)
        (w, h), dpr = SCREENS[lab["platform"]][3]
        assert (lab["image"]["width"], lab["image"]["height"]) == (w * dpr, h * dpr)
    labels = [s["label"] for s in samples]
    assert {l["platform"] for l in labels} == {"web", "mobile", "desktop"}
    assert {l["lang"] for l in labels} == {"en", "zh"}


def test_descriptions_are_unique_or_refused():
    def el(i, role, label, box, **kw):
        return {"index": i, "role": role, "text": label, "box": box, "icon": "", "fn": "", "field": "", "sample": "", **kw}
    a = el(0, "button", "Save", [100, 10, 160, 40])
    b = el(1, "button", "Save", [200, 10, 260, 40])
    c = el(2, "button", "Cancel", [300, 10, 360, 40])
    page = [a, b, c]
    assert text(a, page, {"Save": 2, "Cancel": 1}, "en") is None              # two "Save" buttons
    assert text(c, page, {"Save": 2, "Cancel": 1}, "en") == 'Click "Cancel"'
    label = el(3, "link", "Name", [10, 10, 60, 40])
    assert relation(a, page + [label], {"Save": 2, "Cancel": 1, "Name": 1}, "en") == 'Click the button right of "Name"'
    assert relation(b, page + [label], {"Save": 2, "Cancel": 1, "Name": 1}, "en") is None


def test_screenspot_export(grounding_set, tmp_path):
    r = subprocess.run([sys.executable, "-m", "synth", "export", str(grounding_set), "--out", str(tmp_path / "ss")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    records = json.loads((tmp_path / "ss" / "screenspot.json").read_text())
    labels = {s["label"]["key"]: s["label"] for s in read_samples(grounding_set)}
    assert len(records) == 12
    for rec in records:
        assert (tmp_path / "ss" / rec["img_filename"]).exists()
        x0, y0, x1, y1 = labels[rec["key"]]["objects"][0]["bbox"]
        assert rec["bbox"] == pytest.approx([x0, y0, x1 - x0, y1 - y0], abs=0.02)
        assert rec["data_type"] in ("text", "icon") and rec["platform"] in ("web", "mobile", "desktop")


def test_hf_datasets_loads_captcha_and_grounding_together(dataset, grounding_set):
    """Arrow infers the schema from the first rows: click-only rows first must not break later typing rows."""
    import datasets
    alone = datasets.load_dataset("webdataset", data_files={"train": str(grounding_set / "*.tar")}, split="train")
    assert len(alone) == 12
    files = [str(p) for p in sorted(dataset.glob("*.tar")) + sorted(grounding_set.glob("*.tar"))]
    ds = datasets.load_dataset("webdataset", data_files={"train": files}, split="train")
    kinds = {row["json"]["kind"] for row in ds}
    assert kinds == {"captcha", "grounding"} and len(ds) == 48


def test_an_icon_also_drawn_as_decoration_is_not_described_by_it():
    from synth.grounding.describe import icon
    el = {"index": 0, "role": "icon", "text": "", "box": [0, 0, 20, 20], "icon": "search", "fn": "", "field": "",
          "sample": ""}
    assert icon(el, [el], {}, "en") is not None
    assert icon(el, [el], {}, "en", decor_icons={"search": 1}) is None
