"""A run's plan is made as it is consumed: the first chunk of a run of any length comes at once, the chunks are
the ones an eager plan lists, and the page server gets the same render blocks, pool by pool, as a run that
listed every pool first."""
import itertools
import time

from synth.engine.config import RunConfig
from synth.engine.pagestore import block_specs
from synth.engine.plan import Todo, plan
from synth.engine.poolfeed import PoolFeed, pool_of
from synth.engine.pools import page_blocks
from synth.engine.workers import run_tasks


def test_todo_lists_the_shards_not_done():
    todo = Todo(7, frozenset({0, 3, 6}))
    assert list(todo) == [1, 2, 4, 5] and len(todo) == 4 and todo.last == 5 and todo
    assert not Todo(2, frozenset({0, 1})) and Todo(2, frozenset({0, 1})).last == -1


def test_a_huge_plan_starts_at_once():
    cfg = RunConfig(difficulty=3, n=10**11, shard_size=1)
    t0 = time.perf_counter()
    first = list(itertools.islice(plan(cfg, Todo(10**11)), 3))
    assert first == [(0, 0, 1), (1, 1, 2), (2, 2, 3)] and time.perf_counter() - t0 < 1.0
    last = Todo(10**11, frozenset({10**11 - 1}))
    assert last.last == 10**11 - 2


def test_a_lazy_plan_equals_the_eager_one():
    cfg = RunConfig(difficulty=3, n=4600, shard_size=700)
    done = frozenset({1, 2, 6})
    todo = Todo(7, done)
    assert list(plan(cfg, todo)) == list(plan(cfg, [s for s in range(7) if s not in done]))


class Server:
    """What PoolFeed tells the page server: the blocks it adds, in order."""

    def __init__(self):
        self.blocks, self.complete, self.first_unfinished = [], False, None

    def add(self, blocks, complete=False):
        self.blocks += blocks
        self.complete = self.complete or complete


def test_the_feed_hands_over_each_pools_blocks_before_its_chunks_and_drops_what_no_later_pool_shows():
    cfg = RunConfig(difficulty=3, n=4600, shard_size=500, platform="web")
    chunks = list(plan(cfg, Todo(10, frozenset({2, 3, 4, 5}))))     # samples 1000..3000 done: pools 1, 2
    pools = list(dict.fromkeys(pool_of(c) for c in chunks))
    assert pools == [0, 3, 4]
    server = Server()
    feed = PoolFeed(cfg, iter(chunks), server)
    feed.prime()
    assert server.first_unfinished == 0 and {p for p, _ in server.blocks} == {0, 3}
    expected, seen = [], {}
    for p in pools:      # the eager rule: each block with the first pool that shows it
        for key, pages in page_blocks(cfg, p):
            if key not in seen:
                seen[key] = p
                expected.append((p, block_specs(cfg, pages)))
    specs = {p: {s for _, pages in page_blocks(cfg, p) for s in block_specs(cfg, pages)} for p in pools}
    handed = []
    for chunk in feed:
        pool = pool_of(chunk)
        assert pool in {p for p, _ in server.blocks}, "a chunk handed out before its pool's pages"
        handed.append(chunk)
        written, dropped = feed.written()
        assert written == chunk
        later = [p for p in pools if p > pool]
        last_of_pool = chunk is chunks[-1] or pool_of(chunks[chunks.index(chunk) + 1]) != pool
        assert dropped == ((specs[pool] - (specs[later[0]] if later else set())) if last_of_pool else None)
    assert handed == chunks and server.blocks == expected and server.complete


def _counting(_):
    def task(item: int, emit) -> int:
        emit(b"%d" % item)
        return item
    return task


def test_workers_take_items_from_an_endless_iterator():
    results = run_tasks(2, _counting, (None,), itertools.count())
    assert [r for _, r in itertools.islice(results, 5)] == [0, 1, 2, 3, 4]
    results.close()


def test_the_page_server_takes_more_blocks_while_its_renderers_wait(tmp_path):
    """The run hands the server each pool's blocks (add) while its renderers poll for requests: a renderer
    that waited for a request holding the server's lock starved the run's thread (a 600-sample run stalled
    for half an hour, its workers blocked on a full pipe)."""
    import queue
    import threading

    from synth.engine.pagestore import PageServer, PageStore
    server = PageServer(PageStore(tmp_path), [], queue.Queue(), encoders=False, complete=False)
    server.start()          # two renderers, nothing to render: each waits for a request (no Chromium yet)
    time.sleep(0.3)
    feeder = threading.Thread(target=lambda: [server.add([]) or time.sleep(0.01) for _ in range(20)], daemon=True)
    feeder.start()
    feeder.join(timeout=10)          # ~0.2 s when the lock is free but for moments
    starved = feeder.is_alive()
    server.stop()
    assert not starved
