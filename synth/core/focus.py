"""Which family (or task) and level each sample of a run gets.

A plain run (one level, no --focus) takes the families in turn: sample i has family i mod F, at the run's
level. A run with a level range (`--difficulty 2-4`) or with focus weights (`--focus REPORT.json`, the weights
computed by synth.tools.focus) draws a cell (family, level) for each sample from the cells' weights, by a
low-discrepancy sequence: u_i = frac(offset + i * golden ratio), computed in exact 64-bit integers, falls in
one cell's slice of the cumulative weights. Each cell's share of any n consecutive samples is its weight to
within O(log n / n), and sample i's cell depends on (config, i) alone, so 1 or 2 workers and Ray agree.

Grounding samples have one family ("element"); their focus also weighs the instruction kinds a query is
drawn from (`kind_weights`)."""
from bisect import bisect_right
from functools import lru_cache

from synth.core.seeds import draw_offset

GOLDEN_64 = 0x9E3779B97F4A7C15      # 2^64 / golden ratio, odd: i * GOLDEN_64 mod 2^64 visits the circle evenly
MASK_64 = (1 << 64) - 1


def levels(cfg) -> tuple[int, ...]:
    """The levels a run draws from: `difficulty` .. `difficulty_max` (just `difficulty` when that is 0)."""
    return tuple(range(cfg.difficulty, max(cfg.difficulty, cfg.difficulty_max) + 1))


def drawn(cfg) -> bool:
    """Whether the run draws each sample's cell (a level range or focus weights) rather than taking turns."""
    return bool(cfg.focus) or len(levels(cfg)) > 1


@lru_cache(maxsize=16)
def cells(cfg) -> tuple[tuple[tuple[str, int], ...], tuple[float, ...]]:
    """The run's cells (family, level) and their cumulative weights, normalised to end at 1: the focus
    weights when the run has them, else every family at every level alike."""
    weighted = cfg.focus or tuple((f, lv, 1.0) for f in cfg.families for lv in levels(cfg))
    total, cumulative = sum(w for _, _, w in weighted), []
    running = 0.0
    for _, _, w in weighted:
        running += w
        cumulative.append(running / total)
    return tuple((f, lv) for f, lv, _ in weighted), tuple(cumulative)


def family_and_level(cfg, index: int) -> tuple[str, int]:
    """Sample `index`'s family (or task) and level."""
    if not drawn(cfg):
        return cfg.families[index % len(cfg.families)], cfg.difficulty
    names, cumulative = cells(cfg)
    u = ((draw_offset(cfg.seed) + index * GOLDEN_64) & MASK_64) / 2.0**64
    return names[min(bisect_right(cumulative, u), len(names) - 1)]


def kind_weights(cfg) -> dict[str, float] | None:
    """A grounding run's weights of the instruction kinds (None: every kind alike, as without --focus)."""
    return dict(cfg.focus_kinds) if cfg.focus_kinds else None
