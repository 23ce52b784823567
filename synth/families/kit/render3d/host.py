"""One 3D renderer for a run's processes: the main process serves its renderer (synth.families.kit.render3d.
chromium) over a Unix socket, and each worker sends its scenes there instead of starting a Chromium of its
own. A renderer's start (Chromium, three.js, the shaders) costs ~3 s of CPU, more than 30 scenes; a scene
gives the same bytes in any renderer of this Chromium (tests/test_render3d.py), so the output does not change.

Host(): in the serving process, one thread per connected worker; calls are serialised by the renderer's lock.
use_host(address, key): in a worker, route this process's renderer() to the host (connected on first use)."""
import os
import secrets
import tempfile
import threading
from multiprocessing.connection import Client, Listener
from pathlib import Path

from synth.core.errors import first_line
from synth.families.kit.render3d import chromium

# A host serves while at most MAX_WAITS of its calls (after the first MIN_CALLS) found its renderer busy: two
# workers of the default mix wait in ~1 call in 4 (a run's end-to-end CPU falls by the ~3 s of a renderer's
# start), those of a run of 3D families alone in most (they would wait for each other's scenes)
MIN_CALLS, MAX_WAITS = 12, 0.5


class Host:
    """Serves this process's renderer to the processes that connect to `address` with `key`."""

    def __init__(self) -> None:
        self._folder = tempfile.mkdtemp(prefix="synth-3d-")     # short (a socket path has ~100 bytes), 0700
        self.address, self.key = str(Path(self._folder) / "render3d.sock"), secrets.token_bytes(16)
        self._listener = Listener(self.address, "AF_UNIX", authkey=self.key)
        self._closing = False
        self._lock = threading.Lock()     # one scene list at a time
        self.calls = self.waits = 0       # calls served; of them, calls that found the renderer busy
        self._thread = threading.Thread(target=self._accept, name="render3d-host", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._closing:
            try:
                conn = self._listener.accept()
            except OSError:      # closed, or a client that failed the handshake
                continue
            threading.Thread(target=self._serve, args=(conn,), name="render3d-client", daemon=True).start()

    def _serve(self, conn) -> None:
        """Answer one worker's calls until it disconnects (see _answer)."""
        with conn:
            while True:
                try:
                    fn, arg = conn.recv()
                except (EOFError, OSError):
                    return
                reply = self._answer(fn, arg)
                try:
                    conn.send(reply)
                except OSError:      # the worker is gone
                    return

    def _answer(self, fn: str, arg) -> tuple:
        """(True, the result) or (False, the error) of one call; (None, None) once more than MAX_WAITS of the
        calls found the renderer busy (a run of mostly 3D scenes): the worker then starts a renderer of its own."""
        if self.calls >= MIN_CALLS and self.waits > self.calls * MAX_WAITS:
            return None, None
        if not self._lock.acquire(blocking=False):
            self.waits += 1
            self._lock.acquire()
        try:
            self.calls += 1
            return True, chromium.renderer().call(fn, arg)
        except Exception as e:
            return False, RuntimeError(f"3D renderer: {type(e).__name__}: {first_line(e)}")
        finally:
            self._lock.release()

    def close(self) -> None:
        """Stop serving and stop the renderer's Chromium; safe to call twice."""
        if self._closing:
            return
        self._closing = True
        try:     # wake the accepting thread
            Client(self.address, "AF_UNIX", authkey=self.key).close()
        except OSError:
            pass
        self._thread.join(timeout=5)
        self._listener.close()
        chromium.renderer().close()
        for leftover in (self.address, self._folder):
            try:
                os.rmdir(leftover) if leftover == self._folder else os.unlink(leftover)
            except OSError:
                pass


class _Remote:
    """A renderer in another process (a Host's), with the Renderer's call and close."""

    def __init__(self, address: str, key: bytes) -> None:
        self.address, self.key = address, key
        self._conn = None
        self._own: chromium.Renderer | None = None    # once the host is too busy to share
        self._lock = threading.Lock()

    def call(self, fn: str, arg):
        """Run page function `fn` on `arg` in the host's renderer (or, once it is too busy, in our own)."""
        with self._lock:
            if self._own is None:
                if self._conn is None:
                    self._conn = Client(self.address, "AF_UNIX", authkey=self.key)
                self._conn.send((fn, arg))
                ok, value = self._conn.recv()
                if ok is not None:
                    if not ok:
                        raise value
                    return value
                self._conn.close()
                self._conn, self._own = None, chromium.Renderer()
        return self._own.call(fn, arg)

    def close(self) -> None:
        """Disconnect (the host's renderer goes on), and stop our own renderer if we started one."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            if self._own is not None:
                self._own.close()


def use_host(address: str, key: bytes) -> None:
    """Draw this process's 3D scenes in the renderer served at `address` (a Host's)."""
    chromium.use(_Remote(address, key))
