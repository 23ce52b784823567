"""A folder of self-contained pages served as a site root (`--pages DIR`).

Chromium loads them from a made-up origin, ORIGIN, whose requests Playwright's routing fulfils from the
folder: absolute paths (`/assets/app.css`) and ES module scripts resolve as on a web server, which `file://`
does not allow. Paths are normalised and never leave the folder; every request to another origin is aborted
and recorded by the browser (synth.screens.browser)."""
import mimetypes
import posixpath
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

ORIGIN = "http://pages.synth"
NAMESPACE = "pages/"      # a folder page's template name: "pages/<path relative to the folder>"
TYPES = {".html": "text/html", ".htm": "text/html", ".js": "text/javascript", ".mjs": "text/javascript",
         ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png",
         ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
         ".ico": "image/x-icon", ".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf",
         ".otf": "font/otf", ".wasm": "application/wasm", ".txt": "text/plain", ".map": "application/json"}


def folder_problem(folder: str | Path) -> str | None:
    """Why `folder` cannot be a --pages folder (missing, not a folder, empty, no .html), or None."""
    path = Path(folder)
    if not path.exists():
        return f"--pages folder {folder} does not exist"
    if not path.is_dir():
        return f"--pages {folder} is a file, not a folder"
    if not any(path.iterdir()):
        return f"--pages folder {folder} is empty"
    if not list_pages(path):
        return f"--pages folder {folder} holds no .html page"
    return None


def list_pages(folder: str | Path) -> list[str]:
    """The folder's pages as paths relative to it (POSIX, sorted): every .html/.htm file, hidden ones left out."""
    root = Path(folder)
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.suffix.lower() in (".html", ".htm") and p.is_file()
                  and not any(part.startswith(".") for part in p.relative_to(root).parts))


def page_url(template: str) -> str:
    """The URL Chromium loads for the template "pages/<path>" (escaped: a file may be named `a#b.html`)."""
    return f"{ORIGIN}/{quote(template.removeprefix(NAMESPACE))}"


def outside(folder: str | Path, rel: str) -> bool:
    """Whether the folder's page `rel` resolves outside the folder (a symlink out of it)."""
    root = Path(folder).resolve()
    return not (root / rel).resolve().is_relative_to(root)


class Site:
    """Answers the requests of pages served from `folder`."""

    def __init__(self, folder: str | Path) -> None:
        self.root = Path(folder).resolve()

    def file(self, url: str) -> Path | None:
        """The file a URL of ORIGIN names (`/` and folders -> index.html), or None if there is none. `..`
        cannot climb above the root: the path is normalised as an absolute one first."""
        rel = posixpath.normpath("/" + unquote(urlsplit(url).path)).lstrip("/")
        path = self.root / rel if rel not in ("", ".") else self.root
        if path.is_dir():
            path = path / "index.html"
        try:
            path.resolve().relative_to(self.root)      # a symlink out of the folder is not served either
        except ValueError:
            return None
        return path if path.is_file() else None

    def fulfil(self, route) -> None:
        """Fulfil a Playwright route from the folder (404 for a missing file)."""
        path = self.file(route.request.url)
        if path is None:
            route.fulfill(status=404, body="not found", content_type="text/plain")
            return
        kind = TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        route.fulfill(status=200, body=path.read_bytes(), content_type=kind,
                      headers={"Cache-Control": "no-store"})
