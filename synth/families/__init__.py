"""The family registry: every module or package in this package except the helpers (base, kit) is a CAPTCHA
family, named by its file and listed in order of name, and seen through base.Family (the defaults of what a
family may leave out). Adding a family is adding one module (or one package, for a family of several modes).

NAMES is known without importing any family; FAMILIES imports them on first use, so that a process that only
needs the names (the main process of a run) does not pay for the families' imports."""
import importlib
import pkgutil

_HELPERS = {"base", "kit"}
NAMES: tuple[str, ...] = tuple(sorted(i.name for i in pkgutil.iter_modules(__path__)
                                      if i.name not in _HELPERS and not i.name.startswith("_")))


def __getattr__(name: str) -> dict:
    if name != "FAMILIES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from synth.families.base import Family  # here: importing NAMES must not import the drawing kit
    global FAMILIES
    FAMILIES = {n: Family(importlib.import_module(f"{__name__}.{n}")) for n in NAMES}
    return FAMILIES


LANGUAGES = ("en", "zh")    # every family writes its instructions in both


def catalogue() -> list[dict]:
    """Per family: name, description, the answer kinds its tasks use (synth.labels.reward's step types), the
    languages of its instructions and the public benchmark and vendor CAPTCHA types it trains for
    ("Source:type")."""
    families = __getattr__("FAMILIES")
    return [{"name": name, "description": module.DESCRIPTION, "answers": list(module.ANSWERS),
             "languages": list(LANGUAGES), "covers": list(module.COVERS)} for name, module in families.items()]
