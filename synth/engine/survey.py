"""The pages of a `--pages DIR` run: which of them are usable, and the page pools of CAPTCHA runs.

Before a run, the main process renders every page of the folder once (`survey`), as the run's samples will
see it: a page that resolves outside the folder, fails to load, answers an HTTP error or shows Chromium's error
page, navigates away, hangs (over its load time, or the browser's watchdog), is in another language than `--lang`, or
offers nothing to do (no verifiable grounding target at the run's level; a CAPTCHA widget that does not fit
on it) is skipped with a reason. The usable pages, with their languages, go into the run config, which every
worker gets, and the survey's findings (skips by reason, requests blocked by page) into the manifest. Then
the usable pages are tried in their views, as many as the run needs (synth.engine.variety)."""
import dataclasses
from collections import Counter
from collections.abc import Callable

import numpy as np

from synth.core.errors import Reject
from synth.engine.config import RunConfig
from synth.engine.variety import FIRST_VIEW, distinct_views, host_spec, load_problem, render_folder_page, widget_fits
from synth.screens.browser import Browser, RenderedPage
from synth.screens.site import NAMESPACE, folder_problem, list_pages, outside


def page_lang(page: RenderedPage) -> str:
    """"zh" or "en": the page's <html lang>, else whether most of its visible text is Chinese."""
    if page.doc_lang:
        return "zh" if page.doc_lang.lower().startswith("zh") else "en"
    chars = "".join(page.texts)
    cjk = sum("\u4e00" <= ch <= "\u9fff" for ch in chars)
    return "zh" if cjk > 0.3 * max(1, sum(not ch.isspace() for ch in chars)) else "en"


def _problem(cfg: RunConfig, browser: Browser, name: str) -> tuple[str | None, str, list[str], RenderedPage | None]:
    """(why the page is not usable or None, its language, the requests it made off the site, its render in the
    first view for the run: synth.engine.variety takes it from there)."""
    from synth.grounding.maker import folder_spec
    from synth.grounding.sample import choose

    if outside(cfg.pages, name.removeprefix(NAMESPACE)):
        return "pages.outside_folder", "", [], None
    page = render_folder_page(browser, folder_spec(cfg, name, "en"))
    if isinstance(page, str):
        return page, "", [], None
    problem = load_problem(page)
    if problem:
        return problem, "", page.blocked, None
    lang = page_lang(page)
    if cfg.lang != "mix" and lang != cfg.lang:
        return "pages.other_language", lang, page.blocked, None
    if cfg.kind == "grounding":
        page = dataclasses.replace(page, spec=folder_spec(cfg, name, lang))
        try:
            choose(np.random.default_rng(0), page, cfg.difficulty)
        except Reject:
            return "pages.no_target", lang, page.blocked, None
        return None, lang, page.blocked, page
    modal = render_folder_page(browser, host_spec(cfg, name, lang, FIRST_VIEW))
    if isinstance(modal, str):
        return modal, lang, page.blocked, None
    blocked = sorted(set(page.blocked) | set(modal.blocked))
    problem = load_problem(modal)
    if problem:
        return problem, lang, blocked, None
    if not widget_fits(modal):
        return "pages.widget_does_not_fit", lang, blocked, None
    return None, lang, blocked, modal


def survey(cfg: RunConfig, on_page: Callable[[int, int], None] | None = None) -> tuple[RunConfig, dict]:
    """The run config with its usable pages (`page_list`), and the survey's report for the manifest.
    `on_page(done, total)` is called after each page. ValueError (one line) if the folder is not a pages
    folder or no page of it is usable."""
    problem = folder_problem(cfg.pages)
    if problem:
        raise ValueError(problem)
    usable, skipped, blocked, first = [], {}, {}, []
    browser = Browser()
    pages = list_pages(cfg.pages)
    try:
        for done, rel in enumerate(pages, 1):
            reason, lang, off_site, page = _problem(cfg, browser, NAMESPACE + rel)
            if reason:
                skipped[rel] = reason
            else:
                usable.append((NAMESPACE + rel, lang))
                first.append(page)
            if off_site:
                blocked[rel] = off_site
            if on_page:
                on_page(done, len(pages))
        reasons = dict(sorted(Counter(skipped.values()).items()))
        if not usable:
            raise ValueError(f"no usable page in --pages {cfg.pages}: "
                             + ", ".join(f"{n} {reason}" for reason, n in reasons.items()))
        cfg = dataclasses.replace(cfg, page_list=tuple(usable))
        cfg, views = distinct_views(cfg, browser, first)
    finally:
        browser.close()
    report = {"folder": cfg.pages, "found": len(usable) + len(skipped), "usable": len(usable),
              "skipped": reasons, "skipped_pages": skipped,
              "blocked_requests": sum(map(len, blocked.values())),
              "blocked_by_page": {rel: len(urls) for rel, urls in blocked.items()}, "blocked_urls": blocked,
              "views": views}
    return cfg, report
