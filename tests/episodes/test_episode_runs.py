"""`synth episodes`: trajectories as shards that pass the reader, one member set per sample, per-step labels
in that step's pixels, byte-identical across workers and after a kill -9, loadable by Hugging Face."""
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from PIL import Image

from synth.cli import main
from synth.labels import reward, spec
from synth.tools.verify import verify_dataset
from tests.conftest import read_samples

ARGS = ["episodes", "--difficulty", "2", "--n", "8", "--seed", "4", "--shard-size", "3", "--mistakes", "0.5",
        "--lang", "mix", "--family", "rotate_arrows", "--family", "counting"]


@pytest.fixture(scope="module")
def episodes_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("episodes") / "two"
    assert main([*ARGS, "--out", str(out), "--workers", "2"]) == 0
    return out


def test_the_set_passes_verify_and_each_step_is_labelled_in_its_own_pixels(episodes_set):
    n, problems = verify_dataset(episodes_set)
    assert problems == []
    samples = read_samples(episodes_set)
    assert n == len(samples) > 8
    by_episode = {}
    for s in samples:
        label = s["label"]
        by_episode.setdefault(label["episode"]["id"], []).append(label)
        assert set(s) == {"key", "jpg", "label"}
        w, h = Image.open(io.BytesIO(s["jpg"])).size
        assert (w, h) == (label["image"]["width"], label["image"]["height"]) and not spec.validate(label)
        assert reward.score(label, label["actions"]) == 1.0
        assert all(0 <= o["bbox"][0] < o["bbox"][2] <= w and 0 <= o["bbox"][1] < o["bbox"][3] <= h
                   for o in label["objects"])
        assert (reward.score(label, [label["taken"]]) == 1.0) != label["mistake"]
        json.loads(label["state"])
    assert len(by_episode) == 8
    mistakes = 0
    for labels in by_episode.values():
        labels.sort(key=lambda lab: lab["episode"]["step"])
        steps = [lab["episode"]["step"] for lab in labels]
        assert steps == list(range(len(labels))) == list(range(labels[0]["episode"]["steps"]))
        assert [lab["episode"]["done"] for lab in labels] == [False] * (len(labels) - 1) + [True]
        assert sum(lab["reward"] for lab in labels) == 1.0 and labels[-1]["reward"] > 0
        mistakes += sum(lab["mistake"] for lab in labels)
    assert 1 <= mistakes <= 8


def test_the_same_bytes_with_one_worker(episodes_set, tmp_path):
    out = tmp_path / "one"
    assert main([*ARGS, "--out", str(out), "--workers", "1"]) == 0
    for name in sorted(p.name for p in episodes_set.glob("*.tar")):
        assert (out / name).read_bytes() == (episodes_set / name).read_bytes(), name


def test_kill_9_then_rerun_gives_identical_shards(episodes_set, tmp_path):
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "synth", *ARGS, "--out", str(out)]
    proc = subprocess.Popen([*cmd, "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.time() + 120
    while not (out / "episode-000000.tar").exists():
        assert proc.poll() is None and time.time() < deadline, "run ended before its first shard"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (out / "episode-000002.tar").exists()
    assert subprocess.run([*cmd, "--workers", "2"], capture_output=True).returncode == 0
    for name in sorted(p.name for p in episodes_set.glob("*.tar")):
        assert (out / name).read_bytes() == (episodes_set / name).read_bytes(), name


def test_hf_datasets_loads_the_steps(episodes_set):
    import datasets
    ds = datasets.load_dataset("webdataset", data_files={"train": str(episodes_set / "*.tar")}, split="train")
    assert len(ds) == len(read_samples(episodes_set))
    assert {row["json"]["kind"] for row in ds} == {"episode"}


@pytest.mark.parametrize("args, message", [
    (["--mistakes", "1.5"], "--mistakes must be in 0..1"),
    (["--family", "nosuch"], "unknown family 'nosuch'"),
    (["--difficulty", "0"], "--difficulty must be in 1..5"),
])
def test_bad_episode_input(args, message, tmp_path, capsys):
    out = tmp_path / "bad"
    assert main(["episodes", "--n", "2", "--out", str(out), *args]) == 1
    assert message in capsys.readouterr().err and not out.exists()


def test_an_animated_run_stores_the_same_frames_in_every_sample(tmp_path):
    out = tmp_path / "animated"
    assert main(["episodes", "--difficulty", "1", "--n", "3", "--seed", "2", "--lang", "en", "--platform", "web",
                 "--family", "vanishing_dots", "--family", "rotate_arrows", "--out", str(out), "--workers", "1"]) == 0
    assert verify_dataset(out)[1] == []
    samples = read_samples(out)
    moved = 0
    for s in samples:
        label = s["label"]
        frames = label["frames"]
        assert [f["member"] for f in frames] == [f"frame{k:03d}.jpg" for k in range(4)]
        assert set(s) == {"key", "jpg", "label"} | {f["member"] for f in frames}
        times = [f["time"] for f in frames]
        assert times == sorted(times) and times[-1] == label["episode"]["time"]
        if label["family"] == "vanishing_dots" and label["episode"]["step"] > 0:
            assert times[-1] - times[0] == pytest.approx(0.375)    # the step's four ticks, 0.125 s apart
            moved += len({s[f["member"]] for f in frames}) > 1      # the picture moved within the step
        if label["family"] == "rotate_arrows":
            assert len({s[f["member"]] for f in frames}) == 1       # a still task: its screenshot repeated
    assert moved >= 2
    from synth.tools.gallery import build_gallery
    build_gallery(out, tmp_path / "gallery")                      # the gallery plays the frames
    data = (tmp_path / "gallery" / "data.js").read_text()
    records = json.loads(data[data.index("{"):data.rindex("}") + 1])["samples"]
    assert all(len(r["frames"]) == 4 and all((tmp_path / "gallery" / p).is_file() for p, _ in r["frames"])
               for r in records)


def test_the_gallery_shows_the_episode_of_a_step(episodes_set, tmp_path):
    from synth.tools.gallery import build_gallery
    build_gallery(episodes_set, tmp_path / "gallery")
    data = (tmp_path / "gallery" / "data.js").read_text()
    records = json.loads(data[data.index("{"):data.rindex("}") + 1])["samples"]
    assert all(r["episode"]["steps"] > r["episode"]["step"] >= 0 for r in records)
    assert any(r["episode"]["mistake"] for r in records)


@pytest.mark.parametrize("level", [1, 5])
def test_every_interactive_task_gives_trajectories(level):
    """The default mix of `synth episodes` (every interactive task) at the easiest and hardest level: each
    task's expert trajectory gets a measured accept rule for every step (a slider released anywhere within its
    tolerance solves the puzzle as the expert's release does; an exact-state comparison found no tolerance for
    it and failed every slider_restore episode)."""
    from synth.engine.config import RunConfig
    from synth.engine.generator import Generator
    from synth.episodes.tasks import NAMES

    gen = Generator(RunConfig(kind="episode", difficulty=level, n=len(NAMES), seed=3, families=NAMES))
    try:
        for index, name in enumerate(NAMES):
            records, _ = gen.records(index)
            labels = [json.loads(members["json"]) for _, members in records]
            assert labels and {label["family"] for label in labels} == {name}
            assert all(reward.score(label, label["actions"]) == 1.0 for label in labels)
            assert labels[-1]["episode"]["done"]
    finally:
        gen.close()
