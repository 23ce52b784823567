"""The pages an environment shows its widget on: a few screens per platform and language, rendered once
per process by Chromium and kept (a step draws only the widget)."""
import numpy as np

from synth.core.seeds import EPISODE_PAGES
from synth.screens import PLATFORMS, placement
from synth.screens.browser import Browser, RenderedPage
from synth.screens.pages import CONTROLS, PageSpec, list_templates
from synth.screens.widget_pages import render_block

SCREENS = 4         # pages per platform and language; reset(seed) picks one
_pages: dict[PageSpec, RenderedPage] = {}


def spec(platform: str, lang: str, slot: int, controls: str) -> PageSpec:
    """Page `slot` of a platform and language: its template, theme and widget placement are fixed by
    these alone, so every process shows the same screens."""
    rng = np.random.default_rng([EPISODE_PAGES, list(PLATFORMS).index(platform), ("en", "zh").index(lang), slot])
    names = list_templates(platform)
    template = names[int(rng.integers(len(names)))]
    return PageSpec(template, lang, int(rng.integers(2**31)), placement(template, rng.random()), controls)


def page(platform: str, lang: str, slot: int, controls: str) -> RenderedPage:
    """The rendered page. The first page asked for of a platform and language renders all SCREENS of them
    (each page's three widget variants as one block) and stops its Chromium: no later step waits for a
    browser, and none stays running beside another Playwright browser of the process (two cannot)."""
    want = spec(platform, lang, slot, controls)
    if want not in _pages:
        browser = Browser()
        try:
            for k in range(SCREENS):
                for s, rendered in render_block(browser, [spec(platform, lang, k, c) for c in CONTROLS]):
                    if isinstance(rendered, Exception):
                        raise rendered
                    _pages[s] = rendered
        finally:
            browser.close()
    return _pages[want]
