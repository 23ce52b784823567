"""Every widget chrome renders, holds its instruction band inside the widget, and gets an instruction that
reads against the band (white text on a white panel would make every sample unsolvable)."""
import numpy as np
import pytest

from synth.captcha import compose
from synth.screens.browser import Browser
from synth.screens.pages import CHROMES, PageSpec, widget_chrome


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def spec_with(chrome: str, platform: str) -> PageSpec:
    template = {"web": "web/login", "mobile": "mobile/chat_thread", "desktop": "desktop/mail_client"}[platform]
    variant = next(v for v in range(100) if widget_chrome(PageSpec(template, "en", v, "modal", "input")) == chrome)
    return PageSpec(template, "en" if variant % 2 else "zh", variant, "modal", "input")


@pytest.mark.parametrize("chrome, platform", [(c, p) for c, p in zip(CHROMES, ["web", "mobile", "desktop", "web"])])
def test_the_instruction_reads_against_its_band(browser, chrome, platform):
    page = browser.render(spec_with(chrome, platform))
    wx0, wy0, wx1, wy1 = page.boxes["synth-widget"]
    x0, y0, x1, y1 = page.boxes["synth-instruction"]
    assert wx0 <= x0 < x1 <= wx1 and wy0 <= y0 < y1 <= wy1
    w, h = compose.puzzle_size(page)
    instruction = "Click the icons in the order shown" if page.spec.lang == "en" else "请依次点击下方图标"
    out = compose.compose(page, np.full((h, w, 3), 128, np.uint8), instruction)
    ix0, iy0, ix1, iy1 = (int(round(v)) for v in (x0, y0, x1, y1))
    cover = compose.instruction_mask(instruction, (ix1 - ix0, iy1 - iy0), page.dpr)[..., 0]
    band = out[iy0:iy1, ix0:ix1].astype(int).mean(axis=2)
    assert abs(band[cover == 255].mean() - band[cover == 0].mean()) > 100, chrome

