"""Focus weights for the next run from a `synth score --json` report: more of what the model failed.

For each family (a grounding run: each instruction kind) the failures its levels do not explain: at each level
l, its failure rate shrunk toward the level's rate over all families, r(f, l) = (failures(f, l) + 2 R(l)) /
(n(f, l) + 2), with R(l) = (failures(l) + ½) / (n(l) + 1); its excess e(f) = the count-weighted mean over levels
of max(0, r(f, l) − R(l)), plus EPSILON (a family the report never saw: the mean e of those it saw). Then

    share(f) = (1 − FLOOR) · e(f) / Σ e + FLOOR / (number of families)

so a family the model fails more often than its levels explain gets far more than an even share, a level the
model fails everywhere does not raise every family alike (it raises that level instead), and none gets less
than FLOOR of an even share. Levels are weighed the same way within each family, from r(f, l) itself: a
level the report never saw takes R = max(½, R of the highest level seen below it), or the R of the nearest
level seen above it (an easier level is taken to be failed no more often), so a family the model solves moves
up to the levels not yet tried. A cell's weight is its family's share times its level's share (rounded to 6
decimals); synth.core.focus draws each sample's cell from these weights."""
import json
from collections import defaultdict
from pathlib import Path

FLOOR = 0.3          # every family (kind, level) keeps at least this fraction of an even share
PRIOR = 0.5          # the failure rate of what the report never saw
EPSILON = 0.01       # excess failure rate every family has, so that a report without failures weighs all alike
LEVEL_PRIOR_N = 2.0  # pseudo-count of a level's rate over all families in a family's rate at that level


def rate(failures: float, n: float) -> float:
    """A failure rate smoothed by its count: (failures + ½) / (n + 1)."""
    return (failures + 0.5) / (n + 1.0)


def read_report(path: Path) -> dict:
    """A `synth score --json` report; ValueError (one line) when the file is not one."""
    try:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise ValueError(f"--focus report {path} does not exist") from e
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"--focus report {path} is not readable JSON ({type(e).__name__})") from e
    cells = report.get("cells") if isinstance(report, dict) else None
    if not isinstance(cells, list) or not all(isinstance(c, dict) and {"family", "difficulty", "n", "successes"}
                                              <= set(c) for c in cells):
        raise ValueError(f"--focus report {path} is not a `synth score --json` report (no 'cells' list)")
    return report


def shares(rates: dict[str, float]) -> dict[str, float]:
    """Each name's share: (1 − FLOOR) · r / Σ r + FLOOR / count."""
    total = sum(rates.values())
    return {k: (1 - FLOOR) * r / total + FLOOR / len(rates) for k, r in rates.items()}


def level_rates(counts: dict[int, list[float]], levels: tuple[int, ...]) -> dict[int, float]:
    """The smoothed failure rate of each level from [failures, n] counts, unseen levels filled in (see above)."""
    seen = {lv: rate(*counts[lv]) for lv in counts if counts[lv][1] > 0}
    out = {}
    for lv in levels:
        above = [s for s in sorted(seen) if s > lv]
        below = [s for s in sorted(seen) if s < lv]
        if lv in seen:
            out[lv] = seen[lv]
        elif below:
            out[lv] = max(PRIOR, seen[below[-1]])
        else:
            out[lv] = seen[above[0]] if above else PRIOR
    return out


def _tally(cells: list[dict], name: str):
    """[failures, n] by name, by level, and by (name, level)."""
    by_name, by_level, by_cell = (defaultdict(lambda: [0.0, 0.0]) for _ in range(3))
    for c in cells:
        fail, n = c["n"] - c["successes"], c["n"]
        for table, key in ((by_name, c.get(name, "")), (by_level, c["difficulty"]),
                           (by_cell, (c.get(name, ""), c["difficulty"]))):
            table[key][0] += fail
            table[key][1] += n
    return by_name, by_level, by_cell


def excess(by_cell: dict, names: tuple[str, ...], overall: dict[int, float]) -> dict[str, float]:
    """Each name's failure rate beyond its levels' (see above), from [failures, n] by (name, level)."""
    out = {}
    for name in names:
        cells = [(lv, fail, n) for (nm, lv), (fail, n) in by_cell.items() if nm == name and n > 0]
        total = sum(n for _, _, n in cells)
        if total:
            out[name] = EPSILON + sum(n * max(0.0, (fail + LEVEL_PRIOR_N * overall[lv]) / (n + LEVEL_PRIOR_N)
                                              - overall[lv]) for lv, fail, n in cells) / total
    seen = list(out.values())
    return {name: out.get(name, sum(seen) / len(seen) if seen else EPSILON) for name in names}


def family_cells(report: dict, families: tuple[str, ...], levels: tuple[int, ...]) -> tuple:
    """(family, level, weight) for every family and level of the next run."""
    _, by_level, by_cell = _tally(report["cells"], "family")
    seen_levels = tuple(sorted(set(levels) | set(by_level)))
    overall = level_rates(dict(by_level), seen_levels)
    family_share = shares(excess(by_cell, families, overall))
    out = []
    for f in families:
        rates = {lv: (by_cell[(f, lv)][0] + LEVEL_PRIOR_N * overall[lv]) / (by_cell[(f, lv)][1] + LEVEL_PRIOR_N)
                 if (f, lv) in by_cell else overall[lv] for lv in levels}
        out += [(f, lv, round(family_share[f] * s, 6)) for lv, s in shares(rates).items()]
    return tuple(out)


def kind_weights(report: dict, kinds: tuple[str, ...]) -> tuple:
    """(instruction kind, weight) of a grounding run from the report's per-query counts."""
    _, by_level, by_cell = _tally(report["cells"], "query_kind")
    overall = level_rates(dict(by_level), tuple(sorted(by_level)))
    return tuple((k, round(s, 6)) for k, s in shares(excess(by_cell, kinds, overall)).items())


def focus_options(path: Path, kind: str, families: tuple[str, ...], levels: tuple[int, ...]) -> dict:
    """The RunConfig fields of a --focus run of `kind` on `families` at `levels`, from the report at `path`:
    `focus` cells and, for grounding, `focus_kinds`. ValueError when the report is of another kind of dataset."""
    report = read_report(path)
    if report.get("kind") not in (None, kind):
        raise ValueError(f"--focus report {path} scores a {report['kind']} dataset, not a {kind} one")
    out = {"focus": family_cells(report, families, levels)}
    if kind == "grounding":
        from synth.grounding.levels import TABLE
        kinds = tuple(dict.fromkeys(k for lv in levels for k in TABLE.row(lv)["kinds"]))
        out["focus_kinds"] = kind_weights(report, kinds)
    return out
