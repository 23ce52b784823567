"""Bad input: one clear line on stderr and a non-zero exit, never a traceback."""
import json
import re
import shutil
import subprocess
import sys

import pytest

from synth.families import FAMILIES
from tests.conftest import read_samples


def synth(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "synth", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("args, message", [
    (["--difficulty", "6"], "--difficulty must be in 1..5"),
    (["--difficulty", "0"], "--difficulty must be in 1..5"),
    (["--n", "0"], "--n must be at least 1"),
    (["--family", "nope"], "unknown family 'nope'"),
    (["--lang", "fr"], "--lang must be one of"),
    (["--platform", "tv"], "--platform must be one of"),
    (["--image-format", "gif"], "--image-format must be one of"),
    (["--out", "/proc/synth-out"], "cannot create output folder"),
    (["--n", "many"], "valid integer"),
    (["--workers", "-1"], "--workers must be at least 0 (0: one per CPU), got -1"),
])
@pytest.mark.parametrize("command", ["captcha", "grounding"])
def test_bad_run_input(command, args, message, tmp_path):
    if command == "grounding" and "--family" in args:
        message = "No such option: --family"
    r = synth(command, *args, *([] if "--out" in args else ["--out", str(tmp_path / "o")]))
    assert r.returncode != 0
    assert message in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, message", [
    (["--queries", "0"], "--queries must be in 1..32, got 0"),
    (["--refusal", "1.5"], "--refusal must be in 0..1"),
    (["--refusal", "-0.1"], "--refusal must be in 0..1"),
])
def test_bad_grounding_input(args, message, tmp_path):
    r = synth("grounding", *args, "--out", str(tmp_path / "o"))
    assert r.returncode != 0 and message in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not list(tmp_path.iterdir())


def test_families_lists_each_with_its_answers_and_a_description():
    r = synth("families")
    assert r.returncode == 0
    *lines, summary = r.stdout.strip().splitlines()
    assert [line.split("\t")[0] for line in lines] == list(FAMILIES)
    assert all(line.split("\t")[1] == ",".join(FAMILIES[line.split("\t")[0]].ANSWERS) for line in lines)
    assert all(len(line.split("\t")[2]) > 20 for line in lines)
    assert summary.startswith(f"{len(FAMILIES)} families covering ")


def test_other_run_in_the_same_folder_is_refused(dataset):
    r = synth("captcha", "--n", "5", "--seed", "99", "--out", str(dataset))
    assert r.returncode != 0 and "holds a different run" in r.stderr


def test_a_broken_template_is_named(tmp_path):
    import os
    import shutil

    from synth.core.paths import TEMPLATES
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    base = templates / "screens" / "base.html.j2"   # every page extends it
    base.write_text(base.read_text().replace("{% endblock %}", "{% endblok %}", 1))
    r = subprocess.run([sys.executable, "-m", "synth", "captcha", "--platform", "web", "--n", "40", "--workers", "1",
                        "--quiet", "--out", str(tmp_path / "o")], capture_output=True, text=True,
                       env={**os.environ, "SYNTH_TEMPLATES": str(templates)})
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert re.search(r"template \S*web/\S+ .*is broken", r.stderr), r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_missing_gallery_input_and_corrupt_shard_for_score(dataset, tmp_path):
    r = synth("gallery", str(tmp_path / "nothing"), "--out", str(tmp_path / "g"))
    assert r.returncode == 1 and "does not exist" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    bad = tmp_path / "bad"
    bad.mkdir()
    shard = sorted(dataset.glob("*.tar"))[0]
    (bad / shard.name).write_bytes(shard.read_bytes()[:7000])
    (bad / "manifest.json").write_text((dataset / "manifest.json").read_text())
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"key": "x", "output": "Click(box=(1,1))"}\n')
    r = synth("score", str(bad), str(preds))
    assert r.returncode == 1 and "corrupt shard" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_parallel_run_exits_cleanly(tmp_path):
    r = synth("captcha", "--n", "30", "--shard-size", "10", "--workers", "2", "--family", "counting",
              "--out", str(tmp_path / "o"))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr


def test_synth_alone_prints_the_help_without_an_empty_error():
    r = synth()
    assert r.returncode == 2 and "Usage: synth" in r.stdout and "captcha" in r.stdout
    assert "error" not in r.stderr, r.stderr


@pytest.fixture
def bad_datasets(dataset, tmp_path):
    """A missing folder, an empty one, shards without a manifest and a file, by name."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "no-manifest").mkdir()
    for shard in dataset.glob("*.tar"):
        shutil.copy(shard, tmp_path / "no-manifest")
    (tmp_path / "file").write_text("not a dataset\n")
    return {"missing": (tmp_path / "missing", "does not exist"), "empty": (tmp_path / "empty", "manifest.json"),
            "no-manifest": (tmp_path / "no-manifest", "manifest.json"),
            "file": (tmp_path / "file", "not a dataset folder")}


@pytest.mark.parametrize("case", ["missing", "empty", "no-manifest", "file"])
@pytest.mark.parametrize("command", ["verify", "stats", "score", "gallery"])
def test_a_bad_dataset_gives_one_line_and_creates_nothing(command, case, bad_datasets, tmp_path):
    path, message = bad_datasets[case]
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"key": "x", "output": "Click(box=(1,1))"}\n')
    before = sorted(tmp_path.rglob("*"))
    extra = {"score": [str(preds)], "gallery": ["--out", str(tmp_path / "g")],
             "stats": ["--charts", str(tmp_path / "c")]}
    r = synth(command, str(path), *extra.get(command, []))
    assert r.returncode == 1 and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize("args, message", [
    (["gallery", "DATASET", "--out", "/proc/synth-gallery"], "cannot create output folder /proc/synth-gallery"),
    (["stats", "DATASET", "--charts", "/proc/synth-charts"], "cannot write --charts folder /proc/synth-charts"),
    (["flagged", "TMP"], "cannot read flags file"),
    (["score", "DATASET", "TMP"], "is not a file"),
])
def test_unwritable_or_wrong_kind_of_path(args, message, dataset, tmp_path):
    r = synth(*[str(dataset) if a == "DATASET" else str(tmp_path) if a == "TMP" else a for a in args])
    assert r.returncode == 1 and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stdout == "" and not list(tmp_path.iterdir())


@pytest.mark.parametrize("content", ["garbage\n[1, 2]\n{\"key\": 1}\n", "", "\xff\xfe\n"])
def test_score_refuses_a_file_without_one_prediction(content, dataset, tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_bytes(content.encode("latin-1"))
    r = synth("score", str(dataset), str(preds))
    assert r.returncode == 1 and "is a prediction record" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_score_rules(dataset, tmp_path):
    """Reference actions pass under both rule sets; a bad line among good ones is reported, not fatal."""
    preds = tmp_path / "p.jsonl"
    lines = [json.dumps({"key": s["key"], "output": s["label"]["actions"]}) for s in read_samples(dataset)]
    preds.write_text("\n".join(["garbage", *lines]) + "\n")
    for rules in ("synth", "venus"):
        r = synth("score", str(dataset), str(preds), "--json", "--rules", rules)
        assert r.returncode == 0, r.stderr
        result = json.loads(r.stdout)
        assert result["bad_lines"] == 1 and result["n"] == len(lines) and result["mean_reward"] > 0
    r = synth("score", str(dataset), str(preds), "--rules", "strict")
    assert r.returncode == 1 and "--rules must be one of synth, venus, got 'strict'" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
