"""Rendered pages shared by the local workers of a run, so that each page is rendered once.

Whichever worker needs a page first renders it (all its widget variants) under a file lock and writes the
pixels and boxes to the store; the others wait for the lock if it is being rendered, then map the files.
Pages render to the same pixels in every worker (tests/test_browser.py), so who renders one does not
change the output. Pages are grouped by pool, and a pool's folder is deleted once its samples are done."""
import dataclasses
import fcntl
import json
import os
import shutil
from pathlib import Path
from typing import Callable

import numpy as np

from synth.scenes.browser import RenderedPage
from synth.scenes.pages import PageSpec

FOLDER = ".pages"    # inside the run's output folder


class PageStore:
    """Pages of one run, in `folder`/<pool>/."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def variants(self, pool: int, spec: PageSpec, controls: tuple[str, ...],
                 render: Callable[[], list[RenderedPage]]) -> list[RenderedPage]:
        """The pages of `spec` with each of `controls`, rendered by `render` unless a worker already did."""
        folder = self.folder / str(pool)
        folder.mkdir(parents=True, exist_ok=True)
        name = _name(spec)
        paths = [folder / f"{name}-{c}" for c in controls]
        with open(folder / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)      # released when the file closes
            if not all(p.with_suffix(".json").exists() for p in paths):
                for path, page in zip(paths, render()):
                    _write(path, page)
        return [_read(p) for p in paths]

    def drop(self, pool: int) -> None:
        """Delete a finished pool's pages (workers that still map them keep their copy until they let go)."""
        shutil.rmtree(self.folder / str(pool), ignore_errors=True)

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def _name(spec: PageSpec) -> str:
    return f"{spec.template.replace('/', '_')}-{spec.lang}-{spec.variant}-{spec.mode}"


def _write(path: Path, page: RenderedPage) -> None:
    """Pixels as .npy, then spec and boxes as .json; each by rename, the .json last (it marks the page done)."""
    tmp = path.with_suffix(".npy.tmp")
    with open(tmp, "wb") as f:
        np.save(f, np.ascontiguousarray(page.rgb))
    os.replace(tmp, path.with_suffix(".npy"))
    meta = {"spec": dataclasses.asdict(page.spec), "boxes": page.boxes, "dpr": page.dpr}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(meta))
    os.replace(tmp, path.with_suffix(".json"))


def _read(path: Path) -> RenderedPage:
    meta = json.loads(path.with_suffix(".json").read_text())
    spec = meta["spec"]
    spec = PageSpec(**{**spec, "viewport": tuple(spec["viewport"]) if spec["viewport"] else None})
    rgb = np.load(path.with_suffix(".npy"), mmap_mode="r")     # shared with the other workers' mappings
    return RenderedPage(spec=spec, rgb=rgb, boxes=meta["boxes"], dpr=meta["dpr"])
