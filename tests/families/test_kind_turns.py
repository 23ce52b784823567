"""Kinds stay their kind: every named kind keeps its name under the turns its families give it.

The measure: a person names a turned shape or character by the upright it looks most like. Each mask is
normalised (centred on its centroid, scaled to a fixed area) and compared by IoU. A kind turned by t is alike
another name when its IoU with that name's upright comes within MARGIN of its IoU with its own upright. The other
names of a kind are the kinds that are the same outline turned (IoU >= CONGRUENT at some turn: a diamond is a
square turned 45 degrees), the turn at which it takes another name (synth.families.kit.kinds.NAMED_TURNS: a
cross turned 45 degrees is an X) and, for characters, their turn partners (6 and 9, M and W, n and u, N and Z)."""
from functools import cache

import cv2
import numpy as np
import pytest

from synth.families import counting, grid, order, swap, word_order
from synth.families.kit import draw, glyphs, kinds

MARGIN = 0.05        # a turned kind must match its own upright better than another name's by this much
CONGRUENT = 0.95     # two outlines this alike at some turn are one outline turned
SIDE = 96            # normalised mask side; the mask covers a quarter of it
STEP = 2.5           # turns tried, degrees


def normalised(mask: np.ndarray) -> np.ndarray:
    """A boolean mask moved to the centre of a SIDE square and scaled to a quarter of its area."""
    m = mask.astype(np.uint8)
    moments = cv2.moments(m, True)
    cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    s = np.sqrt(0.25 * SIDE * SIDE / moments["m00"])
    affine = np.array([[s, 0, SIDE / 2 - s * cx], [0, s, SIDE / 2 - s * cy]])
    return cv2.warpAffine(m, affine, (SIDE, SIDE), flags=cv2.INTER_NEAREST) > 0


def iou(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.count_nonzero(a & b) / np.count_nonzero(a | b))


@cache
def shape_mask(shape: str, turn: float) -> np.ndarray:
    return normalised(draw.rotated(draw.sprite(f"shape:red:{shape}", 64), turn)[..., 3] >= draw.ALPHA_ON)


@cache
def glyph_mask(ch: str, font: str, turn: float) -> np.ndarray:
    return normalised(draw.rotated(glyphs.glyph(ch, font, 64, (0, 0, 0), None), turn)[..., 3] >= draw.ALPHA_ON)


def turns(limit: float) -> np.ndarray:
    return np.arange(-min(limit, 180.0), min(limit, 180.0) + 1e-9, STEP)


def other_names(shape: str) -> list[np.ndarray]:
    """The uprights a turned `shape` could be named as instead: the same outline turned, and its named turn."""
    out = [shape_mask(b, 0.0) for b in kinds.SHAPE_NAMES if b != shape
           and max(iou(shape_mask(shape, float(t)), shape_mask(b, 0.0)) for t in np.arange(0, 360, STEP)) >= CONGRUENT]
    if shape in kinds.NAMED_TURNS:
        out.append(shape_mask(shape, kinds.NAMED_TURNS[shape]))
    return out


def test_the_measure_tells_a_diamond_from_a_square_turned_45_degrees():
    assert iou(shape_mask("square", 45.0), shape_mask("diamond", 0.0)) >= CONGRUENT
    own, other = iou(shape_mask("square", 30.0), shape_mask("square", 0.0)), iou(shape_mask("square", 30.0),
                                                                                   shape_mask("diamond", 0.0))
    assert other > own                  # a square turned 30 degrees reads as a diamond: the limit must stop it
    assert kinds.max_turn("shape:blue:square") < 22.5


@pytest.mark.parametrize("shape", sorted(kinds.SHAPE_NAMES))
def test_every_shape_keeps_its_name_at_every_allowed_turn(shape):
    others = other_names(shape)
    for t in turns(kinds.max_turn(f"shape:red:{shape}")):
        turned = shape_mask(shape, float(t))
        own = iou(turned, shape_mask(shape, 0.0))
        for other in others:
            assert iou(turned, other) < own - MARGIN, f"{shape} turned {t} reads as another kind"


def family_characters() -> dict[str, tuple[str, set[str]]]:
    """Every character a family names under turns, with its script: order's and word_order's pools."""
    latin = set(order.LATIN) | {c for w in word_order.en_entries() for c in w}
    hanzi = set(order.HANZI)
    return {"latin": ("latin", latin), "hanzi": ("hanzi", hanzi)}


def test_every_character_keeps_its_name_at_every_allowed_turn():
    partners = {}
    for pair in kinds.TURN_PARTNERS:
        partners.setdefault(pair[0], set()).add(pair[1])
        partners.setdefault(pair[1], set()).add(pair[0])
    checked = 0
    for script, chars in family_characters().values():
        for ch in sorted(chars):
            for font in glyphs.fonts(script):
                for partner in sorted(partners.get(ch, ())):
                    for t in turns(kinds.max_turn(ch)):
                        turned = glyph_mask(ch, font, float(t))
                        own = iou(turned, glyph_mask(ch, font, 0.0))
                        assert iou(turned, glyph_mask(partner, font, 0.0)) < own - MARGIN, (ch, partner, t, font)
                        checked += 1
    assert checked > 0


def test_the_partner_measure_catches_a_half_turned_six():
    font = glyphs.fonts("latin")[0]
    turned = glyph_mask("6", font, 180.0)
    assert iou(turned, glyph_mask("9", font, 0.0)) > iou(turned, glyph_mask("6", font, 0.0))


def drawn_turns(family, params) -> list[tuple[str, float]]:
    """(kind key or character, turn) of every object a family's params draw."""
    if family is swap:
        return list(zip(params.board, params.tilts))
    if family in (order, word_order):
        return [(item[1], item[5]) for item in params.items]
    return [(key, tilt) for _, key, *_, tilt in params.objects]


@pytest.mark.parametrize("family", [counting, grid, swap, order, word_order], ids=lambda f: f.NAME)
def test_families_turn_no_kind_past_its_limit(family):
    for level in (3, 5):
        for seed in range(25):
            try:
                params = family.sample_params(np.random.default_rng(seed), level, (320, 320))
            except Exception as e:      # a Reject while sampling: nothing drawn
                assert type(e).__name__ == "Reject"
                continue
            for key, tilt in drawn_turns(family, params):
                assert abs(tilt) <= kinds.max_turn(key) + 1e-9, (family.NAME, level, seed, key, tilt)
