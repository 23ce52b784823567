"""Run plan, executors and manifest: turn a RunConfig into finished, verified shards.

Work is split into chunks (at most one page pool span, never across a shard); workers generate
chunks, the main process writes each shard in order to a temp file and renames it when complete,
then rewrites the manifest. A rerun skips shards the manifest already lists with a matching sha256."""
from __future__ import annotations

import ctypes
import dataclasses
import json
import logging
import os
import select
import signal
import tarfile
import threading
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from synth import __version__
from synth.engine.card import COUNTED, write_card
from synth.engine.config import POOL_SPAN, RunConfig, page_blocks
from synth.engine.survey import survey
from synth.engine.pagestore import FOLDER as PAGES, PageServer, PageStore, block_specs
from synth.engine.shards import TMP_SUFFIX, ShardWriter, file_digest, tar_sample
from synth.engine.workers import context, run_tasks

if TYPE_CHECKING:   # the main process of a local run does not import the pipeline; its workers do
    from synth.engine.generator import Generator

log = logging.getLogger(__name__)
_LIBC = ctypes.CDLL(None)
MANIFEST = "manifest.json"

Chunk = tuple[int, int, int]      # (shard, first index, end index)
CHUNK = 50              # samples per task (the main process holds those of chunks done ahead of their turn)
TAIL, TAIL_CHUNK = 200, 25   # the plan's last TAIL samples go in smaller tasks, so that workers finish together
ChunkResult = tuple[list[bytes], Counter]   # each sample's tar bytes, and the chunk's rejections


def shard_name(cfg: RunConfig, shard: int) -> str:
    return f"{cfg.kind}-{shard:06d}.tar"


def plan(cfg: RunConfig, shards: list[int]) -> list[Chunk]:
    """Chunks of the given shards, in order: at most CHUNK samples (TAIL_CHUNK near the end), never across a
    shard or a page pool."""
    chunks = []
    last = max((min(cfg.n, (s + 1) * cfg.shard_size) for s in shards), default=0)
    for s in shards:
        start, end = s * cfg.shard_size, min(cfg.n, (s + 1) * cfg.shard_size)
        i = start
        while i < end:
            size = TAIL_CHUNK if i >= last - TAIL else CHUNK
            j = min(end, i + size, (i // POOL_SPAN + 1) * POOL_SPAN)
            chunks.append((s, i, j))
            i = j
    return chunks


# --- worker side -------------------------------------------------------------------------------

def _setup_worker(cfg: RunConfig, main_pid: int, pages: Path, requests) -> Callable:
    """Runs in a new worker process: its Generator (pages from the run's page server), as a task function."""
    from synth.engine.generator import Generator
    _die_with(main_pid)
    gen = Generator(cfg, PageStore(pages, requests))
    return lambda chunk, emit: generate_chunk(gen, chunk, emit)


def _die_with(pid: int) -> None:
    """Kill this worker as soon as process `pid` (the main process) ends, e.g. by kill -9, instead of
    letting it finish a chunk nobody will write. Its Chromium then exits with it."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:          # it ended while this worker started
        os.kill(os.getpid(), signal.SIGKILL)
    except (AttributeError, OSError):   # not Linux >= 5.3: workers end when their pipes close
        return

    def watch() -> None:
        select.select([fd], [], [])     # readable once the process has exited
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True).start()


def generate_chunk(gen: Generator, chunk: Chunk, emit: Callable[[bytes], None]) -> Counter:
    """Generate the samples of one chunk, handing each one's tar bytes to `emit`; returns the rejections."""
    _, start, end = chunk
    rejections: Counter = Counter()
    for index in range(start, end):
        records, rej = gen.records(index)
        for key, members in records:
            emit(tar_sample(key, members))
        rejections.update(rej)
    _return_free_memory()
    return rejections


def collect_chunk(gen: Generator, chunk: Chunk, on_sample: Callable[[int], None] | None = None) -> ChunkResult:
    """A chunk's samples (tar bytes) and rejections, generated in this process."""
    samples: list[bytes] = []

    def emit(sample: bytes) -> None:
        samples.append(sample)
        if on_sample:
            on_sample(1)
    return samples, generate_chunk(gen, chunk, emit)


def _return_free_memory() -> None:
    """Give the heap's free pages back to the system (glibc keeps them otherwise, so that a long run's
    footprint creeps up with fragmentation); a no-op without glibc."""
    trim = getattr(_LIBC, "malloc_trim", None)
    if trim is not None:
        trim(0)


# --- executors ---------------------------------------------------------------------------------

def run_local(cfg: RunConfig, chunks: list[Chunk], workers: int, on_sample: Callable[[int], None] | None,
              out: Path) -> Iterator[ChunkResult]:
    """Chunks on local worker processes, yielded in plan order. The workers' pages are rendered once, by the
    page server's threads in the main process, and shared through files in `out`."""
    if workers <= 1 or len(chunks) <= 1:
        from synth.engine.generator import Generator
        gen = Generator(cfg)
        try:
            for c in chunks:
                yield collect_chunk(gen, c, on_sample)
        finally:
            gen.close()
        return
    requests = context().Queue()
    store = PageStore(out / PAGES)
    pools = list(dict.fromkeys(c[1] // POOL_SPAN for c in chunks))
    blocks = {}     # each render block with the first pool that shows it
    for p in pools:
        for key, pages in page_blocks(cfg, p):
            blocks.setdefault(key, (p, block_specs(cfg, pages)))
    specs = {p: {s for key, _ in page_blocks(cfg, p) for s in blocks[key][1]} for p in pools}
    server = PageServer(store, list(blocks.values()), requests, encoders=cfg.image_format == "jpg")
    server.start()
    try:
        results = run_tasks(workers, _setup_worker, (cfg, os.getpid(), store.folder, requests), chunks, on_sample,
                            check=server.check)
        for i, result in enumerate(results):
            yield result
            del result              # written by now: its samples' memory goes back to the system
            _return_free_memory()
            pool_id = chunks[i][1] // POOL_SPAN     # results come in order: a pool ends with its last chunk
            if i + 1 == len(chunks) or chunks[i + 1][1] // POOL_SPAN != pool_id:
                later = pools[pools.index(pool_id) + 1:]
                store.drop(specs[pool_id] - (specs[later[0]] if later else set()))
                server.first_unfinished = pool_id + 1
    finally:
        server.stop()
        store.remove()


# --- manifest and shards -----------------------------------------------------------------------

def config_dict(cfg: RunConfig) -> dict:
    """The config as the manifest stores it (tuples as lists)."""
    return json.loads(json.dumps(dataclasses.asdict(cfg)))


def load_manifest(out: Path, cfg: RunConfig) -> dict:
    """The manifest of a previous run of the same config, or a fresh one; ValueError if `out` holds another run."""
    path = out / MANIFEST
    if path.exists():
        try:
            manifest = json.loads(path.read_text())
        except json.JSONDecodeError as e:
            raise ValueError(f"{path} is not valid JSON ({e}); remove it or use another --out") from e
        if manifest.get("config") != config_dict(cfg):
            raise ValueError(f"{out} holds a different run (see {path}); use another --out or delete it")
        return manifest
    return {"schema": "synth-manifest/1", "version": __version__, "config": config_dict(cfg), "shards": []}


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


def run(cfg: RunConfig, out: Path, workers: int = 1, executor: str = "local", ray_address: str | None = None,
        on_progress: Callable[[int, int], None] | None = None,
        on_survey: Callable[[int, int], None] | None = None) -> dict:
    """Generate the run into `out`, resuming a previous partial run of the same config; returns the manifest.
    `executor` is "local" (a process pool of `workers`) or "ray" (one task per shard on a Ray cluster).
    A --pages run first surveys its folder (synth.engine.survey), before anything is written; `on_survey(done,
    total)` follows it page by page, `on_progress(samples, rejected)` the run sample by sample."""
    pages = None
    if cfg.pages:
        cfg, pages = survey(cfg, on_survey)
    out.mkdir(parents=True, exist_ok=True)
    remove_temporaries(out)
    manifest = load_manifest(out, cfg)
    if pages:
        manifest["pages"] = pages
    n_shards = -(-cfg.n // cfg.shard_size)
    done = finished_shards(out, manifest)
    manifest["shards"] = [s for s in manifest["shards"] if s["name"] in done]
    for s in manifest["shards"]:
        if "counts" not in s:        # kept from a run by a version that did not count labels
            s["counts"] = shard_counts(out / s["name"])
    todo = [s for s in range(n_shards) if shard_name(cfg, s) not in done]
    if on_progress:
        on_progress(sum(s["samples"] for s in manifest["shards"]), 0)
    if executor == "ray":
        from synth.engine.ray_executor import ray_shards
        infos = ray_shards(cfg, out, todo, ray_address, on_progress)
    else:
        infos = local_shards(cfg, out, todo, workers, on_progress)
    for info in infos:
        manifest["shards"].append(info)
        write_manifest(out, manifest)
    if not todo:                     # nothing was generated: the totals may predate the counts
        write_manifest(out, manifest)
    write_card(out, manifest)
    remove_temporaries(out)
    return manifest


def remove_temporaries(out: Path) -> None:
    """Delete leftovers of an interrupted run (temporary shard and manifest files, shared pages)."""
    for stale in out.glob("*" + TMP_SUFFIX):
        stale.unlink()
    PageStore(out / PAGES).remove()


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


def local_shards(cfg: RunConfig, out: Path, shards: list[int], workers: int,
                 on_progress: Callable[[int, int], None] | None) -> Iterator[dict]:
    """Generate shards on local worker processes; yields each shard's manifest entry when it is on disk.
    Progress is reported per sample, rejections per chunk."""
    chunks = plan(cfg, shards)
    results = run_local(cfg, chunks, workers, (lambda n: on_progress(n, 0)) if on_progress else None, out)
    try:
        for shard in shards:
            n_chunks = sum(1 for c in chunks if c[0] == shard)
            yield write_shard(cfg, out, shard, _reported((next(results) for _ in range(n_chunks)), on_progress))
    finally:
        results.close()


def _reported(results: Iterator[ChunkResult], on_progress) -> Iterator[ChunkResult]:
    """The results, reporting each chunk's rejections as it passes."""
    for samples, rejections in results:
        if on_progress:
            on_progress(0, sum(rejections.values()))
        yield samples, rejections
