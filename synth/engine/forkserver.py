"""What the server that local workers fork from runs first: it imports the pipeline and fills its caches
(pipeline.warm_up, for the run's level and families when workers.start_early names them), then moves every
object so far to the garbage collector's permanent generation (gc.freeze), so that collections in the
workers do not write to the pages they share with the server (which would copy them into each worker, one
by one). Workers inherit its settings."""
import gc
import logging
import os
import select
import signal
import threading


def _end_with_parent() -> None:
    """Exit as soon as the run's main process ends (killed, say), even in the middle of the imports and the
    warm-up below, which take seconds: a server left behind would have nobody to serve."""
    parent = os.getppid()
    if parent == 1:                     # it has ended already
        os._exit(0)
    try:
        fd = os.pidfd_open(parent)
    except (AttributeError, OSError):   # not Linux >= 5.3: the server ends when its pipes close
        return
    select.select([fd], [], [])
    os._exit(0)


threading.Thread(target=_end_with_parent, daemon=True).start()
# Ctrl-C reaches every process of the terminal's group: the main process alone handles it (it stops the
# workers); the server and the workers it forks (which inherit this) ignore it
signal.signal(signal.SIGINT, signal.SIG_IGN)

import cv2  # noqa: E402

cv2.setNumThreads(1)    # before any OpenCV call, so that no thread pool exists at fork; one process per core
logging.getLogger("albumentations").setLevel(logging.ERROR)

from synth.captcha.recipe import warm_up  # noqa: E402
from synth.engine.workers import WARM_FAMILIES, WARM_LEVEL  # noqa: E402

try:
    level, families = os.environ.get(WARM_LEVEL), os.environ.get(WARM_FAMILIES)
    warm_up(levels=(int(level),) if level else None,
            families=None if families is None else [name for name in families.split(",") if name])
except Exception:   # a missing font, say: each worker meets it again in its first task, which reports it
    pass
gc.freeze()
