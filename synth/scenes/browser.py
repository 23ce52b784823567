"""One headless Chromium per worker: renders a page spec to pixels plus DOM boxes."""
import logging
import os
import shutil
from dataclasses import dataclass

import cv2
import numpy as np

from synth.scenes.pages import PLATFORMS, PageSpec, render_html

log = logging.getLogger(__name__)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                 "--no-first-run", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 "--font-render-hinting=none"]
RECYCLE_EVERY = 50   # pages per browser context, to bound Chromium's memory growth
BOX_IDS = ["synth-widget", "synth-instruction", "synth-puzzle", "synth-answer", "synth-verify", "synth-refresh", "synth-skip"]

_BOXES_JS = """ids => Object.fromEntries(ids.map(id => {
  const e = document.getElementById(id);
  if (!e) return [id, null];
  const r = e.getBoundingClientRect();
  return [id, [r.left, r.top, r.right, r.bottom]];
}))"""


@dataclass
class RenderedPage:
    """A screenshot (H, W, 3 uint8 RGB) and element boxes in its pixels."""
    spec: PageSpec
    rgb: np.ndarray
    boxes: dict[str, list[float]]
    dpr: int


def chromium_path() -> str | None:
    """The system Chromium, if installed (Playwright's own download does not work offline)."""
    for name in (os.environ.get("SYNTH_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                 shutil.which("chromium-browser")):
        if name and os.path.exists(name):
            return name
    return None


class Browser:
    """A lazily started Chromium that renders PageSpecs; restarts itself if it dies."""

    def __init__(self) -> None:
        self._pw = None
        self._browser = None
        self._contexts: dict[tuple, tuple] = {}

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

    def _page(self, platform: str):
        if self._browser is None:
            self._start()
        entry = self._contexts.get(platform)
        if entry is None or entry[2] >= RECYCLE_EVERY:
            if entry is not None:
                entry[0].close()
            plat = PLATFORMS[platform]
            ctx = self._browser.new_context(
                viewport={"width": plat["viewport"][0], "height": plat["viewport"][1]},
                device_scale_factor=plat["dpr"], is_mobile=platform == "mobile",
                has_touch=platform == "mobile", java_script_enabled=True)
            ctx.route("**/*", lambda route: route.abort())
            entry = [ctx, ctx.new_page(), 0]
            self._contexts[platform] = entry
        entry[2] += 1
        return entry[1]

    def render(self, spec: PageSpec) -> RenderedPage:
        """Render one page; retries once on a fresh browser if Chromium crashed."""
        html = render_html(spec)
        for attempt in range(2):
            try:
                return self._render(spec, html)
            except Exception as e:  # a crashed or hung browser: restart and try again
                if attempt == 1 or "playwright" not in type(e).__module__:
                    raise
                log.warning("Chromium failed (%s); restarting it", e)
                self.close()
        raise AssertionError("unreachable")

    def _render(self, spec: PageSpec, html: str) -> RenderedPage:
        page = self._page(spec.platform)
        page.set_content(html, wait_until="load", timeout=30_000)
        boxes = page.evaluate(_BOXES_JS, BOX_IDS)
        png = page.screenshot(type="png", animations="disabled", caret="hide", timeout=30_000)
        rgb = cv2.cvtColor(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        dpr = PLATFORMS[spec.platform]["dpr"]
        scaled = {k: [float(v) * dpr for v in b] for k, b in boxes.items() if b is not None}
        return RenderedPage(spec=spec, rgb=rgb, boxes=scaled, dpr=dpr)

    def close(self) -> None:
        """Stop Chromium and Playwright; safe to call twice."""
        for ctx, _, _ in self._contexts.values():
            try:
                ctx.close()
            except Exception:
                pass
        self._contexts.clear()
        for obj in (self._browser, self._pw):
            try:
                if obj is not None:
                    obj.close() if obj is self._browser else obj.stop()
            except Exception:
                pass
        self._browser = self._pw = None
