"""The kinds of object the puzzles draw and name: emoji sprites and coloured shapes, with their names in
English and Chinese. Sprites of them: synth.families.kit.draw; wording: synth.families.kit.grammar."""
import json
from dataclasses import dataclass
from functools import lru_cache

from synth.core.paths import ASSETS
from synth.families.kit import grammar

SHAPE_NAMES = {"circle": "圆形", "square": "正方形", "triangle": "三角形", "star": "五角星",
               "hexagon": "六边形", "diamond": "菱形", "cross": "十字"}
COLOURS = {"red": ((220, 50, 47), "红色"), "blue": ((38, 110, 220), "蓝色"), "green": ((40, 160, 70), "绿色"),
           "yellow": ((235, 190, 30), "黄色"), "purple": ((140, 70, 190), "紫色"), "orange": ((240, 130, 30), "橙色")}


@dataclass(frozen=True)
class Kind:
    """A kind of object the puzzles draw: an emoji sprite or a coloured shape."""
    key: str            # "emoji:cat" or "shape:red:star"
    en: str             # plural-ready English noun phrase, e.g. "cat" / "red star"
    zh: str
    category: str       # groups look-alikes: emoji category, or "shape"

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def measure_word(self) -> str:
        """The Chinese measure word for counting objects of this kind (只 for animals, 辆 for vehicles, 颗 for
        stars)."""
        return grammar.MEASURE_WORDS.get(self.en) or {"animal": "只", "vehicle": "辆"}.get(self.category, "个")

    def singular(self, lang: str) -> str:
        """One object of this kind: "bunch of grapes", or the Chinese name."""
        return self.zh if lang == "zh" else grammar.singular(self.en)

    def plural(self, lang: str) -> str:
        """Several objects of this kind: the English plural, or the Chinese name (Chinese nouns do not inflect)."""
        return self.zh if lang == "zh" else grammar.plural(self.en)


@lru_cache(maxsize=1)
def emoji_kinds() -> tuple[Kind, ...]:
    index = json.loads((ASSETS / "emoji" / "index.json").read_text())
    return tuple(Kind(f"emoji:{k}", v["en"], v["zh"], v["category"]) for k, v in sorted(index.items()))


@lru_cache(maxsize=1)
def shape_kinds() -> tuple[Kind, ...]:
    return tuple(Kind(f"shape:{c}:{s}", f"{c} {s}", cz + sz, "shape")
                 for c, (_, cz) in COLOURS.items() for s, sz in SHAPE_NAMES.items())


# The largest turn (degrees either way) at which a shape still reads as itself: beyond it a turned square reads
# as a diamond and a diamond as a square (each is the other turned 45 degrees), a turned cross as an X. A person
# names a turned shape by the upright it is nearest to; tests/families/test_kind_turns.py measures it (the IoU of
# normalised masks) for every kind at every turn up to its limit. Shapes not listed keep their name at any
# turn (a circle, a hexagon, a star or a triangle whose direction is not named). Emoji keep theirs up to
# EMOJI_MAX_TURN; characters up to GLYPH_MAX_TURN, and those with a turn partner (6 and 9, M and W, n and u,
# N and Z: TURN_PARTNERS) only up to PARTNER_MAX_TURN (an M turned 20 degrees is as near a W as an M, measured).
SHAPE_MAX_TURN = {"square": 15.0, "diamond": 15.0, "cross": 20.0}
NAMED_TURNS = {"square": 45.0, "diamond": 45.0, "cross": 45.0}   # the turn at which a shape takes another name
EMOJI_MAX_TURN = 60.0
GLYPH_MAX_TURN = 45.0
PARTNER_MAX_TURN = 15.0
TURN_PARTNERS = ("69", "MW", "mw", "nu", "NZ", "bq", "dp", "pd", "qb")


def max_turn(key: str) -> float:
    """The largest turn, degrees either way, at which the kind `key` ("shape:red:square", "emoji:cat", or one
    character) still reads as itself."""
    if key.startswith("shape:"):
        return SHAPE_MAX_TURN.get(key.split(":")[2], 180.0)
    if key.startswith("emoji:"):
        return EMOJI_MAX_TURN
    return PARTNER_MAX_TURN if any(key in pair for pair in TURN_PARTNERS) else GLYPH_MAX_TURN


def turn_limit(key: str, tilt: float) -> float:
    """The largest turn a family that tilts objects up to `tilt` degrees may give the kind `key`."""
    return min(float(tilt), max_turn(key))


# colours whose hues lie within the colour jitter of the degradations (up to +-20 degrees at level 5): a red
# and an orange of the same shape could swap names, so they never share a puzzle that names a colour
CLOSE_HUES = ({"red", "orange"}, {"orange", "yellow"})


def colours_confusable(a: str, b: str) -> bool:
    """Two shape kinds of one shape whose colours a hue shift could mix up."""
    if not (a.startswith("shape:") and b.startswith("shape:")):
        return False
    _, ca, sa = a.split(":")
    _, cb, sb = b.split(":")
    return sa == sb and {ca, cb} in CLOSE_HUES


@lru_cache(maxsize=1)
def _kinds_by_key() -> dict[str, Kind]:
    return {k.key: k for k in emoji_kinds() + shape_kinds()}


def kind_by_key(key: str) -> Kind:
    return _kinds_by_key()[key]
