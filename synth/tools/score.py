"""Score model predictions against a dataset: success rate and mean reward, overall and by family and level.

A prediction is a JSON line {"key", "output"}, plus "query" (0-based, default 0) for the queries of a
grounding sample that holds several: every query of the dataset is scored, and one without a prediction
counts as missing."""
import json
import re
from collections import defaultdict
from pathlib import Path

from synth.labels import reward, spec
from synth.labels.actions import ParseError
from synth.tools.dataset import iter_labels

_KEY, _QUERY = re.compile(r'"key"\s*:\s*("(?:[^"\\]|\\.)*")'), re.compile(r'"query"\s*:\s*(\d+)')


def read_predictions(path: Path) -> tuple[dict[tuple[str, int], object], list[str]]:
    """{(key, query): output} from a JSONL file, and a list of problems with lines that could not be read."""
    preds, problems = {}, []
    with open(path, encoding="utf-8", errors="replace") as f:     # undecodable bytes make a line unreadable
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = _load_row(line)
                query = row.get("query", 0)
                if type(query) is not int or query < 0:
                    raise TypeError
                preds[(str(row["key"]), query)] = row["output"]
            except (json.JSONDecodeError, KeyError, TypeError, AttributeError):
                problems.append(f"line {n}: not a JSON object with 'key', 'output' and an optional 'query' index")
    return preds, problems


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
    """Rewards of every prediction under `rules` (see synth.labels.reward.score); unparseable outputs (nested
    too deeply included) and samples without a prediction score 0 and are counted. ValueError when no line of
    `predictions` is a prediction record."""
    preds, problems = read_predictions(predictions)
    if not preds:
        raise ValueError(f"no line of {predictions} is a prediction record"
                         + (f" ({problems[0]})" if problems else ": the file is empty"))
    groups: dict[str, dict[str, list[float]]] = {"by_family": defaultdict(list), "by_difficulty": defaultdict(list)}
    rewards, unparseable, missing, seen = [], [], [], set()
    for sample in iter_labels(dataset):
        for i in range(len(sample.get("queries") or [None])):
            label, key = spec.query_label(sample, i), (sample["key"], i)
            name = sample["key"] if i == 0 else f"{sample['key']}#{i}"
            seen.add(key)
            if key not in preds:
                missing.append(name)
                r = 0.0
            else:
                try:
                    r = reward.score_answer(label, preds[key], rules)
                except ParseError:
                    unparseable.append(name)
                    r = 0.0
            rewards.append(r)
            groups["by_family"][label["family"]].append(r)
            groups["by_difficulty"][str(label["difficulty"])].append(r)

    def summary(rs: list[float]) -> dict:
        return {"n": len(rs), "success_rate": round(sum(r == 1.0 for r in rs) / len(rs), 4) if rs else 0.0,
                "mean_reward": round(sum(rs) / len(rs), 4) if rs else 0.0}

    out = summary(rewards)
    out.update({name: {k: summary(v) for k, v in sorted(g.items())} for name, g in groups.items()})
    out.update({"unparseable": len(unparseable), "missing": len(missing),
                "unknown_keys": len(set(preds) - seen), "bad_lines": len(problems),
                "examples": {"unparseable": unparseable[:5], "missing": missing[:5], "bad_lines": problems[:5]}})
    return out
