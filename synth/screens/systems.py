"""Design systems: the npm packages whose CSS a screen is styled with, and the platforms each suits.

A screen written for a system uses that system's own markup and classes through its component macros
(templates/screens/ui/<name>.j2, one file per system, all with the same macros); its stylesheet is inlined
into the page, so a render needs nothing but the installed files."""
from dataclasses import dataclass
from functools import cache

from synth.core.paths import TEMPLATES, npm_file


@dataclass(frozen=True)
class System:
    name: str
    platforms: tuple[str, ...]
    css: tuple[str, ...]          # files under the npm folder, in cascade order
    package: str                  # npm package, for the credits


SYSTEMS = {s.name: s for s in (
    System("bootstrap", ("web", "desktop"), ("bootstrap/dist/css/bootstrap.min.css",), "bootstrap"),
    System("tabler", ("web", "desktop"), ("@tabler/core/dist/css/tabler.min.css",), "@tabler/core"),
    System("bulma", ("web",), ("bulma/css/bulma.min.css",), "bulma"),
    System("primer", ("web", "desktop"), ("@primer/css/dist/primer.css",
                                         "@primer/view-components/app/assets/styles/primer_view_components.css"),
           "@primer/css, @primer/view-components"),
    System("carbon", ("web", "desktop"), ("@carbon/styles/css/styles.min.css",), "@carbon/styles"),
    System("patternfly", ("web", "desktop"), ("@patternfly/patternfly/patternfly.min.css",), "@patternfly/patternfly"),
    System("element", ("web", "desktop"), ("element-plus/dist/index.css", "element-plus/theme-chalk/dark/css-vars.css"),
           "element-plus"),
    System("weui", ("mobile",), ("weui/dist/style/weui.min.css",), "weui"),
    System("vant", ("mobile",), ("vant/lib/index.css",), "vant"),
    System("framework7", ("mobile",), ("framework7/framework7-bundle.min.css",), "framework7"),
)}


def for_platform(platform: str) -> list[str]:
    """The systems for `platform` whose component file exists."""
    return [n for n, s in SYSTEMS.items()
            if platform in s.platforms and (TEMPLATES / "screens" / "ui" / f"{n}.j2").is_file()]


@cache
def whole_stylesheet(name: str) -> str:
    """The system's CSS files, joined."""
    return "\n".join(npm_file(f).read_text(encoding="utf-8") for f in SYSTEMS[name].css)


@cache
def stylesheet(name: str) -> str:
    """The system's CSS that screens can use (synth.screens.css), ready to inline (a `</style>` inside it
    could not end the page's style element)."""
    from synth.screens.css import pruned
    return pruned(name, whole_stylesheet(name)).replace("</style", "<\\/style")
