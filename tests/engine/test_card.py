"""The dataset card (README.md) every run writes: Hugging Face front matter, exact counts, a working command."""
import fnmatch
import json
import re
import shlex
import shutil
from collections import Counter

import pytest
import yaml

from synth.cli import main
from tests.conftest import read_samples

HEADERS = {"family": "family", "level": "difficulty", "language": "lang", "platform": "platform"}


def front_matter(card: str) -> dict:
    assert card.startswith("---\n")
    return yaml.safe_load(card.split("---\n")[1])


def tables(card: str) -> dict[str, dict[str, int]]:
    """{header: {row: count}} of the card's two-column count tables."""
    blocks = re.findall(r"^\| (.+) \| (?:samples|instances) \|\n\|---\|---:\|\n((?:\|.*\n)*)", card, re.M)
    return {header: {name: int(n) for name, n in re.findall(r"^\| (.+) \| (\d+) \|$", rows, re.M)}
            for header, rows in blocks}


def command(card: str) -> list[str]:
    return shlex.split(re.search(r"```sh\n(synth .*)\n```", card).group(1))


@pytest.fixture(scope="module")
def grounding_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("card") / "grounding"
    assert main(["grounding", "--difficulty", "2", "--n", "3", "--seed", "7", "--lang", "en", "--platform", "web",
                 "--out", str(out), "--workers", "1"]) == 0
    return out


def test_front_matter(dataset, samples):
    meta = front_matter((dataset / "README.md").read_text())
    assert meta["license"] == "mit" and meta["annotations_creators"] == ["machine-generated"]
    assert meta["task_categories"] == ["image-text-to-text"] and meta["size_categories"] == ["n<1K"]
    assert meta["language"] == sorted({s["label"]["lang"] for s in samples}) == ["en", "zh"]
    assert "captcha" in meta["tags"] and meta["pretty_name"] == "synth captcha, difficulty 3"
    (config,) = meta["configs"]
    assert config["config_name"] == "default"
    (files,) = config["data_files"]
    assert files["split"] == "train"
    names = [p.name for p in dataset.iterdir()]
    assert sorted(fnmatch.filter(names, files["path"])) == sorted(p.name for p in dataset.glob("*.tar"))


def test_counts_are_those_of_the_labels(dataset, samples):
    card = (dataset / "README.md").read_text()
    found = tables(card)
    for header, field in HEADERS.items():
        assert found[header] == dict(Counter(str(s["label"][field]) for s in samples)), header
    manifest = json.loads((dataset / "manifest.json").read_text())
    totals = manifest["totals"]
    assert f"{len(samples)} samples in {totals['shards']} shards" in card
    assert found.get("rejection reason", {}) == totals["rejections"]
    assert f"redrawn: {sum(totals['rejections'].values())}." in card


def test_the_command_remakes_the_run_and_the_card(dataset, tmp_path):
    """The card's command names the run's config exactly (a rerun in the folder resumes instead of refusing
    another run) and a rerun writes the same bytes, also over a manifest whose shards carry no counts."""
    card = (dataset / "README.md").read_bytes()
    args = command(card.decode())
    assert args[:2] == ["synth", "captcha"] and "--family" in args and "--out" not in args
    out = tmp_path / "copy"
    shutil.copytree(dataset, out)
    (out / "README.md").unlink()
    manifest = json.loads((out / "manifest.json").read_text())
    for shard in manifest["shards"]:
        del shard["counts"]
    del manifest["totals"]["counts"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert main([*args[1:], "--out", str(out), "--workers", "1"]) == 0
    assert (out / "README.md").read_bytes() == card
    assert (out / "manifest.json").read_bytes() == (dataset / "manifest.json").read_bytes()


def test_hf_datasets_loads_the_folder_through_the_card(dataset, samples):
    import datasets
    ds = datasets.load_dataset(str(dataset), split="train")
    assert sorted(row["__key__"] for row in ds) == sorted(s["key"] for s in samples)


def test_grounding_card(grounding_set):
    card = (grounding_set / "README.md").read_text()
    meta = front_matter(card)
    assert meta["task_categories"] == ["image-text-to-text", "object-detection"] and meta["language"] == ["en"]
    assert meta["configs"][0]["data_files"][0]["path"] == "grounding-*.tar"
    assert command(card) == ["synth", "grounding", "--difficulty", "2", "--n", "3", "--seed", "7", "--lang", "en",
                             "--platform", "web", "--shard-size", "1000", "--image-format", "jpg", "--queries", "8",
                             "--refusal", "0.1"]
    labels = [s["label"] for s in read_samples(grounding_set)]
    assert tables(card)["family"] == {"element": 3} == dict(Counter(lab["family"] for lab in labels))
