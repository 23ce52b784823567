"""A local run's chunks on their way to the workers, with the page pools they show: each pool's render blocks
go to the page server when the run's chunks reach the pool before it (so the server renders one pool ahead),
and a pool's pages are let go when its last chunk is written. Only a few pools are held at a time, whatever
the run's length."""
from collections import deque
from collections.abc import Iterator

from synth.engine.config import RunConfig
from synth.engine.pagestore import PageServer, block_specs
from synth.engine.plan import Chunk
from synth.engine.pools import POOL_SPAN, page_blocks
from synth.screens.pages import PageSpec


def pool_of(chunk: Chunk) -> int:
    return chunk[1] // POOL_SPAN


class PoolFeed:
    """The chunks of a plan, read a pool ahead; `server` gets each pool's new blocks (those no earlier pool of
    the run shows) before any chunk of the pool is handed out."""

    def __init__(self, cfg: RunConfig, chunks: Iterator[Chunk], server: PageServer) -> None:
        self.cfg, self.server, self._chunks = cfg, server, chunks
        self._read: deque[Chunk] = deque()     # chunks read from the plan, not yet handed out
        self._out: deque[Chunk] = deque()      # chunks handed out whose result is not written yet
        self._specs: dict[int, set[PageSpec]] = {}    # pages of each pool registered and not finished
        self._last_pool, self._last_block = None, -1

    def __iter__(self) -> Iterator[Chunk]:
        while self._read or self._more():
            while pool_of(self._read[0]) == self._last_pool and self._more():    # up to the next pool's start
                pass
            self._out.append(self._read.popleft())
            yield self._out[-1]

    def prime(self) -> None:
        """Read the plan up to the start of its second pool, so that the server has the first two."""
        while (not self._read or pool_of(self._read[0]) == self._last_pool) and self._more():
            pass

    def _more(self) -> bool:
        """Read one more chunk from the plan, registering its pool if it starts one; False at the end."""
        chunk = next(self._chunks, None)
        if chunk is None:
            self.server.add([], complete=True)
            return False
        if pool_of(chunk) != self._last_pool:
            self._register(pool_of(chunk))
        self._read.append(chunk)
        return True

    def _register(self, pool: int) -> None:
        if self._last_pool is None:            # the server renders ahead from here
            self.server.first_unfinished = pool
        blocks = page_blocks(self.cfg, pool)
        specs = {key[1]: block_specs(self.cfg, pages) for key, pages in blocks}
        self.server.add([(pool, s) for b, s in specs.items() if b > self._last_block])
        self._specs[pool] = {spec for s in specs.values() for spec in s}
        self._last_pool, self._last_block = pool, max([self._last_block, *specs])

    def written(self) -> tuple[Chunk, set[PageSpec] | None]:
        """The oldest chunk handed out, now written, and the pages to drop if it was its pool's last chunk (None
        if it was not)."""
        chunk = self._out.popleft()
        following = self._out[0] if self._out else (self._read[0] if self._read or self._more() else None)
        pool = pool_of(chunk)
        if following is not None and pool_of(following) == pool:
            return chunk, None
        finished = self._specs.pop(pool)
        later = self._specs.get(pool_of(following), set()) if following is not None else set()
        return chunk, finished - later
