"""A run, from its config to finished, verified shards: survey a --pages folder, resume from the manifest,
generate the missing shards on an executor (local processes or Ray), write the manifest after each shard
and the dataset card at the end. A rerun skips shards the manifest lists with a matching sha256."""
from collections.abc import Callable
from pathlib import Path

from synth.engine.card import write_card
from synth.engine.config import RunConfig
from synth.engine.local import local_shards
from synth.engine.manifest import finished_shards, resume_manifest, shard_counts, write_manifest
from synth.engine.pagecache import PageCache
from synth.engine.pagestore import FOLDER as PAGES
from synth.engine.pagestore import PageStore
from synth.engine.plan import Todo, shard_index
from synth.engine.shards import TMP_SUFFIX
from synth.engine.survey import survey


def run(cfg: RunConfig, out: Path, workers: int = 1, executor: str = "local", ray_address: str | None = None,
        on_progress: Callable[[int, int], None] | None = None,
        on_survey: Callable[[int, int], None] | None = None, page_cache: bool = True) -> dict:
    """Generate the run into `out`, resuming a previous partial run of the same config; returns the manifest.
    `executor` is "local" (a process pool of `workers`) or "ray" (one task per shard on a Ray cluster).
    A --pages run first surveys its folder (synth.engine.survey), before anything is written; `on_survey(done,
    total)` follows it page by page, `on_progress(samples, rejected)` the run sample by sample. With
    `page_cache`, pages come from and go to the machine's page cache (synth.engine.pagecache); the bytes are
    the same without it."""
    pages = None
    if cfg.pages:
        cfg, pages = survey(cfg, on_survey)
    out.mkdir(parents=True, exist_ok=True)
    remove_temporaries(out)
    manifest = resume_manifest(out, cfg)
    if pages:
        manifest["pages"] = pages
    n_shards = -(-cfg.n // cfg.shard_size)
    done = finished_shards(out, manifest)
    manifest["shards"] = [s for s in manifest["shards"] if s["name"] in done]
    for s in manifest["shards"]:
        if "counts" not in s:        # kept from a run by a version that did not count labels
            s["counts"] = shard_counts(out / s["name"])
    todo = Todo(n_shards, frozenset(s for s in map(shard_index, done) if s is not None))
    if on_progress:
        on_progress(sum(s["samples"] for s in manifest["shards"]), 0)
    try:
        if executor == "ray":
            from synth.engine.ray_executor import ray_shards
            infos = ray_shards(cfg, out, todo, ray_address, on_progress, page_cache)
        else:
            infos = local_shards(cfg, out, todo, workers, on_progress, PageCache() if page_cache else None)
        for info in infos:
            manifest["shards"].append(info)
            write_manifest(out, manifest)
        if not todo:                     # nothing was generated: the totals may predate the counts
            write_manifest(out, manifest)
        write_card(out, manifest)
    finally:                             # also when interrupted: a rerun resumes from the manifest
        remove_temporaries(out)
    return manifest


def remove_temporaries(out: Path) -> None:
    """Delete leftovers of an interrupted run (temporary shard and manifest files, shared pages)."""
    for stale in out.glob("*" + TMP_SUFFIX):
        stale.unlink()
    PageStore(out / PAGES).remove()
