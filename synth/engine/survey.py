"""The pages of a `--pages DIR` run: which of them are usable, and the page pools of CAPTCHA runs.

Before a run, the main process renders every page of the folder once (`survey`), as the run's samples will
see it: a page that resolves outside the folder, fails to load, answers an HTTP error or shows Chromium's error
page, navigates away, hangs (over its load time, or the browser's watchdog), is in another language than `--lang`, or
offers nothing to do (no verifiable grounding target at the run's level; a CAPTCHA widget that does not fit
on it) is skipped with a reason. The usable pages, with their languages, go into the run config, which every
worker gets, and the survey's findings (skips by reason, requests blocked by page) into the manifest."""
import dataclasses
from collections import Counter
from collections.abc import Callable

import numpy as np

from synth.core.errors import Reject
from synth.engine.config import RunConfig
from synth.screens import PLATFORMS
from synth.screens.browser import Browser, RenderedPage
from synth.screens.pages import PageSpec
from synth.screens.site import NAMESPACE, folder_problem, list_pages, outside, page_url


def page_lang(page: RenderedPage) -> str:
    """"zh" or "en": the page's <html lang>, else whether most of its visible text is Chinese."""
    if page.doc_lang:
        return "zh" if page.doc_lang.lower().startswith("zh") else "en"
    chars = "".join(page.texts)
    cjk = sum("\u4e00" <= ch <= "\u9fff" for ch in chars)
    return "zh" if cjk > 0.3 * max(1, sum(not ch.isspace() for ch in chars)) else "en"


def _load_problem(page: RenderedPage) -> str | None:
    """Why a folder page did not show itself: Chromium's error page or an HTTP error, or another URL."""
    if page.status == 0 or page.status >= 400:
        return "pages.http_error"
    if page.url != page_url(page.spec.template):
        return "pages.navigated"
    return None


def _render(browser: Browser, spec: PageSpec) -> RenderedPage | str:
    """The page rendered, or why it could not be: it hung (over its load time or the watchdog's), or it failed
    to load. Chromium is killed after a failure: a page's endless script keeps the renderer busy."""
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


def _problem(cfg: RunConfig, browser: Browser, name: str) -> tuple[str | None, str, list[str]]:
    """(why the page is not usable or None, its language, the requests it made off the site)."""
    from synth.captcha.compose import puzzle_size
    from synth.grounding.maker import folder_spec
    from synth.grounding.sample import choose

    if outside(cfg.pages, name.removeprefix(NAMESPACE)):
        return "pages.outside_folder", "", []
    page = _render(browser, folder_spec(cfg, name, "en"))
    if isinstance(page, str):
        return page, "", []
    problem = _load_problem(page)
    if problem:
        return problem, "", page.blocked
    lang = page_lang(page)
    if cfg.lang != "mix" and lang != cfg.lang:
        return "pages.other_language", lang, page.blocked
    if cfg.kind == "grounding":
        try:
            choose(np.random.default_rng(0), dataclasses.replace(page, spec=folder_spec(cfg, name, lang)),
                   cfg.difficulty)
        except Reject:
            return "pages.no_target", lang, page.blocked
        return None, lang, page.blocked
    modal = _render(browser, PageSpec(name, lang, 0, "modal", "input", site=cfg.pages))
    if isinstance(modal, str):
        return modal, lang, page.blocked
    problem = _load_problem(modal)
    if problem:
        return problem, lang, sorted(set(page.blocked) | set(modal.blocked))
    h, w = modal.rgb.shape[:2]
    box = modal.boxes.get("synth-widget")
    css_w, css_h = PLATFORMS["web"]["puzzle"]
    if (box is None or box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h
            or puzzle_size(modal) != (css_w * modal.dpr, css_h * modal.dpr)):
        return "pages.widget_does_not_fit", lang, page.blocked
    return None, lang, sorted(set(page.blocked) | set(modal.blocked))


def survey(cfg: RunConfig, on_page: Callable[[int, int], None] | None = None) -> tuple[RunConfig, dict]:
    """The run config with its usable pages (`page_list`), and the survey's report for the manifest.
    `on_page(done, total)` is called after each page. ValueError (one line) if the folder is not a pages
    folder or no page of it is usable."""
    problem = folder_problem(cfg.pages)
    if problem:
        raise ValueError(problem)
    usable, skipped, blocked = [], {}, {}
    browser = Browser()
    pages = list_pages(cfg.pages)
    try:
        for done, rel in enumerate(pages, 1):
            reason, lang, off_site = _problem(cfg, browser, NAMESPACE + rel)
            if reason:
                skipped[rel] = reason
            else:
                usable.append((NAMESPACE + rel, lang))
            if off_site:
                blocked[rel] = off_site
            if on_page:
                on_page(done, len(pages))
    finally:
        browser.close()
    reasons = dict(sorted(Counter(skipped.values()).items()))
    if not usable:
        raise ValueError(f"no usable page in --pages {cfg.pages}: "
                         + ", ".join(f"{n} {reason}" for reason, n in reasons.items()))
    report = {"folder": cfg.pages, "found": len(usable) + len(skipped), "usable": len(usable),
              "skipped": reasons, "skipped_pages": skipped,
              "blocked_requests": sum(map(len, blocked.values())),
              "blocked_by_page": {rel: len(urls) for rel, urls in blocked.items()}, "blocked_urls": blocked}
    return dataclasses.replace(cfg, page_list=tuple(usable)), report
