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
import threading
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from synth import __version__
from synth.pagestore import FOLDER as PAGES, PageServer, PageStore
from synth.config import POOL_SPAN, RunConfig, page_pool
from synth.scenes.pages import CONTROLS, PageSpec
from synth.shards import TMP_SUFFIX, ShardWriter, file_digest
from synth.workers import context

if TYPE_CHECKING:   # the main process of a local run does not import the pipeline; its workers do
    from synth.pipeline import Generator

log = logging.getLogger(__name__)
_LIBC = ctypes.CDLL(None)
MANIFEST = "manifest.json"

Chunk = tuple[int, int, int]      # (shard, first index, end index)
CHUNK = 100             # samples per task: small enough that workers finish together
PROGRESS_EVERY = 10     # samples per progress message
ChunkResult = tuple[Chunk, list[tuple[str, dict[str, bytes]]], Counter]


def shard_name(cfg: RunConfig, shard: int) -> str:
    return f"{cfg.kind}-{shard:06d}.tar"


def plan(cfg: RunConfig, shards: list[int]) -> list[Chunk]:
    """Chunks of the given shards, in order: at most CHUNK samples, never across a shard or a page pool."""
    chunks = []
    for s in shards:
        start, end = s * cfg.shard_size, min(cfg.n, (s + 1) * cfg.shard_size)
        i = start
        while i < end:
            j = min(end, i + CHUNK, (i // POOL_SPAN + 1) * POOL_SPAN)
            chunks.append((s, i, j))
            i = j
    return chunks


# --- worker side -------------------------------------------------------------------------------

_generator: Generator | None = None
_progress = None


def _init_worker(cfg: RunConfig, progress, main_pid: int, pages: Path, requests) -> None:
    global _generator, _progress
    import cv2

    from synth.pipeline import Generator
    _die_with(main_pid)
    cv2.setNumThreads(1)        # one process per core already
    logging.getLogger("albumentations").setLevel(logging.ERROR)
    _generator, _progress = Generator(cfg, PageStore(pages, requests)), progress


def _die_with(pid: int) -> None:
    """Kill this worker as soon as process `pid` (the main process) ends, e.g. by kill -9, instead of
    letting it finish a chunk nobody will write. Its Chromium then exits with it."""
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):   # not Linux >= 5.3: workers end when the pool's pipes close
        return

    def watch() -> None:
        select.select([fd], [], [])     # readable once the process has exited
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True).start()


def generate_chunk(chunk: Chunk, generator: Generator | None = None, progress=None) -> ChunkResult:
    """Generate the samples of one chunk (in the worker's own Generator unless one is given)."""
    gen = generator or _generator
    progress = progress if progress is not None else _progress
    _, start, end = chunk
    samples, rejections = [], Counter()
    done = rejected = 0            # not yet reported
    for index in range(start, end):
        key, members, rej = gen.sample(index)
        samples.append((key, members))
        rejections.update(rej)
        done, rejected = done + 1, rejected + sum(rej.values())
        if progress is not None and (done == PROGRESS_EVERY or index == end - 1):
            progress.put((done, rejected))
            done = rejected = 0
    _return_free_memory()
    return chunk, samples, rejections


def _return_free_memory() -> None:
    """Give the heap's free pages back to the system (glibc keeps them otherwise, so that a long run's
    footprint creeps up with fragmentation); a no-op without glibc."""
    trim = getattr(_LIBC, "malloc_trim", None)
    if trim is not None:
        trim(0)


# --- executors ---------------------------------------------------------------------------------

def run_local(cfg: RunConfig, chunks: list[Chunk], workers: int, progress, out: Path) -> Iterator[ChunkResult]:
    """Chunks on a pool of processes, yielded in plan order. The workers' pages are rendered once, by a page
    server thread with the run's only Chromium, and shared through files in `out`."""
    if workers <= 1 or len(chunks) <= 1:
        from synth.pipeline import Generator
        gen = Generator(cfg)
        try:
            for c in chunks:
                yield generate_chunk(c, gen, progress)
        finally:
            gen.close()
        return
    requests = context().Queue()
    store = PageStore(out / PAGES)
    pools = list(dict.fromkeys(c[1] // POOL_SPAN for c in chunks))
    server = PageServer(store, [(p, PageSpec(t, lang, v, mode, c)) for p in pools
                                for t, lang, v, mode in page_pool(cfg, p) for c in CONTROLS], requests)
    server.start()
    initargs = (cfg, progress, os.getpid(), store.folder, requests)
    try:
        with context().Pool(min(workers, len(chunks)), initializer=_init_worker, initargs=initargs) as pool:
            for i, result in enumerate(pool.imap(generate_chunk, chunks)):
                yield result
                pool_id = chunks[i][1] // POOL_SPAN     # results come in order: a pool ends with its last chunk
                if i + 1 == len(chunks) or chunks[i + 1][1] // POOL_SPAN != pool_id:
                    store.drop(pool_id)
                    server.first_unfinished = pool_id + 1
    finally:
        server.stop()
        store.remove()


# --- manifest and shards -----------------------------------------------------------------------

def config_dict(cfg: RunConfig) -> dict:
    d = dataclasses.asdict(cfg)
    d["families"] = list(cfg.families)
    return d


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
    for s in manifest["shards"]:
        total.update(s["rejections"])
    manifest["totals"] = {"samples": sum(s["samples"] for s in manifest["shards"]),
                          "shards": len(manifest["shards"]), "rejections": dict(sorted(total.items()))}
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
        on_progress: Callable[[int, int], None] | None = None) -> dict:
    """Generate the run into `out`, resuming a previous partial run of the same config; returns the manifest.
    `executor` is "local" (a process pool of `workers`) or "ray" (one task per shard on a Ray cluster)."""
    out.mkdir(parents=True, exist_ok=True)
    remove_temporaries(out)
    manifest = load_manifest(out, cfg)
    n_shards = -(-cfg.n // cfg.shard_size)
    done = finished_shards(out, manifest)
    manifest["shards"] = [s for s in manifest["shards"] if s["name"] in done]
    todo = [s for s in range(n_shards) if shard_name(cfg, s) not in done]
    if on_progress:
        on_progress(sum(s["samples"] for s in manifest["shards"]), 0)
    if executor == "ray":
        from synth.ray_executor import ray_shards
        infos = ray_shards(cfg, out, todo, ray_address, on_progress)
    else:
        infos = local_shards(cfg, out, todo, workers, on_progress)
    for info in infos:
        manifest["shards"].append(info)
        write_manifest(out, manifest)
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
        for _, samples, rej in results:
            for key, members in samples:
                writer.write(key, members)
            rejections.update(rej)
        info = writer.commit()
    info["rejections"] = dict(sorted(rejections.items()))
    return info


def local_shards(cfg: RunConfig, out: Path, shards: list[int], workers: int,
                 on_progress: Callable[[int, int], None] | None) -> Iterator[dict]:
    """Generate shards on a local process pool; yields each shard's manifest entry when it is on disk."""
    chunks = plan(cfg, shards)
    queue = context().Queue() if on_progress and workers > 1 and len(chunks) > 1 else None
    progress = _Direct(on_progress) if on_progress else None
    relay = None
    if queue is not None:     # workers report per sample; a thread forwards to the callback
        progress = queue
        relay = threading.Thread(target=_relay, args=(queue, on_progress), daemon=True)
        relay.start()
    results = run_local(cfg, chunks, workers, progress, out)
    try:
        for shard in shards:
            n_chunks = sum(1 for c in chunks if c[0] == shard)
            yield write_shard(cfg, out, shard, (next(results) for _ in range(n_chunks)))
    finally:
        results.close()
        if relay is not None:   # let the relay take the sentinel before the queue goes away
            queue.put(None)
            relay.join(timeout=10)


class _Direct:
    """Progress sink for in-process generation: calls the callback straight away."""

    def __init__(self, callback: Callable[[int, int], None]) -> None:
        self.callback = callback

    def put(self, item: tuple[int, int]) -> None:
        self.callback(*item)


def _relay(queue, callback) -> None:
    """Forward progress messages from worker processes until the None sentinel."""
    while True:
        try:
            item = queue.get()
        except (EOFError, OSError, TypeError, ValueError):   # the queue was closed under us
            return
        if item is None:
            return
        callback(*item)
