"""The page pools of a run: which rendered pages the samples of each span of POOL_SPAN samples share, and
the render blocks they are drawn in (every process renders a block the same way, wherever it runs)."""
from functools import lru_cache

import numpy as np

from synth.core.seeds import (
    FOLDER_HOSTS,
    PAGE_STREAM,
    STREAM_ORDER,
    STREAM_PAGE,
    STREAM_ROUNDS,
    STREAM_VARIANT,
    page_seed,
)
from synth.engine.config import RunConfig
from synth.screens import placement
from synth.screens.pages import list_templates
from synth.screens.views import schedule

POOL_SPAN = 1000       # consecutive samples that share one pool of rendered pages
POOL_SIZE = 50         # pages per pool
PAGE_LIFE = 5          # pools a page serves: each pool renders POOL_SIZE / PAGE_LIFE pages of its own
BLOCK = {"web": 5, "mobile": 3, "desktop": 2}   # pages of each platform in every 10 pages of the stream
SCREEN_BLOCK = 25      # grounding screens per render block (Browser.block); divides run.CHUNK and run.TAIL_CHUNK


Page = tuple      # (template, lang, variant, mode), and a folder page's view (synth.screens.views)
STEP = POOL_SIZE // PAGE_LIFE        # pages in a render block; new pages per pool


@lru_cache(maxsize=8)
def page_blocks(cfg: RunConfig, pool_id: int) -> list[tuple[tuple, list[Page]]]:
    """The pages shared by the samples of one pool span, in render blocks: (block key, its STEP pages).

    A block renders in a browser context of its own (Browser.block), its pages in order, each with every
    widget variant, wherever it is rendered: Chromium draws some text a little differently after certain
    other pages (a field's placeholder, after another page that showed the same placeholder elsewhere), so
    a page's pixels must not depend on which pages a process happened to render before it.

    The pages of a run form one stream: pool k holds its blocks k .. k + PAGE_LIFE - 1, so each page serves
    PAGE_LIFE consecutive pools and a pool renders only one new block, while any 1,000 consecutive samples
    still see POOL_SIZE different pages. A run of fewer than POOL_SPAN samples uses as many blocks as its
    share of a span (at least one): 200 samples see 10 pages, 1,000 see 50. A --pages run's stream is its
    folder's distinct screens (host_page)."""
    if cfg.pages and cfg.kind != "captcha":     # a --pages grounding run shows its folder's screens alone
        return []
    page = (lambda i: host_page(cfg, i)) if cfg.pages else (lambda i: stream_page(cfg, i))
    return [(("pages" if cfg.pages else "stream", b), [page(i) for i in range(b * STEP, (b + 1) * STEP)])
            for b in range(pool_id, pool_id + _blocks(cfg))]


def _blocks(cfg: RunConfig) -> int:
    """Render blocks per pool: PAGE_LIFE, or a short run's share of them (at least one). A --pages run has at
    least the blocks that hold every usable page of its folder (or every sample, when it has fewer), so that a
    short run shows the whole folder too."""
    share = -(-PAGE_LIFE * cfg.n // POOL_SPAN)
    if cfg.pages:
        share = max(share, -(-min(len(cfg.page_list), cfg.n) // STEP))
    return min(PAGE_LIFE, share)


def pick_page(cfg: RunConfig, pool: list[Page], index: int, rng) -> Page:
    """The pool page sample `index` shows: a --pages run's host pages in turn (so every screen of the pool
    comes before any comes again: the pool's first pages are each usable page once), else one drawn by `rng`."""
    if cfg.pages:
        return pool[index % POOL_SPAN % len(pool)]
    return pool[int(rng.integers(len(pool)))]


def page_pool(cfg: RunConfig, pool_id: int) -> list[Page]:
    """The pages of one pool span (page_blocks, in order)."""
    return [page for _, pages in page_blocks(cfg, pool_id) for page in pages]


@lru_cache(maxsize=4096)
def stream_page(cfg: RunConfig, i: int) -> Page:
    """Page `i` of the run's page stream. Every 10 pages hold BLOCK pages of each platform (of the run's
    platform alone, if it has one), in a shuffled order; the pages of a platform go through its templates
    in shuffled rounds, so that any run of pages repeats a template only after using them all. Language
    and widget placement are drawn for each page on its own."""
    if cfg.platform == "mix":
        slots = [p for p in sorted(BLOCK) for _ in range(BLOCK[p])]
        block, pos = divmod(i, len(slots))
        shuffled = np.random.default_rng(page_seed(cfg.seed, PAGE_STREAM, STREAM_ORDER, block)).permutation(len(slots))
        order = [slots[j] for j in shuffled]
        platform = order[pos]
        k = block * BLOCK[platform] + order[:pos].count(platform)     # the page's place among its platform's
    else:
        platform, k = cfg.platform, i
    names = list_templates(platform)
    if not names:
        raise ValueError(f"no templates for platform {platform!r}")
    rounds, pos = divmod(k, len(names))
    key = STREAM_ROUNDS + sorted(BLOCK).index(platform)
    shuffle = np.random.default_rng(page_seed(cfg.seed, PAGE_STREAM, key, rounds))
    template = names[int(shuffle.permutation(len(names))[pos])]
    rng = np.random.default_rng(page_seed(cfg.seed, PAGE_STREAM, STREAM_PAGE, i))
    lang = cfg.lang if cfg.lang != "mix" else ("en", "zh")[int(rng.integers(2))]
    mode = placement(template, rng.random())
    return template, lang, page_seed(cfg.seed, PAGE_STREAM, STREAM_VARIANT, i), mode


def screen_block_start(cfg: RunConfig, index: int) -> int:
    """The first sample of grounding sample `index`'s render block. Blocks hold SCREEN_BLOCK samples counted
    from the start of the sample's shard or pool span, whichever is later: every chunk of a run's plan
    (synth.engine.run.plan) starts there too, so one process renders a block's screens, in one order, whichever
    worker takes its chunk and whatever the run did before."""
    anchor = max(index // cfg.shard_size * cfg.shard_size, index // POOL_SPAN * POOL_SPAN)
    return index - (index - anchor) % SCREEN_BLOCK


def host_slots(cfg: RunConfig) -> int:
    """How many host page slots a --pages CAPTCHA run's pools use: its pools' blocks, as page_blocks cuts them."""
    pools = -(-cfg.n // POOL_SPAN)
    return (pools - 1 + _blocks(cfg)) * STEP


def host_page(cfg: RunConfig, slot: int) -> tuple[str, str, int, str, str]:
    """The host page of slot `slot` of a --pages CAPTCHA run: (template, lang, variant, mode, view), the run's
    distinct screens (synth.screens.views.schedule) in turn, again from the first once all were shown, each
    slot with a modal widget of its own theme (variant)."""
    screens = schedule(cfg.seed, cfg.page_list, cfg.page_views)
    template, lang, view = screens[slot % len(screens)]
    return template, lang, page_seed(cfg.seed, FOLDER_HOSTS, slot), "modal", view
