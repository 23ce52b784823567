"""Exporters: a generated dataset as the files that training stacks and benchmarks read.

Each format is one module of this package with `KINDS` (the sample kinds it can express), `DESCRIPTION` and
a `Writer(out, options)` that takes one sample at a time (`add(label, image_name)`, the image already
written) and returns its part of the report from `close()`. `export()` checks everything
first, writes into a temporary folder next to `out` and renames it when complete, so a failed export creates
nothing."""
import importlib
import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from synth.engine.manifest import read_manifest
from synth.export.coords import CONVENTIONS, frame
from synth.tools.dataset import checked_label, iter_samples

FORMAT_NAMES = ("venus", "llamafactory", "swift", "trl", "screenspot", "verl")
TARGETS = ("point", "box")
IMAGE_EXTS = ("jpg", "png")     # the image members a sample may hold (--image-format)


@dataclass(frozen=True)
class Options:
    """What every exporter may be asked: the model's coordinate convention, grounding answers as a point or a
    box, the pixel budget of the resizing conventions, the name of the exported set, and whether the
    queries of a grounding sample become one multi-turn record or one record each."""
    coords: str = "ui-venus"
    target: str = "point"
    max_pixels: int | None = None
    name: str = "synth"
    split_queries: bool = False      # a grounding sample's queries as records of their own, not one dialogue

    def frame(self, label: dict):
        return frame(self.coords, label["image"]["width"], label["image"]["height"], self.max_pixels)


def format_module(name: str):
    """The exporter module of format `name`; ValueError naming the formats."""
    if name not in FORMAT_NAMES:
        raise ValueError(f"unknown format {name!r}; formats: {', '.join(FORMAT_NAMES)}")
    return importlib.import_module(f"{__name__}.{name}")


def formats_for(kind: str) -> list[str]:
    return [n for n in FORMAT_NAMES if kind in format_module(n).KINDS]


def check(datasets: list[Path], fmt: str, options: Options) -> list[str]:
    """The datasets' kinds, after checking that `fmt` can express each; ValueError otherwise."""
    module = format_module(fmt)
    if options.coords not in CONVENTIONS:
        raise ValueError(f"--coords must be one of {', '.join(CONVENTIONS)}, got {options.coords!r}")
    if options.target not in TARGETS:
        raise ValueError(f"--target must be one of {', '.join(TARGETS)}, got {options.target!r}")
    if options.max_pixels is not None and options.max_pixels < 28 * 28:
        raise ValueError(f"--max-pixels must be at least {28 * 28}, got {options.max_pixels}")
    kinds = []
    for d in datasets:
        manifest = read_manifest(d)
        config = manifest.get("config") if isinstance(manifest, dict) else None
        kind = config.get("kind") if isinstance(config, dict) else None
        if not isinstance(kind, str):
            raise ValueError(f"{d}: manifest.json records no config.kind")
        if kind not in module.KINDS:
            able = formats_for(kind)
            raise ValueError(f"format {fmt!r} cannot express {kind} samples ({d}); "
                             + (f"formats that can: {', '.join(able)}" if able else
                                f"no export format takes {kind} samples yet (they are read from the shards)"))
        kinds.append(kind)
    return kinds


def samples(datasets: list[Path]) -> Iterator[tuple[dict, str, bytes]]:
    """(label, image file name inside the export, image bytes) of every sample of the datasets, in order."""
    for d in datasets:
        for key, members in iter_samples(d):
            ext = next((e for e in sorted(members) if e in IMAGE_EXTS), None)
            if ext is None:
                raise ValueError(f"sample {key} of {d} has no image ({', '.join(IMAGE_EXTS)})")
            yield checked_label(key, members.get("json")), f"images/{key}.{ext}", members[ext]


def export(datasets: list[Path], out: Path, fmt: str, options: Options) -> dict:
    """Export `datasets` to `out` in format `fmt`; returns the report (also written as `out/export.json`)."""
    check(datasets, fmt, options)
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ValueError(f"--out {out} exists and is not an empty folder")
    tmp = out.with_name(f".{out.name}.partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        (tmp / "images").mkdir()
        writer, keys = format_module(fmt).Writer(tmp, options), set()
        for label, image_name, image in samples(datasets):
            if label["key"] in keys:
                raise ValueError(f"sample key {label['key']} occurs twice; export datasets of different runs")
            keys.add(label["key"])
            (tmp / image_name).write_bytes(image)
            writer.add(label, image_name)
        report = {"format": fmt, "options": vars(options), "samples": len(keys),
                  "datasets": [str(d) for d in datasets]} | writer.close()
        (tmp / "export.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if out.exists():
        out.rmdir()
    tmp.rename(out)
    return report


def write_jsonl(path: Path, records: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
