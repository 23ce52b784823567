"""Interrupts of a run: SIGINT and SIGTERM raise `Interrupted` in the main thread, so that the run's clean-up
(workers and Chromium stopped, temporary shards and shared pages removed) runs on the way out and the
command line reports one line and exits 128 + the signal's number (130, 143). A second signal during that
clean-up ends the process at once, with the same code."""
import logging
import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal; `code` is the exit code that reports it (128 + its number)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.code = 128 + signum


def _raise(signum: int, frame) -> None:
    for s in SIGNALS:
        signal.signal(s, _exit_now)
    # Playwright's event loops log the futures a stopped Chromium leaves failed, and the 3D renderer would log
    # the restart of a Chromium the same Ctrl-C stopped; nobody waits for either now
    for name in ("asyncio", "synth.families.kit.render3d.chromium"):
        logging.getLogger(name).disabled = True
    raise Interrupted(signum)


def _exit_now(signum: int, frame) -> None:
    os._exit(128 + signum)


@contextmanager
def interruptible() -> Iterator[None]:
    """While the block runs (in the main thread), SIGINT and SIGTERM raise Interrupted."""
    old = {s: signal.signal(s, _raise) for s in SIGNALS}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
