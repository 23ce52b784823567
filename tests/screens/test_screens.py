"""Every screen archetype renders in real Chromium, in both languages and in two design systems of its
platform (taken in turn, so that together the archetypes cover every system), into a page with enough
visible grounding targets and room for the CAPTCHA widget."""
import re

import jinja2
import pytest

from synth import screens
from synth.core.paths import TEMPLATES
from synth.screens import PLATFORMS, components, systems
from synth.screens.browser import Browser
from synth.screens.pages import PageSpec, render_html
from synth.screens.render import choose_system

CATEGORIES_MIN = 15


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def variants(name: str) -> list[int]:
    """Variant seeds that draw the archetype in two of its design systems, which ones by its place among the
    archetypes of its platform."""
    platform = name.split("/")[0]
    own = sorted(getattr(screens.archetype(name), "SYSTEMS", None) or systems.for_platform(platform))
    place = [n for n in screens.names() if n.startswith(platform + "/")].index(name)
    wanted = {own[place % len(own)], own[(place + 1) % len(own)]}
    found = {}
    for v in range(400):
        found.setdefault(choose_system(name, v), v)
        if set(found) >= wanted:
            break
    return [found[s] for s in sorted(wanted)]


def test_every_system_implements_the_interface():
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES))
    for name, system in systems.SYSTEMS.items():
        source = (TEMPLATES / "screens" / "ui" / f"{name}.j2").read_text()
        defined = set(re.findall(r"{%-?\s*macro\s+(\w+)\(", source))
        wanted = components.MOBILE if system.platforms == ("mobile",) else components.WEB
        missing = [m for m in components.names(wanted) if m not in defined]
        assert not missing, f"{name} lacks {missing}"
        env.get_template(f"screens/ui/{name}.j2")          # parses


def test_archetypes_have_a_category_and_a_template():
    names = screens.names()
    for name in names:
        module = screens.archetype(name)
        assert isinstance(module.CATEGORY, str) and module.__doc__, name
        assert (TEMPLATES / "screens" / f"{name}.html.j2").is_file(), name
    assert len({screens.archetype(n).CATEGORY for n in names}) >= min(CATEGORIES_MIN, len(names) // 2)


@pytest.mark.parametrize("name", screens.names())
def test_archetype_renders_in_two_systems(name, browser):
    platform = name.split("/")[0]
    for v, lang in zip(variants(name), ("en", "zh")):
        where = (name, choose_system(name, v), lang)
        html = render_html(PageSpec(name, lang, v, "none", "none"))
        text = re.sub(r"<style>.*?</style>|data:image/[a-z+]+;base64,[A-Za-z0-9+/=]+", "", html, flags=re.S)
        assert not re.search(r"\{\{|\{%|undefined|\bNone\b(?! yet<)|\bNaN\b|built-in method|bound method", text), where
        page = browser.render(PageSpec(name, lang, v, "none", "none"))
        hit = [e for e in page.elements if e["centre_hit"] and e["in_viewport"]]
        assert len(hit) >= 8, (*where, len(hit))
        mode = screens.archetype(name).PLACEMENTS[0]          # inline on the forms that take a CAPTCHA
        page = browser.render(PageSpec(name, lang, v, mode, "input"))
        w, h = PLATFORMS[platform]["puzzle"]
        x0, y0, x1, y1 = page.boxes["synth-puzzle"]
        assert (round(x1 - x0), round(y1 - y0)) == (w * page.dpr, h * page.dpr), where
        H, W = page.rgb.shape[:2]
        wx0, wy0, wx1, wy1 = page.boxes["synth-widget"]
        assert 0 <= wx0 and 0 <= wy0 and wx1 <= W and wy1 <= H, (*where, "widget off screen")
