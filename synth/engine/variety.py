"""The distinct screens of a `--pages` run: the usable pages of the folder tried in their views
(synth.screens.views.CANDIDATES), round by round, as many as the run needs.

Round r gives every page that still has a view its next one that is a real, new screen: each candidate view is
rendered and the harvester, hit test and verification run on it again; it is dropped, and counted with its reason,
when it is a dark view of a page that nothing on it can turn dark (`pages.view.no_dark_scheme`, found on its first
render: no style sheet, `media` attribute or script asks for the scheme; not rendered), when it renders the same
pixels as a screen kept before (`pages.view.same_pixels`: a scroll that does not move), when a zoom only scales
the page up (`pages.view.zoom_same_layout`), when nothing on it can be asked for at the run's level
(`pages.view.no_target`; a control behind a collapsed phone menu is no target), when a CAPTCHA widget does not fit
on it (`pages.view.widget_does_not_fit`) or when it does not load (`pages.view.load_failed`). A page whose
candidates run out leaves the later rounds. The walk stops when the run has enough screens: a grounding run one
per sample; a CAPTCHA run one per host page slot of its pools (synth.engine.pools), which then cycle. The kept
views go into the run config (`page_views`), whose `synth.screens.views.schedule` walks them in the same rounds. A
grounding run that cannot have --n distinct screens is cut to the screens it has (`short` in the report)."""
import dataclasses
import hashlib
from collections import Counter

import numpy as np

from synth.core.errors import Reject
from synth.engine.config import RunConfig
from synth.engine.pools import host_slots
from synth.screens import PLATFORMS
from synth.screens.browser import Browser, RenderedPage
from synth.screens.pages import PageSpec
from synth.screens.site import page_url
from synth.screens.views import CANDIDATES, CAPTCHA_CANDIDATES, ZOOMS, parse, pool_spec, round_order

FIRST_VIEW = CANDIDATES[0]


def host_spec(cfg: RunConfig, name: str, lang: str, view: str) -> PageSpec:
    """A folder page as a CAPTCHA run's host page in `view`, with the widget its survey tries."""
    return pool_spec((name, lang, 0, "modal", view), "input", cfg.pages)


def widget_fits(modal: RenderedPage) -> bool:
    """Whether a page's CAPTCHA widget lies inside the screen with its puzzle at the platform's size."""
    from synth.captcha.compose import puzzle_size

    h, w = modal.rgb.shape[:2]
    box = modal.boxes.get("synth-widget")
    css_w, css_h = PLATFORMS[modal.spec.platform]["puzzle"]
    return not (box is None or box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h
                or puzzle_size(modal) != (css_w * modal.dpr, css_h * modal.dpr))


def load_problem(page: RenderedPage) -> str | None:
    """Why a folder page did not show itself: Chromium's error page or an HTTP error, or another URL."""
    if page.status == 0 or page.status >= 400:
        return "pages.http_error"
    if page.url != page_url(page.spec.template):
        return "pages.navigated"
    return None


def render_folder_page(browser: Browser, spec: PageSpec) -> RenderedPage | str:
    """The folder page rendered, or why it could not be: it hung (over its load time or the watchdog's), or it
    failed to load. Chromium is restarted after a failure: a page's endless script keeps the renderer busy."""
    try:
        return browser.render(spec, attempts=1)
    except RuntimeError as e:
        if "hung" not in str(e):    # Chromium does not start: no page can be tried
            raise
        browser.restart()
        return "pages.hung"
    except Exception as e:      # Playwright's errors: the page did not load, or not in time
        browser.restart()
        return "pages.hung" if "Timeout" in type(e).__name__ else "pages.load_failed"


def screens_needed(cfg: RunConfig) -> int:
    """How many distinct screens the run shows: one per grounding sample, one per CAPTCHA host page slot."""
    return cfg.n if cfg.kind == "grounding" else host_slots(cfg)


def _layout(page: RenderedPage) -> list[tuple[int, int]]:
    """The sizes of the page's elements in CSS px, sorted: the same under a zoom that only scales the page."""
    return sorted((round((e["box"][2] - e["box"][0]) / page.dpr), round((e["box"][3] - e["box"][1]) / page.dpr))
                  for e in page.elements)


class _Views:
    """Finds the next kept view of each page, rendering its candidates in order."""

    def __init__(self, cfg: RunConfig, browser: Browser, first: list[RenderedPage]) -> None:
        self.cfg, self.browser, self.first = cfg, browser, first
        self.candidates = CANDIDATES if cfg.kind == "grounding" else CAPTCHA_CANDIDATES
        self.tried = [0] * len(first)                    # each page's next candidate
        self.screens: list[set] = [set() for _ in first]  # each page's screens tried (views can coincide)
        self.seen: set[bytes] = set()                    # digests of the pixels of the screens kept
        self.dropped: Counter = Counter()                # by reason
        self.dropped_views: Counter = Counter()          # by view, over all reasons
        self.renders = 0

    def spec(self, j: int, view: str) -> PageSpec:
        from synth.grounding.maker import folder_spec
        name, lang = self.cfg.page_list[j]
        return folder_spec(self.cfg, name, lang, view) if self.cfg.kind == "grounding" else \
            host_spec(self.cfg, name, lang, view)

    def next(self, j: int) -> str | None:
        """Page j's next view that passes, or None when its candidates are spent."""
        while self.tried[j] < len(self.candidates):
            view = self.candidates[self.tried[j]]
            self.tried[j] += 1
            spec = self.spec(j, view)
            screen = (spec.viewport, spec.dpr, spec.mobile, spec.scheme, spec.scroll)
            if screen in self.screens[j]:        # e.g. the laptop screen when the run's desktop is one
                continue
            self.screens[j].add(screen)
            reason = self.judge(j, spec)
            if reason is None:
                return view
            self.dropped[reason] += 1
            self.dropped_views[view] += 1
        return None

    def judge(self, j: int, spec: PageSpec) -> str | None:
        """Why page j in the view of `spec` is not a new screen the run can use, or None (then it is kept)."""
        if spec.view == FIRST_VIEW:
            page = self.first[j]                 # rendered by the survey
        elif spec.scheme == "dark" and not self.first[j].dark_scheme:
            return "pages.view.no_dark_scheme"   # nothing on it asks for the scheme: the same pixels, not rendered
        else:
            page = render_folder_page(self.browser, spec)
            self.renders += 1
            if isinstance(page, str) or load_problem(page):
                return "pages.view.load_failed"
        digest = hashlib.sha256(np.ascontiguousarray(page.rgb).tobytes() + bytes(str(page.rgb.shape), "ascii")).digest()
        if digest in self.seen:
            return "pages.view.same_pixels"
        if parse(spec.view)[0] in ZOOMS and _layout(page) == _layout(self.first[j]):
            return "pages.view.zoom_same_layout"
        if self.cfg.kind == "grounding":
            from synth.grounding.sample import choose
            try:
                choose(np.random.default_rng(0), page, self.cfg.difficulty)
            except Reject:
                return "pages.view.no_target"
        elif not widget_fits(page):
            return "pages.view.widget_does_not_fit"
        self.seen.add(digest)
        return None


def distinct_views(cfg: RunConfig, browser: Browser, first: list[RenderedPage]) -> tuple[RunConfig, dict]:
    """The run config with the views of its pages (`page_views`; a grounding run cut to the screens it can
    have) and the report for the manifest. `first`: each usable page's render in FIRST_VIEW, from the survey."""
    views = _Views(cfg, browser, first)
    needed = screens_needed(cfg)
    kept: list[list[str]] = [[] for _ in first]
    alive, total, round_ = [True] * len(first), 0, 0
    while total < needed and any(alive):
        for j in round_order(cfg.seed, round_, len(first)):
            if total == needed:
                break
            view = views.next(j) if alive[j] else None
            if view is None:
                alive[j] = False
                continue
            kept[j].append(view)
            total += 1
        round_ += 1
    short = cfg.kind == "grounding" and total < cfg.n
    report = {"screens": total, "pages": len(first), "asked": needed, "short": short, "renders": views.renders,
              "kept_by_view": dict(sorted(Counter(v for k in kept for v in k).items())),
              "dropped": dict(sorted(views.dropped.items())),
              "dropped_by_view": dict(sorted(views.dropped_views.items()))}
    cfg = dataclasses.replace(cfg, page_views=tuple(tuple(k) for k in kept), n=total if short else cfg.n)
    return cfg, report
