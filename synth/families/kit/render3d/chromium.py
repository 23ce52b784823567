"""The Chromium that draws 3D scenes: WebGL on the CPU (SwiftShader), three.js from the installed npm folder.

One renderer per process, started on first use, reused across scenes and stopped at exit. Playwright's sync
API allows one instance per thread, and a worker's page browser (synth.screens.browser) may hold its thread's,
so this Chromium is driven from a thread of its own. After a fork the child starts its own."""
import atexit
import logging
import os
import queue
import signal
import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from functools import cache

from synth.core.errors import first_line
from synth.core.paths import TEMPLATES, npm_file

log = logging.getLogger(__name__)
ORIGIN = "http://render3d.synth"     # served by the renderer's routing; no request leaves the browser
# WebGL through ANGLE on SwiftShader: the same pixels on every machine with this Chromium, no GPU needed
CHROMIUM_ARGS = ["--no-sandbox", "--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                 "--disable-background-networking", "--disable-quic", "--no-first-run", "--disable-component-update",
                 "--disable-sync", "--renderer-process-limit=1", "--disable-renderer-backgrounding",
                 "--disable-background-timer-throttling"]
RESTART_EVERY = 2000     # scenes per browser, to bound its memory
HANG_S = 60              # longest one call may take; then Chromium counts as hung and is killed
_TYPES = {".html": "text/html", ".js": "text/javascript"}


@cache
def _file(path: str) -> tuple[bytes, str]:
    """The bytes and content type of a file the page loads (read once per process)."""
    if path.startswith("/three/"):
        src = npm_file("three/build/" + path[len("/three/"):])
    else:
        src = TEMPLATES / "render3d" / path.lstrip("/")
        if not src.is_file():
            raise FileNotFoundError(src)
    return src.read_bytes(), _TYPES.get(src.suffix, "application/octet-stream")


class Renderer:
    """A Chromium showing templates/render3d/index.html, driven from one thread; restarts on a crash or hang."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._lock = threading.Lock()     # one call at a time
        self._jobs: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._pw = self._browser = self._page = None
        self._group: int | None = None
        self.scenes = 0          # drawn by the current browser
        self.starts = 0          # browsers started by this process

    # ------------------------------------------------------------ the caller's side

    def call(self, fn: str, arg, attempts: int = 2):
        """Run page function `fn` on `arg` (JSON) in the renderer's thread; one retry in a fresh browser if
        Chromium crashed or hung."""
        if self._pid != os.getpid():      # a forked child: the parent's thread and browser are not ours
            self._reset()
        with self._lock:
            return self._call(fn, arg, attempts)

    def _call(self, fn: str, arg, attempts: int):
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._loop, name="synth-render3d", daemon=True)
            self._thread.start()
        for attempt in range(attempts):
            done: Future = Future()
            self._jobs.put((fn, arg, done))
            try:
                return done.result(timeout=HANG_S)
            except FutureTimeout:
                log.warning("Chromium (render3d) hung; killing it")
                self._kill()
                try:
                    done.result(timeout=HANG_S)
                except Exception:
                    pass
                if attempt == attempts - 1:
                    raise RuntimeError(f"Chromium hung drawing a 3D scene (over {HANG_S} s)")
            except Exception as e:
                if attempt == attempts - 1 or "playwright" not in type(e).__module__:
                    raise
                log.warning("Chromium (render3d) failed (%s); restarting it", first_line(e))
        raise AssertionError("unreachable")

    def close(self, timeout: float = 20.0) -> None:
        """Stop Chromium and the thread; safe to call twice."""
        if self._pid != os.getpid() or self._thread is None or not self._thread.is_alive():
            return
        done: Future = Future()
        self._jobs.put((None, None, done))
        try:
            done.result(timeout=timeout)
        except Exception:
            self._kill()
        self._thread.join(timeout)
        self._thread = None

    def _kill(self) -> None:
        if self._group is not None:
            try:
                os.killpg(self._group, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def usage(self) -> tuple[int, float]:
        """Memory (bytes: proportional set size, so that pages the processes share count once) and CPU time so
        far (seconds) of every process of this Chromium (browser, GPU, renderer, utilities)."""
        pss, cpu = 0, 0.0
        if self._group is None:
            return pss, cpu
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[2]) != self._group:    # not in this Chromium's process group
                    continue
                cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
                with open(f"/proc/{pid}/smaps_rollup") as f:
                    pss += next(int(line.split()[1]) for line in f if line.startswith("Pss:")) * 1024
            except (OSError, IndexError, ValueError, StopIteration):
                continue
        return pss, cpu

    # ------------------------------------------------------------ the renderer's thread

    def _loop(self) -> None:
        while True:
            fn, arg, done = self._jobs.get()
            if fn is None:
                self._stop()
                done.set_result(None)
                return
            try:
                if self.scenes >= RESTART_EVERY:
                    self._stop()
                if self._page is None:
                    self._start()
                result = self._page.evaluate(f"arg => window.{fn}(arg)", arg)
                self.scenes += len(arg) if isinstance(arg, list) else 1
                done.set_result(result)
            except BaseException as e:   # a crashed browser is restarted for the next job
                self._stop()
                done.set_exception(e)

    def _start(self) -> None:
        from synth.screens.browser import launch
        _file("/three/three.module.js")      # FileNotFoundError saying how to install three.js, before a browser
        self._pw, self._browser, self._group = launch(CHROMIUM_ARGS, " for 3D scenes")
        context = self._browser.new_context(viewport={"width": 320, "height": 320}, java_script_enabled=True)
        context.route("**/*", self._route)
        self._page = context.new_page()
        self._page.goto(ORIGIN + "/index.html", wait_until="load", timeout=30_000)
        self._page.wait_for_function("() => window.ready === true", timeout=30_000)
        self.scenes = 0
        self.starts += 1

    def _route(self, route) -> None:
        url = route.request.url
        if url.startswith(ORIGIN + "/"):
            try:
                body, kind = _file(url[len(ORIGIN):].split("?", 1)[0])
            except FileNotFoundError:
                route.fulfill(status=404, body="")
                return
            route.fulfill(status=200, body=body, content_type=kind)
        else:
            route.abort()

    def _stop(self) -> None:
        for obj in (self._browser, self._pw):
            try:
                if obj is not None:
                    obj.stop() if obj is self._pw else obj.close()
            except Exception:
                pass
        self._pw = self._browser = self._page = None
        self._group = None


_RENDERER: Renderer | None = None


def renderer() -> Renderer:
    """This process's renderer (its Chromium starts on the first scene, and stops at exit)."""
    global _RENDERER
    if _RENDERER is None:
        _RENDERER = Renderer()
        atexit.register(_RENDERER.close)
    return _RENDERER
