"""A stand-in model for the loop generate → model → score → focus → generate (docs/loop.md): it answers every
sample of a dataset with the label's own reference actions, except on the families and the level it is told to
be bad at, where it clicks a distractor (or, with none, the widget's top-left corner, or for a grounding query
the screen's corner). Predictions go to a JSONL file as `synth score` reads them.

    python bench/standin_policy.py DATASET --bad counting --bad rotation --bad-level 4 --out preds.jsonl

Deterministic: the same dataset and options give the same file."""
import argparse
import json
from pathlib import Path

from synth.labels.spec import center, query_label
from synth.tools.dataset import iter_labels


def wrong_actions(label: dict) -> list[dict]:
    """A wrong answer: a click on a distractor, else on the widget's corner, else near the screen's corner."""
    distractors = [o for o in label["objects"] if o["role"] == "distractor"]
    if distractors:
        return [{"type": "click", "point": center(distractors[0]["bbox"])}]
    w = label["widget"] or [0.0, 0.0, 0.0, 0.0]
    return [{"type": "click", "point": [w[0] + 2.0, w[1] + 2.0]}]


def predictions(dataset: Path, bad: set[str], bad_level: int) -> list[dict]:
    """One prediction per sample and query: the reference actions, or a wrong answer where the model is bad."""
    out = []
    for sample in iter_labels(dataset):
        for i in range(len(sample.get("queries") or [None])):
            label = query_label(sample, i)
            kind = (sample.get("queries") or [{}])[i].get("kind", "") if sample.get("queries") else ""
            fails = sample["family"] in bad or kind in bad or sample["difficulty"] == bad_level
            actions = wrong_actions(label) if fails else label["actions"]
            out.append({"key": sample["key"], "query": i, "output": actions})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--bad", action="append", default=[], help="a family (or grounding query kind) it fails")
    parser.add_argument("--bad-level", type=int, default=0, help="a level it fails at (0: none)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rows = predictions(args.dataset, set(args.bad), args.bad_level)
    args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    print(f"wrote {len(rows)} predictions to {args.out}")


if __name__ == "__main__":
    main()
