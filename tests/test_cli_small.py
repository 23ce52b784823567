"""The command line's smaller promises: --version, --seed checked, summaries in plain English, manifests that
record the options of their own kind (and resume runs whose manifest recorded every kind's)."""
import json
import subprocess
import sys

import pytest

from synth import __version__
from synth.cli.generate import summary
from synth.engine.config import RunConfig
from synth.engine.manifest import MANIFEST, config_dict, resume_manifest


def synth(*args):
    return subprocess.run([sys.executable, "-m", "synth", *args], capture_output=True, text=True)


def test_version():
    r = synth("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"synth {__version__}"


def test_a_negative_seed_is_named(tmp_path):
    r = synth("captcha", "--seed", "-1", "--out", str(tmp_path / "o"))
    assert r.returncode == 1 and r.stderr.strip() == "synth: error: --seed must be a non-negative integer, got -1"
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("kind, samples, shards, rejected, lines", [
    ("captcha", 1, 1, {}, ["wrote 1 sample in 1 shard", "rejected 0 instances"]),
    ("captcha", 20, 2, {"a.b": 1}, ["wrote 20 samples in 2 shards", "rejected 1 instance:"]),
    ("grounding", 5, 1, {"a.b": 40, "c.d": 9}, ["wrote 5 samples in 1 shard", "rejected 49 candidate queries:"]),
])
def test_summary_counts_in_words(kind, samples, shards, rejected, lines, capsys, tmp_path):
    summary({"config": {"kind": kind}, "totals": {"samples": samples, "shards": shards, "rejections": rejected}},
            2.0, tmp_path)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(lines[0] + " to ") and out[1] == lines[1]


@pytest.mark.parametrize("kind, own, others", [
    ("captcha", {"infeasible"}, {"queries", "refusal", "degrade", "mistakes"}),
    ("grounding", {"queries", "refusal", "degrade"}, {"infeasible", "mistakes"}),
    ("episode", {"mistakes"}, {"infeasible", "queries", "refusal", "degrade"}),
])
def test_a_manifest_records_its_own_kinds_options(kind, own, others, tmp_path):
    cfg = RunConfig(difficulty=2, n=3, kind=kind)
    assert own <= set(config_dict(cfg)) and not others & set(config_dict(cfg))
    legacy = {"schema": "synth-manifest/1", "version": "0.2.0", "config": config_dict(cfg, other_kinds=True),
              "shards": []}
    assert others <= set(legacy["config"])
    (tmp_path / MANIFEST).write_text(json.dumps(legacy))
    assert resume_manifest(tmp_path, cfg)["config"] == legacy["config"]     # an older run still resumes
    (tmp_path / MANIFEST).write_text(json.dumps(legacy | {"config": config_dict(RunConfig(difficulty=3, n=3,
                                                                                            kind=kind))}))
    with pytest.raises(ValueError, match="holds a different run"):
        resume_manifest(tmp_path, cfg)


def test_screen_descriptions_are_whole_sentences():
    from synth.screens import catalogue
    rows = catalogue()
    assert all(r["description"].endswith(".") and "\n" not in r["description"] for r in rows), \
        [r["description"][-40:] for r in rows if not r["description"].endswith(".")]
