"""The server that local worker processes fork from: it imports the pipeline once, so workers start warm
(instead of each importing it, as spawned interpreters do) and inherit no threads or browser from the caller."""
import multiprocessing as mp
from multiprocessing import forkserver


def context():
    """The multiprocessing context local workers and their queues come from."""
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["synth.pipeline"])
    return ctx


def start_early() -> None:
    """Start the server now, so that its imports overlap the caller's own."""
    context()
    forkserver.ensure_running()
