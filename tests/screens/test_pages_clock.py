"""A --pages folder page's clock: it stands still while the page loads, then runs ahead, so that animations
timed by it (charts drawn from Date.now()) are shown at their end, the same every render. And whether a folder
page has a dark scheme, found on its render."""
from pathlib import Path

import numpy as np
import pytest

from synth.screens.browser import Browser
from synth.screens.pages import PageSpec

ANIMATED = Path(__file__).resolve().parent.parent / "pages" / "animated"
RESPONSIVE = Path(__file__).resolve().parent.parent / "pages" / "responsive"


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def test_clock_timed_animations_are_shown_at_their_end_every_render(browser):
    spec = PageSpec("pages/report.html", "en", 0, "none", "none", site=str(ANIMATED))
    renders = [browser.render(spec) for _ in range(2)]
    for page in renders:
        button = next(e for e in page.elements if e["name"] == "Open the full report")
        x0, _, x1, _ = button["box"]
        assert (x1 - x0) / page.dpr == pytest.approx(240, abs=0.5)     # 60 px wide before its animation ran
    assert np.array_equal(renders[0].rgb, renders[1].rgb)


def test_a_dark_scheme_is_found_where_a_page_has_one(browser):
    """responsive/index.html links a sheet with a prefers-color-scheme rule; report.html has none, only a
    sheet of another origin (blocked, so it cannot be read: no dark scheme comes from it)."""
    def dark(folder: Path, page: str) -> bool:
        return browser.render(PageSpec("pages/" + page, "en", 0, "none", "none", site=str(folder))).dark_scheme
    assert dark(RESPONSIVE, "index.html") and not dark(RESPONSIVE, "contact.html")
    assert not dark(ANIMATED, "report.html")
