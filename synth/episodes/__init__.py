"""Interactive CAPTCHAs: stateful and animated tasks (tasks/, one module each), every one-shot family of
synth.families as an episode (oneshot.py), the episode core both the environment and the trajectory writer
drive (episode.py), the Gymnasium environment (env.py, registered by synth.env) and `synth episodes`'s
trajectories (rollout.py)."""
from functools import cache

from synth import families
from synth.episodes import tasks

NAMES: tuple[str, ...] = tasks.NAMES + families.NAMES   # the interactive tasks first, then the one-shot families


@cache
def task(name: str):
    """The task named `name` (a module of tasks/, or a one-shot family wrapped by OneShot); ValueError naming
    the allowed names otherwise."""
    if name in tasks.NAMES:
        return tasks.TASKS[name]
    if name in families.NAMES:
        from synth.episodes.oneshot import OneShot
        return OneShot(families.FAMILIES[name])
    raise ValueError(f"family must be one of {', '.join(NAMES)}, got {name!r}")
