"""Page specs: which template, language, theme and widget a screen uses, and its HTML."""
from dataclasses import dataclass
from functools import lru_cache

import jinja2
import numpy as np

from synth import screens
from synth.core.paths import TEMPLATES, cache_dir
from synth.core.seeds import THEME, WIDGET_CHROME
from synth.screens import PLATFORMS
from synth.screens.content.common import WIDGET_TEXT
from synth.screens.render import render_archetype
from synth.screens.themes import make_theme

WIDGET_HEAD_H = 56
# The widget's chromes (templates/widgets/captcha.html.j2), drawn per page, and the colour of the instruction
# written into each one's band (synth.captcha.compose)
CHROME_INK = {"band": (255, 255, 255), "panel": (34, 34, 34), "card": (34, 34, 34), "tiles": (255, 255, 255)}
CHROMES = tuple(CHROME_INK)
CONTROLS = ("input", "skip", "none")   # widget variants: an answer field, a Skip button, neither


@dataclass(frozen=True)
class PageSpec:
    """Everything that decides one rendered screen; pages with equal specs render identically."""
    template: str          # e.g. "web/shop_home"
    lang: str              # "en" | "zh"
    variant: int           # seeds theme and content
    mode: str              # "modal" | "inline" | "none" (no CAPTCHA widget: grounding screens)
    controls: str          # "input" (answer field) | "skip" (Skip button) | "none"
    viewport: tuple[int, int] | None = None   # CSS px; default: the platform's
    dpr: float | None = None                  # device scale factor (1.25: zoomed to 125 %); default: the platform's
    site: str = ""         # the --pages folder a "pages/<path>" template is served from (synth.screens.site)
    # how a folder page is viewed (synth.screens.views): phone emulation, colour scheme, scroll (CSS px), name
    mobile: bool = False
    scheme: str = ""       # "" (the browser's default, light) | "dark": prefers-color-scheme
    scroll: int = 0
    view: str = ""

    @property
    def platform(self) -> str:
        """web, mobile or desktop; pages from a --pages folder are web pages, or mobile ones on a phone."""
        first = self.template.split("/", 1)[0]
        return ("mobile" if self.mobile else "web") if self.site else first

    @property
    def screen(self) -> tuple[tuple[int, int], int]:
        """(viewport in CSS px, device scale factor) this page is rendered at."""
        plat = PLATFORMS[self.platform]
        return self.viewport or plat["viewport"], self.dpr or plat["dpr"]


def list_templates(platform: str | None = None) -> list[str]:
    """Page names (the screen archetypes of synth.screens, e.g. "web/shop_home"), sorted, optionally for one
    platform."""
    return [n for n in sorted(screens.names()) if platform is None or n.startswith(platform + "/")]


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=jinja2.StrictUndefined,
                              bytecode_cache=jinja2.FileSystemBytecodeCache(str(cache_dir("jinja-pages"))))


@lru_cache(maxsize=4096)     # asked for every sample (synth.captcha.compose)
def widget_chrome(spec: PageSpec) -> str:
    """The chrome of the page's CAPTCHA widget (CHROMES), drawn from the page's seed."""
    return CHROMES[int(np.random.default_rng([spec.variant, WIDGET_CHROME]).integers(len(CHROMES)))]


def widget_params(spec: PageSpec, mode: str = "") -> dict:
    """What the widget template needs for the page (in `mode` if given, else the spec's)."""
    plat = PLATFORMS[spec.platform]
    return {"mode": mode or spec.mode, "controls": spec.controls, "chrome": widget_chrome(spec),
            "head_h": WIDGET_HEAD_H, "puzzle_w": plat["puzzle"][0], "puzzle_h": plat["puzzle"][1],
            "text": WIDGET_TEXT[spec.lang]}


def render_html(spec: PageSpec) -> str:
    """The page's HTML (synth.screens.render); raises ValueError naming the template if it is broken."""
    return render_archetype(spec, widget_params(spec))


# A CAPTCHA widget for a page from a --pages folder, shown over the page's captured pixels in a document of
# our own, which the page's styles and scripts cannot reach (synth.screens.browser); the theme's colours are its own.
_OVERLAY = """<style>
  #synth-root { --primary: {{ t.primary }}; --accent: {{ t.accent }}; --bg: {{ t.bg }}; --surface: {{ t.surface }};
    --text: {{ t.text }}; --muted: {{ t.muted }}; --border: {{ t.border }}; --radius: {{ t.radius }}px;
    font-family: {{ t.font|safe }}; font-size: {{ t.base_size }}px; line-height: 1.45; color: var(--text); }
  * { box-sizing: border-box; }
  button, input { font: inherit; }
  {% include "widgets/captcha.css.j2" %}
</style>
<div id="synth-root" class="synth-backdrop">{% include "widgets/captcha.html.j2" %}</div>"""


def widget_overlay(spec: PageSpec) -> str:
    """The modal CAPTCHA widget (templates/widgets/) in the page's language, for a folder page."""
    rng = np.random.default_rng([spec.variant, THEME])
    return _env().from_string(_OVERLAY).render(t=make_theme(rng, spec.lang), widget=widget_params(spec, "modal"))
