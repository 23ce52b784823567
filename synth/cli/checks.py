"""The command line's checks of options and folders: one line on stderr and exit 1 for what is wrong."""
import os
from pathlib import Path

import typer

from synth.screens import PLATFORMS

CHOICES = {"executor": ("local", "ray"), "lang": ("en", "zh", "mix"), "platform": (*PLATFORMS, "mix"),
           "image_format": ("jpg", "png")}


def fail(message: str) -> None:
    """Print one line to stderr and exit 1."""
    typer.echo(f"synth: error: {message}", err=True)
    raise typer.Exit(1)


def check_choice(name: str, value: str, choices: tuple[str, ...] | None = None) -> None:
    """`value` must be one of `choices` (default: CHOICES[name])."""
    choices = choices or CHOICES[name]
    if value not in choices:
        fail(f"--{name.replace('_', '-')} must be one of {', '.join(choices)}, got {value!r}")


def check_out(out: Path) -> None:
    """The output folder must be creatable and writable."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"cannot create output folder {out}: {e.strerror}")
    if not os.access(out, os.W_OK):
        fail(f"output folder {out} is not writable")


def check_dataset(dataset: Path) -> None:
    """`dataset` must be a folder holding manifest.json and .tar shards; one line and exit 1 otherwise."""
    from synth.engine.manifest import read_manifest
    from synth.tools.dataset import shard_paths

    if dataset.exists() and not dataset.is_dir():
        fail(f"dataset {dataset} is a file, not a dataset folder")
    try:
        read_manifest(dataset)
        shard_paths(dataset)
    except ValueError as e:
        fail(str(e))
    except OSError as e:    # FileNotFoundError from synth.tools.dataset carries its own message, no errno
        fail(f"cannot read dataset {dataset}: {e.strerror}" if e.errno else str(e))
