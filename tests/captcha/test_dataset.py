"""Properties of a generated dataset, checked as an independent reader would."""
import hashlib
import io
import json

from PIL import Image

from synth.cli import main
from synth.labels import reward, spec
from tests.conftest import BASE_ARGS, read_samples


def test_every_label_meets_the_contract(samples):
    assert len(samples) == 36
    for s in samples:
        assert set(s) == {"key", "jpg", "label"}
        lab = s["label"]
        assert spec.validate(lab) == [], (s["key"], spec.validate(lab))
        assert lab["key"] == s["key"]
        im = Image.open(io.BytesIO(s["jpg"]))
        assert im.size == (lab["image"]["width"], lab["image"]["height"])


def test_reference_scores_one_and_wrong_actions_less(samples):
    for s in samples:
        lab = s["label"]
        assert reward.score(lab, lab["actions"]) == 1.0
        w, h = lab["image"]["width"], lab["image"]["height"]
        x0, y0, x1, y1 = lab["widget"]
        corner = [1.0, 1.0] if x0 > 2 else [w - 1.0, h - 1.0]
        assert reward.score(lab, [{"type": "click", "point": corner}]) < 1.0
        assert reward.score(lab, []) == 0.0


def test_reference_points_are_on_their_targets(samples):
    """Each reference click lies inside a target's box, which lies inside the widget."""
    for s in samples:
        lab = s["label"]
        x0, y0, x1, y1 = lab["widget"]
        targets = [o["bbox"] for o in lab["objects"] if o["role"] == "target"]
        for o in lab["objects"]:
            b = o["bbox"]
            assert x0 <= b[0] and b[2] <= x1 and y0 <= b[1] and b[3] <= y1, (s["key"], o)
        if lab["params"]["task"] == "click_set":
            clicks = [a["point"] for a in lab["actions"][:-1]]
            assert len(clicks) == lab["answer"]["count"]
            for p in clicks:
                assert any(b[0] <= p[0] <= b[2] and b[1] <= p[1] <= b[3] for b in targets), (s["key"], p)


def test_counts_match_the_visible_targets(samples):
    """A typed count equals the number of target objects the label lists as visible enough."""
    for s in samples:
        lab = s["label"]
        if lab["params"]["task"] != "type":
            continue
        threshold = {"counting": 0.6, "occlusion": 0.3}[lab["family"]]
        visible = [o for o in lab["objects"] if o["role"] == "target" and o["visible_fraction"] >= threshold]
        assert lab["answer"]["count"] == len(visible) == int(lab["answer"]["text"]), s["key"]


def test_dataset_mixes_families_languages_platforms(samples):
    labels = [s["label"] for s in samples]
    assert {lab["family"] for lab in labels} == {"counting", "rotation", "occlusion"}
    assert {lab["lang"] for lab in labels} == {"en", "zh"}
    assert {"web", "mobile"} <= {lab["platform"] for lab in labels}
    assert len({lab["template"] for lab in labels}) >= 4
    assert len({hashlib.sha256(s["jpg"]).hexdigest() for s in samples}) == len(samples)


def test_manifest_matches_shards(dataset):
    manifest = json.loads((dataset / "manifest.json").read_text())
    assert manifest["totals"]["samples"] == 36
    for shard in manifest["shards"]:
        data = (dataset / shard["name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == shard["sha256"]
        assert len(data) == shard["bytes"]
    assert not list(dataset.glob("*.tmp"))


def test_same_seed_same_bytes_whatever_the_workers(dataset, tmp_path):
    out = tmp_path / "again"
    assert main(["captcha", *BASE_ARGS, "--out", str(out), "--workers", "1"]) == 0
    for shard in sorted(dataset.glob("*.tar")):
        assert (out / shard.name).read_bytes() == shard.read_bytes()


def test_rerun_resumes_and_replaces_a_damaged_shard(dataset, tmp_path):
    out = tmp_path / "copy"
    out.mkdir()
    for f in dataset.iterdir():
        (out / f.name).write_bytes(f.read_bytes())
    first = out / "captcha-000000.tar"
    good = first.read_bytes()
    first.write_bytes(good[: len(good) // 2])           # a truncated shard must be regenerated
    assert main(["captcha", *BASE_ARGS, "--out", str(out), "--workers", "1"]) == 0
    assert first.read_bytes() == good
    assert len(read_samples(out)) == 36
