"""One Chromium per test module of the screens' tests."""
import pytest

from synth.screens.browser import CHROMIUM_ARGS
from synth.screens.chromium import launch


@pytest.fixture(scope="module")
def chromium():
    """A browser for the module's tests (a module may define its own `chromium` instead)."""
    pw, browser, _ = launch(CHROMIUM_ARGS)
    yield browser
    browser.close()
    pw.stop()
