"""`synth verify`, `synth score`, `synth stats` and the action parser."""
import json
import shutil
import subprocess
import sys

import pytest

from synth.export import Options
from synth.export.answer import model_actions
from synth.labels.actions import ParseError, action_block, parse_output, parse_venus
from synth.tools.dataset import iter_labels


def synth(*args):
    return subprocess.run([sys.executable, "-m", "synth", *args], capture_output=True, text=True)


def test_verify_accepts_a_good_dataset_and_names_a_corrupt_shard(dataset, tmp_path):
    r = synth("verify", str(dataset))
    assert r.returncode == 0, r.stdout + r.stderr
    bad = tmp_path / "bad"
    shutil.copytree(dataset, bad)
    shard = sorted(bad.glob("*.tar"))[0]
    data = bytearray(shard.read_bytes())
    data[5000] ^= 0xFF                                   # one flipped byte inside a sample
    shard.write_bytes(bytes(data))
    r = synth("verify", str(bad))
    assert r.returncode == 1 and "sha256" in r.stdout and "Traceback" not in r.stderr
    shard.write_bytes(bytes(data[:3000]))                # truncated mid-member
    r = synth("verify", str(bad))
    assert r.returncode == 1 and "Traceback" not in r.stderr


def write_predictions(path, dataset, make):
    with open(path, "w") as f:
        for lab in iter_labels(dataset):
            f.write(json.dumps({"key": lab["key"], "output": make(lab)}, ensure_ascii=False) + "\n")


def test_score_reference_in_venus_syntax_and_a_corner_clicker(dataset, tmp_path):
    ref = tmp_path / "ref.jsonl"
    write_predictions(ref, dataset, lambda lab: "<think>easy</think>" + action_block(
        model_actions(lab, Options().frame(lab))))
    result = json.loads(synth("score", str(dataset), str(ref), "--json").stdout)
    assert result["success_rate"] >= 0.95 and set(result["by_family"]) == {"counting", "occlusion", "rotation"}
    corner = tmp_path / "corner.jsonl"
    write_predictions(corner, dataset, lambda lab: "<action>Click(box=(0,0))</action>")
    assert json.loads(synth("score", str(dataset), str(corner), "--json").stdout)["success_rate"] <= 0.2


def test_score_counts_unparseable_and_missing(dataset, tmp_path):
    labels = list(iter_labels(dataset))
    preds = tmp_path / "p.jsonl"
    preds.write_text("\n".join([json.dumps({"key": labels[0]["key"], "output": "I think the answer is 4"}),
                                json.dumps({"key": labels[1]["key"], "output": labels[1]["actions"]}),
                                "not json", json.dumps({"key": "nope", "output": "Click(box=(1,1))"})]))
    r = synth("score", str(dataset), str(preds), "--json")
    result = json.loads(r.stdout)
    assert (result["unparseable"], result["missing"], result["bad_lines"], result["unknown_keys"]) == (1, 34, 1, 1)
    assert result["mean_reward"] == pytest.approx(1 / 36, abs=1e-3)


@pytest.mark.parametrize("args, message", [
    (["score", "/nonexistent", "/nonexistent.jsonl"], "does not exist"),
    (["verify", "/nonexistent"], "does not exist"),
    (["stats", "/nonexistent"], "does not exist"),
])
def test_missing_inputs_give_one_line(args, message):
    r = synth(*args)
    assert r.returncode == 1 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_stats_table_and_charts(dataset, tmp_path):
    r = synth("stats", str(dataset), "--charts", str(tmp_path / "charts"))
    assert r.returncode == 0 and "by family" in r.stdout and "rejections" in r.stdout
    assert (tmp_path / "charts" / "family.png").stat().st_size > 1000


def test_venus_parser_on_tricky_outputs():
    W, H = 999, 999
    out = parse_venus("<think>Click(box=(1,1)) is wrong</think><action>Click(box=( 10, 20 )),"
                      "Type(content='it\\'s 4'), Drag(start=(1,2),end=(3,4)), LongPress(box=(5,6))</action>", W, H)
    assert [a["type"] for a in out] == ["click", "type", "drag", "long_press"]
    assert out[0]["point"] == [10.0, 20.0] and out[1]["text"] == "it's 4"
    assert parse_venus("Click(box=(499.5,999))", 1998, 999)[0]["point"] == [999.0, 999.0]
    with pytest.raises(ParseError):
        parse_venus("the answer is four", W, H)
    with pytest.raises(ParseError):
        parse_output("[{not json", W, H)
    assert parse_output([{"type": "click", "point": [1.0, 2.0]}], W, H)[0]["point"] == [1.0, 2.0]
    assert parse_venus("<action>Click(bbox=[10,20]),LongPress(box=[5, 6])</action>", W, H)[1]["point"] == [5.0, 6.0]
