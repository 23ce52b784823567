"""The family registry: every module or package in this package except the helpers (base, kit) is a CAPTCHA
family, named by its file and listed in order of name, and seen through base.Family (the defaults of what a
family may leave out). Adding a family is adding one module (or one package, for a family of several modes).

NAMES is known without importing any family; FAMILIES maps each name to its family and imports a family's
module on first use of that family, so that a process that only needs the names (the main process of a run)
does not pay for the families' imports, and a small run pays only for the families it draws."""
import importlib
import pkgutil
from collections.abc import Iterator, Mapping

_HELPERS = {"base", "kit"}
NAMES: tuple[str, ...] = tuple(sorted(i.name for i in pkgutil.iter_modules(__path__)
                                      if i.name not in _HELPERS and not i.name.startswith("_")))


class _Registry(Mapping):
    """name -> base.Family, in the order of NAMES; a family's module is imported when first looked up."""

    def __init__(self) -> None:
        self._loaded: dict = {}

    def __getitem__(self, name: str):
        family = self._loaded.get(name)
        if family is None:
            if name not in NAMES:
                raise KeyError(name)
            from synth.families.base import Family  # here: importing NAMES must not import the drawing kit
            family = self._loaded[name] = Family(importlib.import_module(f"{__name__}.{name}"))
        return family

    def __contains__(self, name) -> bool:
        return name in NAMES

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


FAMILIES: Mapping = _Registry()


LANGUAGES = ("en", "zh")    # every family writes its instructions in both


def catalogue() -> list[dict]:
    """Per family: name, description, the answer kinds its tasks use (synth.labels.reward's step types), the
    languages of its instructions and the public benchmark and vendor CAPTCHA types it trains for
    ("Source:type")."""
    families = FAMILIES
    return [{"name": name, "description": module.DESCRIPTION, "answers": list(module.ANSWERS),
             "languages": list(LANGUAGES), "covers": list(module.COVERS)} for name, module in families.items()]
