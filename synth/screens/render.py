"""Fill an archetype's template: theme, content, structure, design system and icon set are drawn from the
page's variant seed, so equal specs give equal HTML."""
from functools import lru_cache

import jinja2
import numpy as np

from synth.core.paths import TEMPLATES, cache_dir
from synth.core.seeds import DESIGN_SYSTEM, PICTURES, THEME
from synth.screens import archetype
from synth.screens.content.common import make_content
from synth.screens.facts import count_words
from synth.screens.icons import ICON_SETS, Icons
from synth.screens.systems import for_platform, stylesheet
from synth.screens.themes import make_theme


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              # compiling the archetypes' templates costs ~0.1 s each, once per machine
                              bytecode_cache=jinja2.FileSystemBytecodeCache(str(cache_dir("jinja-screens"))))
    env.filters["words"] = count_words         # a document's word count, as its status bar states it
    return env


class Pictures:
    """The pictures of one page, drawn in the order the template asks for them: `photo(w, h, subjects)` and
    `product(w, h, name="", kind="")` give data URIs of w×h CSS px (a picture that shows one of `subjects`, a
    tag or an emoji code or a list of them, see imagery.picture; a product of that name, or kind, when the
    imagery knows it), `dish(w, h, *names)` a food shot of the first name the imagery knows (a dish, its
    section, its cuisine), `avatar(name, size)` one of a person's avatar. A page shows a photo once while the
    pictures that fit allow it."""

    def __init__(self, rng: np.random.Generator, scale: int) -> None:
        self.rng, self.scale, self.shown, self.named = rng, scale, [], {}

    def photo(self, w: int, h: int, subjects: str | list | tuple = (), dark: bool = False, name: str = "") -> str:
        """A picture of one of `subjects`; `name` keeps it for `again`."""
        from synth.screens import imagery
        subjects = tuple(x for x in ([subjects] if isinstance(subjects, str) else subjects) if x)
        uri, chosen = imagery.picture(self.rng, w, h, self.scale, subjects, tuple(self.shown), dark)
        self.shown.append(chosen)
        if name:
            self.named[name] = chosen
        return uri

    def again(self, name: str, w: int, h: int, subjects: str | list | tuple = ()) -> str:
        """The picture drawn under `name`, at w×h (a selected photo in a preview pane); one of `subjects` if the
        page drew none under that name."""
        from synth.screens import imagery
        if name not in self.named:
            return self.photo(w, h, subjects, name=name)
        return imagery.again(self.named[name], w, h, self.scale)

    def product(self, w: int, h: int, name: str = "", kind: str = "") -> str:
        from synth.screens import imagery
        return imagery.product(self.rng, w, h, scale=self.scale, kind=kind or None, name=name or None)

    def dish(self, w: int, h: int, *names: str) -> str:
        from synth.screens import imagery
        return imagery.dish(self.rng, w, h, *names, scale=self.scale)

    def avatar(self, name: str, size: int) -> str:
        from synth.screens import imagery
        return imagery.avatar(name, size, scale=self.scale)


def choose_system(name: str, variant: int) -> str:
    """The design system a page of archetype `name` with seed `variant` is drawn in."""
    module = archetype(name)
    systems = list(getattr(module, "SYSTEMS", None) or for_platform(name.split("/")[0]))
    return systems[int(np.random.default_rng([variant, DESIGN_SYSTEM]).integers(len(systems)))]


def render_archetype(spec, widget: dict) -> str:
    """The page's HTML; ValueError naming the template or macro file if it is broken."""
    module = archetype(spec.template)
    rng = np.random.default_rng([spec.variant, THEME])
    system = choose_system(spec.template, spec.variant)
    theme, content = make_theme(rng, spec.lang), make_content(rng, spec.lang)
    layout = module.layout(rng, spec.lang)
    icons = Icons(ICON_SETS[int(rng.integers(len(ICON_SETS)))])
    pictures = Pictures(np.random.default_rng([spec.variant, PICTURES]), 2 if spec.platform == "mobile" else 1)
    env = _env()
    try:
        shared = {"lang": spec.lang, "platform": spec.platform, "t": theme, "icon": icons.svg, "ds": system}
        ui = env.get_template(f"screens/ui/{system}.j2").make_module(shared)
        template = env.get_template(f"screens/{spec.template}.html.j2")
        return template.render(**shared, c=content, L=layout, ui=ui, widget=widget, css=stylesheet(system),
                               photo=pictures.photo, photo_again=pictures.again, product=pictures.product,
                               dish=pictures.dish,
                               avatar_src=pictures.avatar)
    except jinja2.TemplateError as e:
        raise ValueError(f"template screens/{spec.template} ({system}) is broken: {e}") from e
