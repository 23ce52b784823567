"""A headless Chromium (the page server's, or a process's own): renders a page spec to pixels plus DOM boxes."""
import base64
import contextlib
import json
import logging
import math
import os
import shutil
import signal
import threading
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from synth.core.errors import first_line
from synth.screens.pages import PLATFORMS, PageSpec, render_html, widget_overlay
from synth.screens.site import ORIGIN, Site, page_url

log = logging.getLogger(__name__)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                 "--no-first-run", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 "--font-render-hinting=none", "--renderer-process-limit=1",
                 "--js-flags=--max-old-space-size=128",  # set_content passes a page's HTML (up to ~2 MB with its
                                                         # design system's CSS) through the page's JS heap
                 "--disable-partial-raster"]   # a change in place repaints whole tiles: the pixels of a fresh load
RESTART_EVERY = 360  # pages per browser (20 pools), to bound its memory
HANG_S = 60          # longest a page may take; then Chromium counts as hung and is killed
BOX_IDS = ["synth-widget", "synth-instruction", "synth-puzzle", "synth-answer", "synth-verify", "synth-refresh", "synth-skip"]

# The grounding harvester, one for every page: the interactive elements of the page found by tag and ARIA role
# (links, buttons, fields, selects, checkboxes, tabs, menu items, icons, images), with `data-g` marks taken as
# hints (role, icon, function, field, sample value), so that an element marked data-g, and anything inside or
# around it, is the marked element alone. Each comes with its box, its accessible name (`name`), the text drawn
# inside it (`text`: only text that is rendered there, not clipped, not covered, so an instruction that quotes
# it quotes what the screenshot shows), and whether it is the element hit at its centre and near its corners
# (visible, not covered or clipped). Also: the count of each visible text on the page, the icons drawn by
# elements that are not targets, the boxes of icons and pictures outside every element, every icon key drawn
# (`data-icon`, `data-g-icon`), and the document's language; all as one JSON string.
_ELEMENTS_JS = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const clean = s => (s || '').replace(/\\s+/g, ' ').trim();
  const hits = (el, x, y) => { const h = document.elementFromPoint(x, y); return !!h && (h === el || el.contains(h)); };
  const texts = {}, shownNodes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = clean(n.textContent);
    const p = n.parentElement;
    if (t && p && p.getClientRects().length && getComputedStyle(p).visibility !== 'hidden') {
      texts[t] = (texts[t] || 0) + 1;
      shownNodes.push([t, n, p]);
    }
  }
  // an element's place in the document: the ids of its ancestors and itself, from the root down
  const ids = new Map();
  const pathOf = el => { const path = []; for (let e = el; e; e = e.parentElement) {
    if (!ids.has(e)) ids.set(e, ids.size); path.push(ids.get(e)); } return path.reverse(); };
  const KIND = 'a[href], button, input:not([type=hidden]), select, textarea, summary, img[alt]:not([alt=""]), ' +
    '[role=button], [role=link], [role=tab], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], ' +
    '[role=checkbox], [role=switch], [role=radio]';
  const drawn = el => {
    if (!el.getClientRects().length) return false;
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && parseFloat(s.opacity) > 0;
  };
  // the text rendered inside `el`: every text node inside its box and shown at its centre; '' if any is not
  const shownText = el => {
    const r = el.getBoundingClientRect(), parts = [];
    const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const t = clean(n.textContent), p = n.parentElement;
      if (!t || !p.getClientRects().length || getComputedStyle(p).visibility === 'hidden') continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const b = range.getBoundingClientRect();
      if (b.width < 1 || b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1
          || !hits(p, (b.left + b.right) / 2, (b.top + b.bottom) / 2)) return '';
      parts.push(t);
    }
    return clean(parts.join(' '));
  };
  const byIds = ids => clean(ids.split(/\\s+/).map(id => { const e = document.getElementById(id); return e ? e.textContent : ''; }).join(' '));
  const labelOf = el => {
    if (el.id) { const l = document.querySelector(`label[for="${CSS.escape(el.id)}"]`); if (l) return clean(l.textContent); }
    const l = el.closest('label');
    return l ? clean(l.textContent) : '';
  };
  const nameOf = (el, shown) => clean(
    (el.getAttribute('aria-labelledby') && byIds(el.getAttribute('aria-labelledby'))) || el.getAttribute('aria-label') ||
    (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && labelOf(el)) || (el.tagName === 'IMG' && el.getAttribute('alt')) ||
    shown || clean(el.textContent) || el.getAttribute('title') || el.getAttribute('placeholder') ||
    (el.querySelector('img[alt]') || {getAttribute: () => ''}).getAttribute('alt') || '');
  const TEXTUAL = /^(text|search|email|url|tel|password|number|)$/;
  const roleOf = (el, shown) => {
    const role = el.getAttribute('role') || '', tag = el.tagName, type = (el.getAttribute('type') || '').toLowerCase();
    if (tag === 'INPUT' && (type === 'checkbox' || type === 'radio') || /^(checkbox|switch|radio)$/.test(role)) return 'checkbox';
    if (role === 'tab') return 'tab';
    if (role.startsWith('menuitem')) return 'menuitem';
    if (tag === 'SELECT') return 'select';
    if (tag === 'TEXTAREA' || tag === 'INPUT' && TEXTUAL.test(type)) return 'input';
    if (tag === 'IMG') return 'image';
    if (!shown && el.querySelector('svg, img, i')) return 'icon';
    return tag === 'A' || role === 'link' ? 'link' : 'button';
  };
  const FIELD = {email: 'email', password: 'password', search: 'search', tel: 'phone'};
  // the text `el` draws in `box`: a field's value or placeholder, a select's chosen option, a button's value,
  // else the text rendered inside (an icon button's aria-label is its name, not its text)
  const drawnText = (el, box) => {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (el.tagName === 'SELECT') return clean(el.selectedOptions.length ? el.selectedOptions[0].textContent : '');
    if (el.tagName === 'INPUT' && /^(button|submit|reset)$/.test(type)) return clean(el.value);
    if (el.tagName === 'INPUT' && TEXTUAL.test(type) && type !== 'password' || el.tagName === 'TEXTAREA')
      return clean(el.value || el.getAttribute('placeholder'));
    return box === el && /^(INPUT|IMG)$/.test(el.tagName) ? '' : shownText(box);
  };
  const marked = Array.from(document.querySelectorAll('[data-g]'));
  const found = marked.map(el => [el, el.dataset.g, drawnText(el, el)]);
  for (const el of document.querySelectorAll(KIND)) {
    if (el.closest('[data-g]') || el.querySelector('[data-g]') || (el.parentElement && el.parentElement.closest(KIND))) continue;
    const type = (el.getAttribute('type') || '').toLowerCase();
    // a checkbox or radio inside its <label> is the label: its text is drawn there, and a click on it checks the box
    const box = el.tagName === 'INPUT' && (type === 'checkbox' || type === 'radio') && el.closest('label') || el;
    if (!drawn(box)) continue;
    const shown = drawnText(el, box);
    found.push([box, roleOf(el, shown), shown, el]);
  }
  const els = found.map(([el, role, text, source], i) => {
    source = source || el;
    const r = el.getBoundingClientRect();
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    const ix = Math.min(r.width, r.height) * 0.3, iy = ix;   // inside the rounded corners of pills and circles
    const type = (source.getAttribute('type') || '').toLowerCase();
    return {index: i, role, box: [r.left, r.top, r.right, r.bottom], text, name: nameOf(source, text), path: pathOf(el),
            icon: el.dataset.gIcon || '', fn: el.dataset.gFn || '',
            field: el.dataset.gField || (el.dataset.g ? '' : FIELD[type] || ''),
            sample: el.dataset.gSample || '', placeholder: source.getAttribute('placeholder') || '',
            centre_hit: hits(el, cx, cy),
            corners_hit: [[r.left + ix, r.top + iy], [r.right - ix, r.top + iy], [r.left + ix, r.bottom - iy],
                          [r.right - ix, r.bottom - iy]].every(([x, y]) => x >= 0 && y >= 0 && x < vw && y < vh && hits(el, x, y)),
            nine_hit: [r.left + ix, cx, r.right - ix].every(x => [r.top + iy, cy, r.bottom - iy].every(
              y => x >= 0 && y >= 0 && x < vw && y < vh && hits(el, x, y))),
            in_viewport: r.left >= 0 && r.top >= 0 && r.right <= vw && r.bottom <= vh};
  });
  // --- panels and painted icons (self-contained: needs `found`, `els`, `ids`, `drawn`, `clean`, vw, vh) ---
  // An element's panel: its nearest ancestor that sets a part of the screen apart (a nav, list, table, form,
  // toolbar, dialog..., or a box that draws its own edge: a border, a shadow, a background unlike the one
  // behind it) and holds more than the element itself; a relation's anchor and target share their panel.
  const PANEL_TAGS = /^(NAV|HEADER|FOOTER|ASIDE|MAIN|FORM|UL|OL|TABLE|SECTION|DIALOG|FIELDSET|MENU)$/;
  const PANEL_ROLES = /^(toolbar|list|listbox|menu|menubar|tablist|navigation|dialog|region|group|grid|table|tabpanel|tree|banner|contentinfo|complementary|main|search)$/;
  const holdsCount = new Map();   // per ancestor: harvested elements and loose drawn texts inside it
  const countUp = e => { for (let a = e.parentElement; a; a = a.parentElement) holdsCount.set(a, (holdsCount.get(a) || 0) + 1); };
  found.forEach(f => countUp(f[0]));
  for (const [, , p] of shownNodes) if (!found.some(f => f[0].contains(p))) countUp(p);
  const opaque = c => { const m = c.match(/[\\d.]+/g); return !!m && (m.length < 4 || parseFloat(m[3]) > 0.05); };
  const backdrop = e => { for (let a = e; a; a = a.parentElement) { const c = getComputedStyle(a).backgroundColor;
    if (opaque(c)) return c; } return 'rgb(255, 255, 255)'; };
  const edges = new Map();
  const edged = e => { if (!edges.has(e)) edges.set(e, edgedNow(e)); return edges.get(e); };
  const edgedNow = e => {
    const s = getComputedStyle(e);
    if (['Top', 'Right', 'Bottom', 'Left'].some(k => parseFloat(s['border' + k + 'Width']) > 0 &&
        !/none|hidden/.test(s['border' + k + 'Style']) && opaque(s['border' + k + 'Color']))) return true;
    if (s.boxShadow !== 'none' || s.backgroundImage !== 'none') return true;
    return opaque(s.backgroundColor) && e.parentElement && s.backgroundColor !== backdrop(e.parentElement);
  };
  const panelOf = el => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
      if ((holdsCount.get(a) || 0) >= 2 && (PANEL_TAGS.test(a.tagName) || PANEL_ROLES.test(a.getAttribute('role') || '') || edged(a)))
        return ids.has(a) ? ids.get(a) : (ids.set(a, ids.size), ids.get(a));
    return -1;
  };
  els.forEach((e, i) => { e.panel = panelOf(found[i][0]); });
  // Every icon painted on screen, once per drawing: outermost <svg>s, small pictures, and empty elements that
  // paint a glyph by CSS (an icon font, a mask, a background picture); with the key of what it shows (its
  // data-icon, else its holder's data-g-icon; '' when the page does not say), its box, and the harvested
  // element that holds it (-1: none). An icon description must fit one of them only.
  const ICON_FONT = /icon|awesome|material|symbol/i;
  const glyph = e => {
    if (e.childElementCount) return false;
    for (const pseudo of ['::before', '::after']) {
      const s = getComputedStyle(e, pseudo);
      if (s.content && !/^(none|normal|""|'')$/.test(s.content) && ICON_FONT.test(s.fontFamily)) return true;
    }
    const s = getComputedStyle(e);
    return ICON_FONT.test(s.fontFamily) && !!clean(e.textContent) || /url\\(/.test(s.maskImage || s.webkitMaskImage || '')
      || /url\\(/.test(s.backgroundImage);
  };
  const holderIndex = e => { let best = -1;
    found.forEach((f, i) => { if (f[0].contains(e) && (best < 0 || found[best][0].contains(f[0]))) best = i; }); return best; };
  const icons = [];
  for (const e of document.body.querySelectorAll('*')) {
    const tag = e.tagName.toLowerCase();
    if (e.ownerSVGElement) continue;
    const r = e.getBoundingClientRect();
    const small = r.width <= 64 && r.height <= 64 && r.width >= 4 && r.height >= 4;
    // pictures (<img>: avatars, thumbnails) and big drawings (charts, maps) are no icons unless marked as one
    const isIcon = small && (tag === 'svg' || e.dataset.icon || e.dataset.gIcon || tag !== 'img' && glyph(e));
    if (!isIcon || !drawn(e) || r.right <= 0 || r.bottom <= 0 || r.left >= vw || r.top >= vh) continue;
    const owner = e.closest('[data-g-icon]');
    icons.push({key: e.dataset.icon || e.dataset.gIcon || (owner ? owner.dataset.gIcon : ''),
                box: [r.left, r.top, r.right, r.bottom], holder: holderIndex(e)});
  }
  for (const e of document.querySelectorAll('[data-g-icon]')) {   // keyed drawings of no <svg> or glyph found above
    const r = e.getBoundingClientRect();
    if (drawn(e) && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh
        && !icons.some(i => i.box[0] >= r.left - 1 && i.box[1] >= r.top - 1 && i.box[2] <= r.right + 1 && i.box[3] <= r.bottom + 1))
      icons.push({key: e.dataset.gIcon, box: [r.left, r.top, r.right, r.bottom], holder: holderIndex(e)});
  }
  // what else is drawn on screen that a person could take for a control: icons and pictures outside every element
  const holders = found.map(f => f[0]), marks = [];
  for (const el of document.querySelectorAll('svg, img, i, [role=img], [data-g-icon]')) {
    if (el.ownerSVGElement || !drawn(el) || holders.some(h => h.contains(el))) continue;
    const r = el.getBoundingClientRect();
    if (r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh) marks.push([r.left, r.top, r.right, r.bottom]);
  }
  // texts drawn once on the page and seen where they are drawn, with their boxes and places (row anchors)
  const labels = [];
  for (const [t, n, p] of shownNodes) {
    if (texts[t] !== 1) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const b = range.getBoundingClientRect();
    if (b.width >= 1 && b.left >= 0 && b.top >= 0 && b.right <= vw && b.bottom <= vh && hits(p, (b.left + b.right) / 2, (b.top + b.bottom) / 2))
      labels.push({text: t, box: [b.left, b.top, b.right, b.bottom], path: pathOf(p), panel: panelOf(n)});
  }
  const drawnIcons = {};   // every icon key drawn on the page (synth.screens.icons marks its drawings)
  for (const el of document.querySelectorAll('svg[data-icon], [data-g-icon]'))
    if (el.getClientRects().length) { const k = el.dataset.icon || el.dataset.gIcon; drawnIcons[k] = (drawnIcons[k] || 0) + 1; }
  const decor = {};   // icons drawn on the page that are not targets themselves
  for (const el of document.querySelectorAll('[data-g-icon]:not([data-g])'))
    if (el.getClientRects().length) decor[el.dataset.gIcon] = (decor[el.dataset.gIcon] || 0) + 1;
  // as one JSON string: Playwright checks a returned object value by value, ~20 ms for a page's harvest
  return JSON.stringify({elements: els, texts, labels, decor, marks, icons, shown: drawnIcons, lang: document.documentElement.lang || ''});
}"""

# Resolves at the page's next frame. A capture right after the load event sometimes shows a few rows of a
# mobile screen (device pixel ratio 3) with other anti-aliasing than a later capture (mobile/chat: ~1 render
# in 7); after one frame, every capture is the same (tests/test_browser.py).
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
  const host = document.getElementById('synth-host');
  (host ? host.shadowRoot : document).getElementById('synth-widget').dataset.controls = controls;
  requestAnimationFrame(done);
})"""

_BOXES_JS = """ids => Object.fromEntries(ids.map(id => {
  const host = document.getElementById('synth-host');   // a folder page's widget is in a shadow root
  const e = (host ? host.shadowRoot : document).getElementById(id);
  if (!e || !e.getClientRects().length) return [id, null];   // absent, or hidden in this widget variant
  const r = e.getBoundingClientRect();
  return [id, [r.left, r.top, r.right, r.bottom]];
}))"""

# For pages of a --pages folder, before their scripts run: Math.random from a fixed seed and a clock that stands
# still, so that a page renders the same pixels every time.
_STEADY_JS = """if (location.origin === '%s') {
  let s = 0x2545F491;
  Math.random = () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) / 4294967296; };
  const T = Date.UTC(2024, 4, 15, 10, 30), RealDate = Date;
  globalThis.Date = class extends RealDate { constructor(...a) { super(...(a.length ? a : [T])); } static now() { return T; } };
}""" % ORIGIN
_STILL_CSS = ("*, *::before, *::after { animation-duration: 0s !important; animation-delay: 0s !important; "
              "transition: none !important; caret-color: transparent !important; }")
# Put a folder page's CAPTCHA widget (pages.widget_overlay) on top of it, in a shadow root of its own
_OVERLAY_JS = """html => {
  const host = document.createElement('synth-overlay');     // a tag no page's stylesheet styles
  host.id = 'synth-host';
  host.style.cssText = 'all: initial; position: fixed; inset: 0; z-index: 2147483647';
  host.attachShadow({mode: 'open'}).innerHTML = html;
  document.documentElement.appendChild(host);
}"""


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
    icons: list[dict] = field(default_factory=list)   # every painted icon: {"key", "box", "holder"} (see harvester)
    doc_lang: str = ""     # the page's <html lang>, for grounding pages
    blocked: list[str] = field(default_factory=list)   # requests aborted while it loaded (off the page's site)


def chromium_path() -> str | None:
    """The system Chromium, if installed (Playwright's own download does not work offline)."""
    for name in (os.environ.get("SYNTH_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                 shutil.which("chromium-browser")):
        if name and os.path.exists(name):
            return name
    return None


def launch(args: list[str], purpose: str = "") -> tuple:
    """Start Playwright and the system Chromium with `args`: (playwright, browser, the process group of all
    Chromium's processes, from its browser process's id). RuntimeError naming the fix, and nothing left
    running, if Chromium does not start; `purpose` goes into that message."""
    from playwright.sync_api import sync_playwright
    pw = sync_playwright().start()
    path = chromium_path()
    try:
        browser = pw.chromium.launch(executable_path=path, args=args)
    except Exception as e:
        pw.stop()
        raise RuntimeError(f"cannot start Chromium ({path or 'Playwright managed'}){purpose}: "
                           f"install it with `apt-get install chromium` ({e.__class__.__name__})") from e
    processes = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")["processInfo"]
    return pw, browser, next(p["id"] for p in processes if p["type"] == "browser")


class Browser:
    """A lazily started Chromium that renders PageSpecs; restarts itself if it dies or hangs.

    Pages render in a tab per screen (size, density, mobile or not) whose emulation never changes, and one
    renderer process serves them all. A page's pixels depend a little on what the renderer painted before
    (pictures painted from decodes cached by an earlier page, under rounded clips; a tab's first page), so a
    page rendered on its own is loaded twice after a small warm-up page, which makes its pixels the same
    every time; a render block (`block`) instead gets a browser context of its own and loads each page once,
    in the block's order, in tabs that show no warm-up page, which makes the block's pixels the same wherever
    it renders, at a third less Chromium time. The browser restarts every RESTART_EVERY pages (never inside a
    block), which bounds its memory. Pages render to the same pixels whatever ran before (tests/test_browser.py)."""

    def __init__(self) -> None:
        self._pw = None
        self._browser = None
        self._context = None
        self._tabs: dict[tuple, _Tab] = {}
        self._front: tuple | None = None    # the key of the tab in front
        self._pages = 0     # rendered since the browser started
        self._group: int | None = None   # Chromium's process group: its browser process and all the others
        self._killed = False             # by the hang watchdog
        self._site: Site | None = None   # the folder served at ORIGIN for the page being rendered
        self._blocked: list[str] = []    # requests aborted during the current render
        self._block: list[PageSpec] | None = None   # inside a render block: the pages it rendered so far

    def _start(self) -> None:
        self._pw, self._browser, self._group = launch(CHROMIUM_ARGS)
        self._new_context()

    def _new_context(self) -> None:
        """A browser context with no tabs but the web screen's (its warm-up page shown outside a block)."""
        self._tabs.clear()
        if self._context is not None:
            self._context.close()
        self._context = self._browser.new_context(no_viewport=True, java_script_enabled=True)
        self._context.add_init_script(_STEADY_JS)
        self._context.route("**/*", self._route)
        # The browser's first tab paints unlike any later one even after its warm-up page (desktop/mail_client's
        # avatars): open the web screen's tab now, so that no page is ever painted in the first tab's way
        # unless it also is after a restart.
        web = (*PLATFORMS["web"]["viewport"], PLATFORMS["web"]["dpr"], False)
        self._tabs[web], self._front = _Tab(self._context, *web, warm=self._block is None), web

    @contextlib.contextmanager
    def block(self):
        """Render a block of pages (pools.page_blocks) inside the `with`: in a fresh browser context, each
        page loaded once. After a crash or hang the block starts again in a fresh browser and renders its
        earlier pages again before the page that failed, so that its pixels do not depend on the failure."""
        self._block = []
        try:
            if self._browser is not None:
                if self._pages >= RESTART_EVERY:
                    self.close()
                else:
                    with self._watchdog():
                        try:
                            self._new_context()
                        except Exception as e:  # a crashed or hung browser
                            log.warning("Chromium failed (%s); restarting it", "hung" if self._killed else first_line(e))
                            self.restart()
            yield
        finally:
            self._block = None

    @contextlib.contextmanager
    def _watchdog(self):
        """Kill Chromium if the `with` takes over HANG_S."""
        self._killed = False
        timer = threading.Timer(HANG_S, self._kill)
        timer.start()
        try:
            yield
        finally:
            timer.cancel()

    def _route(self, route) -> None:
        """Serve the current folder at ORIGIN; abort (and record) every other request."""
        if self._site is not None and route.request.url.startswith(ORIGIN + "/"):
            self._site.fulfil(route)
        else:
            self._blocked.append(route.request.url)
            route.abort()

    def _page(self, spec: PageSpec) -> "_Tab":
        if self._pages >= RESTART_EVERY and self._block is None:
            self.close()
        if self._browser is None:
            self._start()
        (width, height), dpr = spec.screen
        key = (width, height, dpr, spec.platform == "mobile")
        if key not in self._tabs:
            self._tabs[key] = _Tab(self._context, *key, warm=self._block is None)
        elif key != self._front:   # a capture of a tab in the background first waits ~0.8 s for a frame
            self._tabs[key].page.bring_to_front()
        self._front = key
        return self._tabs[key]

    def render(self, spec: PageSpec, attempts: int = 2) -> RenderedPage:
        """Render one page; retries once (with `attempts` 2) on a fresh browser if Chromium crashed or hung
        (a page took over HANG_S).
        A page that differs from the one its tab shows only in the widget's controls is not loaded again:
        the tab switches the controls in place, which gives the same pixels (tests/test_browser.py)."""
        for attempt in range(attempts):
            try:
                for earlier in (self._block or []) if attempt else []:   # the block again, see `block`
                    with self._watchdog():
                        self._render(earlier)
                with self._watchdog():
                    page = self._render(spec)
                if self._block is not None:
                    self._block.append(spec)
                return page
            except Exception as e:  # a crashed or hung browser: restart and try again
                if attempt == attempts - 1 and self._killed:
                    raise RuntimeError(f"Chromium hung rendering {spec.template} (over {HANG_S} s)") from e
                if attempt == attempts - 1 or "playwright" not in type(e).__module__:
                    raise
                log.warning("Chromium failed (%s); restarting it",
                            "hung" if self._killed else first_line(e))
                self.close()
        raise AssertionError("unreachable")

    def _render(self, spec: PageSpec) -> RenderedPage:
        tab = self._page(spec)
        self._site, self._blocked = (Site(spec.site) if spec.site else None), []
        tab.show(spec, once=self._block is not None)
        self._pages += 1
        found = (json.loads(tab.page.evaluate(_ELEMENTS_JS)) if spec.mode == "none" else
                 {"elements": [], "texts": {}, "labels": [], "decor": {}, "marks": [], "icons": [], "shown": {},
                  "lang": ""})
        for el in found["elements"] + found["labels"] + found["icons"]:
            el["box"] = [float(v) * tab.dpr for v in el["box"]]
        marks = [[float(v) * tab.dpr for v in m] for m in found["marks"]]
        boxes = tab.boxes()
        return RenderedPage(spec=spec, rgb=tab.capture(boxes), boxes=boxes, dpr=tab.dpr, elements=found["elements"],
                            texts=found["texts"], labels=found["labels"], decor_icons=found["decor"], marks=marks, shown_icons=found["shown"],
                            icons=found["icons"],
                            doc_lang=found["lang"],
                            blocked=sorted(set(self._blocked)))

    def _kill(self) -> None:
        """Kill every Chromium process (from the watchdog's thread): the render waiting on it then fails."""
        if self._group is not None:
            self._killed = True
            try:
                os.killpg(self._group, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def restart(self) -> None:
        """Stop Chromium for a fresh start at the next render, killing its processes first, so that a hung
        Chromium cannot block (Playwright's close waits for a stopped browser forever)."""
        self._kill()
        self.close()

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

    def __init__(self, context, width: int, height: int, dpr: int, mobile: bool, warm: bool = True) -> None:
        self.page, self.width, self.height, self.dpr = context.new_page(), width, height, dpr
        self.shows: PageSpec | None = None     # the page on screen
        self.switched = False                  # whether its widget's controls were switched since it loaded
        self._loaded: tuple[np.ndarray, list[float]] | None = None   # its capture and widget box as loaded
        self._cdp = context.new_cdp_session(self.page)
        self._cdp.send("Emulation.setDeviceMetricsOverride",
                       {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": mobile})
        self._cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 1} if mobile
                       else {"enabled": False})
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
        if spec.site:
            self.show_site(spec)
        else:
            if self.page.url != "about:blank":    # after a folder page: leave its origin
                self.page.goto("about:blank")
            html = render_html(spec)
            if not once:
                self.page.set_content(_WARM_UP_HTML, wait_until="load")
            for _ in range(1 if once else 2):
                self.page.set_content(html, wait_until="load", timeout=30_000)
                self.page.evaluate(_NEXT_FRAME_JS)
        self.page.evaluate(_NEXT_FRAME_JS)
        self.shows = spec

    def show_site(self, spec: PageSpec) -> None:
        """Load a folder page from its URL and let it settle: its requests done (or 5 s gone), fonts loaded,
        animations and transitions at their end; then the CAPTCHA widget on top if the page has one."""
        self.page.goto(page_url(spec.template), wait_until="load", timeout=30_000)
        try:
            self.page.wait_for_load_state("networkidle", timeout=5_000)
        except Exception as e:
            if "Timeout" not in type(e).__name__:
                raise
        self.page.add_style_tag(content=_STILL_CSS)
        self.page.evaluate("() => document.fonts.ready.then(() => undefined)")
        if spec.mode != "none":
            self.page.evaluate(_OVERLAY_JS, widget_overlay(spec))

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
        over the capture of the page as loaded: nothing else has changed (tests/test_browser.py)."""
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
            "clip": {"x": x, "y": y, "width": width, "height": height, "scale": 1}})
        png = np.frombuffer(base64.b64decode(shot["data"]), np.uint8)
        return cv2.imdecode(png, cv2.IMREAD_COLOR_RGB)
