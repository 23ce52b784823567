"""Where synth finds the files it reads at run time.

Its own data (templates, assets, backgrounds) ships inside a wheel as synth/_data/; a checkout or an editable
install has no such folder and uses the repository's top-level folders instead. Environment variables:

- SYNTH_TEMPLATES: another templates folder (same layout: web/, mobile/, desktop/, widgets/).
- SYNTH_VENDOR: the folder of third-party files from Debian packages, laid out like /usr/share
  (fonts/truetype/dejavu/...); default /usr/share, where the packages put them.
- SYNTH_NPM: the folder where scripts/setup.sh installs the npm packages of vendor/package.json (design
  systems, icon sets) with `npm ci`; default $XDG_DATA_HOME/synth/npm (~/.local/share/synth/npm).

Files derived from those, made once per machine and safe to delete (picture copies, pruned stylesheets,
compiled templates), go to CACHE: $XDG_CACHE_HOME/synth (~/.cache/synth). Rendered pages kept across runs go to
$SYNTH_CACHE, default CACHE/pages (synth.engine.pagecache, capped by $SYNTH_CACHE_MB)."""
import os
from importlib import resources
from pathlib import Path

_PACKAGED = Path(str(resources.files("synth") / "_data"))
DATA = _PACKAGED if _PACKAGED.is_dir() else Path(__file__).resolve().parents[2]
TEMPLATES = Path(os.environ.get("SYNTH_TEMPLATES", DATA / "templates"))
ASSETS = DATA / "assets"
BACKGROUNDS = DATA / "backgrounds"
VENDOR = Path(os.environ.get("SYNTH_VENDOR", "/usr/share"))
_DATA_HOME = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
NPM = Path(os.environ.get("SYNTH_NPM") or _DATA_HOME / "synth" / "npm") / "node_modules"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "synth"


def font(name: str) -> str:
    """Path of a font file given relative to the fonts folder, e.g. "truetype/dejavu/DejaVuSans-Bold.ttf"."""
    return str(VENDOR / "fonts" / name)


def cache_dir(name: str) -> Path:
    """CACHE/`name`, created if missing."""
    path = CACHE / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def npm_file(name: str) -> Path:
    """A file of an npm package that setup installs, e.g. "bootstrap/dist/css/bootstrap.min.css";
    FileNotFoundError saying how to install it."""
    path = NPM / name
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run scripts/setup.sh (or npm ci in a copy of vendor/ and "
                                f"point SYNTH_NPM at it)")
    return path
