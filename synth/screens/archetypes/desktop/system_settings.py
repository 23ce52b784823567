"""Settings: a desktop settings app (Windows Settings, macOS System Settings, GNOME Settings): a category list and
the option pane of one category with toggles, sliders and selects."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome

CATEGORY = "settings"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window

PAGES = ("display", "sound", "network", "power")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Category list and the open page of one settings window."""
    return {
        **chrome(rng, lang, "settings", "设置" if lang == "zh" else "Settings"),
        "page": str(rng.choice(PAGES)),
        "profile": bool(rng.random() < 0.6),             # the account card above the categories
        "search_top": bool(rng.random() < 0.5),          # search above the list, or in the pane header
        "cards": bool(rng.random() < 0.6),               # options grouped in cards, or plain rows with dividers
        "side_width": int(rng.choice([240, 260, 280])),
        "levels": [int(x) for x in rng.integers(20, 95, 3)],
        "on": [bool(x) for x in rng.random(6) < 0.5],
    }
