"""The interactive task registry: every module in this package is a task (synth.episodes.base.Task), named
by its file. Adding a task is adding one module."""
import importlib
import pkgutil
from types import ModuleType

NAMES: tuple[str, ...] = tuple(sorted(i.name for i in pkgutil.iter_modules(__path__) if not i.name.startswith("_")))


def __getattr__(name: str) -> dict[str, ModuleType]:
    if name != "TASKS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    global TASKS
    TASKS = {n: importlib.import_module(f"{__name__}.{n}") for n in NAMES}
    return TASKS
