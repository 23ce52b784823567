"""A static QA gallery of a dataset: thumbnails, filters, label overlays and review flags, opened from file://.

`build_gallery(dataset, out)` reads the WebDataset shards through synth.tools.dataset's checked reader (one
sample in memory at a time) and writes a self-contained site (no server, no network):

    out/index.html, out/app.js, out/style.css   the viewer (vanilla JS, from synth/tools/gallery/static/)
    out/data.js                                 window.SYNTH_DATA = {"samples": [...], "meta": {...}}
    out/full/<key>.<ext>                        the screenshot bytes as stored in the shard
    out/full/<key>.frame000.<ext> …             an animated episode step's frames, as stored
    out/thumb/<key>.jpg                         a ~320 px wide JPEG thumbnail
    out/stats/<name>.png                        copies of the chart PNGs passed as `charts`
    out/.synth-gallery.json                     the files above, as the gallery's own (synth.tools.gallery.folder)

One record of `samples` (compact: sentinel answer keys, default step fields and the generator params are left out):

    {"key", "family", "difficulty", "lang", "platform", "kind", "template", "task", "instruction",
     "answer": {only the keys that hold a value}, "widget": [x0, y0, x1, y1] | null,
     "objects": [[id, role, label, [x0, y0, x1, y1], visible_fraction], ...],
     "actions": [{"type", "point" | "start", "end" | "text" | "duration"}, ...],
     "accept": {"order_matters", "partial_credit", "neutral_regions",
                "steps": [{"type", "region", "end_region" (only if it differs), "text", "tolerance",
                           "min_duration" (only if set)}]},
     "checks": {"passed", "items": [[name, value], ...]},
     "queries": [[kind, style, instruction, [x0, y0, x1, y1] | null (a refusal)], ...]   (grounding; else []),
     "episode": {"id", "step", "steps", "time", "reward", "return", "mistake", "taken": action} | null (episodes),
     "frames": [["full/<key>.frame000.jpg", time], ...]   (an animated run's frames; else []),
     "size": [width, height], "img": "full/<key>.jpg", "thumb": "thumb/<key>.jpg"}

Review flags live in the browser's localStorage; the viewer exports them as `flags.json`
(`{"flags": {"<key>": "<reason>"}}`), which `read_flags` reads back.
"""
from __future__ import annotations

import html
import io
import json
import os
import shutil
import tarfile
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from PIL import Image

from synth.engine.manifest import read_manifest
from synth.labels.spec import ANSWER_UNUSED  # answer values that mean "not used by this family"
from synth.tools.dataset import open_shard, parse_label, read_member, shard_members
from synth.tools.gallery.folder import SUBFOLDERS, TOP_FILES, claim, remove_stale, write_record

STATIC = Path(__file__).parent / "static"
ASSETS = ("app.js", "style.css")
THUMB_WIDTH = 320
THUMB_QUALITY = 80
IMAGE_EXTS = ("jpg", "jpeg", "png", "webp")
FLAG_REASONS = ("wrong label", "ambiguous", "unreadable", "ugly page", "other")
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

__all__ = ["build_gallery", "read_flags", "FLAG_REASONS"]


def build_gallery(dataset: Path, out: Path, max_samples: int | None = None, charts: Iterable[Path] = (),
                  force: bool = False) -> int:
    """Write a static review site for the shards in `dataset` to `out`; returns the number of samples in it.

    `out` is a new or empty folder, or one an earlier build made (synth.tools.gallery.folder: the build records
    its files and deletes only recorded ones); with `force`, any folder holding no file the gallery would
    overwrite.

    With `max_samples`, an evenly spread, deterministic subsample (sample indices floor(i * total / max_samples)).
    `charts` are PNG files copied to `out/stats/` and listed in the Stats view.
    Raises FileNotFoundError when `dataset` is missing or holds no `*.tar` shards (or a chart is missing),
    ValueError for a corrupt shard (named in the message), a non-PNG chart, max_samples < 1 or an `out` it may
    not write to."""
    dataset, out = Path(dataset), Path(out)
    if not dataset.is_dir():
        what = "is not a folder" if dataset.exists() else "does not exist"
        raise FileNotFoundError(f"dataset folder {dataset} {what}")
    shards = sorted(p for p in dataset.glob("*.tar") if p.is_file())
    if not shards:
        raise FileNotFoundError(f"no shards (*.tar) in dataset folder {dataset}")
    if max_samples is not None and max_samples < 1:
        raise ValueError(f"max_samples must be at least 1, got {max_samples}")
    charts = [Path(c) for c in charts]
    for c in charts:
        if not c.is_file():
            raise FileNotFoundError(f"chart {c} does not exist")
        with open(c, "rb") as f:
            if f.read(8) != _PNG_MAGIC:
                raise ValueError(f"chart {c} is not a PNG file")
    if out.resolve() == dataset.resolve():
        raise ValueError(f"write the gallery to a folder other than the dataset folder {dataset}")
    manifest = _read_manifest(dataset)

    selected = None
    total = None
    if max_samples is not None:
        total = sum(_count_samples(s) for s in shards)
        if max_samples < total:
            selected = {i * total // max_samples for i in range(max_samples)}

    previous = claim(out, force)
    out.mkdir(parents=True, exist_ok=True)
    write_record(out, previous | set(TOP_FILES))
    written: dict[str, set[str]] = {sub: set() for sub in SUBFOLDERS}
    try:
        n = _write_site(dataset, shards, out, selected, total, manifest, charts, written)
    except BaseException:       # what this build wrote is the gallery's, also when it stops early
        write_record(out, previous | _own(written))
        raise
    remove_stale(out, previous, _own(written))
    write_record(out, _own(written))
    return n


def _own(written: dict[str, set[str]]) -> set[str]:
    """The relative paths of the files a build wrote (its page files and those named in `written`)."""
    return {f"{sub}/{name}" for sub, names in written.items() for name in names} | set(TOP_FILES)


def _write_site(dataset: Path, shards: list[Path], out: Path, selected: set[int] | None, total: int | None,
                manifest: dict | None, charts: list[Path], written: dict[str, set[str]]) -> int:
    """Write the gallery's files into `out` (claimed), naming each in `written` as it goes."""
    for sub in SUBFOLDERS:
        (out / sub).mkdir(exist_ok=True)

    chart_paths = []
    for c in charts:
        name = c.name if c.name not in written["stats"] else f"{len(chart_paths)}-{c.name}"
        shutil.copyfile(c, out / "stats" / name)
        written["stats"].add(name)
        chart_paths.append(f"stats/{name}")

    data_tmp = out / "data.js.tmp"
    try:
        n, meta = _write_samples(dataset, shards, out, data_tmp, selected, total, manifest, chart_paths, written)
        if n == 0:
            raise ValueError(f"dataset folder {dataset} holds shards but no samples")
        os.replace(data_tmp, out / "data.js")
    finally:
        data_tmp.unlink(missing_ok=True)
    for name in ASSETS:
        shutil.copyfile(STATIC / name, out / name)
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    (out / "index.html").write_text(page.replace("{{title}}", html.escape(meta["title"])), encoding="utf-8")
    return n


def _write_samples(dataset: Path, shards: list[Path], out: Path, data_tmp: Path, selected: set[int] | None,
                   total: int | None, manifest: dict | None, chart_paths: list[str],
                   written: dict[str, set[str]]) -> tuple[int, dict]:
    """Stream the (selected) samples: full images, thumbnails and one data.js record each."""
    n = 0
    seen: set[str] = set()
    with open(data_tmp, "w", encoding="utf-8") as data, _Thumbnailer() as thumbs:
        data.write('window.SYNTH_DATA = {"samples": [\n')
        index = 0
        listed = {s.get("name"): s.get("samples") for s in (manifest or {}).get("shards") or [] if isinstance(s, dict)}
        for shard in shards:
            in_shard = 0
            for key, infos, read in _samples(shard):
                take = selected is None or index in selected
                index += 1
                in_shard += 1
                if not take:
                    continue
                if key in seen:
                    raise ValueError(f"corrupt dataset: sample {key} appears twice (second time in {shard.name})")
                seen.add(key)
                members = read(infos)
                label = _label(shard, key, members)
                ext = _image_ext(shard, key, members)
                image = members[ext]
                full = f"{key}.{'jpg' if ext == 'jpeg' else ext}"
                (out / "full" / full).write_bytes(image)
                thumbs.submit(shard, key, image, out / "thumb" / f"{key}.jpg")
                written["full"].add(full)
                written["thumb"].add(f"{key}.jpg")
                frames = []         # an animated episode step's frames, beside its screenshot
                for f in label.get("frames") or []:
                    if f.get("member") not in members:
                        raise ValueError(f"corrupt shard {shard.name}: sample {key} lacks its {f.get('member')}")
                    name = f"{key}.{f['member']}"
                    (out / "full" / name).write_bytes(members[f["member"]])
                    written["full"].add(name)
                    frames.append([f"full/{name}", f.get("time")])
                record = _record(label, key, f"full/{full}", f"thumb/{key}.jpg")
                record["frames"] = frames
                data.write(("," if n else "") + json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
                n += 1
            if isinstance(listed.get(shard.name), int) and listed[shard.name] != in_shard:
                raise ValueError(f"corrupt shard {shard.name}: it holds {in_shard} samples, "
                                 f"the manifest lists {listed[shard.name]}")
        meta = {"title": f"synth gallery: {dataset.name}", "dataset": str(dataset.resolve()), "samples": n,
                "total": total if total is not None else n, "charts": chart_paths,
                "reasons": list(FLAG_REASONS), "config": (manifest or {}).get("config"),
                "version": (manifest or {}).get("version")}
        data.write('],\n"meta": ' + json.dumps(meta, ensure_ascii=False) + "};\n")
    return n, meta


def read_flags(path: Path) -> dict[str, str]:
    """The flags of an exported `flags.json` ({"flags": {key: reason}}) as a dict key -> reason.
    Raises FileNotFoundError for a missing file and ValueError (one line) for a malformed one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"flags file {path} does not exist") from None
    except UnicodeDecodeError:
        raise ValueError(f"malformed flags file {path}: not UTF-8 text") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"malformed flags file {path}: not JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("flags"), dict):
        raise ValueError(f'malformed flags file {path}: expected {{"flags": {{"<key>": "<reason>", ...}}}}')
    flags = doc["flags"]
    for key, reason in flags.items():
        if not isinstance(reason, str):
            raise ValueError(f"malformed flags file {path}: the reason for {key!r} is not a string")
    return dict(flags)


# ---------------------------------------------------------------- reading shards

def _read_manifest(dataset: Path) -> dict | None:
    """The dataset's manifest, or None where it cannot be read (the gallery shows the samples anyway)."""
    try:
        doc = read_manifest(dataset)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def _count_samples(shard: Path) -> int:
    """Samples in a shard, from the member headers only (no image data is read)."""
    count, last = 0, None
    with open_shard(shard) as tar:
        for m in shard_members(shard, tar):
            key = m.name.split(".", 1)[0]
            if key != last:
                count, last = count + 1, key
    return count


def _samples(shard: Path) -> Iterator[tuple[str, dict[str, tarfile.TarInfo], _Reader]]:
    """(key, {ext: member}, read) per sample of a shard, in stored order (members of a sample are adjacent).
    Only headers are read while iterating; `read(members)` loads one sample's bytes when it is wanted."""
    key, members = None, {}
    with open_shard(shard) as tar:
        read = _Reader(shard, tar)
        for m in shard_members(shard, tar):
            k, ext = m.name.split(".", 1)
            if k != key:
                if key is not None:
                    yield key, members, read
                key, members = k, {}
            members[ext.lower()] = m
        if key is not None:
            yield key, members, read


class _Reader:
    def __init__(self, shard: Path, tar: tarfile.TarFile) -> None:
        self.shard, self.tar = shard, tar

    def __call__(self, members: dict[str, tarfile.TarInfo]) -> dict[str, bytes]:
        return {ext: read_member(self.shard, self.tar, m) for ext, m in members.items()}


def _label(shard: Path, key: str, members: dict[str, bytes]) -> dict:
    try:
        return parse_label(key, members.get("json"))
    except ValueError as e:
        raise ValueError(f"corrupt shard {shard.name}: {e}") from None


def _image_ext(shard: Path, key: str, members: dict[str, bytes]) -> str:
    for ext in IMAGE_EXTS:
        if ext in members:
            return ext
    raise ValueError(f"corrupt shard {shard.name}: sample {key} has no image ({', '.join(IMAGE_EXTS)})")


# ---------------------------------------------------------------- records

def _r(v):
    """Coordinates rounded to 0.1 px (ints stay ints)."""
    if isinstance(v, float):
        r = round(v, 1)
        return int(r) if r.is_integer() else r
    if isinstance(v, list):
        return [_r(x) for x in v]
    return v


def _record(label: dict, key: str, img: str, thumb: str) -> dict:
    g = label.get
    image = g("image") or {}
    answer = {k: v for k, v in (g("answer") or {}).items() if ANSWER_UNUSED.get(k, object()) != v}
    accept = g("accept") or {}
    steps = []
    for s in accept.get("steps") or []:
        step = {"type": s.get("type"), "region": _r(s.get("region"))}
        if s.get("end_region") not in (None, s.get("region")):
            step["end_region"] = _r(s["end_region"])
        for name, default in (("text", ""), ("tolerance", 0.0), ("min_duration", 0.0)):
            if s.get(name, default) != default:
                step[name] = s[name]
        steps.append(step)
    objects = [[o.get("id"), o.get("role"), o.get("label"), _r(o.get("bbox")), o.get("visible_fraction")]
               for o in g("objects") or []]
    checks = g("checks") or {}
    params = g("params") or {}
    return {
        "key": key, "family": g("family"), "difficulty": g("difficulty"), "lang": g("lang"),
        "platform": g("platform"), "kind": g("kind"), "template": g("template"), "task": params.get("task"),
        "instruction": g("instruction"), "answer": answer, "widget": _r(g("widget")), "objects": objects,
        "actions": [{k: _r(v) for k, v in a.items()} for a in g("actions") or []],
        "accept": {"order_matters": accept.get("order_matters"), "partial_credit": accept.get("partial_credit"),
                   "steps": steps, "neutral_regions": _r(accept.get("neutral_regions") or [])},
        "checks": {"passed": checks.get("passed"),
                   "items": [[c.get("name"), c.get("value")] for c in checks.get("items") or []]},
        "queries": [[q.get("kind"), q.get("style"), q.get("instruction"),
                     _r(q["accept"]["steps"][0]["region"]) if q.get("feasible") else None] for q in g("queries") or []],
        "episode": {**{k: ep[k] for k in ("id", "step", "steps", "time", "return")}, "reward": g("reward"),
                    "mistake": g("mistake"), "taken": {k: _r(v) for k, v in g("taken").items()}}
                   if (ep := g("episode")) else None,
        "size": [image.get("width"), image.get("height")], "img": img, "thumb": thumb,
    }


# ---------------------------------------------------------------- thumbnails

def _thumbnail(image: bytes) -> bytes:
    im = Image.open(io.BytesIO(image))
    w, h = im.size
    size = (THUMB_WIDTH, max(1, round(h * THUMB_WIDTH / w)))
    if w > THUMB_WIDTH:
        im.draft("RGB", size)      # JPEG: decode at a reduced scale, much faster
    im = im.convert("RGB")
    if im.width != size[0]:
        im = im.resize(size, Image.LANCZOS)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=THUMB_QUALITY, optimize=True)
    return buf.getvalue()


class _Thumbnailer:
    """Makes thumbnails on a few threads (Pillow releases the GIL), with a bounded number in flight."""

    def __init__(self) -> None:
        workers = max(1, min(4, os.cpu_count() or 1))
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="thumb")
        self._slots = threading.BoundedSemaphore(workers * 4)
        self._futures: list[Future] = []

    def submit(self, shard: Path, key: str, image: bytes, dest: Path) -> None:
        self._slots.acquire()
        self._futures.append(self._pool.submit(self._job, shard, key, image, dest))
        if len(self._futures) > 256:
            self._drain(wait_all=False)

    def _job(self, shard: Path, key: str, image: bytes, dest: Path) -> None:
        try:
            try:
                thumb = _thumbnail(image)
            except Exception as e:   # Pillow raises several types for undecodable data
                raise ValueError(f"corrupt shard {shard.name}: the image of {key} cannot be decoded ({e})") from None
            dest.write_bytes(thumb)
        finally:
            self._slots.release()

    def _drain(self, wait_all: bool) -> None:
        keep = []
        for f in self._futures:
            if wait_all or f.done():
                f.result()
            else:
                keep.append(f)
        self._futures = keep

    def __enter__(self) -> _Thumbnailer:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        try:
            if exc_type is None:
                self._drain(wait_all=True)
        finally:
            self._pool.shutdown(wait=True, cancel_futures=True)
