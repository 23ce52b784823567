"""Files: a desktop file manager (Explorer, Finder, Nautilus): places or a folder tree, a path bar, the folder's
files as a details list or an icon grid, and an optional preview/details pane."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome

CATEGORY = "files"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Panes, views and toolbars of one file manager window."""
    base = chrome(rng, lang, "folder", "文件资源管理器" if lang == "zh" else "File Explorer")
    toolbar = str(rng.choice(["command", "icons", "ribbon"], p=[0.45, 0.35, 0.2]))
    return {
        **base,
        "view": str(rng.choice(["details", "icons", "tiles"], p=[0.5, 0.35, 0.15])),
        "side": str(rng.choice(["tree", "places"])),               # an expandable folder tree, or a flat places list
        "toolbar": "icons" if toolbar == "ribbon" and base["os"] != "windows" else toolbar,   # the ribbon is Explorer's
        "path": str(rng.choice(["crumbs", "address"])),            # clickable crumbs, or an address field
        "details": bool(rng.random() < 0.45),                      # a preview/properties pane on the right
        "menubar": bool(rng.random() < 0.35),
        "status": bool(rng.random() < 0.8),
        "side_width": int(rng.choice([200, 220, 240])),
        "icon_size": int(rng.choice([64, 80, 96])),
        "selected": int(rng.integers(3, 12)),
        "columns": str(rng.choice(["full", "short"])),             # name, date, type, size — or without the type
        "thumbs": bool(rng.random() < 0.7),                        # pictures show as thumbnails in the icon views
        "drives": bool(rng.random() < 0.6),
    }
