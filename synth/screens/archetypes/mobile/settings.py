"""Settings: an app's or a phone's settings: a profile header, then groups of cells that open pages and of
switches, or a "Me" page with a profile card, shortcut rows and a tab bar."""
import numpy as np

from synth.screens.content import load

CATEGORY = "settings"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Page kind, profile header style, which groups appear in what order, switch states."""
    k = load("mobile_settings", lang)
    kind = str(rng.choice(["settings", "settings", "me"]))
    first, rest = k["groups"][:2], k["groups"][2:]
    keep = [g for g in rest if rng.random() < 0.6] or rest[:1]
    groups = (first if rng.random() < 0.5 else []) + [keep[int(i)] for i in rng.permutation(len(keep))]
    return {
        "os": str(rng.choice(["ios", "android"])),
        "kind": kind,
        "title": k["title"],
        "large_title": bool(rng.random() < 0.5),
        "search": k["search"] if rng.random() < 0.35 else "",
        "profile": str(rng.choice(["row", "card", "none"] if kind == "settings" else ["row", "card"])),
        "groups": groups[:4],
        "on": [bool(v) for v in rng.random(24) < 0.55],
        "me_rows": k["me_rows"],
        "stats": [int(v) for v in rng.integers(3, 3000, 3)] if rng.random() < 0.6 else [],
        "orders": bool(rng.random() < 0.6),
        "log_out": k["log_out"] if rng.random() < 0.4 else "",
        "profile_sub": k["profile_sub"], "edit": k["edit"],
        "uid": f"{int(rng.integers(10000000, 99999999))}",
        "tabs": k["tabs"],
    }
