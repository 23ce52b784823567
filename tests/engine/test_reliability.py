"""Crash safety, resume, Ray, browser faults and a full disk."""
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from synth.engine.config import RunConfig
from synth.engine.generator import Generator
from synth.screens import chromium as chromium_module
from tests.conftest import BASE_ARGS

ARGS = ["captcha", *BASE_ARGS]


def start(out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "synth", *ARGS, "--out", str(out), *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def same_shards(a: Path, b: Path) -> None:
    names = sorted(p.name for p in a.glob("*.tar"))
    assert names == sorted(p.name for p in b.glob("*.tar"))
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_kill_9_then_rerun_gives_identical_shards(dataset, tmp_path):
    out = tmp_path / "killed"
    proc = start(out, "--workers", "1")               # one process: the second shard comes seconds later
    deadline = time.time() + 120
    while not (out / "captcha-000000.tar").exists():
        assert proc.poll() is None and time.time() < deadline, "run ended before its first shard"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)               # the CLI, its workers and their browsers
    proc.wait()
    assert not (out / "captcha-000001.tar").exists()
    proc = start(out, "--workers", "2")
    assert proc.wait(timeout=300) == 0, proc.stderr.read().decode()
    same_shards(dataset, out)
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "captcha-000000.tar", "captcha-000001.tar",
                                                     "manifest.json"]
    assert (out / "README.md").read_bytes() == (dataset / "README.md").read_bytes()   # the card, too


def test_workers_and_browsers_end_when_only_the_main_process_is_killed(tmp_path):
    proc = start(tmp_path / "out", "--workers", "2", "--no-page-cache")    # Chromium starts, cached pages or not
    main = psutil.Process(proc.pid)
    deadline = time.time() + 120
    while not any("chromium" in p.name() for p in main.children(recursive=True)):
        assert proc.poll() is None and time.time() < deadline, "no browser started"
        time.sleep(0.1)
    tree = main.children(recursive=True)
    proc.send_signal(signal.SIGKILL)                  # the main process only
    proc.wait()
    try:
        _, alive = psutil.wait_procs(tree, timeout=4)
        assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE], "processes outlived the run"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


def test_a_killed_worker_is_replaced_and_the_output_does_not_change(dataset, tmp_path):
    out = tmp_path / "out"
    proc = start(out, "--workers", "2")
    main = psutil.Process(proc.pid)
    deadline = time.time() + 120

    def workers() -> set[int]:   # the processes the forkserver forked for the run
        try:
            return {c.pid for p in main.children() if "forkserver" in " ".join(p.cmdline()) for c in p.children()}
        except psutil.Error:
            return set()

    first: set[int] = set()
    while len(first) < 2:
        assert proc.poll() is None and time.time() < deadline, "the two workers did not start"
        first |= workers()
        time.sleep(0.01)
    os.kill(min(first), signal.SIGKILL)               # it holds queued chunks from the start
    seen = set(first)
    while proc.poll() is None:
        seen |= workers()
        time.sleep(0.02)
    assert proc.returncode == 0, proc.stderr.read().decode()
    assert seen - first, "the killed worker was not replaced"
    same_shards(dataset, out)


def test_ray_executor_matches_local(dataset, tmp_path):
    out = tmp_path / "ray"
    proc = start(out, "--executor", "ray")
    assert proc.wait(timeout=600) == 0, proc.stderr.read().decode()
    same_shards(dataset, out)


@contextlib.contextmanager
def deadline(seconds: int):
    """Fail the block, instead of hanging, if it runs for more than `seconds`."""
    def fail(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("fault", [signal.SIGKILL, signal.SIGSTOP])   # Chromium crashes; Chromium hangs
def test_browser_crashed_or_hung_mid_run_is_restarted(monkeypatch, fault):
    monkeypatch.setattr(chromium_module, "HANG_S", 3)
    cfg = RunConfig(difficulty=2, n=8, seed=5, platform="web", families=("counting",))
    fresh = Generator(cfg)
    expected = [fresh.sample(i)[1] for i in range(4)]
    fresh.close()
    gen, browsers = Generator(cfg), []
    try:
        assert gen.sample(0)[1] == expected[0]
        browsers = [p for p in psutil.Process().children(recursive=True) if "chrom" in p.name()]
        assert browsers, "no Chromium process found"
        for p in browsers:
            p.send_signal(fault)
        gen._pages.clear()                          # force new renders on the dead browser
        start = time.monotonic()
        with deadline(60):
            assert [gen.sample(i)[1] for i in range(1, 4)] == expected[1:]
        assert time.monotonic() - start < 20, "not the watchdog (3 s) but a page-load timeout (30 s) ended the hang"
    finally:
        for p in browsers:                          # a stopped Chromium would make close() wait forever
            with contextlib.suppress(psutil.Error):
                p.kill()
        gen.close()


@pytest.mark.parametrize("n, shard_size", [(2400, 1000), (1330, 7), (260, 60), (3100, 1500)])
def test_every_chunk_of_a_plan_starts_a_screen_block(n, shard_size):
    """A fresh run's chunks and a resumed run's (some shards done) all start grounding render blocks."""
    from synth.engine.plan import plan
    from synth.engine.pools import screen_block_start
    cfg = RunConfig(difficulty=2, n=n, shard_size=shard_size, kind="grounding", families=("element",))
    shards = list(range(-(-n // shard_size)))
    for subset in (shards, shards[1:], shards[:1], shards[::2]):
        for _, start, _ in plan(cfg, subset):
            assert screen_block_start(cfg, start) == start, (subset, start)


def test_grounding_screens_are_the_same_out_of_order_and_after_a_crash():
    """A grounding screen renders in its block (pools.screen_block_start): a sample asked for on its own,
    or after Chromium died mid-block, has the bytes it has in a run that made the block in order."""
    cfg = RunConfig(difficulty=1, n=4, seed=3, platform="web", kind="grounding", families=("element",), queries=2)
    ordered = Generator(cfg)
    expected = [ordered.sample(i)[1] for i in range(4)]
    ordered.close()
    gen = Generator(cfg)
    try:
        assert gen.sample(2)[1] == expected[2]
        for p in psutil.Process().children(recursive=True):
            if "chrom" in p.name():
                p.kill()
        assert gen.sample(3)[1] == expected[3]
        assert gen.sample(1)[1] == expected[1]
    finally:
        gen.close()


@pytest.mark.parametrize("workers", ["1", "2"])   # 2: the page server's pages fill the disk first
def test_full_disk_gives_one_line_and_no_partial_shard(tmp_path, workers):
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(disk)]).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        r = subprocess.run([sys.executable, "-m", "synth", *ARGS, "--out", str(disk / "out"), "--workers", workers,
                            "--quiet"],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 1 and "No space left on device" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
        assert not list((disk / "out").glob("*.tmp")) and not list((disk / "out").glob("*.tar"))
        assert not (disk / "out" / ".pages").exists()
    finally:
        subprocess.run(["umount", str(disk)])
