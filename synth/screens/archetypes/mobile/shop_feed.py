"""Shopping: a shopping app's home feed: search, category chips, optional banner and channel icons, then a
waterfall, grid or list of products."""
import numpy as np

from synth.screens.archetypes.mobile._shop import products, with_badge
from synth.screens.content import load, pick

CATEGORY = "shopping"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Header look, which sections appear, how products are laid out, tab bar items."""
    k = load("mobile_shopping", lang)
    feed = str(rng.choice(["waterfall", "waterfall", "grid", "list"]))
    tabs = k["tabs"] if rng.random() < 0.6 else [k["tabs"][i] for i in (0, 1, 3, 4)]
    cats = k["categories"][:1] + pick(rng, k["categories"][1:], int(rng.integers(5, 8)))
    return {
        "os": str(rng.choice(["ios", "android"])),
        "header": str(rng.choice(["brand", "plain", "logo"])),   # coloured band, white bar, app name above search
        "app": str(rng.choice(k["apps"])),
        "search": str(rng.choice(k["search"])),
        "chips": str(rng.choice(["tabs", "chips"])),
        "categories": cats,
        "banner": pick(rng, k["banners"], 1)[0] if rng.random() < 0.55 else None,
        "channels": pick(rng, k["channels"], 5 * int(rng.integers(1, 3))) if rng.random() < 0.6 else [],
        "channel_style": str(rng.choice(["glyph", "filled", "tint"])),
        "feed": feed,
        "products": products(rng, k, lang, 8),
        "heights": [int(h) for h in rng.choice([150, 170, 190, 220], 8)],
        "tabs": with_badge(tabs, "open_cart", int(rng.integers(0, 12))),
    }
