"""One Chromium per test module of the screens' tests."""
import pytest

from synth.screens import PLATFORMS
from synth.screens.browser import CHROMIUM_ARGS
from synth.screens.chromium import launch


@pytest.fixture(scope="module")
def chromium():
    """A browser for the module's tests (a module may define its own `chromium` instead)."""
    pw, browser, _ = launch(CHROMIUM_ARGS)
    yield browser
    browser.close()
    pw.stop()


def _tab(browser, platform: str):
    width, height = PLATFORMS[platform]["viewport"]
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


@pytest.fixture(scope="module")
def chromium_phone(chromium):
    """A tab at a phone's viewport in the module's browser."""
    return _tab(chromium, "mobile")


@pytest.fixture(scope="module")
def chromium_desktop(chromium):
    """A tab at a desktop's viewport in the module's browser."""
    return _tab(chromium, "desktop")
