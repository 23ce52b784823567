"""Exporters on a mixed captcha + grounding set made by the real CLI: each record's answer, read back and mapped
to pixels, scores 1.0; records reference their images; bad requests write nothing."""
import json
import re
import subprocess
import sys

import pytest
from PIL import Image

from synth.cli import main
from synth.export import Options
from synth.export.conversation import read_answer
from synth.export.coords import CONVENTIONS, frame, smart_resize
from synth.families import NAMES
from synth.labels import reward, spec
from synth.labels.actions import parse_venus
from synth.tools.dataset import iter_labels


@pytest.fixture(scope="module")
def captcha_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("x") / "captcha"
    assert main(["captcha", "--difficulty", "4", "--n", str(2 * len(NAMES)), "--seed", "3", "--out", str(out),
                 "--workers", "2"]) == 0
    return out


@pytest.fixture(scope="module")
def grounding_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("x") / "grounding"
    assert main(["grounding", "--difficulty", "2", "--n", "6", "--seed", "3", "--out", str(out), "--workers", "2"]) == 0
    return out


@pytest.fixture(scope="module")
def labels(captcha_set, grounding_set):
    return {lab["key"]: lab for d in (captcha_set, grounding_set) for lab in iter_labels(d)}


def synth(*args):
    return subprocess.run([sys.executable, "-m", "synth", *map(str, args)], capture_output=True, text=True)


def export(tmp_path, fmt, *datasets, extra=()):
    out = tmp_path / f"{fmt}-{'-'.join(extra) or 'default'}"
    r = synth("export", *datasets, "--format", fmt, "--out", out, *extra)
    assert r.returncode == 0, r.stderr
    return out


def assistant(record) -> str:
    content = record["messages"][-1]["content"]
    return content if isinstance(content, str) else content[0]["text"]


def test_venus_records_follow_the_benchmark_schema_and_pass_its_rules(captcha_set, labels, tmp_path):
    out = export(tmp_path, "venus", captcha_set)
    records = json.loads((out / "instruction" / "synth.json").read_text())
    train = [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]
    assert len(records) == len(train) == 2 * len(NAMES)
    for rec, row in zip(records, train):
        lab = labels[rec["key"]]
        w, h = lab["image"]["width"], lab["image"]["height"]
        assert {"images", "messages", "image_size", "captcha_type", "action_raw", "action_raw_rect",
                "inorder"} <= set(rec)
        with Image.open(out / "instruction" / rec["images"][0]) as im:       # paths relative to the annotation
            assert list(im.size) == rec["image_size"] == [w, h]
        assert [m["role"] for m in rec["messages"]] == ["system", "user"] and rec["messages"][1]["content"] == "<image>"
        assert rec["messages"][0]["content"].endswith("Help me pass the CAPTCHA.")
        raw = parse_venus(rec["action_raw"], w, h, grid=(w, h))             # action_raw is in pixels
        answer = assistant(row)
        assert re.fullmatch(r"<think>[^<]+</think><action>[^<]+</action>", answer)
        assert "duration" not in answer
        for actions in (raw, parse_venus(answer, w, h)):
            assert reward.score(lab, actions, rules="venus") == 1.0, (lab["family"], answer)
        assert len(rec["action_raw_rect"]) == len(lab["accept"]["steps"])
        assert len(re.findall(r"Click|LongPress|Drag", rec["action_raw"])) == len(rec["action_raw_rect"])
        corner = [{"type": "click", "point": [0.0, 0.0]}]
        assert reward.score(lab, corner, rules="venus") == 0.0


@pytest.mark.parametrize("fmt", ["llamafactory", "swift", "trl"])
@pytest.mark.parametrize("coords", CONVENTIONS)
def test_chat_formats_round_trip_to_reward_one(fmt, coords, captcha_set, grounding_set, labels, tmp_path):
    target = "box" if coords == "qwen2.5-vl" else "point"
    out = export(tmp_path, fmt, captcha_set, grounding_set, extra=("--coords", coords, "--target", target))
    if fmt == "llamafactory":
        info = json.loads((out / "dataset_info.json").read_text())["synth"]
        assert info["formatting"] == "sharegpt" and info["columns"] == {"messages": "messages", "images": "images"}
        records = json.loads((out / info["file_name"]).read_text())
    else:
        records = [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]
    assert len(records) == len(labels)
    refusals = 0
    for rec in records:
        lab = labels[rec["key"]]
        text = json.dumps(rec["messages"])
        n_images = text.count("<image>") if fmt != "trl" else text.count('"type": "image"')
        assert n_images == len(rec["images"]) == 1 and (out / rec["images"][0]).is_file()
        answers = [assistant({"messages": [m]}) for m in rec["messages"] if m["role"] == "assistant"]
        queries = lab.get("queries") or [None]
        assert len(answers) == len(queries)          # one turn per query, in order
        boxes = iter(rec.get("objects", {}).get("bbox", []))
        for i, answer in enumerate(answers):
            view = spec.query_label(lab, i)
            if answer == "<bbox>":                   # swift fills in its own box from the objects, in order
                x0, y0, x1, y1 = next(boxes)
                actions = [{"type": "click", "point": [(x0 + x1) / 2, (y0 + y1) / 2]}]
            else:
                actions = read_answer(view, answer, Options(coords=coords))
                if fmt == "swift" and view["answer"]["feasible"] and lab["kind"] == "grounding":
                    next(boxes)
            if lab["kind"] == "grounding" and view["accept"]["steps"]:   # a point answers the target's step
                view = {**view, "accept": {**view["accept"], "steps": view["accept"]["steps"][:1]}}
            refusals += not view["answer"]["feasible"]
            assert reward.score(view, actions) == 1.0, (lab["family"], answer)
    assert refusals > 0


def test_split_queries_give_one_single_turn_record_per_query(grounding_set, labels, tmp_path):
    out = export(tmp_path, "llamafactory", grounding_set, extra=("--split-queries",))
    records = json.loads((out / "synth.json").read_text())
    samples = [lab for lab in labels.values() if lab["kind"] == "grounding"]
    assert len(records) == sum(len(lab["queries"]) for lab in samples)
    for rec in records:
        key, query = rec["key"].split("#")
        view = spec.query_label(labels[key], int(query))
        assert [m["role"] for m in rec["messages"]] == ["system", "user", "assistant"]
        assert rec["messages"][1]["content"] == "<image>" + view["instruction"]
        actions = read_answer(view, rec["messages"][2]["content"], Options())
        assert (actions == []) == (not view["answer"]["feasible"])


def test_coordinates_map_back_within_a_pixel():
    for coords in CONVENTIONS:
        for w, h in ((1280, 800), (780, 1688), (1440, 900)):
            f = frame(coords, w, h)
            for p in ([0.0, 0.0], [w / 3, h / 7], [w - 1.0, h - 1.0]):
                back = f.to_pixels(f.to_model(p))
                assert abs(back[0] - p[0]) <= 1.0 and abs(back[1] - p[1]) <= 1.0, (coords, w, h)
    assert smart_resize(800, 1280, 28, 3136, 14 * 14 * 4 * 1280) == (784, 1260)
    assert frame("qwen2.5-vl", 1280, 800, max_pixels=4 * 28 * 28 * 100).sx < 1280


def test_trl_export_loads_with_datasets(captcha_set, grounding_set, tmp_path):
    import datasets
    out = export(tmp_path, "trl", captcha_set, grounding_set)
    ds = datasets.load_dataset("json", data_files=str(out / "train.jsonl"), split="train")
    ds = ds.map(lambda r: {"images": [str(out / p) for p in r["images"]]})
    ds = ds.cast_column("images", datasets.Sequence(datasets.Image()))
    assert len(ds) == 2 * len(NAMES) + 6 and ds[0]["images"][0].size[0] > 0


@pytest.mark.parametrize("args, message", [
    (["--format", "nosuch"], "formats: venus, llamafactory"),
    (["--format", "venus", "GROUNDING"], "formats that can: llamafactory, swift, trl, screenspot"),
    (["--format", "screenspot"], "formats that can: venus, llamafactory, swift, trl"),
    ([], "formats that can: venus, llamafactory, swift, trl, verl (--format was not given: it defaults to screenspot)"),
    (["--format", "trl", "--coords", "pixels"], "--coords must be one of"),
])
def test_bad_requests_give_one_line_and_write_nothing(args, message, captcha_set, grounding_set, tmp_path):
    args = [str(grounding_set) if a == "GROUNDING" else a for a in args]
    datasets = [] if str(grounding_set) in args else [captcha_set]
    out = tmp_path / "never"
    r = synth("export", *datasets, *args, "--out", out)
    assert r.returncode == 1 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not out.exists() and not list(tmp_path.iterdir())

