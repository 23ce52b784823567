"""Where synth finds the files it reads at run time.

Its own data (templates, assets, backgrounds) ships inside a wheel as synth/_data/; a checkout or an editable
install has no such folder and uses the repository's top-level folders instead. Environment variables:

- SYNTH_TEMPLATES: another templates folder (same layout: web/, mobile/, desktop/, widgets/).
- SYNTH_VENDOR: the folder of third-party files that scripts/setup.sh installs, laid out like /usr/share
  (fonts/truetype/dejavu/...); default /usr/share, where the Debian packages put them."""
import os
from importlib import resources
from pathlib import Path

_PACKAGED = Path(str(resources.files("synth") / "_data"))
DATA = _PACKAGED if _PACKAGED.is_dir() else Path(__file__).resolve().parent.parent
TEMPLATES = Path(os.environ.get("SYNTH_TEMPLATES", DATA / "templates"))
ASSETS = DATA / "assets"
BACKGROUNDS = DATA / "backgrounds"
VENDOR = Path(os.environ.get("SYNTH_VENDOR", "/usr/share"))


def font(name: str) -> str:
    """Path of a font file given relative to the fonts folder, e.g. "truetype/dejavu/DejaVuSans-Bold.ttf"."""
    return str(VENDOR / "fonts" / name)
