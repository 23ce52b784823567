"""What the server that local workers fork from imports first: the pipeline. It then moves every object so
far to the garbage collector's permanent generation (gc.freeze), so that collections in the workers do not
write to the pages they share with the server (which would copy them into each worker, one by one)."""
import gc

import synth.pipeline  # noqa: F401

gc.freeze()
