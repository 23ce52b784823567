"""The widget on the final screen is hit-tested as a click would be: page content over the puzzle or a control
is found, and an inline widget it covers is re-placed as a modal (synth.screens.widget_pages)."""
import pytest

import synth.screens.browser as browser_module
from synth.screens.browser import Browser
from synth.screens.pages import PageSpec
from synth.screens.widget_pages import render_page

# a page panel drawn over the whole screen, above the page's flow but below a modal (z-index 1000)
_COVER = ('<div style="position:fixed; left:0; top:0; width:100vw; height:100vh; z-index:10; '
          'background:rgba(255,255,255,.6)"></div></body>')


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def test_an_inline_widget_covered_by_page_content_becomes_a_modal(browser, monkeypatch):
    spec = PageSpec("web/login", "en", 0, "inline", "input")    # a form, where an inline widget belongs
    assert browser.render(spec).covered == []
    real = browser_module.render_html
    monkeypatch.setattr(browser_module, "render_html", lambda s: real(s).replace("</body>", _COVER))
    browser.close()     # a fresh tab: the page is loaded again, not shown from the tab's last load
    covered = browser.render(spec)
    assert {"synth-puzzle", "synth-answer", "synth-verify", "synth-refresh"} <= set(covered.covered)
    page = render_page(browser, spec)
    assert page.spec.mode == "modal" and page.covered == []


def test_a_covered_control_alone_is_found(browser, monkeypatch):
    spec = PageSpec("web/login", "en", 0, "inline", "input")    # a form, where an inline widget belongs
    verify = browser.render(spec).boxes["synth-verify"]
    x0, y0, x1, y1 = (v / 1 for v in verify)     # web pages are at device scale 1
    div = (f'<div style="position:fixed; left:{x0 + (x1 - x0) * 0.6}px; top:{y0}px; width:{x1 - x0}px; '
           f'height:{y1 - y0}px; z-index:10; background:#fff"></div></body>')
    real = browser_module.render_html
    monkeypatch.setattr(browser_module, "render_html", lambda s: real(s).replace("</body>", div))
    browser.close()
    assert browser.render(spec).covered == ["synth-verify"]


def test_the_answer_field_s_placeholder_is_the_widget_s_own_whatever_the_page_styles(browser):
    """A page's own input::placeholder rule (white at 30 % on a dark ride-hailing theme) reached the widget's
    answer field and blanked its placeholder; the widget sets its own."""
    for spec in (PageSpec("mobile/ride_hailing", "en", 3996164144, "sheet", "input"),
                 PageSpec("web/login", "zh", 5, "modal", "input")):
        browser.render(spec)
        tab = browser._page(spec).page      # the tab that rendered it, still showing the page
        colour, ground = tab.evaluate("""() => { const i = document.querySelector('.captcha-input');
          return [getComputedStyle(i, '::placeholder').color, getComputedStyle(i).backgroundColor]; }""")
        assert "0.3)" not in colour and colour != ground, (spec.template, colour, ground)
