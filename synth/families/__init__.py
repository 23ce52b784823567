"""The family registry: every module in this package that defines NAME and solve() is a CAPTCHA family
(see base.Family), listed in order of module name. Adding a family is adding one module."""
import importlib
import pkgutil
from types import ModuleType

_HELPERS = {"base", "placement"}


def _discover() -> dict[str, ModuleType]:
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name in _HELPERS or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "solve"):
            found[module.NAME] = module
    return found


FAMILIES: dict[str, ModuleType] = _discover()

