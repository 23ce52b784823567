"""The family registry: every module listed here is a CAPTCHA family (see base.Family)."""
from types import ModuleType

from synth.families import counting, occlusion, rotation

FAMILIES: dict[str, ModuleType] = {m.NAME: m for m in (counting, rotation, occlusion)}


def get_family(name: str) -> ModuleType:
    """The family module called `name`; ValueError listing the known names otherwise."""
    if name not in FAMILIES:
        raise ValueError(f"unknown family {name!r}; known: {', '.join(sorted(FAMILIES))}")
    return FAMILIES[name]
