"""One process's generator of a run's samples: for each index it calls the maker of the run's kind
(MAKERS: captcha, grounding, episode) with the index's seed, redrawing rejected attempts, and gives the
makers the run's pages (from the page store or its own Chromium) and JPEG encoders."""
import contextlib
from collections import Counter

from synth.captcha import maker as captcha_maker
from synth.core import jpeg
from synth.core.errors import first_passing
from synth.core.seeds import sample_seed
from synth.engine.config import RunConfig
from synth.engine.pagecache import PageCache, cached_block
from synth.engine.pagestore import PageStore, block_specs
from synth.engine.pools import POOL_SPAN, Page, page_blocks, page_pool, pick_page, screen_block_start
from synth.episodes import maker as episode_maker
from synth.grounding import maker as grounding_maker
from synth.screens.browser import Browser, RenderedPage
from synth.screens.pages import PageSpec

# make(ctx, index, seed, why) -> [(key, members)] of one index, for each kind of run
MAKERS = {"captcha": captcha_maker, "grounding": grounding_maker, "episode": episode_maker}
SITE_CACHE = 8         # rendered folder pages a grounding worker keeps

Record = tuple[str, dict[str, bytes]]


class Generator:
    """Makes samples for one run in one process; keeps a small cache of rendered pages, which come from a page
    store or from its own Chromium (or, for the blocks it holds, the machine's page cache)."""

    def __init__(self, cfg: RunConfig, store: PageStore | None = None, cache: PageCache | None = None) -> None:
        self.cfg = cfg
        self.maker = MAKERS[cfg.kind]
        self.browser = Browser()
        self.store = store          # pages rendered by the run's page server, if any (else by this process)
        self.cache = cache          # render blocks kept across runs, for the pages this process renders
        self._pool: int | None = None   # the page pool whose pages are cached
        self._pages: dict[PageSpec, RenderedPage | Exception] = {}
        self._block_of: dict[PageSpec, list[PageSpec]] = {}    # the current pool's pages, with their block
        self._encoders: dict[PageSpec, jpeg.PageEncoder] = {}
        self._site_pages: dict[PageSpec, RenderedPage] = {}   # grounding's folder pages, oldest first
        self._screens = contextlib.ExitStack()   # the render block screens are rendered in
        self._next_screen = -1                   # the sample whose screen that block renders next
        self._attempt = 0                        # the attempt at the sample being made (first_passing)

    def close(self) -> None:
        self._screens.close()
        self.browser.close()

    # --- what the makers ask for --------------------------------------------------------------------

    def pool_pages(self, index: int) -> list[Page]:
        """The pages of sample `index`'s page pool (synth.engine.pools)."""
        return page_pool(self.cfg, index // POOL_SPAN)

    def pick_pool_page(self, index: int, rng) -> Page:
        """The page of its pool that sample `index` shows (synth.engine.pools.pick_page); in a --pages run each
        further attempt at the sample takes the pool's next page (one whose widget a page covers is passed by)."""
        return pick_page(self.cfg, self.pool_pages(index), index + self._attempt, rng)

    def pool_page(self, spec: PageSpec, index: int) -> RenderedPage:
        """A rendered page of sample `index`'s page pool: from the page store, or rendered here with the rest
        of its render block (pools.page_blocks). The current pool's pages are cached; when samples move on
        to another pool (they go through the pools in order), the pages it does not share are dropped."""
        pool = index // POOL_SPAN
        if pool != self._pool:
            self._pool = pool
            self._block_of = {s: specs for _, pages in page_blocks(self.cfg, pool)
                              for specs in [block_specs(self.cfg, pages)] for s in specs}
            for cache in (self._pages, self._encoders):
                for old in [s for s in cache if s not in self._block_of]:
                    del cache[old]
        if spec not in self._pages:
            if self.store is not None:
                self._pages[spec] = self.store.fetch(spec)
            else:
                self._pages.update(cached_block(self.cache, self.browser, self._block_of.get(spec, [spec])))
        page = self._pages[spec]
        if isinstance(page, Exception):
            raise page
        return page

    def encoder(self, spec: PageSpec, page: RenderedPage) -> jpeg.PageEncoder:
        """The JPEG encoder of the samples made from a pool page (the page server's, or made here)."""
        encoder = self._encoders.get(spec)
        if encoder is None:
            encoder = self.store.encoder(spec) if self.store else None
            self._encoders[spec] = encoder = encoder or jpeg.page_encoder(page.rgb, page.boxes)
        return encoder

    def render(self, spec: PageSpec) -> RenderedPage:
        """A page rendered now, in this process's Chromium (inside the sample's render block)."""
        return self.browser.render(spec)

    def site_page(self, spec: PageSpec) -> RenderedPage:
        """A folder page: a folder page renders the same every time, so samples on the same page share one
        render (the last SITE_CACHE pages are kept)."""
        page = self._site_pages.pop(spec, None) or self.browser.render(spec)
        self._site_pages[spec] = page
        if len(self._site_pages) > SITE_CACHE:
            del self._site_pages[next(iter(self._site_pages))]
        return page

    # --- samples ------------------------------------------------------------------------------------

    def records(self, index: int) -> tuple[list[Record], Counter]:
        """The samples of `index`, as (key, members) in order, and the rejections: one sample, or for an
        episode run one per step of episode `index`."""
        if getattr(self.maker, "renders_screens", lambda cfg: False)(self.cfg):
            self._screen_block(index)
        return self._records(index)

    def sample(self, index: int) -> tuple[str, dict[str, bytes], Counter]:
        """The one sample at `index` of a CAPTCHA or grounding run: (key, members, rejection counts)."""
        records, rejections = self.records(index)
        return *records[0], rejections

    def _records(self, index: int) -> tuple[list[Record], Counter]:
        why: Counter = Counter()

        def attempt(i: int) -> list[Record]:
            self._attempt = i
            return self.maker.make(self, index, sample_seed(self.cfg.seed, index, i), why)
        return first_passing(attempt, f"{self.maker.UNIT} {index}: no instance", why), why

    def _screen_block(self, index: int) -> None:
        """Render sample `index`'s screens in its render block (pools.screen_block_start), each loaded once: a
        block starts in a fresh browser context, and a sample that does not follow the one before renders its
        block's earlier samples first, so that its pixels are those of a whole run."""
        start = screen_block_start(self.cfg, index)
        if index == start or index != self._next_screen:
            self._screens.close()
            self._screens.enter_context(self.browser.block())
            for earlier in range(start, index):
                self._records(earlier)
        self._next_screen = index + 1
