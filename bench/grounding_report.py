"""Grounding per level: targets/s, rejections by reason, instruction kinds and the target-size distribution.

Usage: python bench/grounding_report.py [--n 30]   (one process; each sample renders its own page)"""
import argparse
import json
import time
from collections import Counter

import numpy as np

from synth.config import RunConfig
from synth.levels import LEVELS
from synth.pipeline import Generator


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    args = ap.parse_args()
    for level in LEVELS:
        gen = Generator(RunConfig(kind="grounding", families=("element",), difficulty=level, n=args.n, seed=3))
        rejections, kinds, areas, sides = Counter(), Counter(), [], []
        gen.sample(0)                                     # start Chromium before timing
        t0 = time.perf_counter()
        try:
            for i in range(1, args.n + 1):
                _, members, rej = gen.sample(i)
                rejections.update(rej)
                label = json.loads(members["json"])
                knobs = {k["name"]: k["value"] for k in label["params"]["knobs"]}
                areas.append(knobs["target_area_permille"])
                x0, y0, x1, y1 = label["objects"][0]["bbox"]
                sides.append(min(x1 - x0, y1 - y0))
                kinds.update(c["name"].removeprefix("instruction_kind_") for c in label["checks"]["items"]
                             if c["name"].startswith("instruction_kind_"))
        finally:
            gen.close()
        rate = args.n / (time.perf_counter() - t0)
        rejected = sum(rejections.values())
        q = lambda v: " / ".join(f"{x:.2f}" for x in np.percentile(v, [10, 50, 90]))
        print(f"L{level}: {rate:.1f} targets/s, rejected {rejected}/{rejected + args.n} attempts {dict(rejections)}")
        print(f"    target area per mille of screen (p10 / median / p90): {q(areas)}; "
              f"shorter side px: {q(sides)}; kinds: {dict(kinds)}", flush=True)


if __name__ == "__main__":
    main()
