"""`synth verify` recomputes what a label says twice: an edited field, with the manifest re-hashed so that the
shard checks pass, fails with a line naming the sample and the field (one test per kind of sample)."""
import io
import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from synth.cli import main
from synth.engine.shards import file_digest
from synth.families import NAMES
from synth.tools.consistency import label_disagreements
from synth.tools.dataset import iter_labels


def verify(dataset: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "synth", "verify", str(dataset)], capture_output=True, text=True)


def edited_copy(dataset: Path, out: Path, key: str, edit) -> Path:
    """A copy of `dataset` in which `edit(label)` changed sample `key`'s label: the tar member rewritten in place
    (same order, same headers but the size) and the manifest's sha256 and bytes made to match, as a careless
    or hostile editor would."""
    shutil.copytree(dataset, out)
    manifest = json.loads((out / "manifest.json").read_text())
    for entry in manifest["shards"]:
        shard = out / entry["name"]
        with tarfile.open(shard) as tar:
            members = [(m, tar.extractfile(m).read()) for m in tar.getmembers()]
        if not any(m.name == f"{key}.json" for m, _ in members):
            continue
        with tarfile.open(shard, "w", format=tarfile.USTAR_FORMAT) as tar:
            for m, data in members:
                if m.name == f"{key}.json":
                    label = json.loads(data)
                    edit(label)
                    data = json.dumps(label, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
                    m.size = len(data)
                tar.addfile(m, io.BytesIO(data))
        entry.update(file_digest(shard))
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return out


def assert_flagged(dataset: Path, key: str, field: str) -> None:
    r = verify(dataset)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert any(line.startswith(f"{key}: {field}") for line in r.stdout.splitlines()), r.stdout


def test_an_untouched_copy_passes(dataset, tmp_path):
    copy = edited_copy(dataset, tmp_path / "same", "no-such-key", lambda label: None)
    r = verify(copy)
    assert r.returncode == 0, r.stdout + r.stderr


def test_captcha_edited_count_and_text_are_named(dataset, tmp_path):
    labels = list(iter_labels(dataset))
    typed = next(lab for lab in labels if lab["answer"]["text"].isdigit())
    clicked = next(lab for lab in labels if lab["answer"]["count"] >= 2
                   and sum(s["type"] == "click" for s in lab["accept"]["steps"]) == lab["answer"]["count"])

    def text(label):
        label["answer"]["text"] = "99"

    def count(label):
        label["answer"]["count"] -= 1

    assert_flagged(edited_copy(dataset, tmp_path / "text", typed["key"], text), typed["key"], "answer.text")
    assert_flagged(edited_copy(dataset, tmp_path / "typed-count", typed["key"], count), typed["key"], "answer.count")
    assert_flagged(edited_copy(dataset, tmp_path / "count", clicked["key"], count), clicked["key"], "answer.count")


def test_captcha_edited_angle_is_named(dataset, tmp_path):
    turned = next(lab for lab in iter_labels(dataset) if lab["answer"]["angle"] > 0)

    def angle(label):
        label["answer"]["angle"] = (label["answer"]["angle"] + 90.0) % 360.0

    assert_flagged(edited_copy(dataset, tmp_path / "angle", turned["key"], angle), turned["key"], "answer.angle")


@pytest.fixture(scope="module")
def every_family(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("verify") / "all"
    assert main(["captcha", "--difficulty", "2", "--n", "41", "--seed", "5", "--out", str(out), "--workers", "2"]) == 0
    return list(iter_labels(out))


def test_no_family_disagrees_with_itself(every_family):
    """The rules hold for every family as generated (a new family that breaks one shows here, not in a user's
    verify), and each edit below is caught in the families it applies to."""
    assert {lab["family"] for lab in every_family} == set(NAMES)
    for lab in every_family:
        assert label_disagreements(lab) == [], lab["key"]
    caught = {"count": 0, "cells": 0, "offset": 0}
    for lab in every_family:
        ans, steps = lab["answer"], lab["accept"]["steps"]
        clicks = [s for s in steps if s["type"] == "click"]
        if ans["count"] >= 2 and len(clicks) == len(steps) == ans["count"]:
            caught["count"] += _caught(lab, "count", ans["count"] + 1)
        if ans["cells"] != [-1] and len(clicks) == len(steps) > 0:
            caught["cells"] += _caught(lab, "cells", [ans["cells"][0] + 1, *ans["cells"][1:]])
        if ans["offset"] > 0:
            caught["offset"] += _caught(lab, "offset", ans["offset"] + 7.0)
    assert all(caught.values()), caught


def _caught(label: dict, field: str, value) -> int:
    """1 when an edit of answer[field] to value is named; fails the test when it passes unnoticed."""
    edited = {**label, "answer": {**label["answer"], field: value}}
    found = label_disagreements(edited)
    assert any(p.startswith(f"answer.{field}") for p in found), (label["key"], field, found)
    return 1


def test_captcha_label_size_must_be_the_image_size(dataset, tmp_path):
    key = next(iter_labels(dataset))["key"]

    def wider(label):
        label["image"]["width"] += 8

    r = verify(edited_copy(dataset, tmp_path / "size", key, wider))
    assert r.returncode == 1 and f"{key}: image is" in r.stdout, r.stdout


@pytest.fixture(scope="module")
def grounding(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("verify") / "grounding"
    assert main(["grounding", "--difficulty", "2", "--n", "3", "--seed", "3", "--out", str(out), "--workers", "1"]) == 0
    return out


def test_grounding_edited_query_target_is_named(grounding, tmp_path):
    label = next(lab for lab in iter_labels(grounding) if len([q for q in lab["queries"] if q["feasible"]]) >= 2)
    i, j = [n for n, q in enumerate(label["queries"]) if q["feasible"]][:2]

    def retarget(lab):      # query i now names query j's element
        lab["queries"][i]["target"] = lab["queries"][j]["target"]

    assert_flagged(edited_copy(grounding, tmp_path / "target", label["key"], retarget), label["key"],
                   f"queries[{i}].accept")


@pytest.fixture(scope="module")
def episodes(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("verify") / "episodes"
    assert main(["episodes", "--difficulty", "2", "--n", "2", "--seed", "0", "--out", str(out), "--workers", "1"]) == 0
    return out


def test_episode_edited_reward_and_done_are_named(episodes, tmp_path):
    labels = list(iter_labels(episodes))
    first = labels[0]
    assert first["episode"]["step"] == 0 and first["episode"]["steps"] >= 2

    def reward(lab):        # a reward the episode's return does not add up to
        lab["reward"] = 1.0 - lab["reward"]

    def done(lab):
        lab["episode"]["done"] = True

    r = verify(edited_copy(episodes, tmp_path / "reward", first["key"], reward))
    assert r.returncode == 1 and f"{first['episode']['id']}: episode rewards add up to" in r.stdout, r.stdout
    edited = edited_copy(episodes, tmp_path / "done", first["key"], done)
    assert_flagged(edited, first["key"], "episode.done")
    assert len(verify(edited).stdout.splitlines()) == 1         # the one field, not the episode's other steps
