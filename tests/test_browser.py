"""The fast rendering paths must give the pixels and boxes of the plain ones."""
import cv2
import numpy as np
import pytest

from synth.scenes.browser import Browser
from synth.scenes.pages import CONTROLS, PageSpec, list_templates


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


@pytest.mark.parametrize("template,mode", [("web/shop", "inline"), ("mobile/chat", "modal"), ("desktop/mail", "inline"),
                                           ("web/login", "modal")])
def test_switched_widget_variants_match_fresh_renders(browser, template, mode):
    """Same boxes; same pixels up to anti-aliasing where Chromium repainted after the switch."""
    spec = PageSpec(template, "zh" if "mobile" in template else "en", 5, mode, CONTROLS[0])
    variants = browser.render_variants(spec, CONTROLS)
    assert [v.spec.controls for v in variants] == list(CONTROLS)
    for page in variants:
        fresh = browser.render(page.spec)
        assert page.boxes == fresh.boxes
        diff = np.abs(page.rgb.astype(int) - fresh.rgb).max(axis=2)
        x0, y0, x1, y1 = page.boxes["synth-widget"]
        assert diff.max() <= 8 and (diff > 0).sum() < 0.01 * (x1 - x0) * (y1 - y0), page.spec.controls
    assert ("synth-answer" in variants[0].boxes, "synth-skip" in variants[1].boxes) == (True, True)
    assert not np.array_equal(variants[0].rgb, variants[2].rgb)


@pytest.mark.parametrize("template", [list_templates(p)[0] for p in ("web", "mobile", "desktop")])
def test_capture_equals_playwright_screenshot(browser, template):
    spec = PageSpec(template, "en", 3, "modal", "input")
    page = browser.render(spec)
    tab = browser._page(spec)     # the tab that rendered it, still showing the page
    png = tab.page.screenshot(type="png", animations="disabled", caret="hide")
    reference = cv2.cvtColor(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    assert page.rgb.shape == reference.shape
    assert np.array_equal(page.rgb, reference)


def test_variants_do_not_depend_on_what_the_browser_rendered_before(browser):
    spec = PageSpec("desktop/mail", "en", 8, "inline", CONTROLS[0])
    first = browser.render_variants(spec, CONTROLS)
    browser.render_variants(PageSpec("desktop/files", "zh", 2, "modal", CONTROLS[0]), CONTROLS)
    again = browser.render_variants(spec, CONTROLS)
    assert all(np.array_equal(a.rgb, b.rgb) for a, b in zip(first, again))
