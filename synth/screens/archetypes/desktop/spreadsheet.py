"""Spreadsheet: a desktop spreadsheet (Excel, Numbers, LibreOffice Calc, WPS): a ribbon or toolbar of formatting
buttons, the formula bar, a budget sheet on the cell grid, sheet tabs and a status bar."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome

CATEGORY = "spreadsheet"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Toolbars, grid options and side panes of one spreadsheet window."""
    return {
        **chrome(rng, lang, "sheet", "表格" if lang == "zh" else "Sheets"),
        "toolbar": str(rng.choice(["ribbon", "toolbar"], p=[0.55, 0.45])),   # Office ribbon, or one/two icon rows
        "rows2": bool(rng.random() < 0.5),                                   # a second toolbar row (toolbar variant)
        "menubar": bool(rng.random() < 0.5),
        "side": str(rng.choice(["none", "comments", "format"], p=[0.6, 0.2, 0.2])),
        "money": bool(rng.random() < 0.6),                                   # currency-formatted numbers
        "title_row": bool(rng.random() < 0.7),
        "total_row": bool(rng.random() < 0.8),
        "variance": bool(rng.random() < 0.6),
        "header_fill": bool(rng.random() < 0.7),
        "sel_col": int(rng.integers(1, 5)),
        "col_width": int(rng.choice([84, 96, 108])),
        "cat_width": int(rng.choice([150, 170, 190])),
        "zoom": int(rng.choice([90, 100, 110])),
        "status": bool(rng.random() < 0.85),
    }
