"""Per family and level: rejection rate and mean difficulty statistic over generated samples.

Usage: python bench/family_report.py [--n 30] [--family NAME]...
Runs the full sample pipeline (pages, verification, label checks) in one process; the rejection rate is
rejected attempts / all attempts."""
import argparse
import json
from collections import Counter

from synth.core.levels import LEVELS
from synth.engine.config import RunConfig
from synth.engine.generator import Generator
from synth.families import FAMILIES


def measure(name: str, level: int, n: int) -> dict:
    gen = Generator(RunConfig(difficulty=level, n=n, seed=7, families=(name,)))
    rejections, stats = Counter(), []
    try:
        for i in range(n):
            _, members, rej = gen.sample(i)
            rejections.update(rej)
            knobs = {k["name"]: k["value"] for k in json.loads(members["json"])["params"]["knobs"]}
            stats.append(knobs["difficulty_stat"])
    finally:
        gen.close()
    rejected = sum(rejections.values())
    return {"rejection_rate": round(rejected / (rejected + n), 3), "stat_mean": round(sum(stats) / n, 3),
            "top_reason": rejections.most_common(1)[0][0] if rejections else ""}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--family", action="append")
    args = ap.parse_args()
    print(f"{'family':12s} {'statistic':45s} " + " ".join(f"{'L' + str(lv):>16s}" for lv in LEVELS))
    for name in args.family or FAMILIES:
        rows = [measure(name, lv, args.n) for lv in LEVELS]
        print(f"{name:12s} {FAMILIES[name].STAT[:45]:45s} "
              + " ".join(f"{r['stat_mean']:>8.3f} rej{r['rejection_rate']:>5.2f}" for r in rows), flush=True)
        for lv, r in zip(LEVELS, rows):
            if r["top_reason"]:
                print(f"{'':12s}   L{lv} most common rejection: {r['top_reason']}")


if __name__ == "__main__":
    main()
