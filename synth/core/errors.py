"""Errors every room shares: an instance that fails a check (Reject), redrawing until one passes, and
one-line reports."""
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
MAX_ATTEMPTS = 60      # redraws of one sample (or episode state) before the run gives up


class Reject(Exception):
    """An instance failed a check; `reason` is counted in the manifest (e.g. "counting.ambiguous_visibility")."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Exhausted(RuntimeError):
    """Every attempt of first_passing was rejected; `why` counts the reasons."""

    def __init__(self, message: str, why: Counter) -> None:
        super().__init__(message)
        self.why = why

    def __reduce__(self):    # a worker sends it to the main process pickled
        return type(self), (str(self), self.why)


def first_passing(attempt: Callable[[int], T], what: str, why: Counter | None = None,
                  attempts: int = MAX_ATTEMPTS) -> T:
    """`attempt(i)` for i = 0, 1, ... until one passes its checks (raises no Reject), whose result is returned;
    each rejection's reason is counted in `why`. Exhausted, naming `what`, when none of `attempts` passes."""
    why = Counter() if why is None else why
    for i in range(attempts):
        try:
            return attempt(i)
        except Reject as r:
            why[r.reason] += 1
    raise Exhausted(f"{what} passed verification in {attempts} attempts ({dict(why)})", why)


def first_line(error: BaseException) -> str:
    """An error's message cut to its first line (its type's name if it has none), for one-line reports."""
    lines = str(error).splitlines()
    return lines[0] if lines else type(error).__name__
