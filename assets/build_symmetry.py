"""Write emoji/symmetry.json: how far each emoji is from looking the same when turned (rotation family).

Usage: python assets/build_symmetry.py   (after build_emoji.py changes the sprites; a test checks the table)"""
import json

from synth.families.kit.kinds import emoji_kinds
from synth.families.rotation import SYMMETRY_TABLE, measure_symmetry


def table() -> dict[str, float]:
    return {k.key: measure_symmetry(k.key) for k in emoji_kinds()}


if __name__ == "__main__":
    SYMMETRY_TABLE.write_text(json.dumps(table(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {SYMMETRY_TABLE}")
