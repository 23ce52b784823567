"""The views of a `--pages` folder page, and the order a run shows its pages in.

A view is one screen a person could see on the site: the page on a desktop, a laptop, a wide screen, a tablet,
a phone (real mobile emulation: device scale factor, touch, a mobile user agent, `isMobile`, so that the page's
own responsive CSS lays it out), zoomed to 125 or 150 % (a smaller CSS viewport at a higher device scale, as
browser zoom is), in its dark scheme (`prefers-color-scheme: dark`), scrolled down by steps of three quarters
of the viewport. A view is named `<screen>[.dark][.scrollK]`; CANDIDATES lists the views a page is tried in,
in order. Which of them a page really has (distinct pixels, something to do there) is found by rendering them
(synth.engine.variety); `schedule` then walks the kept views in rounds, each page once per round."""
from functools import lru_cache

import numpy as np

from synth.core.seeds import FOLDER_ROUNDS, page_seed
from synth.screens import PLATFORMS
from synth.screens.pages import PageSpec

Screen = tuple[tuple[int, int], float]     # (viewport in CSS px, device scale factor)

# Screens besides the run's desktop and phone ones (which the run's level decides): (viewport, dpr, mobile)
OTHER_SCREENS = {"laptop": ((1280, 800), 1, False), "wide": ((1920, 1080), 1, False),
                 "tablet": ((820, 1180), 2, False), "phone_small": ((360, 780), 3, True)}
ZOOMS = {"zoom125": 1.25, "zoom150": 1.5}   # the desktop screen at a browser zoom
SCROLL_SHARE = 0.75       # a scroll step, in viewport heights: a quarter of the screen before stays in view

# The views a page is tried in, in this order: every screen and the phone first, then dark schemes and scroll
# positions, then the other screens and their combinations
CANDIDATES = (
    "desktop", "phone", "tablet", "desktop.dark", "phone.dark", "desktop.scroll1", "phone.scroll1", "laptop",
    "tablet.dark", "zoom125", "desktop.scroll2", "phone.scroll2", "tablet.scroll1", "wide", "phone_small",
    "desktop.dark.scroll1", "phone.dark.scroll1", "zoom150", "laptop.scroll1", "phone.scroll3", "desktop.scroll3",
    "tablet.dark.scroll1", "wide.dark", "phone_small.dark", "phone_small.scroll1", "laptop.dark",
    "tablet.scroll2", "wide.scroll1", "zoom125.dark", "zoom125.scroll1", "phone.scroll4", "desktop.scroll4",
)
CAPTCHA_CANDIDATES = tuple(v for v in CANDIDATES if not v.startswith("zoom"))   # a widget's puzzle needs a whole dpr


def parse(view: str) -> tuple[str, str, int]:
    """(screen, scheme, scroll steps) of a view's name, e.g. "phone.dark.scroll1" -> ("phone", "dark", 1)."""
    screen, *rest = view.split(".")
    scheme = "dark" if "dark" in rest else ""
    steps = next((int(part[len("scroll"):]) for part in rest if part.startswith("scroll")), 0)
    return screen, scheme, steps


def view_spec(template: str, lang: str, view: str, site: str, desktop: Screen, phone: Screen, variant: int = 0,
              mode: str = "none", controls: str = "none") -> PageSpec:
    """The spec of a folder page seen in `view`, the run's desktop and phone screens given."""
    screen, scheme, steps = parse(view)
    if screen == "desktop":
        (viewport, dpr), mobile = desktop, False
    elif screen == "phone":
        (viewport, dpr), mobile = phone, True
    elif screen in ZOOMS:
        zoom, ((w, h), base) = ZOOMS[screen], desktop
        viewport, dpr, mobile = (round(w / zoom), round(h / zoom)), base * zoom, False
    else:
        viewport, dpr, mobile = OTHER_SCREENS[screen]
    return PageSpec(template, lang, variant, mode, controls, tuple(viewport), dpr, site=site, mobile=mobile,
                    scheme=scheme, scroll=steps * round(SCROLL_SHARE * viewport[1]), view=view)


def pool_spec(page: tuple, controls: str, site: str) -> PageSpec:
    """The spec of a page of a CAPTCHA run's pool (synth.engine.pools.Page) with the widget `controls`: a
    folder page's tuple carries its view as a fifth item, seen at the platforms' own screens."""
    template, lang, variant, mode, *view = page
    if not view:
        return PageSpec(template, lang, variant, mode, controls, site=site)
    return view_spec(template, lang, view[0], site, captcha_screen("web"), captcha_screen("mobile"), variant,
                     mode, controls)


def captcha_screen(platform: str) -> Screen:
    """A CAPTCHA run's screen of a platform: its widget's puzzle is drawn for it (synth.screens.PLATFORMS)."""
    return PLATFORMS[platform]["viewport"], PLATFORMS[platform]["dpr"]


def round_order(seed: int, round_: int, pages: int) -> list[int]:
    """The order the pages of a folder are shown in, in one round."""
    return [int(j) for j in np.random.default_rng(page_seed(seed, FOLDER_ROUNDS, round_)).permutation(pages)]


@lru_cache(maxsize=16)
def schedule(seed: int, pages: tuple[tuple[str, str], ...],
             views: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str, str], ...]:
    """The screens of a run, (template, lang, view), in order: round r shows every page that has an r-th view
    (views[j], the kept views of pages[j]) once, in round_order; so no page comes twice before every page came
    once."""
    screens = []
    for r in range(max((len(v) for v in views), default=0)):
        screens += [(*pages[j], views[j][r]) for j in round_order(seed, r, len(pages)) if len(views[j]) > r]
    return tuple(screens)
