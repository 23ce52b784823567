"""The plan of a run: its shards cut into chunks, the units of work a worker or a Ray task takes. A plan is
made as it is consumed, so that a run of any --n starts at once with memory that does not grow with it."""
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from synth.engine.config import CHUNK, TAIL, TAIL_CHUNK, RunConfig
from synth.engine.pools import POOL_SPAN

Chunk = tuple[int, int, int]      # (shard, first index, end index)
__all__ = ["CHUNK", "TAIL", "TAIL_CHUNK", "Chunk", "Todo", "plan", "shard_index", "shard_name"]


def shard_name(cfg: RunConfig, shard: int) -> str:
    return f"{cfg.kind}-{shard:06d}.tar"


def shard_index(name: str) -> int | None:
    """The shard number in a shard's file name (shard_name), None if it has none."""
    number = name.removesuffix(".tar").rpartition("-")[2]
    return int(number) if number.isdigit() else None


@dataclass(frozen=True)
class Todo:
    """The shards 0 .. count-1 of a run but those `done`, in order, without listing them (a run may have
    billions)."""
    count: int
    done: frozenset[int] = frozenset()

    def __iter__(self) -> Iterator[int]:
        return (s for s in range(self.count) if s not in self.done)

    def __len__(self) -> int:
        return self.count - sum(1 for s in self.done if 0 <= s < self.count)

    def __bool__(self) -> bool:
        return len(self) > 0

    @property
    def last(self) -> int:
        """The last shard to do (-1: none)."""
        s = self.count - 1
        while s in self.done:
            s -= 1
        return s


def plan(cfg: RunConfig, shards: Iterable[int]) -> Iterator[Chunk]:
    """Chunks of the given shards (in increasing order), made as they are taken: at most CHUNK samples
    (TAIL_CHUNK in the last TAIL samples of the last shard's end), never across a shard or a page pool."""
    last_shard = shards.last if isinstance(shards, Todo) else max(shards, default=-1)
    last = min(cfg.n, (last_shard + 1) * cfg.shard_size)
    for s in shards:
        start, end = s * cfg.shard_size, min(cfg.n, (s + 1) * cfg.shard_size)
        i = start
        while i < end:
            size = TAIL_CHUNK if i >= last - TAIL else CHUNK
            j = min(end, i + size, (i // POOL_SPAN + 1) * POOL_SPAN)
            yield s, i, j
            i = j
