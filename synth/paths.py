"""Locations of the project's data folders (templates, assets, backgrounds)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
ASSETS = ROOT / "assets"
BACKGROUNDS = ROOT / "backgrounds"
