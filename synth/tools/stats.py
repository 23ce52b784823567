"""`synth stats`: counts by attribute, rejection rates from the manifest, and each family's difficulty statistic."""
from collections import Counter, defaultdict
from pathlib import Path

from synth.engine.manifest import read_manifest
from synth.families import FAMILIES
from synth.tools.dataset import iter_labels

ATTRIBUTES = ("family", "difficulty", "lang", "platform", "template", "kind")


def knob(label: dict, name: str) -> float | None:
    knobs = label["params"].get("knobs")
    for k in knobs if isinstance(knobs, list) else []:
        if isinstance(k, dict) and k.get("name") == name and isinstance(k.get("value"), (int, float)):
            return k["value"]
    return None


def collect(dataset: Path) -> dict:
    """Counts per attribute, rejections per reason (with rates), and per family and level the values of
    the family's difficulty statistic as recorded in the labels' knobs."""
    counts = {a: Counter() for a in ATTRIBUTES}
    stat_values: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    n = 0
    for label in iter_labels(dataset):
        n += 1
        for a in ATTRIBUTES:
            counts[a][str(label[a])] += 1
        value = knob(label, "difficulty_stat")
        if value is not None and label["family"] in FAMILIES:
            stat_values[label["family"]][label["difficulty"]].append(value)
    manifest = read_manifest(dataset)
    rejections = Counter(manifest.get("totals", {}).get("rejections", {}))
    attempts = n + sum(rejections.values())
    return {
        "samples": n,
        "counts": {a: dict(sorted(c.items())) for a, c in counts.items()},
        "rejections": {r: {"count": c, "rate": round(c / attempts, 4) if attempts else 0.0}
                       for r, c in rejections.most_common()},
        "difficulty_stat": {f: {"stat": FAMILIES[f].STAT, **{str(lv): _summary(v) for lv, v in sorted(levels.items())}}
                            for f, levels in sorted(stat_values.items())},
    }


def _summary(values: list[float]) -> dict:
    values = sorted(values)
    return {"n": len(values), "mean": round(sum(values) / len(values), 4), "median": values[len(values) // 2],
            "min": values[0], "max": values[-1]}


def write_charts(stats: dict, out: Path) -> list[Path]:
    """PNG bar charts of the counts and rejection reasons; returns the files written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    out.mkdir(parents=True, exist_ok=True)
    written = []
    panels = [(a, stats["counts"][a]) for a in ATTRIBUTES if stats["counts"][a]]
    panels.append(("rejections", {r: v["count"] for r, v in stats["rejections"].items()}))
    for name, data in panels:
        if not data:
            continue
        fig, ax = plt.subplots(figsize=(7, 0.35 * len(data) + 1.2), dpi=100)
        ax.barh(list(data), list(data.values()), color="#3c78d8")
        ax.invert_yaxis()
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))     # counts: whole-number ticks
        ax.set_title(f"samples by {name}" if name != "rejections" else "rejected instances by reason")
        fig.tight_layout()
        path = out / f"{name}.png"
        fig.savefig(path)
        plt.close(fig)
        written.append(path)
    return written


def format_table(stats: dict) -> str:
    """The stats as plain-text tables for the terminal."""
    lines = [f"samples: {stats['samples']}"]
    for a in ATTRIBUTES:
        lines.append(f"\nby {a}:")
        lines += [f"  {k:28s} {v:8d}" for k, v in stats["counts"][a].items()]
    lines.append("\nrejections (rate = rejected / attempts):")
    lines += [f"  {r:40s} {v['count']:8d}  {v['rate']:.3f}" for r, v in stats["rejections"].items()] or ["  none"]
    for f, levels in stats["difficulty_stat"].items():
        lines.append(f"\n{f}: {levels['stat']} by level (mean, min-max):")
        lines += [f"  L{lv}: {s['mean']:.3f}  ({s['min']}-{s['max']}, n={s['n']})"
                  for lv, s in levels.items() if lv != "stat"]
    return "\n".join(lines)
