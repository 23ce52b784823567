"""The page cache: a cached block is the rendered block, served only once two renders agreed; damaged or torn
entries are never served, the least recently used entries go first, and a run writes the same bytes cold, warm
and without the cache."""
import dataclasses
import os
import time

import numpy as np
import pytest

from synth.cli import main
from synth.engine import pagecache
from synth.engine.pagecache import PageCache, block_key, cached_block
from synth.screens.browser import Browser, RenderedPage
from synth.screens.pages import CONTROLS, PageSpec
from tests.conftest import read_samples


def fake_block(variant: int, size: int = 64) -> tuple[list[PageSpec], list[RenderedPage]]:
    """A block of three widget variants of one page, with pixels drawn from `variant` (no Chromium: the
    format and the bookkeeping are under test here; real renders in test_cached_block_is_the_rendered_block)."""
    rng = np.random.default_rng(variant)
    specs = [PageSpec("web/shop_home", "en", variant, "modal", c) for c in CONTROLS]
    base = rng.integers(0, 256, (size, size, 3), dtype=np.uint8)
    pages = []
    for i, spec in enumerate(specs):
        rgb = base.copy()
        rgb[:8, :8] = i * 40                # the variants differ in a corner, like widget variants
        pages.append(RenderedPage(spec=spec, rgb=rgb, boxes={"synth-widget": [1.5, 2.0, 30.25, 40.0]}, dpr=2,
                                  elements=[{"id": i, "name": "Buy", "bbox": [0.5, 1.0, 2.0, 3.0]}]))
    return specs, pages


def same_pages(a: list[RenderedPage], b: list[RenderedPage]) -> bool:
    return all(x.spec == y.spec and np.array_equal(x.rgb, y.rgb) and x.boxes == y.boxes and x.dpr == y.dpr
               and x.elements == y.elements and x.texts == y.texts for x, y in zip(a, b, strict=True))


def fill(cache: PageCache, specs: list[PageSpec], pages: list[RenderedPage]) -> None:
    """Store a block as two agreeing renders do."""
    cache.put(specs, pages)
    cache.put(specs, pages)


def test_round_trip_keeps_pixels_boxes_and_elements(tmp_path):
    cache = PageCache(tmp_path)
    specs, pages = fake_block(1)
    assert cache.get(specs) is None
    fill(cache, specs, pages)
    assert same_pages(cache.get(specs), pages)
    other, _ = fake_block(2)
    assert cache.get(other) is None


def test_a_block_is_served_only_once_two_renders_agree(tmp_path):
    """A render that came out otherwise (one pixel) is never served: it replaces the candidate, and the block
    is served once a later render agrees with it."""
    cache = PageCache(tmp_path)
    specs, pages = fake_block(10)
    odd = [dataclasses.replace(p, rgb=p.rgb.copy()) for p in pages]
    odd[1].rgb[20, 20] ^= 1
    cache.put(specs, pages)
    assert cache.get(specs) is None                   # one render: a candidate
    cache.put(specs, odd)
    assert cache.get(specs) is None                   # two renders that differ: nothing served
    cache.put(specs, odd)
    assert same_pages(cache.get(specs), odd)          # the later render, confirmed
    assert not (tmp_path / (block_key(specs) + pagecache.CANDIDATE)).exists()


def test_damaged_or_torn_entries_are_not_served_and_are_dropped(tmp_path):
    cache = PageCache(tmp_path)
    specs, pages = fake_block(3)
    fill(cache, specs, pages)
    path = tmp_path / (block_key(specs) + pagecache.SUFFIX)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01                     # one bit flipped in the pixels
    path.write_bytes(bytes(data))
    assert cache.get(specs) is None and not path.exists()
    fill(cache, specs, pages)
    path.write_bytes(path.read_bytes()[:-100])       # cut short, as by a writer killed without the rename
    assert cache.get(specs) is None and not path.exists()


def test_a_killed_writers_temporary_is_ignored_then_swept(tmp_path):
    cache = PageCache(tmp_path)
    specs, pages = fake_block(4)
    tmp = tmp_path / f".{block_key(specs)}{pagecache.SUFFIX}.123.456.tmp"
    tmp.write_bytes(b"synthpc1 half an entry")
    assert cache.get(specs) is None
    old = time.time() - pagecache.STALE_TMP_S - 10
    os.utime(tmp, (old, old))
    fill(cache, specs, pages)
    assert not tmp.exists() and same_pages(cache.get(specs), pages)


def test_least_recently_used_entries_go_first(tmp_path):
    blocks = [fake_block(v) for v in range(5, 9)]
    entry = len(b"".join(pagecache._encode(blocks[0][1])))
    cache = PageCache(tmp_path, limit=int(entry * 3.5))     # room for three entries
    for i, (specs, pages) in enumerate(blocks[:3]):
        fill(cache, specs, pages)
        t = time.time() - 100 + i
        os.utime(tmp_path / (block_key(specs) + pagecache.SUFFIX), (t, t))
    assert cache.get(blocks[0][0]) is not None        # used now: the second block is the least recent
    fill(cache, *blocks[3])
    assert [cache.get(s) is not None for s, _ in blocks] == [True, False, True, True]


def test_the_key_follows_the_specs_and_the_fingerprint(monkeypatch):
    specs, _ = fake_block(9)
    key = block_key(specs)
    assert block_key(list(reversed(specs))) != key     # a block's pixels depend on its order
    monkeypatch.setattr(pagecache, "render_fingerprint", lambda: "another chromium")
    assert block_key(specs) != key


def test_an_edited_pages_folder_is_another_key(tmp_path):
    page = tmp_path / "index.html"
    page.write_text("<h1>one</h1>")
    specs = [PageSpec("pages/index.html", "en", 0, "modal", "input", site=str(tmp_path))]
    key = block_key(specs)
    page.write_text("<h1>two, longer</h1>")
    pagecache._site_fingerprint.cache_clear()
    assert block_key(specs) != key


def test_cached_block_is_the_rendered_block(tmp_path):
    """Real renders: a block read back from the cache equals the block as rendered (twice, alike), and needs no
    Chromium."""
    cache = PageCache(tmp_path)
    specs = [PageSpec("web/shop_home", "zh", 4, "inline", c) for c in CONTROLS]
    browser = Browser()
    try:
        rendered = list(cached_block(cache, browser, specs))
        assert cache.get(specs) is None
        again = list(cached_block(cache, browser, specs))
    finally:
        browser.close()
    idle = Browser()
    cached = list(cached_block(cache, idle, specs))
    assert not idle._chromium.running, "a cached block started Chromium"
    assert [s for s, _ in cached] == specs
    assert same_pages([p for _, p in cached], [p for _, p in rendered])
    assert same_pages([p for _, p in again], [p for _, p in rendered])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_run_writes_the_same_bytes_cold_warm_and_without_the_cache(tmp_path, monkeypatch, workers):
    monkeypatch.setenv("SYNTH_CACHE", str(tmp_path / "cache"))
    args = ["captcha", "--difficulty", "2", "--n", "24", "--seed", "21", "--family", "counting",
            "--family", "slider", "--workers", workers]
    for name, extra in (("cold", []), ("confirm", []), ("warm", []), ("off", ["--no-page-cache"])):
        assert main([*args, "--out", str(tmp_path / name), *extra]) == 0
        entries = list((tmp_path / "cache").glob("*" + pagecache.SUFFIX))
        if name in ("cold", "confirm"):     # a block is served once a second render agreed with the first
            assert bool(entries) == (name == "confirm")
    cold, confirm, warm, off = (read_samples(tmp_path / name) for name in ("cold", "confirm", "warm", "off"))
    assert cold == confirm == warm == off
