"""Throughput of `synth captcha` against the machine's JPEG-encode limit, and peak memory.

Usage: python bench/throughput.py [--n 3000] [--difficulty 3] [--repeat 3] [--workers 0] [--family NAME ...]

Prints, for each run, samples/s, then the medians. `--family` (repeatable) restricts the mix, e.g. to an
older commit's families, to compare two commits on the same work. The encode limit is measured in the same run: images/s
that Pillow encodes at quality 90 on one core, over the screenshots the run wrote; the ratio is
samples/s / (cores x that).

With --memory A B: --repeat runs at n=A and as many at n=B, each with the peak memory of the whole process
tree (sum of proportional set sizes, so pages shared between processes count once; sampled every 0.5 s)
split by kind of process, and the relative difference of the median peaks. The median matters: a 1000-sample
run peaks for about half a second, which one poll may miss. Memory is not sampled during throughput runs:
reading the PSS of the ~30 processes costs ~90 ms of CPU per sample, which would take ~9% of a 2-core
machine from the run."""
import argparse
import io
import json
import os
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
             families: tuple[str, ...] = ()) -> tuple[float, Counter]:
    """(samples/s, PSS bytes by kind of process at the tree's peak, or empty unless `memory`) of one
    `synth captcha` run."""
    cmd = [sys.executable, "-m", "synth", "captcha", "--n", str(n), "--difficulty", str(difficulty),
           "--out", str(out)] + (["--workers", str(workers)] if workers else [])
    cmd += [arg for name in families for arg in ("--family", name)]
    t0 = time.perf_counter()
    proc = psutil.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--difficulty", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--family", action="append", default=[], help="family to include (repeat); default: all")
    ap.add_argument("--memory", type=int, nargs=2, metavar=("SMALL_N", "LARGE_N"))
    args = ap.parse_args()
    if args.memory:
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
        return
    cores = os.cpu_count() or 1
    rates, limits = [], []
    for i in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            rate, _ = run_once(args.n, args.difficulty, args.workers, Path(tmp) / "out", families=tuple(args.family))
            limit = encode_rate(Path(tmp) / "out")
        rates.append(rate), limits.append(limit)
        print(f"run {i + 1}: {rate:.1f} samples/s, encode limit {limit:.0f} images/s/core", flush=True)
    rate, limit = statistics.median(rates), statistics.median(limits)
    print(json.dumps({"n": args.n, "difficulty": args.difficulty, "cores": cores, "families": args.family or "all",
                      "samples_per_s": round(rate, 1), "encode_images_per_s_per_core": round(limit, 1),
                      "ratio": round(rate / (cores * limit), 3)}))


if __name__ == "__main__":
    main()
