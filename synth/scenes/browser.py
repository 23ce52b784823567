"""A headless Chromium (the page server's, or a process's own): renders a page spec to pixels plus DOM boxes."""
import base64
import logging
import os
import shutil
import signal
import threading
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from synth import first_line
from synth.scenes.pages import PageSpec, render_html

log = logging.getLogger(__name__)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                 "--no-first-run", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 "--font-render-hinting=none", "--renderer-process-limit=1",
                 "--js-flags=--max-old-space-size=32",   # the pages' scripts are small; a larger heap only grows
                 "--disable-partial-raster"]   # a change in place repaints whole tiles: the pixels of a fresh load
RESTART_EVERY = 360  # pages per browser (20 pools), to bound its memory
HANG_S = 60          # longest a page may take; then Chromium counts as hung and is killed
BOX_IDS = ["synth-widget", "synth-instruction", "synth-puzzle", "synth-answer", "synth-verify", "synth-refresh", "synth-skip"]

# Every element annotated for grounding (data-g), with its box, what it shows, and whether it is the
# element hit at its centre and near its corners (so that it is visible and not covered or clipped).
_ELEMENTS_JS = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const hits = (el, x, y) => { const h = document.elementFromPoint(x, y); return !!h && (h === el || el.contains(h)); };
  const texts = {};
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent.replace(/\\s+/g, ' ').trim();
    const p = n.parentElement;
    if (t && p && p.getClientRects().length && getComputedStyle(p).visibility !== 'hidden') texts[t] = (texts[t] || 0) + 1;
  }
  const els = Array.from(document.querySelectorAll('[data-g]')).map((el, i) => {
    const r = el.getBoundingClientRect();
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    const ix = Math.min(r.width, r.height) * 0.3, iy = ix;   // inside the rounded corners of pills and circles
    const text = (el.innerText || el.getAttribute('aria-label') || el.getAttribute('title') || '').replace(/\\s+/g, ' ').trim();
    return {index: i, role: el.dataset.g, box: [r.left, r.top, r.right, r.bottom], text,
            icon: el.dataset.gIcon || '', fn: el.dataset.gFn || '', field: el.dataset.gField || '',
            sample: el.dataset.gSample || '', placeholder: el.getAttribute('placeholder') || '',
            centre_hit: hits(el, cx, cy),
            corners_hit: [[r.left + ix, r.top + iy], [r.right - ix, r.top + iy], [r.left + ix, r.bottom - iy],
                          [r.right - ix, r.bottom - iy]].every(([x, y]) => x >= 0 && y >= 0 && x < vw && y < vh && hits(el, x, y)),
            in_viewport: r.left >= 0 && r.top >= 0 && r.right <= vw && r.bottom <= vh};
  });
  const decor = {};   // icons drawn on the page that are not targets themselves
  for (const el of document.querySelectorAll('[data-g-icon]:not([data-g])'))
    if (el.getClientRects().length) decor[el.dataset.gIcon] = (decor[el.dataset.gIcon] || 0) + 1;
  return {elements: els, texts, decor};
}"""

# Resolves at the page's next frame. A capture right after the load event sometimes shows a few rows of a
# mobile screen (device pixel ratio 3) with other anti-aliasing than a later capture (mobile/chat: ~1 render
# in 7); after one frame, every capture is the same (tests/test_browser.py).
_NEXT_FRAME_JS = "() => new Promise(done => requestAnimationFrame(done))"

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
    decor_icons: dict[str, int] = field(default_factory=dict)   # icons shown by elements that are not targets


def chromium_path() -> str | None:
    """The system Chromium, if installed (Playwright's own download does not work offline)."""
    for name in (os.environ.get("SYNTH_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                 shutil.which("chromium-browser")):
        if name and os.path.exists(name):
            return name
    return None


class Browser:
    """A lazily started Chromium that renders PageSpecs; restarts itself if it dies or hangs.

    Pages render in one browser context, in a tab per screen (size, density, mobile or not) whose emulation
    never changes, and one renderer process serves them all. A new context would cost Chromium a renderer
    and the renderer of an omnibox popup it preloads, ~0.5 s of CPU each, so the context lives as long as
    the browser; the browser restarts every RESTART_EVERY pages, which bounds its memory. Pages render to
    the same pixels whatever ran before (tests/test_browser.py)."""

    def __init__(self) -> None:
        self._pw = None
        self._browser = None
        self._context = None
        self._tabs: dict[tuple, _Tab] = {}
        self._front: tuple | None = None    # the key of the tab in front
        self._pages = 0     # rendered since the browser started
        self._group: int | None = None   # Chromium's process group: its browser process and all the others
        self._killed = False             # by the hang watchdog

    def _start(self) -> None:
        from playwright.sync_api import sync_playwright
        self._pw = sync_playwright().start()
        path = chromium_path()
        try:
            self._browser = self._pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        except Exception as e:
            self.close()
            raise RuntimeError(f"cannot start Chromium ({path or 'Playwright managed'}): "
                               f"install it with `apt-get install chromium` ({e.__class__.__name__})") from e
        self._context = self._browser.new_context(no_viewport=True, java_script_enabled=True)
        self._context.route("**/*", lambda route: route.abort())
        processes = self._browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")["processInfo"]
        self._group = next(p["id"] for p in processes if p["type"] == "browser")

    def _page(self, spec: PageSpec) -> "_Tab":
        if self._pages >= RESTART_EVERY:
            self.close()
        if self._browser is None:
            self._start()
        (width, height), dpr = spec.screen
        key = (width, height, dpr, spec.platform == "mobile")
        if key not in self._tabs:
            self._tabs[key] = _Tab(self._context, *key)
        elif key != self._front:   # a capture of a tab in the background first waits ~0.8 s for a frame
            self._tabs[key].page.bring_to_front()
        self._front = key
        return self._tabs[key]

    def render(self, spec: PageSpec) -> RenderedPage:
        """Render one page; retries once on a fresh browser if Chromium crashed or hung (took over HANG_S).
        A page that differs from the one its tab shows only in the widget's controls is not loaded again:
        the tab switches the controls in place, which gives the same pixels (tests/test_browser.py)."""
        for attempt in range(2):
            self._killed = False
            watchdog = threading.Timer(HANG_S, self._kill)
            watchdog.start()
            try:
                return self._render(spec)
            except Exception as e:  # a crashed or hung browser: restart and try again
                if attempt == 1 and self._killed:
                    raise RuntimeError(f"Chromium hung twice rendering {spec.template} (over {HANG_S} s)") from e
                if attempt == 1 or "playwright" not in type(e).__module__:
                    raise
                log.warning("Chromium failed (%s); restarting it",
                            "hung" if self._killed else first_line(e))
                self.close()
            finally:
                watchdog.cancel()
        raise AssertionError("unreachable")

    def _render(self, spec: PageSpec) -> RenderedPage:
        tab = self._page(spec)
        tab.show(spec)
        self._pages += 1
        found = tab.page.evaluate(_ELEMENTS_JS) if spec.mode == "none" else {"elements": [], "texts": {}, "decor": {}}
        for el in found["elements"]:
            el["box"] = [float(v) * tab.dpr for v in el["box"]]
        return RenderedPage(spec=spec, rgb=tab.capture(), boxes=tab.boxes(), dpr=tab.dpr, elements=found["elements"],
                            texts=found["texts"], decor_icons=found["decor"])

    def _kill(self) -> None:
        """Kill every Chromium process (from the watchdog's thread): the render waiting on it then fails."""
        if self._group is not None:
            self._killed = True
            try:
                os.killpg(self._group, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def close(self) -> None:
        """Stop Chromium and Playwright; safe to call twice."""
        self._tabs.clear()
        self._front, self._pages, self._group = None, 0, None
        for obj in (self._context, self._browser, self._pw):
            try:
                if obj is not None:
                    obj.stop() if obj is self._pw else obj.close()
            except Exception:
                pass
        self._context = self._browser = self._pw = None


class _Tab:
    """A page of the context with a fixed screen, emulated through a DevTools session of its own (which
    also makes captures come at device pixels)."""

    def __init__(self, context, width: int, height: int, dpr: int, mobile: bool) -> None:
        self.page, self.width, self.height, self.dpr = context.new_page(), width, height, dpr
        self.shows: PageSpec | None = None     # the page on screen
        self._cdp = context.new_cdp_session(self.page)
        self._cdp.send("Emulation.setDeviceMetricsOverride",
                       {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": mobile})
        self._cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 1} if mobile
                       else {"enabled": False})

    def show(self, spec: PageSpec) -> None:
        """Show a page, one frame after its load event; or, if the tab shows it with other widget controls,
        by switching them in place."""
        if spec.mode != "none" and self.shows is not None and replace(self.shows, controls=spec.controls) == spec:
            self.switch_controls(spec)
            return
        html = render_html(spec)
        self.shows = None    # until it has loaded
        self.page.set_content(html, wait_until="load", timeout=30_000)
        self.page.evaluate(_NEXT_FRAME_JS)
        self.shows = spec

    def switch_controls(self, spec: PageSpec) -> None:
        """Show `spec`, which differs from the page shown only in the widget's controls, without loading it."""
        self.page.evaluate(_CONTROLS_JS, spec.controls)
        self.shows = spec

    def boxes(self) -> dict[str, list[float]]:
        """The widget's element boxes in device pixels (absent elements left out)."""
        boxes = self.page.evaluate(_BOXES_JS, BOX_IDS)
        return {k: [float(v) * self.dpr for v in b] for k, b in boxes.items() if b is not None}

    def capture(self) -> np.ndarray:
        """RGB pixels of the viewport at device resolution. A lossless PNG with Chromium's fast compression:
        the same pixels as Playwright's screenshot, in half the time."""
        shot = self._cdp.send("Page.captureScreenshot", {
            "format": "png", "optimizeForSpeed": True,
            "clip": {"x": 0, "y": 0, "width": self.width, "height": self.height, "scale": 1}})
        png = np.frombuffer(base64.b64decode(shot["data"]), np.uint8)
        return cv2.cvtColor(cv2.imdecode(png, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
