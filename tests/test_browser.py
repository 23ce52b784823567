"""The fast rendering paths must give the pixels and boxes of the plain ones, every time."""
import subprocess
import sys

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
def test_widget_variants_equal_single_renders(browser, template, mode):
    spec = PageSpec(template, "zh" if "mobile" in template else "en", 5, mode, CONTROLS[0])
    variants = browser.render_variants(spec, CONTROLS)
    assert [v.spec.controls for v in variants] == list(CONTROLS)
    for page in variants:
        fresh = browser.render(page.spec)
        assert page.boxes == fresh.boxes
        assert np.array_equal(page.rgb, fresh.rgb), page.spec.controls
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


def test_variants_do_not_depend_on_history_or_load(browser):
    """Workers, the page server and Ray tasks render pages after different histories and under different
    load; the bytes must not change. (Switching the widget's controls in place instead of loading each
    variant gave this page's "none" variant two different pictures in 25 renders under load.)"""
    spec = PageSpec("desktop/editor", "zh", 1769803691, "inline", CONTROLS[0])
    first = browser.render_variants(spec, CONTROLS)
    for other in list_templates("desktop"):
        browser.render_variants(PageSpec(other, "en", 7, "modal", CONTROLS[0]), CONTROLS)
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        renders = [browser.render_variants(spec, CONTROLS) for _ in range(12)]
    finally:
        for p in load:
            p.kill()
    for again in renders:
        assert all(np.array_equal(a.rgb, b.rgb) for a, b in zip(first, again))
