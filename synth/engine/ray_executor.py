"""Run shards as Ray tasks: each task generates one whole shard and writes it (temp file + rename) into the
output folder, which must be on a filesystem every node shares. Tasks are idempotent (same shard, same
bytes), so Ray may retry one whose worker died; the driver writes the manifest as shards complete."""
from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from synth.engine.config import RunConfig
from synth.engine.local import collect_chunk
from synth.engine.manifest import write_shard
from synth.engine.plan import plan

if TYPE_CHECKING:
    from synth.engine.generator import Generator

MAX_RETRIES = 3
IN_FLIGHT_PER_CPU = 2     # shard tasks submitted ahead per CPU of the cluster
_cached: tuple[RunConfig, Generator] | None = None


def generate_shard(cfg: RunConfig, out: str, shard: int, page_cache: bool = True) -> dict:
    """Generate and write one shard; returns its manifest entry. Reuses the worker's Generator (and its
    Chromium) across tasks of the same run. With `page_cache`, pages come from and go to the node's page
    cache (synth.engine.pagecache)."""
    from synth.engine.generator import Generator
    from synth.engine.pagecache import PageCache

    global _cached
    if _cached is None or _cached[0] != cfg:
        if _cached is not None:
            _cached[1].close()
        _cached = (cfg, Generator(cfg, cache=PageCache() if page_cache else None))
    gen = _cached[1]
    chunks = plan(cfg, [shard])
    return write_shard(cfg, Path(out), shard, (collect_chunk(gen, c) for c in chunks))


def ray_shards(cfg: RunConfig, out: Path, shards: Iterable[int], address: str | None,
               on_progress: Callable[[int, int], None] | None, page_cache: bool = True) -> Iterator[dict]:
    """Submit one task per shard, at most IN_FLIGHT_PER_CPU per CPU of the cluster at a time (so that a run of
    any length starts at once and the driver holds few), and yield manifest entries in shard order as they
    finish."""
    try:
        import ray
    except ImportError as e:
        raise RuntimeError("--executor ray needs Ray: pip install 'ray[default]'") from e
    if not ray.is_initialized():
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False,
                 include_dashboard=False, configure_logging=False)
    task = ray.remote(max_retries=MAX_RETRIES)(generate_shard)
    window = IN_FLIGHT_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", 1)))
    todo, order = iter(shards), deque()       # order: the shards submitted, not yet yielded
    pending: dict = {}
    finished: dict[int, dict] = {}
    while True:
        while len(order) < window and (shard := next(todo, None)) is not None:
            pending[task.remote(cfg, str(out.resolve()), shard, page_cache)] = shard
            order.append(shard)
        if not pending:
            return
        ready, _ = ray.wait(list(pending), num_returns=1)
        shard = pending.pop(ready[0])
        finished[shard] = ray.get(ready[0])
        if on_progress:
            info = finished[shard]
            on_progress(info["samples"], sum(info["rejections"].values()))
        while order and order[0] in finished:
            yield finished.pop(order.popleft())
