"""A run's progress on stderr: bars on a terminal, a line every few seconds otherwise (logs of batch jobs, CI,
nohup), nothing with --quiet."""
import os
import sys
import time
from pathlib import Path

import typer

LINE_SECONDS = 5.0   # without a terminal: a progress line this often (the first after as long), and one at the end


class Counts:
    """The samples and rejections of a run so far, and its rate since the run's first report (a resumed run's
    samples count as done, not in the rate)."""

    def __init__(self, total: int | None):
        self.total, self.done, self.rejected, self.t0, self.resumed = total, 0, 0, 0.0, None

    def add(self, samples: int, rejected: int) -> None:
        if self.resumed is None:
            self.t0, self.resumed = time.time(), samples
        self.done += samples
        self.rejected += rejected

    def rate(self) -> float:
        return (self.done - (self.resumed or 0)) / max(time.time() - self.t0, 1e-6)

    def eta(self) -> str:
        rate = self.rate()
        if self.total is None or rate <= 0:
            return "ETA unknown"
        seconds = int((self.total - self.done) / rate)
        return f"ETA {seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class LogLines:
    """Progress as plain lines on stderr, one per LINE_SECONDS and one when the run is done (a run that fails
    within LINE_SECONDS prints its error line alone)."""

    def __init__(self, kind: str, counts: Counts, seconds: float = LINE_SECONDS):
        self.kind, self.counts, self.seconds, self.last = kind, counts, seconds, time.monotonic()

    def survey(self, done: int, total: int) -> None:
        if self._due(False):
            typer.echo(f"synth: survey of --pages: {done}/{total} pages", err=True)

    def progress(self, final: bool = False) -> None:
        if self._due(final):
            c = self.counts
            of = f"/{c.total}" if c.total is not None else ""
            typer.echo(f"synth: {self.kind} {c.done}{of} samples, {c.rate():.1f} samples/s, rejected {c.rejected}"
                       f", {'done' if final else c.eta()}", err=True)

    def _due(self, always: bool) -> bool:
        now = time.monotonic()
        if always or now - self.last >= self.seconds:
            self.last = now
            return True
        return False


def line_seconds() -> float:
    """Seconds between progress lines: $SYNTH_PROGRESS_SECONDS if it is a positive number, else LINE_SECONDS."""
    try:
        seconds = float(os.environ.get("SYNTH_PROGRESS_SECONDS", LINE_SECONDS))
    except ValueError:
        return LINE_SECONDS
    return seconds if seconds > 0 else LINE_SECONDS


def run_with_progress(run, cfg, out: Path, workers: int, executor: str, ray_address: str | None,
                      page_cache: bool = True, quiet: bool = False) -> dict:
    """`run` with its progress on stderr: bars on a terminal (one for the survey of a --pages folder, one for
    the samples), lines every few seconds otherwise; nothing when `quiet`."""
    steps = cfg.kind == "episode"      # progress counts samples: an episode's are its steps, not known ahead
    counts = Counts(None if steps else cfg.n)
    if quiet:
        return run(cfg, out, workers=workers, executor=executor, ray_address=ray_address, page_cache=page_cache)
    if not sys.stderr.isatty():
        lines = LogLines(cfg.kind, counts, line_seconds())

        def on_line(samples: int, rejected: int) -> None:
            counts.add(samples, rejected)
            lines.progress()
        manifest = run(cfg, out, workers=workers, executor=executor, ray_address=ray_address,
                       on_progress=on_line, on_survey=lines.survey, page_cache=page_cache)
        lines.progress(final=True)
        return manifest
    return _run_with_bars(run, cfg, out, workers, executor, ray_address, page_cache, counts)


def _run_with_bars(run, cfg, out: Path, workers: int, executor: str, ray_address: str | None, page_cache: bool,
                   counts: Counts) -> dict:
    """`run` with rich progress bars on the terminal."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    tasks: dict[str, int] = {}
    columns = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TextColumn("{task.fields[rejected]}"), TimeRemainingColumn()]
    with Progress(*columns, transient=False) as bar:
        def on_survey(done: int, total: int) -> None:
            if "survey" not in tasks:
                tasks["survey"] = bar.add_task("survey of --pages", total=total, rejected="", rate="")
            bar.update(tasks["survey"], completed=done)

        def on_progress(samples: int, rejected: int) -> None:
            if "run" not in tasks:         # first called once the survey is done: the rate counts from here
                tasks["run"] = bar.add_task(cfg.kind, total=counts.total, rejected="", rate="")
            counts.add(samples, rejected)
            bar.update(tasks["run"], completed=counts.done, rejected=f"rejected {counts.rejected}",
                       rate=f"{counts.rate():.1f} samples/s")

        manifest = run(cfg, out, workers=workers, executor=executor, ray_address=ray_address,
                       on_progress=on_progress, on_survey=on_survey, page_cache=page_cache)
        if "run" in tasks:
            bar.update(tasks["run"], completed=counts.done if counts.total is None else counts.total)
    return manifest
