"""The `synth` command line: a thin layer over synth.engine.run and friends."""
import logging
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from synth.cli.checks import check_choice, check_dataset, check_out, fail
from synth.cli.generate import generate, parse_levels, start_workers
from synth.core.errors import first_line
from synth.screens import PLATFORMS

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Verified CAPTCHA and grounding samples for GUI agents, as WebDataset shards.")
log = logging.getLogger("synth")


def show_version(value: bool) -> None:
    """--version: print the version and exit."""
    if value:
        from synth import __version__
        typer.echo(f"synth {__version__}")
        raise typer.Exit()


@app.callback()
def options(version: Annotated[bool, typer.Option("--version", callback=show_version, is_eager=True,
                                                  help="print the version and exit")] = False) -> None:
    """Verified CAPTCHA and grounding samples for GUI agents, as WebDataset shards."""


# options shared by `captcha` and `grounding`
Difficulty = Annotated[str, typer.Option(help="1 (easiest) to 5 (hardest), or a range such as 2-4 (each sample "
                                                "draws its level)")]
Count = Annotated[int, typer.Option("--n", help="number of samples to write")]
Seed = Annotated[int, typer.Option(help="run seed: same seed, same bytes")]
Lang = Annotated[str, typer.Option(help="en, zh or mix")]
Platform = Annotated[str, typer.Option(help=f"{', '.join(PLATFORMS)} or mix")]
Workers = Annotated[int, typer.Option(help="worker processes (default: one per CPU)")]
ShardSize = Annotated[int, typer.Option(help="samples per shard")]
ImageFormat = Annotated[str, typer.Option(help="jpg or png")]
Executor = Annotated[str, typer.Option(help="local (process pool) or ray (one task per shard)")]
RayAddress = Annotated[str | None, typer.Option(help="address of an existing Ray cluster (default: start a local one)")]
NoPageCache = Annotated[bool, typer.Option("--no-page-cache", help="render every page, neither reading nor "
                                          "filling the page cache ($SYNTH_CACHE, docs/performance.md)")]
Focus = Annotated[Path | None, typer.Option(help="a `synth score --json` report: draw families (grounding: "
                                                 "instruction kinds) and levels in proportion to the model's "
                                                 "failures (README, \"Closing the loop\")")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="no progress on stderr (a terminal shows bars, a log "
                                                          "a line every few seconds)")]
Pages = Annotated[Path | None, typer.Option(help="a folder of .html pages (served as a site root) to use "
                                                    "instead of the built-in screens, each page in its views "
                                                    "(desktop, tablet, phone, dark, scrolled, zoomed); exit status "
                                                    "3 when it gives fewer distinct screens than --n")]


@app.command()
def captcha(
    difficulty: Difficulty = "3", n: Count = 1000,
    out: Annotated[Path, typer.Option(help="output folder for shards and manifest.json")] = Path("out/captcha"),
    seed: Seed = 0,
    family: Annotated[list[str] | None, typer.Option(help="family to include (repeat to mix); default: all")] = None,
    lang: Lang = "mix", platform: Platform = "mix", workers: Workers = 0, shard_size: ShardSize = 1000,
    image_format: ImageFormat = "jpg",
    infeasible: Annotated[float, typer.Option(help="share of samples with no valid target (answer: Skip), "
                                                   "for families that offer Skip")] = 0.1,
    executor: Executor = "local", ray_address: RayAddress = None, pages: Pages = None, focus: Focus = None,
    no_page_cache: NoPageCache = False, quiet: Quiet = False,
) -> None:
    """Generate verified CAPTCHA samples inside rendered web, phone-app and desktop screens."""
    levels = parse_levels(difficulty)
    start_workers(workers, executor, levels, family or None, n, shard_size)
    from synth.families import NAMES

    if not 0.0 <= infeasible <= 1.0:
        fail(f"--infeasible must be in 0..1, got {infeasible}")
    families = tuple(family or NAMES)
    unknown = [f for f in families if f not in NAMES]
    if unknown:
        fail(f"unknown family {unknown[0]!r}; known: {', '.join(NAMES)}")
    generate("captcha", levels, n, out, seed, lang, platform, workers, shard_size, image_format, executor,
             ray_address, pages, focus, page_cache=not no_page_cache, quiet=quiet, families=families,
             infeasible=infeasible)


@app.command()
def grounding(
    difficulty: Difficulty = "3", n: Count = 1000,
    out: Annotated[Path, typer.Option(help="output folder for shards and manifest.json")] = Path("out/grounding"),
    seed: Seed = 0, lang: Lang = "mix", platform: Platform = "mix", workers: Workers = 0,
    shard_size: ShardSize = 1000, image_format: ImageFormat = "jpg", executor: Executor = "local",
    ray_address: RayAddress = None, pages: Pages = None,
    queries: Annotated[int, typer.Option(help="queries per screenshot, each on another element (1: one query)")] = 8,
    refusal: Annotated[float, typer.Option(help="share of queries that name a control the screen lacks "
                                                "(answer: [-1, -1])")] = 0.1,
    degrade: Annotated[float, typer.Option(help="share of screenshots made smaller (0.5-0.9x) and JPEG-compressed "
                                                "(quality 30-70), labels moved with the pixels")] = 0.0,
    focus: Focus = None, quiet: Quiet = False,
) -> None:
    """Generate verified grounding samples: a rendered screen with queries on its elements, each with its exact box."""
    levels = parse_levels(difficulty)
    start_workers(workers, executor, levels, [], n, shard_size)
    if not 1 <= queries <= 32:
        fail(f"--queries must be in 1..32, got {queries}")
    if not 0.0 <= refusal < 1.0:
        fail(f"--refusal must be in 0..1 (below 1), got {refusal}")
    if not 0.0 <= degrade <= 1.0:
        fail(f"--degrade must be in 0..1, got {degrade}")
    generate("grounding", levels, n, out, seed, lang, platform, workers, shard_size, image_format, executor,
             ray_address, pages, focus, quiet=quiet, families=("element",), queries=queries, refusal=refusal,
             degrade=degrade)


@app.command()
def episodes(
    difficulty: Difficulty = "3",
    n: Annotated[int, typer.Option("--n", help="number of episodes to write (each gives one sample per step)")] = 100,
    out: Annotated[Path, typer.Option(help="output folder for shards and manifest.json")] = Path("out/episodes"),
    seed: Seed = 0,
    family: Annotated[list[str] | None, typer.Option(help="task or one-shot family to include (repeat to mix); "
                                                             "default: every interactive task")] = None,
    lang: Lang = "mix", platform: Platform = "mix", workers: Workers = 0,
    shard_size: Annotated[int, typer.Option(help="episodes per shard")] = 100,
    image_format: ImageFormat = "jpg",
    mistakes: Annotated[float, typer.Option(help="share of episodes that take one plausible wrong action, "
                                                 "then recover")] = 0.2,
    executor: Executor = "local", ray_address: RayAddress = None, focus: Focus = None,
    no_page_cache: NoPageCache = False, quiet: Quiet = False,
) -> None:
    """Generate expert trajectories through interactive CAPTCHAs: one sample per step (screenshot before the
    action, the action, its reward, the state's ground truth)."""
    levels = parse_levels(difficulty)
    start_workers(workers, executor, levels, family or None, n, shard_size)
    from synth.episodes import NAMES
    from synth.episodes.tasks import NAMES as INTERACTIVE

    if not 0.0 <= mistakes <= 1.0:
        fail(f"--mistakes must be in 0..1, got {mistakes}")
    families = tuple(family or INTERACTIVE)
    unknown = [f for f in families if f not in NAMES]
    if unknown:
        fail(f"unknown family {unknown[0]!r}; known: {', '.join(NAMES)}")
    generate("episode", levels, n, out, seed, lang, platform, workers, shard_size, image_format, executor,
             ray_address, None, focus, page_cache=not no_page_cache, quiet=quiet, families=families,
             mistakes=mistakes)



@app.command()
def verify(dataset: Annotated[Path, typer.Argument(help="dataset folder (shards + manifest.json)")]) -> None:
    """Re-check every shard against the manifest (sha256, counts) and every label against the contract."""
    from synth.tools.verify import verify_dataset

    check_dataset(dataset)
    try:
        n, problems = verify_dataset(dataset)
    except (FileNotFoundError, ValueError) as e:
        fail(str(e))
    for p in problems:
        typer.echo(p)
    if problems:
        fail(f"{len(problems)} problem(s) in {dataset}")
    typer.echo(f"ok: {n} samples in {dataset} match the manifest and the label contract")


@app.command()
def score(
    dataset: Annotated[Path, typer.Argument(help="dataset folder")],
    predictions: Annotated[Path, typer.Argument(help='JSONL file: {"key": ..., "output": ...} per line')],
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    rules: Annotated[str, typer.Option(help="synth (partial credit, neutral clicks) or venus (the "
                                            "VenusBench-CAPTCHA scorer: pass or fail)")] = "synth",
) -> None:
    """Score model outputs (UI-Venus-2 action text or pixel action lists) against the labels."""
    import json

    from synth.labels.reward import RULES
    from synth.tools.score import format_report, score_dataset

    check_choice("rules", rules, RULES)
    check_dataset(dataset)
    if not predictions.is_file():
        fail(f"predictions file {predictions} " + ("is not a file" if predictions.exists() else "does not exist"))
    try:
        result = score_dataset(dataset, predictions, rules=rules)
    except (FileNotFoundError, ValueError) as e:
        fail(str(e))
    if as_json:
        typer.echo(json.dumps(result, indent=1))
        return
    typer.echo(format_report(result))


@app.command()
def stats(
    dataset: Annotated[Path, typer.Argument(help="dataset folder")],
    charts: Annotated[Path | None, typer.Option(help="folder for PNG charts (default: DATASET/stats)")] = None,
) -> None:
    """Counts by family, level, language, platform and template; rejection rates; difficulty statistics."""
    from synth.tools.stats import collect, format_table, write_charts

    check_dataset(dataset)
    try:
        result = collect(dataset)
    except (FileNotFoundError, ValueError) as e:
        fail(str(e))
    folder = charts or dataset / "stats"
    try:
        written = write_charts(result, folder)
    except OSError as e:
        fail(f"cannot write --charts folder {folder}: {e.strerror}")
    typer.echo(format_table(result))
    typer.echo(f"\ncharts: {', '.join(str(p) for p in written)}")


@app.command()
def gallery(
    dataset: Annotated[Path, typer.Argument(help="dataset folder")],
    out: Annotated[Path, typer.Option(help="folder for the static site")] = Path("out/gallery"),
    max_samples: Annotated[int | None, typer.Option("--max", help="keep at most N samples, evenly spread")] = None,
    force: Annotated[bool, typer.Option(help="write into a non-empty --out that the gallery did not make (it "
                                             "still overwrites and deletes none of the files already there)")] = False,
) -> None:
    """Write a static QA gallery (opens from file://): filters, overlays, keyboard review, flags."""
    from synth.tools.gallery import build_gallery
    from synth.tools.stats import collect, write_charts

    if max_samples is not None and max_samples < 1:
        fail(f"--max must be at least 1, got {max_samples}")
    check_dataset(dataset)
    try:
        statistics = collect(dataset)   # reads every label: a corrupt shard fails before --out is created
    except (FileNotFoundError, ValueError) as e:
        fail(str(e))
    check_out(out)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            n = build_gallery(dataset, out, max_samples=max_samples, charts=write_charts(statistics, Path(tmp)),
                              force=force)
    except (FileNotFoundError, ValueError) as e:
        fail(str(e))
    typer.echo(f"gallery of {n} samples: {(out / 'index.html').resolve().as_uri()}")


@app.command()
def flagged(flags: Annotated[Path, typer.Argument(help="flags.json exported from the gallery")]) -> None:
    """List the keys a reviewer flagged, with their reasons (one per line, tab-separated)."""
    from synth.tools.gallery import read_flags

    try:
        found = read_flags(flags)
    except (FileNotFoundError, ValueError) as e:
        fail(str(e))
    except OSError as e:        # e.g. a folder
        fail(f"cannot read flags file {flags}: {e.strerror}")
    for key, reason in sorted(found.items()):
        typer.echo(f"{key}\t{reason}")


@app.command()
def export(
    datasets: Annotated[list[Path], typer.Argument(help="dataset folder(s); several are exported together")],
    out: Annotated[Path, typer.Option(help="folder to create for the export (must not hold anything)")],
    fmt: Annotated[str | None, typer.Option("--format", help="venus, llamafactory, swift, trl, screenspot or verl "
                                                              "(default: screenspot, grounding sets only)")] = None,
    coords: Annotated[str, typer.Option(help="the model's coordinate convention: ui-venus (0-999), qwen3-vl (0-1000), "
                                             "qwen2.5-vl or ui-tars (pixels of the resized image)")] = "ui-venus",
    target: Annotated[str, typer.Option(help="grounding answers as a point or a box")] = "point",
    max_pixels: Annotated[int | None, typer.Option(help="pixel budget of the qwen2.5-vl / ui-tars resize "
                                                           "(default 1003520 / 12845056)")] = None,
    name: Annotated[str, typer.Option(help="name of the exported set (file and dataset names)")] = "synth",
    split_queries: Annotated[bool, typer.Option(help="one single-turn record per grounding query, instead of one "
                                                     "conversation per screenshot with a turn per query")] = False,
) -> None:
    """Export datasets for a trainer or a benchmark: VenusBench-CAPTCHA records + train.jsonl, LLaMA-Factory,
    ms-swift or TRL conversations, or ScreenSpot-style grounding JSON (see README, "Training with synth")."""
    from synth.export import Options
    from synth.export import export as run_export

    options = Options(coords=coords, target=target, max_pixels=max_pixels, name=name, split_queries=split_queries)
    try:
        report = run_export(datasets, out, fmt or "screenspot", options)
    except (FileNotFoundError, ValueError) as e:
        unset = fmt is None and "cannot express" in str(e)
        fail(first_line(e) + (" (--format was not given: it defaults to screenspot)" if unset else ""))
    except OSError as e:
        fail(f"{e.strerror or e} ({e.filename or out})")
    lossy = {k: v for k, v in report.get("lossy", {}).items() if v}
    typer.echo(f"wrote {report['samples']} samples as {report['format']} to {out}"
               + (f"; lossy: {lossy}" if lossy else "")
               + (f"; skipped: {report['skipped']}" if report.get("skipped") else ""))


@app.command("screens")
def list_screens(as_json: Annotated[bool, typer.Option("--json", help="print the list as JSON")] = False) -> None:
    """List the screen archetypes: name, platform, category, the design systems they are drawn in."""
    import json
    from collections import Counter

    from synth.screens import catalogue

    rows = catalogue()
    if as_json:
        typer.echo(json.dumps(rows, indent=1, ensure_ascii=False))
        return
    for r in rows:
        typer.echo(f"{r['name']:32s} {r['platform']:8s} {r['category']:14s} {', '.join(r['systems'])}")
    per_platform = Counter(r["platform"] for r in rows)
    typer.echo(f"{len(rows)} archetypes ({', '.join(f'{p} {n}' for p, n in sorted(per_platform.items()))}), "
               f"{len({r['category'] for r in rows})} categories")


@app.command("families")
def list_families(as_json: Annotated[bool, typer.Option("--json", help="print the list as JSON")] = False) -> None:
    """List the CAPTCHA families: name, answer kinds, description, and (with --json) the benchmark and
    vendor CAPTCHA types each covers."""
    import json

    from synth.families import catalogue

    rows = catalogue()
    if as_json:
        typer.echo(json.dumps(rows, indent=1, ensure_ascii=False))
        return
    for r in rows:
        typer.echo(f"{r['name']}\t{','.join(r['answers'])}\t{r['description']}")
    covered = {c for r in rows for c in r["covers"]}
    typer.echo(f"{len(rows)} families covering {len(covered)} benchmark and vendor CAPTCHA types")


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code (usable from tests)."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        code = app(args=argv, prog_name="synth", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except typer.Exit as e:
        return e.exit_code
    except KeyboardInterrupt:
        typer.echo("synth: interrupted", err=True)
        return 130
    except Exception as e:  # usage errors from the option parser: one line, no traceback
        if hasattr(e, "format_message") and hasattr(e, "exit_code"):
            usage_error(e)
            return e.exit_code
        raise


def usage_error(e: Exception) -> None:
    """Report an option parser error in one line. `synth` alone raises one whose message is the help (empty
    when rich has printed it already), as click's no_args_is_help does."""
    message = e.format_message()
    if type(e).__name__ == "NoArgsIsHelpError":     # the name typer itself checks (click < 8.2 lacks the class)
        if message.strip():
            typer.echo(message)
    else:
        typer.echo(f"synth: error: {message}", err=True)


def entry() -> None:
    """Console-script entry: exit with main()'s code."""
    sys.exit(main())
