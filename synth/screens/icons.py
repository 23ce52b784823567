"""Icons from the open icon sets that setup installs, by the keys of synth.grounding.vocab.ICONS: an element
that shows the icon of key k carries data-g-icon="k", and grounding describes it by that key's words, so
each set's file for a key must show what the words say (check with scripts/icon_sheet.py).

A page draws all its icons from one set; a key the set has no drawing for comes from tabler."""
import re
from functools import lru_cache

from markupsafe import Markup

from synth.core.paths import npm_file
from synth.screens.icon_names import NAMES

ICON_SETS = tuple(NAMES)        # "tabler", "lucide", "bootstrap", "remix"


@lru_cache(maxsize=4096)
def _file(icon_set: str, key: str) -> str:
    """The <svg> root tag of the set's drawing for `key` (without its size and class) and the rest of the file."""
    name = NAMES[icon_set].get(key)
    if name is None:
        if icon_set == "tabler":
            raise KeyError(f"no icon for key {key!r}")
        return _file("tabler", key)
    if ":" in name:     # "lucide:x": a drawing the set lacks, taken from a set of the same style
        icon_set, name = name.split(":")
    svg = npm_file(NAMES[icon_set]["_path"].format(name)).read_text(encoding="utf-8")
    svg = svg[svg.index("<svg"):]
    end = svg.index(">")
    # The file's size gives way to the caller's; its class goes so that a design system's CSS for its
    # own icons (tabler's .icon, bootstrap's .bi) does not resize one set's icons and not the others.
    root = re.sub(r'\s(width|height|class)="[^"]*"', "", svg[4:end])
    if "fill=" not in root:     # filled drawings without a colour (remix) take the text colour
        root += ' fill="currentColor"'
    return "<svg" + root + svg[end:]


class Icons:
    """The icons of one page, all from one set."""

    def __init__(self, icon_set: str) -> None:
        if icon_set not in NAMES:
            raise ValueError(f"icon_set={icon_set!r}: expected one of {', '.join(ICON_SETS)}")
        self.icon_set = icon_set

    def svg(self, key: str, size: int = 20) -> Markup:
        """Inline SVG markup of icon `key`, `size` CSS px, drawn in the current text colour; `data-icon` names
        the key, so that the grounding harvester knows every icon a page shows (refusals name others)."""
        svg = _file(self.icon_set, key)
        return Markup(f'<svg width="{size}" height="{size}" aria-hidden="true" focusable="false" data-icon="{key}"'
                      + svg[4:])
