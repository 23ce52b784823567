"""Closing the loop: score reports that steer (`synth score --json` cells), focus weights (synth.tools.focus),
the per-index draw of family and level (synth.core.focus), --focus and --difficulty ranges on the CLI, and the
RL adapters (synth.rl) against `synth score`."""
import json
import subprocess
import sys
from collections import Counter
from dataclasses import replace

import pytest

from bench.standin_policy import predictions
from synth.cli import main
from synth.core.focus import family_and_level
from synth.engine.config import RunConfig
from synth.rl import trl_reward, verl_score
from synth.tools.focus import FLOOR, family_cells
from tests.conftest import read_samples

FAMILIES = ("counting", "rotation", "occlusion", "grid", "text", "slider", "odd", "order")


def synth(*args):
    return subprocess.run([sys.executable, "-m", "synth", *args], capture_output=True, text=True)


def report(fails: dict, n: int = 10, levels=(3,)) -> dict:
    """A report of n samples per family and level, `fails[family]` of them failed (default none)."""
    return {"kind": "captcha", "cells": [{"family": f, "difficulty": lv, "n": n, "successes": n - fails.get(f, 0)}
                                         for f in FAMILIES for lv in levels]}


def test_weights_favour_failures_with_a_floor():
    cells = family_cells(report({"counting": 10, "rotation": 9}), FAMILIES, (3,))
    share = {f: w / sum(w for _, _, w in cells) for f, _, w in cells}
    even = 1 / len(FAMILIES)
    assert share["counting"] >= 2 * even and share["rotation"] >= 2 * even
    assert all(share[f] >= FLOOR * even for f in FAMILIES)
    assert share["counting"] > share["rotation"] > share["grid"]


def test_a_solved_family_moves_up_a_level():
    cells = family_cells(report({}, n=20, levels=(2, 3)), FAMILIES, (2, 3, 4))
    by_level = Counter()
    for f, lv, w in cells:
        if f == "grid":
            by_level[lv] += w
    assert by_level[4] > 3 * by_level[3] and by_level[4] > 3 * by_level[2]


def test_draw_follows_the_weights_and_depends_on_the_index_alone():
    weights = family_cells(report({"counting": 10, "rotation": 10}), FAMILIES, (2, 3))
    cfg = RunConfig(difficulty=2, difficulty_max=3, n=4000, seed=3, families=FAMILIES, focus=weights)
    drawn = [family_and_level(cfg, i) for i in range(4000)]
    assert drawn[1234] == family_and_level(replace(cfg), 1234)
    counts, total = Counter(drawn), sum(w for _, _, w in weights)
    for f, lv, w in weights:
        assert abs(counts[(f, lv)] / 4000 - w / total) < 0.004, (f, lv)
    plain = RunConfig(difficulty=3, n=10, families=FAMILIES)
    assert [family_and_level(plain, i) for i in range(9)] == [(FAMILIES[i % 8], 3) for i in range(9)]


@pytest.mark.parametrize("args, message", [
    (["--difficulty", "4-2"], "--difficulty range must go up"),
    (["--difficulty", "2-x"], "--difficulty must be a level 1..5 or a range"),
    (["--difficulty", "1-6"], "--difficulty must be in 1..5"),
    (["--focus", "/nonexistent/report.json"], "does not exist"),
])
def test_bad_focus_and_range_options(tmp_path, args, message):
    r = synth("captcha", "--n", "2", "--out", str(tmp_path / "x"), *args)
    assert r.returncode == 1 and message in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x").exists()


def test_focus_of_another_kind_and_not_a_report(tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps({"n": 3}))
    r = synth("captcha", "--n", "2", "--out", str(tmp_path / "x"), "--focus", str(bad))
    assert r.returncode == 1 and "not a `synth score --json` report" in r.stderr
    bad.write_text(json.dumps(report({})))
    r = synth("grounding", "--n", "2", "--out", str(tmp_path / "x"), "--focus", str(bad))
    assert r.returncode == 1 and "scores a captcha dataset" in r.stderr and not (tmp_path / "x").exists()


@pytest.fixture(scope="module")
def scored(dataset, tmp_path_factory):
    """The shared dataset scored with a stand-in bad at counting: (predictions file, report)."""
    folder = tmp_path_factory.mktemp("loop")
    preds = folder / "preds.jsonl"
    rows = predictions(dataset, {"counting"}, 0)
    preds.write_text("".join(json.dumps(r) + "\n" for r in rows))
    r = synth("score", str(dataset), str(preds), "--json")
    assert r.returncode == 0, r.stderr
    (folder / "report.json").write_text(r.stdout)
    return preds, json.loads(r.stdout), folder


def test_report_cells_groups_and_verdicts(scored):
    _, rep, _ = scored
    assert rep["kind"] == "captcha" and rep["by_family"]["counting"]["success_rate"] == 0.0
    assert {c["family"] for c in rep["cells"]} == {"counting", "rotation", "occlusion"}
    assert sum(c["n"] for c in rep["cells"]) == rep["n"] == 36
    assert set(rep["by_platform"]) <= {"web", "mobile", "desktop"} and set(rep["by_lang"]) <= {"en", "zh"}
    assert rep["verdicts"]["failed"] == pytest.approx(rep["by_family"]["counting"]["n"] / 36, abs=1e-3)
    assert rep["steps"]["wrong"] > 0 and rep["steps"]["correct"] > 0


def test_score_survives_nested_json_and_counts_duplicates(dataset, scored, tmp_path):
    preds, _, _ = scored
    rows = [json.loads(line) for line in preds.read_text().splitlines()]
    deep = "[" * 100000 + "]" * 100000
    lines = [json.dumps({**rows[0], "output": deep}), json.dumps(rows[0]), json.dumps(rows[1]),
             json.dumps({**rows[1], "output": "Click(box=(0,0))"}), "[" * 50000]
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(lines) + "\n")
    r = synth("score", str(dataset), str(path), "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-500:]
    out = json.loads(r.stdout)
    assert (out["unparseable"], out["duplicates"], out["bad_lines"]) == (1, 2, 1)
    assert out["mean_reward"] == round(1 / 36, 4)   # sample 1 (rotation) solved by its first prediction only


def test_focus_run_is_steered_named_and_reproducible(scored, tmp_path):
    _, _, folder = scored
    args = ["captcha", "--difficulty", "2-3", "--n", "12", "--seed", "4", "--focus", str(folder / "report.json"),
            "--family", "counting", "--family", "rotation", "--family", "occlusion"]
    assert main([*args, "--out", str(tmp_path / "a"), "--workers", "1"]) == 0
    assert main([*args, "--out", str(tmp_path / "b"), "--workers", "2"]) == 0
    a, b = sorted((tmp_path / "a").glob("*.tar")), sorted((tmp_path / "b").glob("*.tar"))
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    config = json.loads((tmp_path / "a" / "manifest.json").read_text())["config"]
    assert config["difficulty_max"] == 3 and {f for f, _, _ in config["focus"]} == {"counting", "rotation",
                                                                                      "occlusion"}
    card = (tmp_path / "a" / "README.md").read_text()
    assert "Made with `--focus`" in card and "counting (level 2)" in card and "--difficulty 2-3" in card
    labels = [s["label"] for s in read_samples(tmp_path / "a")]
    assert {lab["difficulty"] for lab in labels} <= {2, 3}
    assert Counter(lab["family"] for lab in labels)["counting"] >= 6      # even share: 4 of 12


def test_rl_adapters_agree_with_synth_score(dataset, scored, tmp_path):
    preds, rep, _ = scored
    out = tmp_path / "trl"
    assert synth("export", str(dataset), "--out", str(out), "--format", "trl").returncode == 0
    records = [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]
    by_key = {json.loads(line)["key"]: json.loads(line)["output"] for line in preds.read_text().splitlines()}
    texts = [json.dumps(by_key[r["key"]]) for r in records]
    as_strings = trl_reward(prompts=[r["messages"][:2] for r in records], completions=texts,
                            completion_ids=[[0]] * len(texts), label=[r["label"] for r in records],
                            key=[r["key"] for r in records], images=[r["images"] for r in records])
    as_messages = trl_reward(completions=[[{"role": "assistant", "content": t}] for t in texts],
                             label=[r["label"] for r in records], trainer_state=None)
    assert as_strings == as_messages and sum(as_strings) / len(texts) == pytest.approx(rep["mean_reward"], abs=1e-4)
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    vout = tmp_path / "verl"
    assert synth("export", str(dataset), "--out", str(vout), "--format", "verl").returncode == 0
    rows = pq.read_table(vout / "train.parquet").to_pylist()
    assert rows[0]["prompt"][1]["content"].startswith("<image>") and rows[0]["images"][0]["bytes"][:2] == b"\xff\xd8"
    scores = [verl_score(r["data_source"], json.dumps(by_key[r["extra_info"]["key"]]),
                         r["reward_model"]["ground_truth"], extra_info=r["extra_info"]) for r in rows]
    assert sum(scores) / len(scores) == pytest.approx(rep["mean_reward"], abs=1e-4)
    assert verl_score("synth/captcha", "I cannot tell", rows[0]["reward_model"]["ground_truth"]) == 0.0


def test_grounding_focus_weighs_query_kinds(tmp_path):
    rep = {"kind": "grounding", "cells": [
        {"family": "element", "difficulty": 3, "query_kind": k, "n": 20, "successes": 0 if k == "icon" else 20}
        for k in ("role_text", "field", "icon", "relation", "ordinal")]}
    (tmp_path / "r.json").write_text(json.dumps(rep))
    out = tmp_path / "g"
    assert main(["grounding", "--difficulty", "3-4", "--n", "3", "--seed", "1", "--queries", "4", "--focus",
                 str(tmp_path / "r.json"), "--out", str(out), "--workers", "1"]) == 0
    kinds = dict(json.loads((out / "manifest.json").read_text())["config"]["focus_kinds"])
    assert kinds["icon"] > 5 * kinds["field"]
    labels = [s["label"] for s in read_samples(out)]
    assert {lab["difficulty"] for lab in labels} <= {3, 4}
    assert "instruction kind" in (out / "README.md").read_text()
