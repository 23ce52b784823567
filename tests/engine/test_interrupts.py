"""SIGINT and SIGTERM mid-run: one line, exit 130 / 143, no worker or Chromium left, no temporary pages or
shards, and the rerun resumes to the bytes of an uninterrupted run."""
import os
import signal
import subprocess
import sys
import time

import pytest

ARGS = ["captcha", "--difficulty", "2", "--n", "60", "--shard-size", "10", "--seed", "3"]


def _session_processes(sid: int) -> list[str]:
    ps = subprocess.run(["ps", "-eo", "pid,sid,cmd"], capture_output=True, text=True).stdout.splitlines()[1:]
    return [line for line in ps if line.split()[1] == str(sid) and "<defunct>" not in line]   # exited


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("full") / "run"
    subprocess.run([sys.executable, "-m", "synth", *ARGS, "--out", str(out), "--workers", "2"], check=True,
                   capture_output=True)
    return {p.name: p.read_bytes() for p in out.glob("*.tar")}


@pytest.mark.parametrize("signum, workers, group", [(signal.SIGINT, 2, True), (signal.SIGTERM, 2, False),
                                                    (signal.SIGINT, 1, True)])
def test_a_signal_ends_the_run_cleanly_and_it_resumes(tmp_path, uninterrupted, signum, workers, group):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "synth", *ARGS, "--out", str(out), "--workers", str(workers)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    while not (out / "manifest.json").exists() and p.poll() is None:     # a shard is written: mid-run
        time.sleep(0.05)
    (os.killpg if group else os.kill)(p.pid, signum)                      # a terminal's Ctrl-C hits the group
    _, err = p.communicate(timeout=60)
    lines = err.strip().splitlines()     # stderr is not a terminal: progress lines (synth.cli.progress), then one
    assert p.returncode == 128 + signum and lines[-1] == "synth: interrupted", err
    assert all(line.startswith("synth: captcha ") and " samples, " in line for line in lines[:-1]), err
    time.sleep(1)
    assert _session_processes(p.pid) == []
    left = sorted(q.name for q in out.iterdir())
    assert ".pages" not in left and not any(n.endswith(".tmp") for n in left) and len(left) < 7, left
    subprocess.run(cmd, check=True, capture_output=True)
    assert {q.name: q.read_bytes() for q in out.glob("*.tar")} == uninterrupted


def test_exhausted_crosses_from_a_worker_with_its_reasons():
    """A worker sends the main process its error pickled: Exhausted keeps its message and reason counts."""
    import pickle
    from collections import Counter

    from synth.core.errors import Exhausted
    e = pickle.loads(pickle.dumps(Exhausted("sample 7: no instance", Counter({"page.covers_widget": 60}))))
    assert str(e) == "sample 7: no instance" and e.why == Counter({"page.covers_widget": 60})
