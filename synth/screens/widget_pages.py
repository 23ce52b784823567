"""Pages with a CAPTCHA widget, rendered one at a time or as a render block (every widget variant of each
page, in order, in a browser context of its own, so that a page's pixels do not depend on what the process
rendered before)."""
import dataclasses
from collections.abc import Iterator

from synth.screens.browser import Browser, RenderedPage
from synth.screens.pages import PageSpec


def render_page(browser: Browser, spec: PageSpec) -> RenderedPage:
    """A page with a CAPTCHA widget; an inline widget that does not fit on screen, or that page content covers
    where a click must land (the puzzle or a control, `RenderedPage.covered`), becomes a modal."""
    page = browser.render(spec)
    h, w = page.rgb.shape[:2]
    box = page.boxes.get("synth-widget")
    if spec.mode == "inline" and (box is None or box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h
                                  or page.covered):
        page = browser.render(dataclasses.replace(spec, mode="modal"))
    return page


def render_block(browser: Browser, specs: list[PageSpec]) -> Iterator[tuple[PageSpec, RenderedPage | Exception]]:
    """The pages of one render block, in order, as a block of the browser's (see synth.engine.pools.page_blocks
    and Browser.block); a page that fails to render comes with its error."""
    with browser.block():
        for spec in specs:
            try:
                yield spec, render_page(browser, spec)
            except Exception as e:      # a broken page: a sample that needs it raises the error
                yield spec, e
