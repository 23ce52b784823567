"""Rendered pages shared by the local workers of a run: the main process renders each page once, in its own
Chromium; workers map the pixels from files.

The main process runs PageServer threads that render the pages of the run's pools (each widget variant is
a page) in order, ahead of the workers, and first of all any page a worker asks for. A worker asks through
a queue and waits for the page's files. Pages render to the same pixels wherever they are rendered
(tests/screens/test_browser.py), so the output equals a run whose workers render their own pages. A page's files
are deleted once the last pool that shows it is done."""
import collections
import dataclasses
import io
import json
import os
import pickle
import queue
import shutil
import threading
import time
from pathlib import Path

import numpy as np

from synth.core import jpeg
from synth.core.errors import first_line
from synth.engine.pagecache import PageCache, cached_block
from synth.screens.browser import Browser, RenderedPage
from synth.screens.pages import CONTROLS, PageSpec
from synth.screens.views import pool_spec

FOLDER = ".pages"    # inside the run's output folder
WAIT_S = 300         # longest a worker waits for a page before giving up
RENDERERS = 2        # page server threads, each with its Chromium


def block_specs(cfg, pages) -> list[PageSpec]:
    """The specs of a render block's pages (pools.page_blocks), each with every widget variant, in order."""
    return [pool_spec(page, c, cfg.pages) for page in pages for c in CONTROLS]


class PageStore:
    """Pages of one run, in `folder`; `requests` is the queue to the PageServer (workers' side)."""

    def __init__(self, folder: Path, requests=None) -> None:
        self.folder, self.requests = Path(folder), requests

    def _path(self, spec: PageSpec, create: bool = False) -> Path:
        """Where a page's files go (without suffix); `create` makes the folder."""
        if create:
            self.folder.mkdir(parents=True, exist_ok=True)
        name = spec.template.replace("/", "_").replace(".", "_")    # "pages/a.html": no dot, no suffix
        view = f"-{spec.view}" if spec.view else ""
        return self.folder / f"{name}-{spec.lang}-{spec.variant}-{spec.mode}-{spec.controls}{view}"

    def ready(self, spec: PageSpec) -> bool:
        return self._path(spec).with_suffix(".json").exists()

    def fetch(self, spec: PageSpec) -> RenderedPage:
        """The page `spec`, asking the server to render it first if need be."""
        path = self._path(spec)
        if not self.ready(spec):
            self.requests.put(spec)
            error = path.with_suffix(".error")
            deadline = time.monotonic() + WAIT_S
            while not self.ready(spec):
                if error.exists():
                    raise RuntimeError(error.read_text(encoding="utf-8"))
                if time.monotonic() > deadline:
                    raise RuntimeError(f"page {spec.template} was not rendered within {WAIT_S} s")
                time.sleep(0.002)
        return _read(path)

    def encoder(self, spec: PageSpec) -> jpeg.PageEncoder | None:
        """The JPEG encoder the server made for a ready page, if it made one."""
        path = self._path(spec).with_suffix(".enc")
        if not path.exists():
            return None
        with open(path, "rb") as f:
            return pickle.load(f)

    def write(self, spec: PageSpec, page: RenderedPage, encoder: jpeg.PageEncoder | None = None) -> None:
        """Store a page, and its JPEG encoder if given; its .json is written last and marks it ready."""
        _write(self._path(spec, create=True), page, encoder)

    def write_error(self, spec: PageSpec, message: str) -> None:
        _replace(self._path(spec, create=True).with_suffix(".error"), message.encode())

    def drop(self, specs) -> None:
        """Delete pages no pool still needs (workers that still map them keep their copy until they let go)."""
        for spec in specs:
            for suffix in (".json", ".npy", ".enc", ".error"):
                self._path(spec).with_suffix(suffix).unlink(missing_ok=True)

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class PageServer:
    """Threads of the main process that render pages into a PageStore, a render block at a time: the block
    of a requested page first, otherwise the next block of the run's pools (`blocks`: (pool, specs) in the
    order samples need them, each block with the first pool that shows it), at most one pool beyond the
    first unfinished one. Each of the `renderers` threads has a Chromium of its own: a block renders in a
    browser context of its own, to the same pixels in any browser, so two blocks can render at once, which
    the first pool needs (its workers wait for 5 blocks, and one Chromium leaves a core idle). With
    `encoders`, it also makes each page's JPEG encoder (synth.core.jpeg), so that workers neither encode whole
    pages nor read more of them than the part their samples change. Blocks in `cache` (a PageCache shared
    by the runs of this machine) are read from it instead of rendered, and blocks rendered are stored in it."""

    def __init__(self, store: PageStore, blocks: list[tuple[int, list[PageSpec]]], requests, encoders: bool,
                 renderers: int = RENDERERS, cache: PageCache | None = None, complete: bool = True) -> None:
        self.store, self.requests, self.encoders, self.cache = store, requests, encoders, cache
        self._ahead: collections.deque = collections.deque()
        self._block_of: dict[PageSpec, list[PageSpec]] = {}
        self._taken: set[PageSpec] = set()     # pages of the blocks a renderer has taken (rendered or rendering)
        self._lock = threading.Lock()          # over _ahead, _block_of and _taken; never held while waiting
        self.first_unfinished = blocks[0][0] if blocks else 0
        self.complete = complete               # False while more blocks may come (add)
        self.add(blocks)
        self.failure: Exception | None = None
        self._stopping = threading.Event()     # set by stop: renderers end after the page in hand
        self._threads = [threading.Thread(target=self._serve, name=f"page-server-{i}", daemon=True)
                         for i in range(renderers)]

    def add(self, blocks: list[tuple[int, list[PageSpec]]], complete: bool = False) -> None:
        """More blocks, after those given so far (a run hands them over pool by pool, before a worker can ask
        for one of their pages); `complete`: the last ones."""
        with self._lock:
            self._ahead.extend(blocks)
            self._block_of.update({spec: specs for _, specs in blocks for spec in specs})
            self.complete = self.complete or complete

    def forget(self, specs) -> None:
        """Pages no pool needs any more (dropped from the store): no longer remembered."""
        with self._lock:
            for spec in specs:
                self._block_of.pop(spec, None)
                self._taken.discard(spec)

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        """End the renderers after the page each has in hand (the rest of its block is not rendered)."""
        self._stopping.set()
        for _ in self._threads:
            self.requests.put(None)
        for thread in self._threads:
            thread.join(timeout=60)

    def _next(self):
        """The next block to render (a list of specs) and take it, None to stop, or "idle"."""
        with self._lock:
            ahead = self._ahead and self._ahead[0][0] <= self.first_unfinished + 1
            if ahead:
                try:
                    request = self.requests.get_nowait()
                except queue.Empty:
                    request = self._ahead.popleft()[1][0]
        if not ahead:     # wait for a request without the lock, which `add` and `forget` need meanwhile
            try:
                request = self.requests.get(timeout=0.2)
            except queue.Empty:
                return "idle"
        if request is None:
            return None
        with self._lock:
            block = self._block_of.get(request, [request])
            if block[0] in self._taken:     # rendered, or rendering in another thread
                return "idle"
            self._taken.update(block)
            return block

    def _serve(self) -> None:
        browser = Browser()     # Playwright's sync API belongs to the thread that starts it
        try:
            while not self._stopping.is_set() and (block := self._next()) is not None:
                if block == "idle":
                    continue
                for spec, page in cached_block(self.cache, browser, block):
                    if self._stopping.is_set():
                        break
                    if isinstance(page, Exception):   # the worker that waits for it raises it
                        self.store.write_error(spec, first_line(page))
                    else:
                        self.store.write(spec, page, jpeg.page_encoder(page.rgb, page.boxes) if self.encoders else None)
                if self.complete and not self._ahead:  # every page is taken: stop Chromium, the workers go on
                    browser.close()     # (a late request starts it again)
        except Exception as e:          # the store failed (a full disk, say): the run stops (see check)
            self.failure = e
        finally:
            browser.close()

    def check(self) -> None:
        """Raise the error that stopped the server, if one did."""
        if self.failure is not None:
            raise self.failure


def _replace(path: Path, *parts) -> None:
    """Write `parts` (bytes-like) to `path` through a temporary file and a rename."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:   # (file writes, so that a full disk raises ENOSPC rather than a short count)
        for part in parts:
            f.write(part)
    os.replace(tmp, path)


def _write(path: Path, page: RenderedPage, encoder: jpeg.PageEncoder | None) -> None:
    """Pixels as .npy, the encoder as .enc, then spec and boxes as .json, which marks the page ready."""
    rgb = np.ascontiguousarray(page.rgb)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, np.lib.format.header_data_from_array_1_0(rgb))
    _replace(path.with_suffix(".npy"), header.getvalue(), rgb.data)
    if encoder is not None:
        _replace(path.with_suffix(".enc"), pickle.dumps(encoder))
    meta = {"spec": dataclasses.asdict(page.spec), "boxes": page.boxes, "dpr": page.dpr, "covered": page.covered}
    _replace(path.with_suffix(".json"), json.dumps(meta).encode())


def _read(path: Path) -> RenderedPage:
    meta = json.loads(path.with_suffix(".json").read_text())
    spec = meta["spec"]
    spec = PageSpec(**{**spec, "viewport": tuple(spec["viewport"]) if spec["viewport"] else None})
    rgb = np.load(path.with_suffix(".npy"), mmap_mode="r")     # shared with the other workers' mappings
    return RenderedPage(spec=spec, rgb=rgb, boxes=meta["boxes"], dpr=meta["dpr"], covered=meta["covered"])
