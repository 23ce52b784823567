"""Throughput of `synth captcha` against the machine's JPEG-encode limit and a naive peer, and peak memory.

Usage: python bench/throughput.py [--n 300] [--difficulty 3] [--repeat 3] [--workers 0] [--peer-n 60]
       python bench/throughput.py --n 3000            (the full-size measurement of issue 36)
       python bench/throughput.py --memory 1000 20000

One invocation measures, `--repeat` times each and interleaved (round 1 of every scenario, then round 2, ...),
so that the machine's load falls on all of them alike:
- `mix cold`: the default mix of all families, `--n` samples, each run with an empty page cache;
- `mix warm`: the same run again with a page cache two first (uncounted) runs filled (a block is served
  once two renders agreed);
- `2D cold` / `3D cold`: the mix without / with only the 3D families (3D: `--n` / 5 samples);
- `small cold` / `small warm`: `synth captcha --n 20`, wall time;
- the naive peer (bench/naive_peer.py): a Bootstrap page loaded and captured per sample by Playwright in 2
  processes (`--peer-n` renders), and its start (Chromium launched, one page captured);
- the JPEG-encode limit: images/s that Pillow encodes at quality 90 on one core, over the screenshots the
  first run wrote.
It prints each run, then the medians and the ratios: samples/s ÷ (cores × encode limit), samples/s ÷ peer
renders/s, a 3D sample's cost ÷ a 2D sample's, and the small run's wall time ÷ the peer's start.

With --memory A B: --repeat runs at n=A and as many at n=B, each with the peak memory of the whole process
tree (sum of proportional set sizes, so pages shared between processes count once; sampled every 0.5 s)
split by kind of process, and the relative difference of the median peaks. The median matters: a 1000-sample
run peaks for about half a second, which one poll may miss. Memory is not sampled during throughput runs:
reading the PSS of the ~30 processes costs ~90 ms of CPU per sample, which would take ~9% of a 2-core
machine from the run."""
import argparse
import contextlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

import psutil
from PIL import Image

sys.path.insert(0, str(Path(__file__).parent))
import naive_peer  # noqa: E402  (bench/naive_peer.py)

THREE_D = ("facing3d", "rotation3d", "spatial3d")
SMALL = 20     # samples of the small run


def kind(proc: psutil.Process, root: psutil.Process) -> str:
    """What a process of a run's tree is: main, forkserver, worker, chromium, driver (Playwright's), other."""
    if proc.pid == root.pid:
        return "main"
    cmd = " ".join(proc.cmdline())
    if "chrom" in cmd:
        return "chromium"
    if "playwright" in cmd:
        return "driver"
    if "forkserver" in cmd:
        return "forkserver" if proc.ppid() == root.pid else "worker"
    return "other"


def tree_pss(proc: psutil.Process) -> Counter:
    """PSS bytes of a process and its descendants by kind (see `kind`), from /proc/PID/smaps_rollup (cheap to
    read, unlike the full smaps that psutil's memory_full_info parses, which costs seconds of system time
    with Chromium)."""
    split = Counter()
    for p in [proc, *proc.children(recursive=True)]:
        try:
            with open(f"/proc/{p.pid}/smaps_rollup") as f:
                split[kind(p, proc)] += next(int(line.split()[1]) for line in f if line.startswith("Pss:")) * 1024
        except (OSError, StopIteration, psutil.Error):
            pass
    return split


def run_once(n: int, difficulty: int, workers: int, out: Path, memory: bool = False,
             families: tuple[str, ...] = (), cache: Path | None = None) -> tuple[float, Counter]:
    """(samples/s, PSS bytes by kind of process at the tree's peak, or empty unless `memory`) of one
    `synth captcha` run; `cache`: its page cache folder (SYNTH_CACHE), else the user's default."""
    cmd = [sys.executable, "-m", "synth", "captcha", "--n", str(n), "--difficulty", str(difficulty),
           "--out", str(out)] + (["--workers", str(workers)] if workers else [])
    cmd += [arg for name in families for arg in ("--family", name)]
    t0 = time.perf_counter()
    env = {**os.environ, **({"SYNTH_CACHE": str(cache)} if cache else {})}
    proc = psutil.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    peak = Counter()
    while proc.poll() is None:
        if memory:
            peak = max(peak, tree_pss(proc), key=lambda split: split.total())
        time.sleep(0.5)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"synth failed: {proc.stderr.read().decode()}")
    return n / seconds, peak


def encode_rate(out: Path, limit: int = 200) -> float:
    """Images/s that Pillow encodes at quality 90 on one core, over screenshots from the run."""
    images = []
    for shard in sorted(out.glob("*.tar")):
        with tarfile.open(shard) as tar:
            for m in tar.getmembers():
                if m.name.endswith(".jpg") and len(images) < limit:
                    images.append(Image.open(io.BytesIO(tar.extractfile(m).read())).convert("RGB"))
    t0 = time.perf_counter()
    for im in images:
        im.save(io.BytesIO(), "JPEG", quality=90)
    return len(images) / (time.perf_counter() - t0)




def memory_report(args) -> None:
    """Peak memory at two sizes (--memory)."""
    peaks = []
    for n in args.memory:
        runs = []
        for i in range(args.repeat):
            with tempfile.TemporaryDirectory() as tmp:
                rate, peak = run_once(n, args.difficulty, args.workers, Path(tmp) / "out", memory=True)
            runs.append(peak.total())
            split = ", ".join(f"{k} {v / 2**20:.0f}" for k, v in peak.most_common())
            print(f"n={n} run {i + 1}: {rate:.1f} samples/s, peak PSS {peak.total() / 2**20:.0f} MiB ({split})",
                  flush=True)
        peaks.append(statistics.median(runs))
    print(json.dumps({"median_peak_pss_mib": [round(p / 2**20) for p in peaks],
                      "relative_difference": round(abs(peaks[1] - peaks[0]) / peaks[0], 3)}))


def scenarios(n: int) -> dict[str, tuple[int, tuple[str, ...], str]]:
    """name -> (samples, families (empty: all), page cache: "cold" (empty) or "warm" (filled once))."""
    from synth.families import NAMES
    two_d = tuple(f for f in NAMES if f not in THREE_D)
    return {"mix cold": (n, (), "cold"), "mix warm": (n, (), "warm"), "2D cold": (n, two_d, "cold"),
            "3D cold": (max(SMALL, n // 5), THREE_D, "cold"), "small cold": (SMALL, (), "cold"),
            "small warm": (SMALL, (), "warm")}


def throughput_report(args) -> None:
    """Every scenario and the peer, `--repeat` rounds interleaved; medians and ratios."""
    cores = os.cpu_count() or 1
    plan = scenarios(args.n)
    rates: dict[str, list[float]] = {name: [] for name in [*plan, "peer renders/s", "peer start s"]}
    limits = []
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        warm = tmp / "warm-cache"
        for n, families in {(n, families) for n, families, cache in plan.values() if cache == "warm"}:
            for _ in range(2):      # the second run confirms the first's blocks (synth.engine.pagecache)
                run_once(n, args.difficulty, args.workers, tmp / "warm-up", families=families, cache=warm)
                shutil.rmtree(tmp / "warm-up")
        url = naive_peer.write_page(tmp).as_uri()
        for round_ in range(args.repeat):
            for name, (n, families, cache) in plan.items():
                folder = warm if cache == "warm" else tmp / f"cold-{name}-{round_}"
                rate, _ = run_once(n, args.difficulty, args.workers, tmp / "out", families=families, cache=folder)
                if name == "mix cold":
                    limits.append(encode_rate(tmp / "out"))
                shutil.rmtree(tmp / "out")
                if cache == "cold":
                    shutil.rmtree(folder, ignore_errors=True)
                rates[name].append(rate)
                print(f"round {round_ + 1} {name}: {rate:.1f} samples/s ({n / rate:.1f} s)", flush=True)
            rates["peer renders/s"].append(naive_peer.renders_per_s(url, args.peer_n))
            rates["peer start s"].append(naive_peer.start_seconds(url))
            print(f"round {round_ + 1} peer: {rates['peer renders/s'][-1]:.2f} renders/s, start "
                  f"{rates['peer start s'][-1]:.2f} s; encode limit {limits[-1]:.0f} images/s/core", flush=True)
    med = {name: statistics.median(values) for name, values in rates.items()}
    limit = statistics.median(limits)
    sample_s = {name: plan[name][0] / med[name] for name in plan}     # wall seconds of each scenario
    print(json.dumps({
        "n": args.n, "difficulty": args.difficulty, "cores": cores, "repeat": args.repeat,
        "samples_per_s": {name: round(med[name], 1) for name in plan},
        "peer_renders_per_s": round(med["peer renders/s"], 2), "peer_start_s": round(med["peer start s"], 2),
        "encode_images_per_s_per_core": round(limit, 1),
        "ratio_to_encode_limit": {name: round(med[name] / (cores * limit), 3) for name in ("mix cold", "mix warm")},
        "ratio_to_peer": {name: round(med[name] / med["peer renders/s"], 1) for name in ("mix cold", "mix warm")},
        "3D_cost_per_sample_vs_2D": round(med["2D cold"] / med["3D cold"], 1),
        "small_wall_s": {name: round(sample_s[name], 1) for name in ("small cold", "small warm")},
        "small_wall_vs_peer_start": {name: round(sample_s[name] / med["peer start s"], 2)
                                     for name in ("small cold", "small warm")},
    }, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300, help="samples of the mix runs (3000 for the full measurement)")
    ap.add_argument("--difficulty", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--peer-n", type=int, default=60, help="renders of the naive peer per round")
    ap.add_argument("--memory", type=int, nargs=2, metavar=("SMALL_N", "LARGE_N"))
    args = ap.parse_args()
    if args.memory:
        memory_report(args)
    else:
        throughput_report(args)


if __name__ == "__main__":
    main()
