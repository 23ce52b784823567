"""`--pages` over a folder of hostile pages (tests/pages/hostile/): the run completes, every bad page is skipped
with its own reason, and no page's styles or scripts change the widget a sample shows."""
import json
from pathlib import Path

import numpy as np
import pytest

from synth.cli import main
from synth.screens.browser import Browser
from synth.screens.pages import PageSpec
from tests.conftest import read_samples

HOSTILE = Path(__file__).resolve().parent.parent / "pages" / "hostile"
SKIPPED = {"busy.html": "pages.hung", "link404.html": "pages.http_error", "navigate.html": "pages.navigated",
           "outside.html": "pages.outside_folder"}
# pages that try to reach the widget (CSS, scripts patching attachShadow, a cover on top, restyling every 5 ms)
# and a page whose name needs escaping in its URL: all usable, none able to change the widget
USABLE = ["a#b.html", "cover.html", "opacity.html", "plain.html", "restyle.html", "script.html"]


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("hostile") / "c"
    assert main(["captcha", "--pages", str(HOSTILE), "--n", "12", "--out", str(out), "--workers", "1"]) == 0
    return out


def test_every_bad_page_is_skipped_with_its_reason(hostile_run):
    pages = json.loads((hostile_run / "manifest.json").read_text())["pages"]
    assert pages["skipped_pages"] == SKIPPED
    assert pages["usable"] == len(USABLE)
    assert {s["label"]["template"] for s in read_samples(hostile_run)} <= {"pages/" + p for p in USABLE}


def test_no_page_changes_the_widget():
    """Each usable page's widget (inside its rounded corners and shadow) has the pixels of the same widget
    over the plain page, and a click reaches every part of it."""
    browser = Browser()
    try:
        def widget(page: str) -> tuple[np.ndarray, list[str]]:
            shown = browser.render(PageSpec("pages/" + page, "en", 4, "modal", "input", site=str(HOSTILE)))
            x0, y0, x1, y1 = (round(v) for v in shown.boxes["synth-widget"])
            return shown.rgb[y0 + 8:y1 - 8, x0 + 8:x1 - 8], shown.covered
        alone, _ = widget("plain.html")
        for page in USABLE:
            rgb, covered = widget(page)
            assert covered == [] and np.array_equal(rgb, alone), page
    finally:
        browser.close()
