"""Shared fixtures: one small mixed dataset generated through the real CLI (real Chromium)."""
import json
import os
import tarfile
from pathlib import Path

import pytest

from synth.cli import main

# the three foundation families, named so that adding a family does not change this dataset
BASE_ARGS = ["--difficulty", "3", "--n", "36", "--seed", "11", "--shard-size", "20",
             "--family", "counting", "--family", "rotation", "--family", "occlusion"]


def read_samples(out: Path) -> list[dict]:
    """Every sample of a dataset as {"key", "image": bytes, "label": dict}, read with tarfile alone."""
    samples = {}
    for shard in sorted(out.glob("*.tar")):
        with tarfile.open(shard) as tar:
            for m in tar.getmembers():
                key, ext = m.name.split(".", 1)
                samples.setdefault(key, {"key": key})[ext] = tar.extractfile(m).read()
    for s in samples.values():
        s["label"] = json.loads(s.pop("json"))
    return list(samples.values())


@pytest.fixture(scope="session", autouse=True)
def page_cache(tmp_path_factory) -> Path:
    """The tests' runs share a page cache of their own (synth.engine.pagecache), not the user's."""
    folder = tmp_path_factory.mktemp("page-cache")
    before = os.environ.get("SYNTH_CACHE")
    os.environ["SYNTH_CACHE"] = str(folder)
    yield folder
    if before is None:
        del os.environ["SYNTH_CACHE"]
    else:
        os.environ["SYNTH_CACHE"] = before


@pytest.fixture(scope="session")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ds") / "captcha"
    code = main(["captcha", *BASE_ARGS, "--out", str(out), "--workers", "2"])
    assert code == 0
    return out


@pytest.fixture(scope="session")
def samples(dataset) -> list[dict]:
    return read_samples(dataset)
