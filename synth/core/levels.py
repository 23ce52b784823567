"""Difficulty tables: per level, knob ranges `(lo, hi)`; validated when a family registers them."""
from dataclasses import dataclass

import numpy as np

LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class LevelTable:
    """Knob ranges per level for one family. Keys ending in `_range` are `(lo, hi)` with lo <= hi."""
    family: str
    knobs: dict[str, str]                       # knob name -> one-line meaning (for docs)
    levels: dict[int, dict[str, tuple]]

    def __post_init__(self) -> None:
        if sorted(self.levels) != list(LEVELS):
            raise ValueError(f"{self.family}: levels must be exactly {LEVELS}, got {sorted(self.levels)}")
        for level, row in self.levels.items():
            unknown = set(row) - set(self.knobs)
            missing = set(self.knobs) - set(row)
            if unknown or missing:
                raise ValueError(f"{self.family} level {level}: unknown knobs {sorted(unknown)}, "
                                 f"missing knobs {sorted(missing)}")
            for name, value in row.items():
                if name.endswith("_range") and not (len(value) == 2 and value[0] <= value[1]):
                    raise ValueError(f"{self.family} level {level}: {name} must be (lo, hi) with lo <= hi, "
                                     f"got {value!r}")

    def row(self, level: int) -> dict[str, tuple]:
        """The knob ranges of one level; ValueError naming the allowed range otherwise."""
        if level not in self.levels:
            raise ValueError(f"difficulty must be in 1..5, got {level}")
        return self.levels[level]


def draw_knob(rng: np.random.Generator, rng_range: tuple, integer: bool = False):
    """One value uniformly from a `(lo, hi)` range (inclusive for integers)."""
    lo, hi = rng_range
    if integer:
        return int(rng.integers(int(lo), int(hi) + 1))
    return float(rng.uniform(lo, hi)) if hi > lo else float(lo)
