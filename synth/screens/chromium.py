"""The one Chromium driver: finds and launches the system Chromium under Playwright, keeps one browser context,
kills the browser's whole process group when a call hangs (a watchdog) and stops it for a fresh start.

Pages (synth.screens.browser) and 3D scenes (synth.families.kit.render3d.chromium) each hold a `Chromium` of
their own, with their own flags, and decide when to restart it (`used` counts their units of work)."""
import contextlib
import os
import shutil
import signal
import threading

HANG_S = 60     # longest one watched call may take; then Chromium counts as hung and is killed


def chromium_path() -> str | None:
    """The system Chromium, if installed (Playwright's own download does not work offline)."""
    for name in (os.environ.get("SYNTH_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                 shutil.which("chromium-browser")):
        if name and os.path.exists(name):
            return name
    return None


def launch(args: list[str], purpose: str = "") -> tuple:
    """Start Playwright and the system Chromium with `args`: (playwright, browser, the process group of all
    Chromium's processes, from its browser process's id). RuntimeError naming the fix, and nothing left
    running, if Chromium does not start; `purpose` goes into that message."""
    from playwright.sync_api import sync_playwright
    pw = sync_playwright().start()
    path = chromium_path()
    try:
        browser = pw.chromium.launch(executable_path=path, args=args)
    except Exception as e:
        pw.stop()
        raise RuntimeError(f"cannot start Chromium ({path or 'Playwright managed'}){purpose}: "
                           f"install it with `apt-get install chromium` ({e.__class__.__name__})") from e
    processes = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")["processInfo"]
    return pw, browser, next(p["id"] for p in processes if p["type"] == "browser")


class Chromium:
    """A lazily launched Chromium with one browser context at a time, driven from one thread.

    `watchdog()` kills every process of the browser if its `with` takes over HANG_S (the waiting Playwright
    call then fails, and `killed` says why); `restart()` kills and forgets the browser, so that the next
    `start()` launches a fresh one even when the old one hangs."""

    def __init__(self, args: list[str], purpose: str = "") -> None:
        self.args, self.purpose = args, purpose
        self.browser = None
        self.context = None
        self.group: int | None = None   # the process group of the browser process and all the others
        self.killed = False             # by the watchdog, during the last watched call
        self.used = 0                   # units of work (pages, scenes) done by the current browser
        self.starts = 0                 # browsers launched
        self._pw = None

    @property
    def running(self) -> bool:
        """Whether a browser is up (or was, until a crash nobody has noticed yet)."""
        return self.browser is not None

    def start(self) -> None:
        """Launch the browser (no context yet)."""
        self._pw, self.browser, self.group = launch(self.args, self.purpose)
        self.used = 0
        self.starts += 1

    def new_context(self, route, init_script: str | None = None, **options):
        """Close the current browser context and open another with Playwright's `options`, every request going
        through `route` and, if given, `init_script` run before each document's own scripts."""
        if self.context is not None:
            self.context.close()
        self.context = self.browser.new_context(**options)
        if init_script:
            self.context.add_init_script(init_script)
        self.context.route("**/*", route)
        return self.context

    @contextlib.contextmanager
    def watchdog(self):
        """Kill Chromium if the `with` takes over HANG_S."""
        self.killed = False
        timer = threading.Timer(HANG_S, self._hung)
        timer.start()
        try:
            yield
        finally:
            timer.cancel()

    def _hung(self) -> None:
        if self.group is not None:
            self.killed = True
            self.kill()

    def kill(self) -> None:
        """Kill every Chromium process (from any thread): a call waiting on it then fails."""
        if self.group is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.group, signal.SIGKILL)

    def restart(self) -> None:
        """Stop Chromium for a fresh start, killing its processes first, so that a hung Chromium cannot block
        (Playwright's close waits for a stopped browser forever)."""
        self.kill()
        self.close()

    def close(self) -> None:
        """Stop the context, the browser and Playwright; safe to call twice."""
        for obj in (self.context, self.browser, self._pw):
            try:
                if obj is not None:
                    obj.stop() if obj is self._pw else obj.close()
            except Exception:
                pass
        self.context = self.browser = self._pw = None
        self.group, self.used = None, 0
