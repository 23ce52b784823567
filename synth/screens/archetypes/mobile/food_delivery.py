"""Food: a food delivery app's home: delivery address, search, category icons, promo banner, filter chips and
a list (or cards) of restaurants with ratings, times, fees and offers."""
import numpy as np

from synth.screens.archetypes.mobile._shop import with_badge
from synth.screens.content import load, pick

CATEGORY = "food"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Header look, which sections appear and their order, restaurant list style, tab bar."""
    k = load("mobile_food", lang)
    rests = []
    for r in pick(rng, k["restaurants"], 5):
        fee = int(rng.integers(0, 6))
        rating, dist = round(float(rng.uniform(4.1, 4.9)), 1), round(float(rng.uniform(0.3, 4.5)), 1)
        # the time follows the distance: cooking (10-20 min) and ~6 min a mile (km) on the road
        rests.append({**r, "rating": rating, "mins": int(10 + 6 * dist + rng.uniform(0, 10)), "dist": dist,
                      "sales": int(rng.integers(200, 9999)),
                      "fee": k["free"] if fee == 0 else k["fee"].format(fee if lang == "zh" else f"{fee - 0.01:.2f}"),
                      # a "free delivery" offer only where delivery is free
                      "offers": pick(rng, [o for o in k["offers"] if fee == 0 or o not in k["free_offers"]],
                                     int(rng.integers(1, 4)))})
    cols = int(rng.choice([4, 5]))
    sections = [s for s in ("banner", "categories") if rng.random() < 0.8]
    return {
        "os": str(rng.choice(["ios", "android"])),
        "header": str(rng.choice(["brand", "plain"])),
        "search": str(rng.choice(k["search"])),
        "sections": [sections[int(i)] for i in rng.permutation(len(sections))],
        "cols": cols,
        "categories": pick(rng, k["categories"], cols * int(rng.integers(1, 3))),
        "tile": str(rng.choice(["filled", "tint", "glyph"])),
        "banner": pick(rng, k["banners"], 1)[0],
        "filters": k["filters"][:int(rng.integers(4, 7))],
        "list": str(rng.choice(["rows", "cards"])),
        "restaurants": rests,
        "tabs": with_badge(k["tabs_sets"][int(rng.integers(len(k["tabs_sets"])))], "open_cart",
                           int(rng.integers(0, 5))),
    }
