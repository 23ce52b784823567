"""What the server that local workers fork from runs first: it imports the pipeline and fills its caches
(pipeline.warm_up), then moves every object so far to the garbage collector's permanent generation
(gc.freeze), so that collections in the workers do not write to the pages they share with the server (which
would copy them into each worker, one by one). Workers inherit its settings."""
import gc
import logging

import cv2

cv2.setNumThreads(1)    # before any OpenCV call, so that no thread pool exists at fork; one process per core
logging.getLogger("albumentations").setLevel(logging.ERROR)

from synth.pipeline import warm_up  # noqa: E402

try:
    warm_up()
except Exception:   # a missing font, say: each worker meets it again in its first task, which reports it
    pass
gc.freeze()
