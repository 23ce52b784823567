"""What the server that local workers fork from runs first: it imports the pipeline and fills its caches
(pipeline.warm_up), then moves every object so far to the garbage collector's permanent generation
(gc.freeze), so that collections in the workers do not write to the pages they share with the server (which
would copy them into each worker, one by one). Workers inherit its settings."""
import gc
import logging
import os
import sys

import cv2

cv2.setNumThreads(1)    # before any OpenCV call, so that no thread pool exists at fork; one process per core
logging.getLogger("albumentations").setLevel(logging.ERROR)

from synth.pipeline import warm_up  # noqa: E402

_PARENT = os.getppid()    # the run's main process; once it is gone (killed), this server has nobody to serve
try:
    warm_up(stop=lambda: os.getppid() != _PARENT)
except Exception:   # a missing font, say: each worker meets it again in its first task, which reports it
    pass
if os.getppid() != _PARENT:
    sys.exit(0)
gc.freeze()
