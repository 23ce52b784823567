"""Where the CAPTCHA widget sits: inline only in the forms where sites put one (log in, sign up, checkout, a
government form, a phone's log in), otherwise over the page (a modal on the dimmed page, a phone's bottom sheet,
a full-page check); and CJK text is drawn in a sans-serif face on every page."""
import pytest

from synth import screens
from synth.engine.config import RunConfig
from synth.engine.pools import stream_page
from synth.screens import OVERLAYS, PLATFORMS, placement
from synth.screens.pages import PageSpec, render_html

FORMS = {"web/login", "web/signup", "web/checkout", "web/gov_service", "mobile/login"}
ALLOWED = {"web": {"modal", "interstitial"}, "desktop": {"modal"}, "mobile": {"modal", "sheet", "interstitial"}}


def _tab(chromium, platform: str):
    plat = PLATFORMS[platform]
    context = chromium.new_context(viewport={"width": plat["viewport"][0], "height": plat["viewport"][1]},
                                   device_scale_factor=plat["dpr"], is_mobile=platform == "mobile")
    return context, context.new_page()


def test_every_archetype_declares_where_its_widget_goes():
    for name in screens.names():
        options = screens.archetype(name).PLACEMENTS
        platform = name.split("/")[0]
        assert options and set(options) <= ALLOWED[platform] | {"inline"}, name
        assert ("inline" in options) == (name in FORMS), name
        assert set(options) & set(OVERLAYS), name          # an inline widget that does not fit needs an overlay
        assert {placement(name, d / 100) for d in range(100)} == set(options), name


def test_the_page_stream_never_puts_a_widget_inline_outside_a_form():
    cfg = RunConfig(difficulty=3, n=400, seed=3)
    modes = {}
    for i in range(400):
        template, _, _, mode = stream_page(cfg, i)
        modes.setdefault(mode, set()).add(template)
        assert mode in (ALLOWED[template.split("/")[0]] | {"inline"}) or template not in screens.names()
        assert mode != "inline" or template in FORMS or template not in screens.names(), template
    assert {"modal", "sheet", "interstitial", "inline"} <= set(modes)


# Where the widget is, what is at the screen's corners and at the widget's centre (the topmost element there)
_PLACED_JS = """() => {
  const w = document.getElementById('synth-widget').getBoundingClientRect();
  const at = (x, y) => { const e = document.elementFromPoint(x, y); return e ? (e.closest('.synth-backdrop') ?
    'overlay' : (e.closest('#synth-widget') ? 'widget' : 'page')) : 'none'; };
  const sheet = document.querySelector('.synth-sheet');
  return {box: [w.left, w.top, w.right, w.bottom], vw: innerWidth, vh: innerHeight,
          centre: document.elementFromPoint((w.left + w.right) / 2, (w.top + w.bottom) / 2)
                    .closest('#synth-widget') !== null,
          corners: [at(2, 2), at(innerWidth - 3, 2), at(2, innerHeight - 3)],
          sheet: sheet ? [sheet.getBoundingClientRect().top, sheet.getBoundingClientRect().bottom]
                       : null,
          dim: getComputedStyle(document.querySelector('.synth-backdrop') || document.body).backgroundColor};
}"""


@pytest.mark.parametrize("name,mode", [("web/shop_home", "modal"), ("web/news_portal", "interstitial"),
                                       ("desktop/mail_client", "modal"), ("mobile/news_feed", "sheet"),
                                       ("mobile/wallet", "modal"), ("mobile/social_feed", "interstitial")])
def test_an_overlay_widget_sits_over_the_whole_page(chromium, name, mode):
    context, page = _tab(chromium, name.split("/")[0])
    for lang in ("en", "zh"):
        page.set_content(render_html(PageSpec(name, lang, 5, mode, "input")), wait_until="load")
        got = page.evaluate(_PLACED_JS)
        x0, y0, x1, y1 = got["box"]
        assert 0 <= x0 and 0 <= y0 and x1 <= got["vw"] and y1 <= got["vh"], (name, lang, got)
        assert got["centre"] and got["corners"] == ["overlay"] * 3, (name, lang, got)   # nothing of the page on top
        if mode == "interstitial":
            assert got["dim"] not in ("rgba(0, 0, 0, 0)", "transparent") and ", 0." not in got["dim"], got
        else:
            assert got["dim"].startswith("rgba(0, 0, 0, 0.4"), got                  # the page dimmed behind
        # the puzzle fills the widget's width, its margins even on both sides
        left, right = page.evaluate("""() => { const w = document.getElementById('synth-widget')
            .getBoundingClientRect(), p = document.getElementById('synth-puzzle').getBoundingClientRect();
            return [p.left - w.left, w.right - p.right]; }""")
        assert abs(left - right) <= 1 and left <= 14, (name, lang, left, right)
        if mode == "sheet":      # risen from the bottom edge, well clear of the top of the screen
            top, bottom = got["sheet"]
            assert bottom == got["vh"] and top > got["vh"] * 0.2 and y0 > top, got
    context.close()


# Every text node with CJK characters marked, so that DevTools can say which font files drew its glyphs
_MARK_CJK_JS = """() => { let i = 0; const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walk.nextNode());)
    if (/[\\u3400-\\u9fff]/.test(n.data)) n.parentElement.setAttribute('data-cjk', i++);
  return i; }"""


def _cjk_fonts(context, page) -> dict[str, int]:
    """Glyphs drawn per font family over every element with CJK text (CSS.getPlatformFontsForNode: the font
    files Chromium actually used, fallbacks included)."""
    cdp = context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    used: dict[str, int] = {}
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "[data-cjk]"})["nodeIds"]:
        for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]:
            used[font["familyName"]] = used.get(font["familyName"], 0) + font["glyphCount"]
    cdp.detach()
    return used


@pytest.mark.parametrize("platform", list(PLATFORMS))
def test_chinese_text_is_drawn_in_a_sans_face(chromium, platform):
    names = [n for n in screens.names() if n.startswith(platform + "/")]
    context, page = _tab(chromium, platform)
    for k, name in enumerate(names):
        for variant in (k % 4, 4 + k % 3):        # both of the zh theme's font stacks come up on every platform
            page.set_content(render_html(PageSpec(name, "zh", variant, placement(name, 0.99), "input")),
                             wait_until="load")
            assert page.evaluate(_MARK_CJK_JS) > 0, name
            used = _cjk_fonts(context, page)
            serif = {f: n for f, n in used.items() if "Serif" in f}
            assert not serif, (name, variant, used)
            assert any("Sans CJK" in f for f in used), (name, variant, used)
    context.close()
