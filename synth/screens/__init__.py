"""Screens: page archetypes composed from design-system components.

An archetype is one kind of page (a store's home, a bank's transfer form, a file manager window): a module
`archetypes/<platform>/<name>.py` that names its `CATEGORY`, optionally the design `SYSTEMS` it is written
for, and draws its structure with `layout(rng, lang) -> dict` (which sections appear, their order, columns,
sidebar side, density, list and header variants), plus a template `templates/screens/<platform>/<name>.html.j2`
that builds the page from the component macros (`ui.*`, templates/screens/ui/). Adding an archetype is
adding those two files; the registry finds it.

ARCHETYPES maps "web/<name>" to its module, imported on first use."""
import importlib
import pkgutil
from functools import lru_cache
from types import ModuleType

from synth.screens import archetypes

# The platforms, each with its viewport (CSS px), device scale factor and CAPTCHA puzzle size (CSS px): the one
# list of platforms, which the CLI, the page engine and the makers import (cheap to import: no page engine).
PLATFORMS = {
    "web": {"viewport": (1280, 800), "dpr": 1, "puzzle": (320, 320)},
    "mobile": {"viewport": (390, 844), "dpr": 2, "puzzle": (300, 300)},
    "desktop": {"viewport": (1440, 900), "dpr": 1, "puzzle": (320, 320)},
}


@lru_cache(maxsize=1)
def names() -> tuple[str, ...]:
    """Every archetype name ("web/shop_home", ...), sorted, without importing the modules."""
    found = []
    for platform in PLATFORMS:
        package = importlib.import_module(f"{archetypes.__name__}.{platform}")
        found += [f"{platform}/{m.name}" for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_")]
    return tuple(sorted(found))


def archetype(name: str) -> ModuleType:
    """The archetype module of `name`; KeyError if there is none."""
    if name not in names():
        raise KeyError(name)
    platform, module = name.split("/", 1)
    return importlib.import_module(f"{archetypes.__name__}.{platform}.{module}")


# Where a CAPTCHA widget can sit (PageSpec.mode): "inline" in a form that takes one (an archetype's PLACEMENTS
# name it only where sites put a CAPTCHA: log in, sign up, checkout, a government form), "modal" over the dimmed
# page, "sheet" (a phone's bottom sheet over a dimmed screen), "interstitial" (a full-page "checking your browser")
OVERLAYS = ("modal", "sheet", "interstitial")


def placement(template: str, draw: float) -> str:
    """The widget placement of a page of `template` for a uniform `draw` in [0, 1): one of the archetype's
    PLACEMENTS (equally likely; a name listed twice, twice as likely); a hand-written template's widget is
    inline or modal, half and half."""
    if template not in names():
        return "modal" if draw < 0.5 else "inline"
    options = archetype(template).PLACEMENTS
    return options[min(int(draw * len(options)), len(options) - 1)]


def _summary(doc: str | None) -> str:
    """An archetype docstring's first paragraph on one line, without its "Name: " prefix."""
    return " ".join((doc or "").strip().split("\n\n")[0].split()).split(": ", 1)[-1]


def catalogue() -> list[dict]:
    """Every archetype with its platform, category, description, design systems and widget placements (for
    `synth screens`)."""
    from synth.screens.systems import for_platform
    rows = []
    for name in names():
        module = archetype(name)
        platform = name.split("/")[0]
        rows.append({"name": name, "platform": platform, "category": module.CATEGORY,
                     "description": _summary(module.__doc__),
                     "systems": list(getattr(module, "SYSTEMS", None) or for_platform(platform)),
                     "placements": sorted(set(module.PLACEMENTS))})
    return rows
