"""Local worker processes. They fork from a server that imports the pipeline once (so workers start warm,
instead of each importing it as spawned interpreters do, and inherit no threads or browser from the
caller). Each takes one task at a time from the main process and streams its output back as it goes.

A worker that dies (killed, out of memory) is replaced and its task run again from the start; tasks are
deterministic, so the output does not change. An exception in a task is raised in the main process."""
import fcntl
import multiprocessing as mp
import os
import pickle
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing import forkserver
from multiprocessing.connection import wait
from typing import Any

MAX_DEATHS = 3            # times a task may lose its worker before the run gives up
AHEAD = 2                 # tasks queued at a worker
PIPE_BYTES = 1 << 20      # buffer of a worker's result pipe (Linux caps it at /proc/sys/fs/pipe-max-size)
CHECK_S = 1.0             # longest wait between calls of run_tasks' check
WARM_LEVEL, WARM_FAMILIES = "SYNTH_WARM_LEVEL", "SYNTH_WARM_FAMILIES"   # what the server warms (start_early)

_PIECE, _DONE, _ERROR = b"P", b"D", b"E"


def context():
    """The multiprocessing context local workers and their queues come from."""
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["synth.engine.forkserver"])
    return ctx


def start_early(level: int | None = None, families: list[str] | None = None) -> None:
    """Start the server now, so that its imports overlap the caller's own; it warms the caches of `level` and
    `families` alone (pipeline.warm_up; None: every level, every family)."""
    os.environ.pop(WARM_LEVEL, None)
    os.environ.pop(WARM_FAMILIES, None)
    if level is not None:
        os.environ[WARM_LEVEL] = str(level)
    if families is not None:
        os.environ[WARM_FAMILIES] = ",".join(families)
    context()
    forkserver.ensure_running()


def _work(tasks, results, setup: Callable, args: tuple) -> None:
    """A worker's loop: `setup(*args)` returns the task function, called as task(item, emit) for each item
    received; emit(bytes) streams a piece of output, the return value ends the task."""
    task = setup(*args)

    def emit(piece: bytes) -> None:
        results.send_bytes(_PIECE + piece)

    try:
        while (item := tasks.recv()) is not None:
            try:
                result = task(item, emit)
            except Exception as e:
                try:
                    message = _ERROR + pickle.dumps(e)
                except Exception:   # not picklable: keep its text
                    message = _ERROR + pickle.dumps(RuntimeError(f"{type(e).__name__}: {e}"))
                results.send_bytes(message)
            else:
                results.send_bytes(_DONE + pickle.dumps(result))
    except (BrokenPipeError, EOFError):     # the main process stopped listening: end quietly
        pass


class _Worker:
    """A worker process, the tasks sent to it (in order) and the pieces of the first one so far."""

    def __init__(self, setup: Callable, args: tuple) -> None:
        ctx = context()
        self.results, results = ctx.Pipe(duplex=False)
        tasks, self.tasks = ctx.Pipe(duplex=False)
        try:   # room for several samples, so that a worker rarely waits for the main process to read
            fcntl.fcntl(results.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        except (AttributeError, OSError):
            pass
        self.process = ctx.Process(target=_work, args=(tasks, results, setup, args), daemon=True)
        self.process.start()
        tasks.close()
        results.close()
        self.queued: deque[int] = deque()
        self.pieces: list[bytes] = []

    def stop(self, wait: bool = True) -> None:
        """End the worker: after its task if `wait` (else, or if it is still sending, at once)."""
        self.results.close()
        if wait:
            try:
                self.tasks.send(None)
            except OSError:
                pass
            self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.tasks.close()


class _Run:
    """The workers of one run_tasks call, the items still to send (read from the caller's iterable as they are
    needed, a few ahead) and those finished but not yet yielded."""

    def __init__(self, workers: int, setup: Callable, args: tuple, items: Iterable,
                 on_piece: Callable[[int], None] | None) -> None:
        self.setup, self.args, self.on_piece = setup, args, on_piece
        self._new = enumerate(items)
        self.items: dict[int, Any] = {}        # the items read and not yet finished, by their place
        self.todo: deque[int] = deque()        # places to send: dead workers' tasks first, then new ones
        self.finished: dict[int, tuple] = {}
        self.deaths: Counter = Counter()
        self._fill(workers)
        self.pool = [_Worker(setup, args) for _ in range(min(workers, len(self.todo)))]

    def _fill(self, count: int) -> None:
        """Read new items until `count` are waiting to be sent (or there are no more)."""
        while len(self.todo) < count and (item := next(self._new, None)) is not None:
            self.items[item[0]] = item[1]
            self.todo.append(item[0])

    def busy(self) -> bool:
        return bool(self.todo or self.finished or any(w.queued for w in self.pool))

    def send(self, w: _Worker) -> None:
        """Queue a task at `w`, and a second one while there are enough for every worker, so that the next task
        is there when the current one ends but the last few do not queue up behind one worker."""
        workers = len(self.pool)
        self._fill(workers)
        while self.todo and (not w.queued or (len(w.queued) < AHEAD and len(self.todo) >= workers)):
            w.queued.append(self.todo.popleft())
            w.tasks.send(self.items[w.queued[-1]])
            self._fill(workers)

    def serve(self, w: _Worker, ready: list) -> None:
        """Take one message from `w` if it sent one; else replace it if it died."""
        message = _receive(w) if w.results in ready else None
        if message is not None:
            self._take(w, message)
        elif w.process.sentinel in ready:
            self._replace(w)

    def _take(self, w: _Worker, message: bytes) -> None:
        kind, body = message[:1], memoryview(message)[1:]   # no copy of the piece
        if kind == _PIECE:
            w.pieces.append(body)
            if self.on_piece:
                self.on_piece(1)
        elif kind == _DONE:
            done = w.queued.popleft()
            self.finished[done] = (w.pieces, pickle.loads(body))
            del self.items[done]
            self.deaths.pop(done, None)
            w.pieces = []
            self.send(w)
        else:
            raise pickle.loads(body)

    def _replace(self, w: _Worker) -> None:
        """A dead worker's tasks go back to the front of the queue, run by a new worker (MAX_DEATHS at most)."""
        current = w.queued[0]
        self.deaths[current] += 1
        if self.deaths[current] >= MAX_DEATHS:
            raise RuntimeError(f"a worker process died {self.deaths[current]} times on task {self.items[current]} "
                               f"(exit code {w.process.exitcode})")
        if self.on_piece and w.pieces:
            self.on_piece(-len(w.pieces))
        self.todo.extendleft(reversed(w.queued))
        w.stop()
        self.pool[self.pool.index(w)] = new = _Worker(self.setup, self.args)
        self.send(new)


def _receive(w: _Worker) -> bytes | None:
    try:
        return w.results.recv_bytes()
    except (EOFError, OSError):
        return None       # it died; its sentinel says so too


def run_tasks(workers: int, setup: Callable, args: tuple, items: Iterable,
              on_piece: Callable[[int], None] | None = None,
              check: Callable[[], None] | None = None) -> Iterator[tuple[list[bytes], Any]]:
    """Run `items` on `workers` processes (see _work); yields (pieces, result) of each item in order. The
    items are read as workers need them (a few ahead), so that they may be an endless iterator.
    `on_piece(n)` is called as pieces arrive (n = -k when a dead worker's k pieces are thrown away);
    `check()`, at least every CHECK_S seconds, may raise to stop the run."""
    run = _Run(workers, setup, args, items, on_piece)
    next_out, complete = 0, False
    try:
        for w in run.pool:
            run.send(w)
        while run.busy():
            busy = [w for w in run.pool if w.queued]
            ready = wait([w.results for w in busy] + [w.process.sentinel for w in busy], timeout=CHECK_S)
            if check:
                check()
            for w in busy:
                run.serve(w, ready)
            while next_out in run.finished:
                yield run.finished.pop(next_out)
                next_out += 1
        complete = True
    finally:    # after an error, or when the caller stops early, the workers' work is of no use
        for w in run.pool:
            w.stop(wait=complete)
