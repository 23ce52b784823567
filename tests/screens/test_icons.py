"""The icon sets (synth/screens/icon_names.py) against the installed files and the grounding vocabulary."""
import re

import pytest

from synth.core.paths import npm_file
from synth.grounding.vocab import ICONS
from synth.screens.icon_names import NAMES
from synth.screens.icons import ICON_SETS, Icons, _file

# A colour written into a drawing would not follow the text colour of the element that shows it
FIXED_COLOUR = re.compile(r'(?:fill|stroke|color|stop-color)\s*[=:]\s*"?(?!none|currentColor|transparent)[#\w(]', re.I)


@pytest.mark.parametrize("icon_set", ICON_SETS)
def test_every_named_file_exists(icon_set):
    for key, name in NAMES[icon_set].items():
        if key == "_path":
            continue
        other, _, own = name.rpartition(":")
        assert npm_file(NAMES[other or icon_set]["_path"].format(own)).is_file(), (icon_set, key, name)


@pytest.mark.parametrize("icon_set", ICON_SETS)
def test_keys_are_vocabulary_keys(icon_set):
    assert not set(NAMES[icon_set]) - {"_path"} - set(ICONS)


def test_tabler_covers_every_key():
    assert not set(ICONS) - set(NAMES["tabler"])


@pytest.mark.parametrize("icon_set", ICON_SETS)
def test_one_drawing_per_key(icon_set):
    # grounding says "the gear icon" only when one element shows a gear: two keys must not share a drawing
    drawings = {}
    for key in ICONS:
        assert drawings.setdefault(_file(icon_set, key), key) == key, (icon_set, key, drawings[_file(icon_set, key)])


@pytest.mark.parametrize("icon_set", ICON_SETS)
def test_markup_is_sized_and_takes_the_text_colour(icon_set):
    icons = Icons(icon_set)
    for key in ICONS:
        svg = icons.svg(key, 18)
        root = svg[:svg.index(">")]
        assert svg.startswith('<svg width="18" height="18" ') and svg.rstrip().endswith("</svg>"), key
        assert len(re.findall(r'\swidth="', root)) == 1 and len(re.findall(r'\sheight="', root)) == 1, key
        assert 'fill="currentColor"' in root or 'stroke="currentColor"' in root, key
        assert " class=" not in root, key
        assert not FIXED_COLOUR.search(svg), (key, FIXED_COLOUR.search(svg).group())


def test_unknown_set_is_refused():
    with pytest.raises(ValueError, match="icon_set"):
        Icons("fontawesome")
