"""A headless Chromium (the page server's, or a process's own): renders a page spec to pixels plus DOM boxes."""
import base64
import contextlib
import json
import logging
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from synth.core.errors import first_line
from synth.screens import chromium
from synth.screens.chromium import Chromium
from synth.screens.pages import PLATFORMS, PageSpec, render_html, widget_overlay
from synth.screens.site import ORIGIN, Site, page_url

log = logging.getLogger(__name__)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                 "--no-first-run", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 "--font-render-hinting=none", "--disable-font-subpixel-positioning", "--disable-lcd-text",
                 "--renderer-process-limit=1",
                 "--js-flags=--max-old-space-size=128",  # set_content passes a page's HTML (up to ~2 MB with its
                                                         # design system's CSS) through the page's JS heap
                 "--disable-partial-raster"]   # a change in place repaints whole tiles: the pixels of a fresh load
RESTART_EVERY = 360  # pages per browser (20 pools), to bound its memory
BOX_IDS = ["synth-widget", "synth-instruction", "synth-puzzle", "synth-answer", "synth-verify", "synth-refresh",
           "synth-skip"]

# The grounding harvester (synth/screens/js/harvest.js, a page function returning one JSON string), read once
_ELEMENTS_JS = (Path(__file__).parent / "js" / "harvest.js").read_text(encoding="utf-8")

# Resolves at the page's next frame. A capture right after the load event sometimes shows a few rows of a
# mobile screen (device pixel ratio 3) with other anti-aliasing than a later capture (mobile/chat: ~1 render
# in 7); after one frame, every capture is the same (tests/screens/test_browser.py).
# Web fonts (design systems embed icon fonts as data: URIs) and pictures first: text laid out before a
# font had loaded, or a picture painted before its decode, came out otherwise than in a later render of the
# same page (mobile/calendar in Vant: the widget's button text 2 px apart).
_NEXT_FRAME_JS = """() => document.fonts.ready
  .then(() => Promise.all(Array.from(document.images, i => i.decode().catch(() => null))))
  .then(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))))"""

# A tab's first page paints a little differently from the same page painted after any other (an input's
# placeholder, 1838 pixels on mobile/chat_list; avatars, 134 on desktop/mail_client), so a new tab paints
# this page first: text, bold and CJK text, a placeholder, a rounded image.
_WARM_UP_HTML = ("<p style='font-family:sans-serif'>Warm up <b>粗体</b> 文字</p><input placeholder='Type 输入'>"
                 "<img style='border-radius:50%' width='40' height='40' src='data:image/png;base64,"
                 "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='>")

# Show another variant of the widget's controls (templates/widgets/captcha.html.j2), then wait for a frame
_CONTROLS_JS = """controls => new Promise(done => {
  document.getElementById('synth-widget').dataset.controls = controls;
  requestAnimationFrame(done);
})"""

_BOXES_JS = """ids => Object.fromEntries(ids.map(id => {
  const e = document.getElementById(id);
  if (!e || !e.getClientRects().length) return [id, null];   // absent, or hidden in this widget variant
  const r = e.getBoundingClientRect();
  return [id, [r.left, r.top, r.right, r.bottom]];
}))"""

# The widget's parts (HIT_TESTED ids) a click could not reach, hit-tested at 3 x 3 points each (js/covered.js)
_COVERED_JS = (Path(__file__).parent / "js" / "covered.js").read_text(encoding="utf-8")
HIT_TESTED = ["synth-puzzle", "synth-answer", "synth-verify", "synth-refresh", "synth-skip"]

# For pages of a --pages folder, before their scripts run: Math.random from a fixed seed and a clock of its own,
# so that a page renders the same pixels every time. The clock stands still at a fixed time while the page
# loads; once it has settled, the render runs the clock CLOCK_FRAMES animation frames ahead, CLOCK_STEP_MS a
# frame (`_RUN_CLOCK_JS`): animations timed by the clock (Chart.js draws its charts from Date.now(), jQuery's
# effects likewise) reach their end, where a clock that only stood still kept them at their first step (a
# dashboard's charts flat), and every capture sees the same time.
CLOCK_FRAMES, CLOCK_STEP_MS = 6, 2000
_STEADY_JS = "if (location.origin === '" + ORIGIN + """') {
  let s = 0x2545F491;
  Math.random = () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) / 4294967296; };
  const T = Date.UTC(2024, 4, 15, 10, 30), RealDate = Date, frame = requestAnimationFrame.bind(window);
  const p0 = performance.now();
  let ahead = 0;
  globalThis.Date = class extends RealDate {
    constructor(...a) { super(...(a.length ? a : [T + ahead])); } static now() { return T + ahead; } };
  performance.now = () => p0 + ahead;
  const media = matchMedia.bind(window);     // a script that asks for the colour scheme may follow it
  window.matchMedia = q => { if (/prefers-color-scheme/i.test(q)) globalThis.__synthAsksScheme = true;
                             return media(q); };
  globalThis.__synthRunClock = (frames, step) => new Promise(done => {
    const tick = () => { if (frames-- <= 0) return done(); ahead += step; frame(tick); };
    frame(tick);
    setTimeout(done, 3000);
  });
}"""
# Whether a folder page could look otherwise in the dark scheme: a script asked for it (matchMedia), a style
# sheet (or an @import, @media, @supports or other rule inside one) names it, an element's `media` attribute
# does, or the page allows a dark `color-scheme`; also when a sheet of its own cannot be read, or it has frames.
_DARK_SCHEME_JS = """() => {
  const scheme = /prefers-color-scheme/i;
  if (globalThis.__synthAsksScheme || document.querySelector('iframe, frame, [media*="prefers-color-scheme" i], '
                                                             + 'meta[name="color-scheme" i]')) return true;
  if ([document.documentElement, document.body].some(e => e && /dark/.test(getComputedStyle(e).colorScheme)))
    return true;
  const rules = list => Array.from(list).some(r => r.media && scheme.test(r.media.mediaText)
    || r.conditionText && scheme.test(r.conditionText) || r.style && /dark/.test(r.style.colorScheme || '')
    || r.styleSheet && sheet(r.styleSheet) || r.cssRules && rules(r.cssRules));
  const sheet = s => {       // a sheet of another origin was blocked (synth.screens.site): it holds no rule
    if (s.href && new URL(s.href, location.href).origin !== location.origin) return false;
    if (s.media && scheme.test(s.media.mediaText)) return true;
    try { return rules(s.cssRules); } catch (e) { return true; }
  };
  return Array.from(document.styleSheets).some(sheet) || Array.from(document.adoptedStyleSheets || []).some(sheet);
}"""
_RUN_CLOCK_JS = ("([frames, step]) => globalThis.__synthRunClock && "
                 "globalThis.__synthRunClock(frames, step).then(() => undefined)")
# Scroll a folder page down to a view's position at once (a page's `scroll-behavior: smooth` would animate it)
_SCROLL_JS = ("y => { window.scrollTo({top: y, left: 0, behavior: 'instant'}); "
              "return [window.scrollX, window.scrollY]; }")
_SCALE_JS = "() => window.visualViewport ? window.visualViewport.scale : 1"
# The user agent of a phone's browser, for pages seen on a phone (synth.screens.views)
MOBILE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
             "Chrome/120.0.0.0 Mobile Safari/537.36")
_STILL_CSS = ("*, *::before, *::after { animation-duration: 0s !important; animation-delay: 0s !important; "
              "transition: none !important; caret-color: transparent !important; }")
SITE_LOAD_MS = 10_000   # longest a folder page may take to load; then it counts as hung
# A folder page with a CAPTCHA widget is shown as a document of our own: the page's pixels as captured, as a
# picture, under the widget (pages.widget_overlay). Neither the page's styles nor its scripts can reach the
# widget there (a shadow root in the page's document is reachable by a script that patches attachShadow first).
_COMPOSITE_HTML = """<!doctype html><html><head><meta charset="utf-8"><style>
  html, body {{ margin: 0; overflow: hidden; }}
  #synth-page {{ position: fixed; left: 0; top: 0; width: {w}px; height: {h}px; display: block; }}
</style></head><body><img id="synth-page" alt="" src="data:image/png;base64,{png}">{widget}</body></html>"""


@dataclass
class RenderedPage:
    """A screenshot (H, W, 3 uint8 RGB), CAPTCHA widget boxes in its pixels and, for pages without a
    widget, the grounding elements (boxes in its pixels), the count of each visible text on the page and
    of each icon drawn by elements that are not targets."""
    spec: PageSpec
    rgb: np.ndarray
    boxes: dict[str, list[float]]
    dpr: int
    elements: list[dict] = field(default_factory=list)
    texts: dict[str, int] = field(default_factory=dict)
    labels: list[dict] = field(default_factory=list)   # texts drawn once, with their boxes and document places
    decor_icons: dict[str, int] = field(default_factory=dict)   # icons shown by elements that are not targets
    marks: list[list[float]] = field(default_factory=list)   # boxes of icons and pictures outside every element
    shown_icons: dict[str, int] = field(default_factory=dict)   # every icon key the page draws
    icons: list[dict] = field(default_factory=list)   # every painted icon: {"key", "box", "holder"} (js/harvest.js)
    doc_lang: str = ""     # the page's <html lang>, for grounding pages
    blocked: list[str] = field(default_factory=list)   # requests aborted while it loaded (off the page's site)
    covered: list[str] = field(default_factory=list)   # widget parts (HIT_TESTED ids) a click would not reach
    status: int = 0    # a folder page's HTTP status (0: no response, e.g. Chromium's error page)
    url: str = ""      # the URL a folder page showed when it was captured (another than its own: it navigated)
    dark_scheme: bool = False   # a folder page: whether it could look otherwise in the dark scheme


class Browser:
    """A lazily started Chromium that renders PageSpecs; restarts itself if it dies or hangs.

    Pages render in a tab per screen (size, density, mobile or not) whose emulation never changes, and one
    renderer process serves them all. A page's pixels depend a little on what the renderer painted before
    (pictures painted from decodes cached by an earlier page, under rounded clips; a tab's first page), so a
    page rendered on its own is loaded twice after a small warm-up page, which makes its pixels the same
    every time; a render block (`block`) instead gets a browser context of its own and loads each page once,
    in the block's order, in tabs that show no warm-up page, which makes the block's pixels the same wherever
    it renders, at a third less Chromium time. The browser restarts every RESTART_EVERY pages (never inside a
    block), which bounds its memory. Pages render to the same pixels whatever ran before
    (tests/screens/test_browser.py)."""

    def __init__(self) -> None:
        self._chromium = Chromium(CHROMIUM_ARGS)
        self._tabs: dict[tuple, _Tab] = {}
        self._front: tuple | None = None    # the key of the tab in front
        self._site: Site | None = None   # the folder served at ORIGIN for the page being rendered
        self._blocked: list[str] = []    # requests aborted during the current render
        self._block: list[PageSpec] | None = None   # inside a render block: the pages it rendered so far

    def _new_context(self) -> None:
        """A browser context with no tabs but the web screen's (its warm-up page shown outside a block)."""
        self._tabs.clear()
        context = self._chromium.new_context(self._route, _STEADY_JS, no_viewport=True, java_script_enabled=True)
        # The browser's first tab paints unlike any later one even after its warm-up page (desktop/mail_client's
        # avatars): open the web screen's tab now, so that no page is ever painted in the first tab's way
        # unless it also is after a restart.
        web = (*PLATFORMS["web"]["viewport"], PLATFORMS["web"]["dpr"], False)
        self._tabs[web], self._front = _Tab(context, *web, warm=self._block is None), web

    @contextlib.contextmanager
    def block(self):
        """Render a block of pages (pools.page_blocks) inside the `with`: in a fresh browser context, each
        page loaded once. After a crash or hang the block starts again in a fresh browser and renders its
        earlier pages again before the page that failed, so that its pixels do not depend on the failure."""
        self._block = []
        try:
            if self._chromium.running:
                if self._chromium.used >= RESTART_EVERY:
                    self.close()
                else:
                    with self._chromium.watchdog():
                        try:
                            self._new_context()
                        except Exception as e:  # a crashed or hung browser
                            log.warning("Chromium failed (%s); restarting it",
                                        "hung" if self._chromium.killed else first_line(e))
                            self.restart()
            yield
        finally:
            self._block = None

    def _route(self, route) -> None:
        """Serve the current folder at ORIGIN; abort (and record) every other request."""
        if self._site is not None and route.request.url.startswith(ORIGIN + "/"):
            self._site.fulfil(route)
        else:
            self._blocked.append(route.request.url)
            route.abort()

    def _page(self, spec: PageSpec) -> "_Tab":
        if self._chromium.used >= RESTART_EVERY and self._block is None:
            self.close()
        if not self._chromium.running:
            self._chromium.start()
            self._new_context()
        (width, height), dpr = spec.screen
        key = (width, height, dpr, spec.platform == "mobile")
        if key not in self._tabs:
            self._tabs[key] = _Tab(self._chromium.context, *key, warm=self._block is None)
        elif key != self._front:   # a capture of a tab in the background first waits ~0.8 s for a frame
            self._tabs[key].page.bring_to_front()
        self._front = key
        return self._tabs[key]

    def render(self, spec: PageSpec, attempts: int = 2) -> RenderedPage:
        """Render one page; retries once (with `attempts` 2) on a fresh browser if Chromium crashed or hung
        (a page took over HANG_S).
        A page that differs from the one its tab shows only in the widget's controls is not loaded again:
        the tab switches the controls in place, which gives the same pixels (tests/screens/test_browser.py)."""
        for attempt in range(attempts):
            try:
                for earlier in (self._block or []) if attempt else []:   # the block again, see `block`
                    with self._chromium.watchdog():
                        self._render(earlier)
                with self._chromium.watchdog():
                    page = self._render(spec)
                if self._block is not None:
                    self._block.append(spec)
                return page
            except Exception as e:  # a crashed or hung browser: restart and try again
                if attempt == attempts - 1 and self._chromium.killed:
                    raise RuntimeError(f"Chromium hung rendering {spec.template} (over {chromium.HANG_S} s)") from e
                if attempt == attempts - 1 or "playwright" not in type(e).__module__:
                    raise
                log.warning("Chromium failed (%s); restarting it",
                            "hung" if self._chromium.killed else first_line(e))
                self.close()
        raise AssertionError("unreachable")

    def _render(self, spec: PageSpec) -> RenderedPage:
        tab = self._page(spec)
        self._site, self._blocked = (Site(spec.site) if spec.site else None), []
        tab.show(spec, once=self._block is not None)
        self._chromium.used += 1
        found = (json.loads(tab.page.evaluate(_ELEMENTS_JS)) if spec.mode == "none" else
                 {"elements": [], "texts": {}, "labels": [], "decor": {}, "marks": [], "icons": [], "shown": {},
                  "lang": ""})
        # device px per CSS px: a phone shows a page without a viewport <meta> zoomed out to fit its width
        px = tab.dpr * (tab.page.evaluate(_SCALE_JS) if spec.site and spec.mode == "none" else 1)
        for el in found["elements"] + found["labels"] + found["icons"]:
            el["box"] = [float(v) * px for v in el["box"]]
        marks = [[float(v) * px for v in m] for m in found["marks"]]
        boxes = tab.boxes()
        rgb = tab.capture(boxes)
        covered = tab.page.evaluate(_COVERED_JS, HIT_TESTED) if spec.mode != "none" else []
        status, url, dark = tab.site_load if spec.site else (0, "", False)
        return RenderedPage(spec=spec, rgb=rgb, boxes=boxes, dpr=px, elements=found["elements"],
                            texts=found["texts"], labels=found["labels"], decor_icons=found["decor"], marks=marks,
                            shown_icons=found["shown"], icons=found["icons"], doc_lang=found["lang"],
                            blocked=sorted(set(self._blocked)),
                            covered=covered, status=status, url=url, dark_scheme=dark)

    def restart(self) -> None:
        """Stop Chromium for a fresh start at the next render, killing its processes first, so that a hung
        Chromium cannot block."""
        self._tabs.clear()
        self._front = None
        self._chromium.restart()

    def close(self) -> None:
        """Stop Chromium and Playwright; safe to call twice."""
        self._tabs.clear()
        self._front = None
        self._chromium.close()


class _Tab:
    """A page of the context with a fixed screen, emulated through a DevTools session of its own (which
    also makes captures come at device pixels)."""

    def __init__(self, context, width: int, height: int, dpr: int, mobile: bool, warm: bool = True) -> None:
        self.page, self.width, self.height, self.dpr = context.new_page(), width, height, dpr
        self.shows: PageSpec | None = None     # the page on screen
        # a folder page's HTTP status and URL when it settled, and whether it has a dark scheme
        self.site_load: tuple[int, str, bool] = (0, "", False)
        self._doc_status = 0    # the HTTP status of the last document the tab loaded
        self.page.on("response", self._on_response)
        self.switched = False                  # whether its widget's controls were switched since it loaded
        self._loaded: tuple[np.ndarray, list[float]] | None = None   # its capture and widget box as loaded
        self._cdp = context.new_cdp_session(self.page)
        self._cdp.send("Emulation.setDeviceMetricsOverride",
                       {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": mobile})
        self._cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 1} if mobile
                       else {"enabled": False})
        if mobile:       # a phone's browser: pages that look at the user agent take it for one
            self._cdp.send("Emulation.setUserAgentOverride", {"userAgent": MOBILE_UA, "platform": "Android"})
        self.scheme = ""     # the colour scheme emulated ("": none, the browser's light one)
        self.origin = [0, 0]     # the page's scroll offset, CSS px
        if warm:
            self.page.set_content(_WARM_UP_HTML, wait_until="load")
            self.page.evaluate(_NEXT_FRAME_JS)
            self.capture()


    def show(self, spec: PageSpec, once: bool = False) -> None:
        """Show a page (a folder page from its URL, others from their HTML, loaded `once` or twice, see
        Browser), one frame after its load event; or, if the tab shows it with other widget controls, by
        switching them in place."""
        if spec.mode != "none" and self.shows is not None and replace(self.shows, controls=spec.controls) == spec:
            self.switch_controls(spec)
            return
        self.shows, self.switched, self._loaded = None, False, None    # until it has loaded
        self.origin = [0, 0]
        if spec.site:
            self.show_site(spec)
        else:
            if self.page.url != "about:blank":    # after a folder page: leave its origin
                self.page.goto("about:blank")
            if self.scheme:                       # and its colour scheme (also after our composite document)
                self.emulate_scheme("")
            html = render_html(spec)
            if not once:
                self.page.set_content(_WARM_UP_HTML, wait_until="load")
            for _ in range(1 if once else 2):
                self.page.set_content(html, wait_until="load", timeout=30_000)
                self.page.evaluate(_NEXT_FRAME_JS)
        self.page.evaluate(_NEXT_FRAME_JS)
        self.shows = spec

    def _on_response(self, response) -> None:
        if response.request.is_navigation_request() and response.frame == self.page.main_frame:
            self._doc_status = response.status

    def show_site(self, spec: PageSpec) -> None:
        """Load a folder page from its URL and let it settle: its requests done (or 5 s gone), fonts loaded,
        animations and transitions at their end, its clock run ahead; its last document's status, its URL and whether
        it has a dark scheme go to `site_load`. If the page has a CAPTCHA widget, it is then shown in a document of
        our own over its pixels (_COMPOSITE_HTML)."""
        if spec.scheme != self.scheme:
            self.emulate_scheme(spec.scheme)
        self._doc_status = 0
        self.page.goto(page_url(spec.template), wait_until="load", timeout=SITE_LOAD_MS)
        try:
            self.page.wait_for_load_state("networkidle", timeout=5_000)
        except Exception as e:
            if "Timeout" not in type(e).__name__:
                raise
        self.page.evaluate(_RUN_CLOCK_JS, [CLOCK_FRAMES, CLOCK_STEP_MS])
        self.page.add_style_tag(content=_STILL_CSS)
        self.page.evaluate("() => document.fonts.ready.then(() => undefined)")
        self.page.evaluate(_NEXT_FRAME_JS)
        self.site_load = (self._doc_status, self.page.url, bool(self.page.evaluate(_DARK_SCHEME_JS)))
        if spec.scroll:      # a capture's clip is in page coordinates: it starts where the view is scrolled to
            self.origin = self.page.evaluate(_SCROLL_JS, spec.scroll)
        if spec.mode != "none":
            png = cv2.imencode(".png", cv2.cvtColor(self._shot(0, 0, self.width, self.height), cv2.COLOR_RGB2BGR))[1]
            self.page.goto("about:blank")
            self.page.set_content(_COMPOSITE_HTML.format(w=self.width, h=self.height, widget=widget_overlay(spec),
                                                         png=base64.b64encode(png.tobytes()).decode()),
                                  wait_until="load", timeout=30_000)
            self.origin = [0, 0]     # our document does not scroll
            self.page.evaluate(_NEXT_FRAME_JS)

    def emulate_scheme(self, scheme: str) -> None:
        """Emulate `prefers-color-scheme: dark` ("dark") or the browser's default ("")."""
        self._cdp.send("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": scheme}]})
        self.scheme = scheme

    def switch_controls(self, spec: PageSpec) -> None:
        """Show `spec`, which differs from the page shown only in the widget's controls, without loading it."""
        self.page.evaluate(_CONTROLS_JS, spec.controls)
        self.shows, self.switched = spec, True

    def boxes(self) -> dict[str, list[float]]:
        """The widget's element boxes in device pixels (absent elements left out)."""
        boxes = self.page.evaluate(_BOXES_JS, BOX_IDS)
        return {k: [float(v) * self.dpr for v in b] for k, b in boxes.items() if b is not None}

    def capture(self, boxes: dict[str, list[float]] | None = None) -> np.ndarray:
        """RGB pixels of the viewport at device resolution. After the widget's controls were switched in
        place (its box unchanged, `boxes` as `boxes()` gives them), only the widget is captured again and laid
        over the capture of the page as loaded: nothing else has changed (tests/screens/test_browser.py)."""
        widget = (boxes or {}).get("synth-widget")
        if self.switched and self._loaded is not None and widget == self._loaded[1]:
            x0, y0 = (max(0, math.floor(v / self.dpr) - 1) for v in widget[:2])   # whole CSS px, and one more
            x1 = min(self.width, math.ceil(widget[2] / self.dpr) + 1)
            y1 = min(self.height, math.ceil(widget[3] / self.dpr) + 1)
            rgb = self._loaded[0].copy()
            d = self.dpr
            rgb[y0 * d:y1 * d, x0 * d:x1 * d] = self._shot(x0, y0, x1 - x0, y1 - y0)
            return rgb
        rgb = self._shot(0, 0, self.width, self.height)
        self._loaded = (rgb.copy(), widget) if not self.switched and widget is not None else None
        return rgb

    def _shot(self, x: int, y: int, width: int, height: int) -> np.ndarray:
        """RGB pixels of a rectangle of the viewport (CSS px) at device resolution. A lossless PNG with
        Chromium's fast compression: the same pixels as Playwright's screenshot, in half the time."""
        shot = self._cdp.send("Page.captureScreenshot", {
            "format": "png", "optimizeForSpeed": True,
            "clip": {"x": x + self.origin[0], "y": y + self.origin[1], "width": width, "height": height, "scale": 1}})
        png = np.frombuffer(base64.b64decode(shot["data"]), np.uint8)
        return cv2.imdecode(png, cv2.IMREAD_COLOR_RGB)
