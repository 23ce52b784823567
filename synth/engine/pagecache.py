"""Rendered pages kept across runs on one machine: a render block's pages (pixels, widget boxes, harvested
elements), stored under a key of the block's specs and of everything that decides their pixels
(`render_fingerprint`), so that no run renders a block another run on this machine has rendered.

Where: $SYNTH_CACHE (default $XDG_CACHE_HOME/synth/pages, see synth.core.paths), capped at
$SYNTH_CACHE_MB megabytes (default 4096) by deleting the least recently used entries. One file per block,
written to a temporary name and renamed, so that several runs and workers can share the folder and a
killed writer leaves no torn entry; each file ends with a digest of the rest, checked on every read (a
damaged entry is deleted and rendered again). A page cached is byte for byte the page rendered, so a run
writes the same bytes with the cache, without it (`--no-page-cache`) or with a warm one.

A block is served only once two renders of it agreed: the first is kept as a candidate (not served), and a
later render with the same bytes makes it the entry. A render that came out otherwise (a rare paint race
under heavy load) is therefore never made permanent on a machine; the candidate is replaced by the later
render, which must be confirmed in turn."""
import dataclasses
import hashlib
import importlib
import json
import logging
import os
import threading
import time
import zlib
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import numpy as np

from synth.core import paths
from synth.screens.browser import CHROMIUM_ARGS, Browser, RenderedPage
from synth.screens.chromium import chromium_path
from synth.screens.pages import PageSpec
from synth.screens.widget_pages import render_block

MAGIC = b"synthpc2"      # the entry format and its rules; another is another key (2: confirmed entries)
SUFFIX = ".pages"
CANDIDATE = ".candidate"     # a block rendered once, not served until a second render agrees
DIGEST = 32              # bytes of the blake2b digest that ends an entry
LEVEL = 1                # zlib level of the pixels: a page's differences from the one before compress well
STALE_TMP_S = 3600       # a temporary file this old belongs to a writer that died
# What decides a page's pixels besides its spec, hashed by content: the rendering code and the data it reads
CODE = ("screens", "core")     # folders of the synth package
PACKAGES = ("playwright._repo_version", "PIL", "numpy", "cv2", "jinja2")   # modules with a version

log = logging.getLogger(__name__)


def default_folder() -> Path:
    """$SYNTH_CACHE, else the page folder of synth's cache folder."""
    return Path(os.environ.get("SYNTH_CACHE") or paths.CACHE / "pages")


def default_limit() -> int:
    """The size cap in bytes: $SYNTH_CACHE_MB megabytes (default 4096)."""
    return int(float(os.environ.get("SYNTH_CACHE_MB") or 4096) * 2**20)


def _hash_tree(h, root: Path, content: bool) -> None:
    """Feed every file under `root` (sorted) into `h`: path and content, or path, size and mtime."""
    if not root.exists():
        h.update(f"missing {root}\n".encode())
        return
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(f"{path.relative_to(root)}\n".encode())
        if content:
            h.update(path.read_bytes())
        else:
            st = path.stat()
            h.update(f"{st.st_size} {st.st_mtime_ns}\n".encode())


@lru_cache(maxsize=1)
def render_fingerprint() -> str:
    """A digest of everything besides a spec that decides a page's pixels: synth's rendering code, templates,
    assets and backgrounds (by content), the npm packages' lock file, the system's fonts and wallpapers (by
    size and time), the Chromium binary and the versions of the Python packages that draw or drive."""
    h = hashlib.blake2b(MAGIC, digest_size=16)
    package = Path(__file__).resolve().parents[1]
    for folder in CODE:
        _hash_tree(h, package / folder, True)
    for folder in (paths.TEMPLATES, paths.ASSETS, paths.BACKGROUNDS):
        _hash_tree(h, folder, True)
    lock = paths.NPM / ".package-lock.json"
    h.update(lock.read_bytes() if lock.is_file() else b"no npm lock")
    for folder in ("fonts", "backgrounds", "wallpapers"):
        _hash_tree(h, paths.VENDOR / folder, False)
    chromium = chromium_path()
    st = os.stat(chromium) if chromium else None
    h.update(f"{chromium} {st and st.st_size} {st and st.st_mtime_ns} {CHROMIUM_ARGS}\n".encode())
    for name in PACKAGES:
        module = importlib.import_module(name)
        h.update(f"{name} {getattr(module, '__version__', None) or getattr(module, 'version', None)}\n".encode())
    return h.hexdigest()


@lru_cache(maxsize=8)
def _site_fingerprint(site: str) -> str:
    """A digest of a --pages folder's files (by path, size and time): an edited page is another key."""
    h = hashlib.blake2b(digest_size=16)
    _hash_tree(h, Path(site), False)
    return h.hexdigest()


def block_key(specs: list[PageSpec]) -> str:
    """The cache key of a render block: its specs, in order, the files of the --pages folders they are served
    from and the render fingerprint."""
    text = json.dumps([dataclasses.asdict(s) for s in specs], sort_keys=True)
    sites = " ".join(_site_fingerprint(site) for site in sorted({s.site for s in specs if s.site}))
    return hashlib.blake2b(f"{render_fingerprint()}\n{sites}\n{text}".encode(), digest_size=20).hexdigest()


class PageCache:
    """Render blocks kept in `folder`, at most `limit` bytes in all (least recently used go first)."""

    def __init__(self, folder: Path | None = None, limit: int | None = None) -> None:
        self.folder = Path(folder) if folder else default_folder()
        self.limit = default_limit() if limit is None else limit

    def _path(self, key: str) -> Path:
        return self.folder / (key + SUFFIX)

    def get(self, specs: list[PageSpec]) -> list[RenderedPage] | None:
        """The block's pages, or None if not cached (or the entry is damaged, which deletes it)."""
        path = self._path(block_key(specs))
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            pages = _decode(data)
        except (ValueError, KeyError, TypeError, zlib.error):
            path.unlink(missing_ok=True)
            return None
        try:
            os.utime(path)          # most recently used
        except OSError:
            pass
        return pages

    def put(self, specs: list[PageSpec], pages: list[RenderedPage]) -> None:
        """Keep a block's pages (atomically): as the entry if they equal the block's candidate byte for byte,
        otherwise as its candidate; then evict the least recently used files over the limit. A failure to
        write (a full or read-only disk) leaves the cache as it was: the cache is optional."""
        key = block_key(specs)
        path, candidate = self._path(key), self.folder / (key + CANDIDATE)
        parts = _encode(pages)
        try:
            earlier = candidate.read_bytes()
        except OSError:
            earlier = None
        agreed = earlier is not None and earlier[-DIGEST:] == parts[-1]
        if earlier is not None and not agreed:
            log.warning("a render block came out otherwise than its earlier render; not cached yet (%s)",
                        specs[0].template)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as f:
                for part in parts:
                    f.write(part)
            os.replace(tmp, path if agreed else candidate)
            if agreed:
                candidate.unlink(missing_ok=True)
        except OSError:
            tmp.unlink(missing_ok=True)
            return
        self.evict()

    def evict(self) -> None:
        """Delete the least recently used entries until the rest fit the limit, and temporaries of writers
        that died."""
        entries, now = [], time.time()
        for path in self.folder.iterdir():
            try:
                st = path.stat()
            except OSError:       # deleted meanwhile by another run
                continue
            if path.name.endswith(".tmp"):
                if now - st.st_mtime > STALE_TMP_S:
                    path.unlink(missing_ok=True)
            elif path.suffix in (SUFFIX, CANDIDATE):
                entries.append((st.st_mtime, st.st_size, path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.limit:
                break
            path.unlink(missing_ok=True)
            total -= size


def cached_block(cache: PageCache | None, browser: Browser,
                 specs: list[PageSpec]) -> Iterator[tuple[PageSpec, RenderedPage | Exception]]:
    """render_block's pages, from the cache if it holds the block; otherwise rendered (each yielded as soon
    as it is) and then stored, unless a page failed."""
    pages = cache.get(specs) if cache is not None else None
    if pages is not None:
        yield from zip(specs, pages)
        return
    rendered = []
    for spec, page in render_block(browser, specs):
        rendered.append(page)
        yield spec, page
    if cache is not None and not any(isinstance(p, Exception) for p in rendered):
        cache.put(specs, rendered)


def _encode(pages: list[RenderedPage]) -> list[bytes]:
    """An entry: MAGIC, header length, JSON header, compressed pixels, digest of all that. A page of the same
    size as the one before is stored as its difference from it (widget variants differ in the widget only)."""
    blobs, meta, before = [], [], None
    for page in pages:
        rgb = np.ascontiguousarray(page.rgb, dtype=np.uint8)
        delta = before is not None and before.shape == rgb.shape
        blobs.append(zlib.compress((rgb - before if delta else rgb).data, LEVEL))
        fields = {f.name: getattr(page, f.name) for f in dataclasses.fields(page) if f.name not in ("spec", "rgb")}
        meta.append({"spec": dataclasses.asdict(page.spec), "shape": list(rgb.shape), "delta": delta,
                     "size": len(blobs[-1]), "fields": fields})
        before = rgb
    header = json.dumps(meta).encode()
    parts = [MAGIC, len(header).to_bytes(8, "little"), header, *blobs]
    h = hashlib.blake2b(digest_size=DIGEST)
    for part in parts:
        h.update(part)
    return [*parts, h.digest()]


def _decode(data: bytes) -> list[RenderedPage]:
    """The pages of an entry; ValueError if it is damaged or of another format."""
    body = memoryview(data)[:-DIGEST]
    if len(data) < len(MAGIC) + 8 + DIGEST or data[:len(MAGIC)] != MAGIC:
        raise ValueError("not a page cache entry")
    if hashlib.blake2b(body, digest_size=DIGEST).digest() != data[-DIGEST:]:
        raise ValueError("page cache entry damaged")
    start = len(MAGIC) + 8
    end = start + int.from_bytes(data[len(MAGIC):start], "little")
    pages, before = [], None
    for m in json.loads(bytes(body[start:end])):
        rgb = np.frombuffer(zlib.decompress(body[end:end + m["size"]]), np.uint8).reshape(m["shape"])
        end += m["size"]
        rgb = rgb + before if m["delta"] else rgb.copy()
        spec = m["spec"]
        spec = PageSpec(**{**spec, "viewport": tuple(spec["viewport"]) if spec["viewport"] else None})
        pages.append(RenderedPage(spec=spec, rgb=rgb, **m["fields"]))
        before = rgb
    return pages
