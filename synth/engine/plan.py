"""The plan of a run: its shards cut into chunks, the units of work a worker or a Ray task takes."""
from synth.engine.config import CHUNK, TAIL, TAIL_CHUNK, RunConfig
from synth.engine.pools import POOL_SPAN

Chunk = tuple[int, int, int]      # (shard, first index, end index)
__all__ = ["CHUNK", "TAIL", "TAIL_CHUNK", "Chunk", "plan", "shard_name"]


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
