"""CPU cost of each family's own work (sample_params + render + solve, rejected attempts included), per level.

Usage: python bench/family_cost.py [--n 60] [--level 3]... [--family NAME]...
Runs in one process without Chromium, at the web puzzle size; prints milliseconds per accepted instance
(median of 3 passes over the same seeds)."""
import argparse
import statistics
import time

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.families import FAMILIES
from synth.screens.pages import PLATFORMS

SIZE = PLATFORMS["web"]["puzzle"]


def cost(name: str, level: int, n: int) -> float:
    """Milliseconds per accepted instance of one family at one level."""
    family = FAMILIES[name]
    t0 = time.perf_counter()
    for seed in range(n):
        for attempt in range(60):
            rng = np.random.default_rng([seed, attempt])
            try:
                params = family.sample_params(rng, level, SIZE, infeasible=False)
                family.solve(params, family.render(params))
                break
            except Reject:
                continue
    return (time.perf_counter() - t0) * 1000 / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--level", type=int, action="append")
    ap.add_argument("--family", action="append")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    levels = args.level or [1, 3, 5]
    print(f"{'family':12s} " + " ".join(f"{'L' + str(lv) + ' ms':>9s}" for lv in levels))
    for name in args.family or FAMILIES:
        row = [statistics.median(cost(name, lv, args.n) for _ in range(3)) for lv in levels]
        print(f"{name:12s} " + " ".join(f"{v:9.2f}" for v in row), flush=True)


if __name__ == "__main__":
    main()
