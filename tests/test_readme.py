"""The README's streaming and training examples run as written against a generated dataset."""
import os
import re
from pathlib import Path

import pytest

from synth.reward import score_output

README = Path(__file__).resolve().parent.parent / "README.md"


def examples() -> dict[str, str]:
    text = README.read_text()
    return dict(re.findall(r"<!-- (?:streaming|training)-example: (\w+) -->\n```python\n(.*?)```", text, re.S))


def printed(name: str, samples: list[dict]) -> list[str]:
    """What example `name` must print for `samples` (read with tarfile alone, in shard order)."""
    labels = [s["label"] for s in samples]
    if name == "webdataset":
        return [f"{lab['family']} {lab['instruction']} {lab['answer']}" for lab in labels]
    if name == "datasets":
        first = labels[0]
        size = (first["image"]["width"], first["image"]["height"])
        return [f"{size} {first['instruction']} {first['accept']['steps'][0]['region']}"]
    centre = "<action>Click(box=(500,500))</action>"      # the example's stand-in policy
    return [f"{lab['key']} {lab['family']} {score_output(lab, centre)}" for lab in labels]


@pytest.mark.parametrize("name", ["webdataset", "datasets", "rl"])
def test_streaming_example(name, dataset, samples, tmp_path, capsys):
    code = examples()[name]
    (tmp_path / "out").mkdir()
    os.symlink(dataset, tmp_path / "out" / "captcha")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(code, f"README:{name}", "exec"), {})
    finally:
        os.chdir(cwd)
    assert capsys.readouterr().out == "".join(line + "\n" for line in printed(name, samples))


def test_hf_datasets_keeps_every_answer(dataset, samples):
    """Arrow infers one schema from the first rows: no family's answer or accept keys may be lost."""
    import datasets
    ds = datasets.load_dataset("webdataset", data_files={"train": str(dataset / "*.tar")}, split="train")
    written = {s["key"]: s["label"] for s in samples}
    assert sorted(row["json"]["key"] for row in ds) == sorted(written)
    for row in ds:
        lab, own = row["json"], written[row["json"]["key"]]
        assert lab["answer"] == own["answer"], lab["key"]
        assert lab["accept"]["steps"] == own["accept"]["steps"], lab["key"]
        if lab["family"] == "rotation":
            assert lab["answer"]["angle"] >= 0 and lab["accept"]["steps"][0]["type"] == "drag"
    assert {row["json"]["family"] for row in ds} == {"counting", "rotation", "occlusion"}
