"""Grounding: verified targets per second side by side, and what the samples hold.

Usage: python bench/grounding_report.py [--n 300] [--difficulty 2] [--repeat 3] [--workers 2]
                                        [--queries 8 --queries 1] [--checkout DIR]

Each run is `synth grounding` in a subprocess (workers as given), timed from start to the manifest, as a
user runs it. For every setting of --queries it prints targets/s per run and the median; targets are the
feasible queries written (refusals are counted apart). `--checkout DIR` adds runs of another checkout of
synth (e.g. an older commit, `git worktree add`), whose samples hold one target each, to compare with.
The report of the last run of each setting: queries per screen, kind, style and refusal shares,
rejections by reason, and the target-area distribution (per mille of the screen)."""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from synth.tools.dataset import iter_labels

ROOT = Path(__file__).resolve().parent.parent


def run(cwd: Path, out: Path, n: int, level: int, workers: int, seed: int, queries: int | None) -> float:
    """Seconds for one `synth grounding` run in checkout `cwd` (no --queries for an older checkout)."""
    cmd = [sys.executable, "-m", "synth", "grounding", "--difficulty", str(level), "--n", str(n), "--seed", str(seed),
           "--out", str(out), "--workers", str(workers)] + (["--queries", str(queries)] if queries else [])
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} (in {cwd}) failed:\n{done.stderr[-3000:]}")
    return time.perf_counter() - t0


def report(out: Path) -> dict:
    """What the run's samples hold."""
    labs = list(iter_labels(out))
    queries = [q for lab in labs for q in lab.get("queries") or [None]]
    feasible = [q for q in queries if q is None or q["feasible"]]
    areas = []
    for lab in labs:
        w, h = lab["image"]["width"], lab["image"]["height"]
        for q in lab.get("queries") or [{"feasible": True, "accept": lab["accept"]}]:
            if q["feasible"]:
                x0, y0, x1, y1 = q["accept"]["steps"][0]["region"]
                areas.append((x1 - x0) * (y1 - y0) / (w * h) * 1000)
    manifest = json.loads((out / "manifest.json").read_text())

    def share(c: Counter) -> dict:
        return {k: round(v / max(1, len(queries)), 3) for k, v in sorted(c.items())}

    return {"samples": len(labs), "targets": len(feasible), "refusals": len(queries) - len(feasible),
            "queries_per_screen": round(len(queries) / max(1, len(labs)), 2),
            "kinds": share(Counter(q["kind"] for q in queries if q)),
            "styles": share(Counter(q["style"] for q in queries if q)),
            "rejections": manifest["totals"]["rejections"],
            "area_permille_p10_p50_p90": [round(float(v), 3) for v in np.percentile(areas, [10, 50, 90])],
            "area_below_1_permille": round(float(np.mean(np.array(areas) < 1.0)), 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--difficulty", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--queries", type=int, action="append")
    ap.add_argument("--checkout", type=Path, help="another checkout of synth to run side by side")
    args = ap.parse_args()
    settings = [("this code", ROOT, q) for q in args.queries or [8, 1]]
    if args.checkout:
        settings.append((f"checkout {args.checkout}", args.checkout.resolve(), None))
    rates: dict[str, list[float]] = {}
    last: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeat):     # interleaved, so that a busy spell of the machine hits every setting
            for j, (name, cwd, queries) in enumerate(settings):
                label = f"{name}, --queries {queries}" if queries else name
                out = Path(tmp) / f"{j}-{r}"
                seconds = run(cwd, out, args.n, args.difficulty, args.workers, 100 + r, queries)
                last[label] = report(out)
                rates.setdefault(label, []).append(last[label]["targets"] / seconds)
                print(f"{label}: run {r + 1}: {rates[label][-1]:.1f} targets/s ({seconds:.1f} s)", flush=True)
    print()
    base = statistics.median(rates[list(rates)[-1]])
    for label, values in rates.items():
        median = statistics.median(values)
        print(f"{label}: median {median:.1f} targets/s, {median / base:.2f}x the last setting")
        print("    " + json.dumps(last[label], ensure_ascii=False))


if __name__ == "__main__":
    main()
