"""A run's progress on stderr: bars on a terminal, a line every few seconds otherwise."""
import sys
import time
from pathlib import Path


def run_with_progress(run, cfg, out: Path, workers: int, executor: str, ray_address: str | None,
                       page_cache: bool = True) -> dict:
    """`run` with progress bars on a terminal: one for the survey of a --pages folder, one for the samples
    (their rate counts the samples this call generates, not those a resumed run had)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    state = {"done": 0, "rejected": 0}
    tasks: dict[str, int] = {}
    columns = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TextColumn("{task.fields[rejected]}"), TimeRemainingColumn()]
    steps = cfg.kind == "episode"      # progress counts samples: an episode's are its steps, not known ahead
    with Progress(*columns, transient=False, disable=not sys.stderr.isatty()) as bar:
        def on_survey(done: int, total: int) -> None:
            if "survey" not in tasks:
                tasks["survey"] = bar.add_task("survey of --pages", total=total, rejected="", rate="")
            bar.update(tasks["survey"], completed=done)

        def on_progress(samples: int, rejected: int) -> None:
            if "run" not in tasks:         # first called once the survey is done: the rate counts from here
                tasks["run"] = bar.add_task(cfg.kind, total=None if steps else cfg.n, rejected="", rate="")
                state["t0"], state["resumed"] = time.time(), samples
            state["done"] += samples
            state["rejected"] += rejected
            rate = (state["done"] - state["resumed"]) / max(time.time() - state["t0"], 1e-6)
            bar.update(tasks["run"], completed=state["done"], rejected=f"rejected {state['rejected']}",
                       rate=f"{rate:.1f} samples/s")

        manifest = run(cfg, out, workers=workers, executor=executor, ray_address=ray_address,
                       on_progress=on_progress, on_survey=on_survey, page_cache=page_cache)
        if "run" in tasks:
            bar.update(tasks["run"], completed=state["done"] if steps else cfg.n)
    return manifest
