"""The Chromium that draws 3D scenes: WebGL on the CPU (SwiftShader), three.js from the installed npm folder.

One renderer per process, started on first use, reused across scenes and stopped at exit. Playwright's sync
API allows one instance per thread, and a worker's page browser (synth.screens.browser) may hold its thread's,
so this Chromium is driven from a thread of its own. After a fork the child starts its own. Launch, hang
watchdog and restart are the page browser's (synth.screens.chromium); this module holds the scene page."""
import atexit
import logging
import os
import queue
import threading
from concurrent.futures import Future
from functools import cache

from synth.core.errors import first_line
from synth.core.paths import TEMPLATES, npm_file
from synth.screens import chromium
from synth.screens.chromium import Chromium

log = logging.getLogger(__name__)
ORIGIN = "http://render3d.synth"     # served by the renderer's routing; no request leaves the browser
# WebGL through ANGLE on SwiftShader: the same pixels on every machine with this Chromium, no GPU needed
CHROMIUM_ARGS = ["--no-sandbox", "--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                 "--disable-background-networking", "--disable-quic", "--no-first-run", "--disable-component-update",
                 "--disable-sync", "--renderer-process-limit=1", "--disable-renderer-backgrounding",
                 "--disable-background-timer-throttling"]
RESTART_EVERY = 2000     # scenes per browser, to bound its memory
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
        self._chromium = Chromium(CHROMIUM_ARGS, " for 3D scenes")
        self._page = None

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
                return done.result()
            except Exception as e:
                hung = self._chromium.killed
                if attempt == attempts - 1 and hung:
                    raise RuntimeError(f"Chromium hung drawing a 3D scene (over {chromium.HANG_S} s)") from e
                if attempt == attempts - 1 or not hung and "playwright" not in type(e).__module__:
                    raise
                log.warning("Chromium (render3d) %s; restarting it", "hung" if hung else f"failed ({first_line(e)})")
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
            self._chromium.kill()
        self._thread.join(timeout)
        self._thread = None

    # ------------------------------------------------------------ the renderer's thread

    def _loop(self) -> None:
        while True:
            fn, arg, done = self._jobs.get()
            if fn is None:
                self._stop()
                done.set_result(None)
                return
            try:
                with self._chromium.watchdog():
                    if self._chromium.used >= RESTART_EVERY:
                        self._stop()
                    if self._page is None:
                        self._start()
                    result = self._page.evaluate(f"arg => window.{fn}(arg)", arg)
                self._chromium.used += len(arg) if isinstance(arg, list) else 1
                done.set_result(result)
            except BaseException as e:   # a crashed or hung browser is restarted for the next job
                self._stop()
                done.set_exception(e)

    def _start(self) -> None:
        _file("/three/three.module.js")      # FileNotFoundError saying how to install three.js, before a browser
        self._chromium.start()
        context = self._chromium.new_context(self._route, viewport={"width": 320, "height": 320},
                                             java_script_enabled=True)
        self._page = context.new_page()
        self._page.goto(ORIGIN + "/index.html", wait_until="load", timeout=30_000)
        self._page.wait_for_function("() => window.ready === true", timeout=30_000)

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
        self._chromium.close()
        self._page = None


_RENDERER: Renderer | None = None


def renderer() -> Renderer:
    """This process's renderer (its Chromium starts on the first scene, and stops at exit), or the one `use`
    gave it."""
    global _RENDERER
    if _RENDERER is None:
        _RENDERER = Renderer()
        atexit.register(_RENDERER.close)
    return _RENDERER


def use(other) -> None:
    """Make `other` (an object with Renderer's call and close, e.g. synth.families.kit.render3d.host's
    remote renderer) this process's renderer."""
    global _RENDERER
    if _RENDERER is not None:
        _RENDERER.close()
    _RENDERER = other
    atexit.register(other.close)
