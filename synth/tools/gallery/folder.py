"""The gallery's `--out` folder: which files in it the gallery wrote, so that it never touches anyone else's.

A build records every file it writes in `out/.synth-gallery.json` (written before the first file and again at
the end, also when the build stops early). A folder that is not empty and holds no such record was not made by
the gallery: `claim` refuses it unless forced, and even forced it refuses a folder holding a file the gallery
would overwrite (its page files, anything in full/, thumb/ or stats/) that an earlier build did not record.
A rebuild deletes only recorded files it did not write again."""
import json
import os
import re
from pathlib import Path

RECORD = ".synth-gallery.json"
TOP_FILES = ("index.html", "app.js", "style.css", "data.js", "data.js.tmp")
SUBFOLDERS = ("full", "thumb", "stats")
# a recorded path: one of TOP_FILES, or a plain file name in one of SUBFOLDERS (never '..', never deeper)
_RECORDED = re.compile(r"(?:full|thumb|stats)/[A-Za-z0-9_\-][A-Za-z0-9_.\-]*")


def recorded_files(out: Path) -> set[str] | None:
    """The files an earlier build recorded in `out` (plain relative paths only), or None without a record."""
    record = out / RECORD
    if record.is_symlink() or not record.is_file():
        return None
    try:
        files = json.loads(record.read_text(encoding="utf-8")).get("files")
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(files, list):
        return None
    return {f for f in files if isinstance(f, str) and (f in TOP_FILES or _RECORDED.fullmatch(f))}


def claim(out: Path, force: bool = False) -> set[str]:
    """Check that a gallery may be written to `out` and return the files an earlier build recorded there.
    ValueError (one line, nothing touched) for a file, for a non-empty folder the gallery did not make unless
    `force`, and for a folder holding a file the gallery would overwrite that it did not write."""
    if out.is_symlink() and not out.exists() or out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} exists and is not a folder")
    if not out.exists() or not any(out.iterdir()):
        return set()
    previous = recorded_files(out)
    if previous is None and (out / RECORD).exists():
        raise ValueError(f"--out {out} holds a {RECORD} that is not a gallery's record: choose another folder")
    if previous is None and not force:
        raise ValueError(f"--out {out} is not empty and was not made by synth gallery: choose an empty or new "
                         f"folder, or pass --force to write the gallery beside its files")
    previous = previous or set()
    for rel in _would_overwrite(out):
        if rel not in previous or (out / rel).is_symlink():
            raise ValueError(f"--out {out} holds {rel}, which the gallery would overwrite but did not write: "
                             f"move it or choose another folder")
    return previous


def _would_overwrite(out: Path) -> list[str]:
    """The entries of `out` where the gallery writes: its page files and everything in its subfolders."""
    found = [name for name in TOP_FILES if (out / name).exists() or (out / name).is_symlink()]
    for sub in SUBFOLDERS:
        folder = out / sub
        if folder.is_symlink() or folder.exists() and not folder.is_dir():
            found.append(sub)
        elif folder.is_dir():
            found += sorted(f"{sub}/{p.name}" if p.is_file() and not p.is_symlink() else f"{sub}/{p.name}/"
                            for p in folder.iterdir())
    return found


def write_record(out: Path, files: set[str]) -> None:
    """Record `files` (relative paths) as the gallery's own, atomically."""
    tmp = out / (RECORD + ".tmp")
    tmp.write_text(json.dumps({"generator": "synth gallery", "files": sorted(files)}, indent=0) + "\n",
                   encoding="utf-8")
    os.replace(tmp, out / RECORD)


def remove_stale(out: Path, previous: set[str], kept: set[str]) -> None:
    """Delete the files an earlier build recorded and this one did not write again (regular files only)."""
    for rel in sorted(previous - kept):
        path = out / rel
        if path.is_file() and not path.is_symlink():
            path.unlink()
