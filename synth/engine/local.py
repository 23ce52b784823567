"""The local executor: a run's chunks on worker processes of this machine (synth.engine.workers), their pages
rendered once by the main process's page server (synth.engine.pagestore) and shared through files."""
from __future__ import annotations

import ctypes
import itertools
import os
import queue
import select
import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from synth.engine.config import RunConfig
from synth.engine.manifest import ChunkResult, write_shard
from synth.engine.pagecache import PageCache
from synth.engine.pagestore import FOLDER as PAGES
from synth.engine.pagestore import PageServer, PageStore
from synth.engine.plan import Chunk, plan
from synth.engine.poolfeed import PoolFeed
from synth.engine.pools import POOL_SPAN
from synth.engine.shards import tar_sample
from synth.engine.workers import context, run_tasks

if TYPE_CHECKING:   # the main process of a local run does not import the generator; its workers do
    from synth.engine.generator import Generator

_LIBC = ctypes.CDLL(None)
POOL_KINDS = ("captcha", "episode")   # kinds of runs whose samples show pool pages (grounding renders its own)


def _setup_worker(cfg: RunConfig, main_pid: int, pages: Path, requests, scenes: tuple[str, bytes] | None) -> Callable:
    """Runs in a new worker process: its Generator (pages from the run's page server, 3D scenes from the main
    process's renderer at `scenes`, an address and key), as a task function."""
    from synth.engine.generator import Generator
    _die_with(main_pid)
    if scenes is not None:
        from synth.families.kit.render3d.host import use_host
        use_host(*scenes)
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


def run_local(cfg: RunConfig, chunks: Iterator[Chunk], workers: int, on_sample: Callable[[int], None] | None,
              out: Path, cache: PageCache | None = None) -> Iterator[tuple[Chunk, ChunkResult]]:
    """Chunks on local worker processes (or, for one worker or one chunk, in this process), yielded in plan
    order with their results. Their pages are rendered once, by the page server's threads in this process,
    and shared through files in `out`; the server starts before the pipeline is imported, so that Chromium
    starts and the first pages render meanwhile. Blocks of pages in `cache` are read from it, blocks rendered
    are stored in it. The chunks are read as they are needed: a run of any length starts at once."""
    first = list(itertools.islice(chunks, 2))
    chunks = itertools.chain(first, chunks)
    single = workers <= 1 or len(first) <= 1
    if single and cfg.kind not in POOL_KINDS:      # its own screens only: no page server
        yield from _in_process(cfg, None, chunks, on_sample, cache=cache)
        return
    requests = queue.Queue() if single else context().Queue()
    store = PageStore(out / PAGES)
    server = PageServer(store, [], requests, encoders=cfg.image_format == "jpg", cache=cache, complete=False)
    feed = PoolFeed(cfg, chunks, server)
    feed.prime()                    # the first pools' blocks render while this process imports the pipeline
    server.start()
    host = None
    try:
        if single:
            results = _in_process(cfg, PageStore(store.folder, requests), iter(feed), on_sample, server.check)
        else:
            if cfg.kind == "captcha":   # one Chromium for the workers' 3D scenes (started on the first one)
                from synth.families.kit.render3d.host import Host
                host = Host()
            scenes = (host.address, host.key) if host else None
            results = ((None, r) for r in run_tasks(workers, _setup_worker,
                                                    (cfg, os.getpid(), store.folder, requests, scenes),
                                                    iter(feed), on_sample, check=server.check))
        for _, result in results:
            chunk, finished = feed.written()
            yield chunk, result
            del result              # written by now: its samples' memory goes back to the system
            _return_free_memory()
            if finished is not None:     # the chunk was its pool's last
                store.drop(finished)
                server.forget(finished)
                server.first_unfinished = chunk[1] // POOL_SPAN + 1
    finally:
        server.stop()
        if host is not None:
            host.close()
        store.remove()


def _in_process(cfg: RunConfig, store: PageStore | None, chunks: Iterator[Chunk],
                on_sample: Callable[[int], None] | None, check: Callable[[], None] = lambda: None,
                cache: PageCache | None = None) -> Iterator[tuple[Chunk, ChunkResult]]:
    """The chunks made by a Generator of this process, its pages from the page server's `store` (None: its
    own Chromium, and `cache`)."""
    from synth.engine.generator import Generator  # the pipeline's imports, while the server renders
    gen = Generator(cfg, store, cache)
    try:
        for c in chunks:
            check()
            yield c, collect_chunk(gen, c, on_sample)
    finally:
        gen.close()


def local_shards(cfg: RunConfig, out: Path, shards: Iterable[int], workers: int,
                 on_progress: Callable[[int, int], None] | None, cache: PageCache | None = None) -> Iterator[dict]:
    """Generate shards on local worker processes; yields each shard's manifest entry when it is on disk.
    Progress is reported per sample, rejections per chunk."""
    results = run_local(cfg, plan(cfg, shards), workers, (lambda n: on_progress(n, 0)) if on_progress else None,
                        out, cache)
    try:
        for shard in shards:
            end = min(cfg.n, (shard + 1) * cfg.shard_size)
            yield write_shard(cfg, out, shard, _reported(_until(results, end), on_progress))
    finally:
        results.close()


def _until(results: Iterator[tuple[Chunk, ChunkResult]], end: int) -> Iterator[ChunkResult]:
    """The results of the chunks up to the one that ends at sample `end` (a shard's last), no further."""
    for chunk, result in results:
        yield result
        if chunk[2] == end:
            return


def _reported(results: Iterator[ChunkResult], on_progress) -> Iterator[ChunkResult]:
    """The results, reporting each chunk's rejections as it passes."""
    for samples, rejections in results:
        if on_progress:
            on_progress(0, sum(rejections.values()))
        yield samples, rejections
