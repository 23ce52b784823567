"""Locations of the project's data folders (templates, assets, backgrounds).

SYNTH_TEMPLATES may point at another templates folder (same layout: web/, mobile/, desktop/, widgets/)."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(os.environ.get("SYNTH_TEMPLATES", ROOT / "templates"))
ASSETS = ROOT / "assets"
BACKGROUNDS = ROOT / "backgrounds"
