"""The generating commands' plumbing: the shared options checked, the run started (workers early), its
progress followed, its summary printed."""
import os
import time
from pathlib import Path

import typer

from synth.cli.checks import check_choice, check_out, fail
from synth.cli.progress import run_with_progress
from synth.core.errors import first_line

REJECTED = {"grounding": ("candidate query", "candidate queries")}   # what a rejection is (else an instance)
SHORT_FOLDER = 3    # exit status: a --pages folder gave fewer distinct screens than --n (all of them written)


def parse_levels(text: str) -> tuple[int, int]:
    """--difficulty as (lowest, highest) level: "3" or a range "2-4" within 1..5; one line and exit 1 otherwise."""
    parts = text.strip().split("-")
    if len(parts) > 2 or not all(p.strip().isdigit() for p in parts):
        fail(f"--difficulty must be a level 1..5 or a range such as 2-4, got {text!r}")
    lo, hi = int(parts[0]), int(parts[-1])
    if not (1 <= lo <= 5 and 1 <= hi <= 5):
        fail(f"--difficulty must be in 1..5, got {text}")
    if hi < lo:
        fail(f"--difficulty range must go up, got {text}")
    return lo, hi


def start_workers(workers: int, executor: str, levels: tuple[int, int], families: list[str] | None, n: int,
                  shard_size: int) -> None:
    """Start the local workers' server before this process imports the pipeline, so the two overlap; it warms
    the caches of the run's level (a range: every level) and families (None: all of them) alone. A run of one
    chunk (n samples in one shard and one tail chunk, synth.engine.plan) runs in this process: no server."""
    from synth.engine.config import TAIL_CHUNK
    if n <= min(shard_size, TAIL_CHUNK):
        return
    if executor == "local" and (workers or os.cpu_count() or 1) > 1:
        from synth.engine.workers import start_early
        start_early(levels[0] if levels[0] == levels[1] else None, families)


def generate(kind: str, levels: tuple[int, int], n: int, out: Path, seed: int, lang: str, platform: str,
             workers: int, shard_size: int, image_format: str, executor: str, ray_address: str | None,
             pages: Path | None, focus: Path | None, page_cache: bool = True, quiet: bool = False,
             **extra) -> None:
    """Validate the shared options, run, and print the summary (`extra`: the kind's RunConfig fields); exit 3
    (SHORT_FOLDER) when a --pages folder gives fewer distinct screens than --n."""
    from synth.engine.config import RunConfig
    from synth.engine.interrupts import Interrupted, interruptible
    from synth.engine.run import run

    if n < 1:
        fail(f"--n must be at least 1, got {n}")
    if seed < 0:
        fail(f"--seed must be a non-negative integer, got {seed}")
    if shard_size < 1:
        fail(f"--shard-size must be at least 1, got {shard_size}")
    if workers < 0:
        fail(f"--workers must be at least 0 (0: one per CPU), got {workers}")
    for name, value in (("lang", lang), ("platform", platform), ("image_format", image_format),
                        ("executor", executor)):
        check_choice(name, value)
    if pages is not None:
        from synth.screens.site import folder_problem
        if problem := folder_problem(pages):
            fail(problem)
        if platform not in ("web", "mix"):
            fail(f"--pages serves web pages: --platform must be web or mix, got {platform!r}")
    if focus is not None:
        from synth.tools.focus import focus_options
        try:
            extra.update(focus_options(focus, kind, extra["families"], tuple(range(levels[0], levels[1] + 1))))
        except ValueError as e:
            fail(str(e))
    created = not out.exists()
    check_out(out)
    cfg = RunConfig(kind=kind, difficulty=levels[0], difficulty_max=levels[1] if levels[1] > levels[0] else 0, n=n,
                    seed=seed, lang=lang, platform=platform, shard_size=shard_size, image_format=image_format,
                    pages=str(pages.resolve()) if pages else "", **extra)
    t0 = time.time()
    try:
        with interruptible():
            manifest = run_with_progress(run, cfg, out, workers or os.cpu_count() or 1, executor, ray_address,
                                         page_cache, quiet)
    except Interrupted as e:     # the run has cleaned up: a rerun resumes from the last finished shard
        typer.echo("synth: interrupted", err=True)
        raise typer.Exit(e.code) from None
    except OSError as e:
        fail(f"{e.strerror or e} ({e.filename or out})")
    except (ValueError, RuntimeError) as e:
        if created and not any(out.iterdir()):    # e.g. no usable page in --pages: leave nothing behind
            out.rmdir()
        fail(first_line(e))
    summary(manifest, time.time() - t0, out)
    views = manifest.get("pages", {}).get("views", {})
    if views.get("short"):     # exit status 3: the run wrote every distinct screen the folder has, fewer than --n
        count = views["pages"]
        typer.echo(f"--pages {pages} gives {views['screens']} distinct screens from {count} "
                   f"page{'s' if count > 1 else ''}: wrote {views['screens']} of the {n} samples asked", err=True)
        raise typer.Exit(SHORT_FOLDER)


def plural(count: int, noun: str) -> str:
    """ "1 shard", "2 shards"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def summary(manifest: dict, seconds: float, out: Path) -> None:
    """A short report: samples written, rejections by reason, shards, time."""
    totals = manifest["totals"] if "totals" in manifest else {"samples": 0, "shards": 0, "rejections": {}}
    rej = totals["rejections"]
    n = totals["samples"]
    shards = totals["shards"]
    typer.echo(f"wrote {plural(n, 'sample')} in {plural(shards, 'shard')} to {out} in {seconds:.1f} s "
               f"({n / max(seconds, 1e-9):.1f} samples/s)")
    rejected = sum(rej.values())
    one, many = REJECTED.get(manifest.get("config", {}).get("kind"), ("instance", "instances"))
    typer.echo(f"rejected {rejected} {one if rejected == 1 else many}" + (":" if rej else ""))
    for reason, count in sorted(rej.items(), key=lambda kv: -kv[1]):
        typer.echo(f"  {reason:40s} {count}")
