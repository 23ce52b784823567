"""A run's manifest.json (config, version, and per shard its sample count, bytes, sha256, rejections and
label counts) and the shards it lists: read, resumed, written atomically after every shard."""
import dataclasses
import json
import os
import tarfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from synth import __version__
from synth.engine.card import COUNTED
from synth.engine.config import KIND_OPTIONS, OPTIONAL, RunConfig
from synth.engine.plan import shard_name
from synth.engine.shards import TMP_SUFFIX, ShardWriter, file_digest

MANIFEST = "manifest.json"
ChunkResult = tuple[list[bytes], Counter]   # each sample's tar bytes, and the chunk's rejections


def read_manifest(folder: Path) -> dict:
    """The manifest.json of a dataset folder; FileNotFoundError / ValueError with a clear message otherwise."""
    if not Path(folder).is_dir():
        raise FileNotFoundError(f"dataset folder {folder} does not exist")
    path = Path(folder) / MANIFEST
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not valid JSON ({e.msg})") from e


def config_dict(cfg: RunConfig, other_kinds: bool = False) -> dict:
    """The config as the manifest stores it (tuples as lists), without the options of other kinds of runs
    (`other_kinds`: with them, as manifests of synth 0.2.0 and before stored it)."""
    foreign = {k for kind, names in KIND_OPTIONS.items() if kind != cfg.kind for k in names}
    values = {k: v for k, v in dataclasses.asdict(cfg).items()
              if OPTIONAL.get(k, ...) != v and (other_kinds or k not in foreign)}
    return json.loads(json.dumps(values))


def resume_manifest(out: Path, cfg: RunConfig) -> dict:
    """The manifest of a previous run of the same config in `out`, or a fresh one; ValueError if `out` holds
    another run."""
    if not (out / MANIFEST).exists():
        return {"schema": "synth-manifest/1", "version": __version__, "config": config_dict(cfg), "shards": []}
    try:
        manifest = read_manifest(out)
    except ValueError as e:
        raise ValueError(f"{e}; remove it or use another --out") from e
    if manifest.get("config") not in (config_dict(cfg), config_dict(cfg, other_kinds=True)):
        raise ValueError(f"{out} holds a different run (see {out / MANIFEST}); use another --out or delete it")
    return manifest


def write_manifest(out: Path, manifest: dict) -> None:
    """Atomically replace the manifest (sorted shards, totals recomputed)."""
    manifest["shards"].sort(key=lambda s: s["name"])
    total = Counter()
    counts = {field: Counter() for field in COUNTED}
    for s in manifest["shards"]:
        total.update(s["rejections"])
        for field in COUNTED:
            counts[field].update(s["counts"][field])
    manifest["totals"] = {"samples": sum(s["samples"] for s in manifest["shards"]),
                          "shards": len(manifest["shards"]), "rejections": dict(sorted(total.items())),
                          "counts": {field: dict(sorted(c.items())) for field, c in counts.items()}}
    tmp = out / (MANIFEST + TMP_SUFFIX)
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, out / MANIFEST)


def finished_shards(out: Path, manifest: dict) -> set[str]:
    """Shards the manifest lists whose file is present with the recorded sha256."""
    done = set()
    for s in manifest["shards"]:
        path = out / s["name"]
        if path.exists() and file_digest(path)["sha256"] == s["sha256"]:
            done.add(s["name"])
    return done


def write_shard(cfg: RunConfig, out: Path, shard: int, results: Iterator[ChunkResult]) -> dict:
    """Write one shard from its chunk results (in order); returns its manifest entry."""
    rejections: Counter = Counter()
    with ShardWriter(out / shard_name(cfg, shard)) as writer:
        for samples, rej in results:
            for sample in samples:
                writer.add(sample)
            rejections.update(rej)
        info = writer.commit()
    info["rejections"] = dict(sorted(rejections.items()))
    info["counts"] = shard_counts(out / shard_name(cfg, shard))
    return info


def shard_counts(path: Path) -> dict[str, dict[str, int]]:
    """The samples of a finished shard by each COUNTED label field, read from its labels (the images are
    skipped, not read)."""
    counts = {field: Counter() for field in COUNTED}
    with tarfile.open(path) as tar:
        for member in tar:
            if member.name.split(".", 1)[1] == "json":
                label = json.loads(tar.extractfile(member).read())
                for field in COUNTED:
                    counts[field][str(label[field])] += 1
    return {field: dict(sorted(c.items())) for field, c in counts.items()}
