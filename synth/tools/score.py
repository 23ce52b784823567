"""Score model predictions against a dataset: success rate, mean reward and verdicts, overall and by family,
level, platform and language (grounding: by query kind and style too), and counts per cell of all of them, which
`--focus` reads (synth.tools.focus).

A prediction is a JSON line {"key", "output"}, plus "query" (0-based, default 0) for the queries of a
grounding sample that holds several: every query of the dataset is scored, and one without a prediction
counts as missing. When a key and query have several predictions, the first one counts; the others are counted
as duplicates. Nothing a model writes makes scoring fail: an output that holds no readable action (or JSON
nested too deep to read) scores 0 and counts as unparseable; a line that is not a prediction record counts as
a bad line."""
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from synth.engine.manifest import read_manifest
from synth.labels import judge, reward, spec
from synth.labels.actions import ParseError, parse_output
from synth.tools.dataset import iter_labels

_KEY, _QUERY = re.compile(r'"key"\s*:\s*("(?:[^"\\]|\\.)*")'), re.compile(r'"query"\s*:\s*(\d+)')


CELL_FIELDS = ("family", "difficulty", "platform", "lang", "query_kind", "query_style")
GROUPS = {"by_family": "family", "by_difficulty": "difficulty", "by_platform": "platform", "by_lang": "lang",
          "by_query_kind": "query_kind", "by_query_style": "query_style"}


def read_predictions(path: Path) -> tuple[dict[tuple[str, int], object], list[str], list[str]]:
    """{(key, query): output} from a JSONL file (the first prediction of each key and query), the problems with
    lines that could not be read, and the names of the duplicate predictions that were left out."""
    preds, problems, duplicates = {}, [], []
    with open(path, encoding="utf-8", errors="replace") as f:     # undecodable bytes make a line unreadable
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = _load_row(line)
                query = row.get("query", 0)
                if type(query) is not int or query < 0:
                    raise TypeError
                key = (str(row["key"]), query)
                output = row["output"]
            except (json.JSONDecodeError, RecursionError, KeyError, TypeError, AttributeError):
                problems.append(f"line {n}: not a JSON object with 'key', 'output' and an optional 'query' index")
                continue
            if key in preds:
                duplicates.append(f"line {n}: {key[0]}" + (f"#{key[1]}" if key[1] else ""))
            else:
                preds[key] = output
    return preds, problems, duplicates


def judged(label: dict, output, rules: str) -> tuple[float, dict | None]:
    """(reward, synth.labels.judge's verdicts) of one output; (0.0, None) when it holds no readable action."""
    try:
        actions = parse_output(output, label["image"]["width"], label["image"]["height"])
        value = reward.score(reward.answered_label(label, output), actions, rules)
        return value, judge.judge(reward.answered_label(label, output), actions)
    except (ParseError, RecursionError):
        return 0.0, None


def cell_of(sample: dict, i: int) -> tuple:
    """The cell (CELL_FIELDS) of query i of a sample."""
    q = (sample.get("queries") or [{}])[i] if sample.get("queries") else {}
    return (sample["family"], sample["difficulty"], sample["platform"], sample["lang"], q.get("kind", ""),
            q.get("style", ""))


def summary(rs: list[float]) -> dict:
    return {"n": len(rs), "success_rate": round(sum(r == 1.0 for r in rs) / len(rs), 4) if rs else 0.0,
            "mean_reward": round(sum(rs) / len(rs), 4) if rs else 0.0}


def shares(counts: Counter, names: tuple[str, ...]) -> dict:
    total = sum(counts.values())
    return {"n": total, **{k: round(counts[k] / total, 4) if total else 0.0 for k in names}}


def _load_row(line: str) -> dict:
    """A prediction line as a dict. A line nested too deeply for the JSON parser keeps its key and query (read
    from their text) and an output of None, which scores as unparseable."""
    try:
        return json.loads(line)
    except RecursionError:
        key, query = _KEY.search(line), _QUERY.search(line)
        if key is None:
            raise KeyError("key") from None
        return {"key": json.loads(key.group(1)), "output": None, "query": int(query.group(1)) if query else 0}


def score_dataset(dataset: Path, predictions: Path, rules: str = "synth") -> dict:
    """Rewards and verdicts of every prediction under `rules` (see synth.labels.reward.score); unparseable outputs
    (nested too deeply included) and samples without a prediction score 0 (verdict: failed) and are counted.
    ValueError when no line of `predictions` is a prediction record."""
    preds, problems, duplicates = read_predictions(predictions)
    if not preds:
        raise ValueError(f"no line of {predictions} is a prediction record"
                         + (f" ({problems[0]})" if problems else ": the file is empty"))
    cells: dict[tuple, list[float]] = defaultdict(list)
    rewards, unparseable, missing, seen = [], [], [], set()
    step_verdicts, verdicts = Counter(), Counter()
    for sample in iter_labels(dataset):
        for i in range(len(sample.get("queries") or [None])):
            label, key = spec.query_label(sample, i), (sample["key"], i)
            name = sample["key"] if i == 0 else f"{sample['key']}#{i}"
            seen.add(key)
            verdict = None
            if key not in preds:
                missing.append(name)
                r = 0.0
            else:
                r, verdict = judged(label, preds[key], rules)
                if verdict is None:
                    unparseable.append(name)
            step_verdicts.update(verdict["steps"] if verdict else [])
            verdicts[verdict["verdict"] if verdict else "failed"] += 1
            rewards.append(r)
            cells[cell_of(sample, i)].append(r)
    out = summary(rewards)
    out["kind"] = read_manifest(dataset).get("config", {}).get("kind", "")
    for group, field in GROUPS.items():
        pooled = defaultdict(list)
        for cell, rs in cells.items():
            pooled[str(cell[CELL_FIELDS.index(field)])].extend(rs)
        if field.startswith("query_") and set(pooled) == {""}:
            continue
        out[group] = {k: summary(v) for k, v in sorted(pooled.items())}
    out["cells"] = [{**dict(zip(CELL_FIELDS, cell)), **summary(rs), "successes": sum(r == 1.0 for r in rs)}
                    for cell, rs in sorted(cells.items())]
    out["steps"] = shares(step_verdicts, judge.STEP_VERDICTS)
    out["verdicts"] = shares(verdicts, judge.VERDICTS)
    out.update({"unparseable": len(unparseable), "missing": len(missing), "duplicates": len(duplicates),
                "unknown_keys": len(set(preds) - seen), "bad_lines": len(problems),
                "examples": {"unparseable": unparseable[:5], "missing": missing[:5], "bad_lines": problems[:5],
                             "duplicates": duplicates[:5]}})
    return out


def format_report(result: dict) -> str:
    """The report as text: totals, each group's lines, verdict shares, and what could not be scored."""
    lines = [f"samples {result['n']}: success rate {result['success_rate']:.3f}, "
             f"mean reward {result['mean_reward']:.3f}"]
    for group in GROUPS:
        for name, s in result.get(group, {}).items():
            lines.append(f"  {group[3:]:12s} {name:14s} n={s['n']:6d}  success {s['success_rate']:.3f}  "
                         f"reward {s['mean_reward']:.3f}")
    for part in ("steps", "verdicts"):
        lines.append(f"{part}: " + ", ".join(f"{k} {v:.3f}" for k, v in result[part].items() if k != "n"))
    lines.append(f"unparseable outputs: {result['unparseable']}, samples without a prediction: {result['missing']}, "
                 f"predictions for unknown keys: {result['unknown_keys']}, unreadable lines: {result['bad_lines']}, "
                 f"duplicate predictions (the first one counts): {result['duplicates']}")
    return "\n".join(lines)
