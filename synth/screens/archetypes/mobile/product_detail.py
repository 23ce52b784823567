"""Shopping: a product's page in a shopping app: photo carousel, price, title, coupons, options, reviews, and
a buy bar at the bottom."""
import numpy as np

from synth.screens.archetypes.mobile._shop import products
from synth.screens.content import load, pick

CATEGORY = "shopping"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


CLOTHES, SHOES = ("Sweater", "羽绒服"), ("Shoes", "跑步鞋")
SHOE_SIZES = {"Shoes": ["7", "8", "9", "10", "11"], "跑步鞋": ["39", "40", "41", "42", "43", "44"]}


def _option(rng: np.random.Generator, k: dict, title: str) -> dict:
    """The option chosen: a letter size for clothes, a shoe size for shoes, else a colour."""
    colour, size = list(k["specs"])
    shoe = next((w for w in SHOES if w in title), None)
    if shoe:
        return {"spec_name": size, "spec": str(rng.choice(SHOE_SIZES[shoe]))}
    name = size if any(w in title for w in CLOTHES) else colour
    return {"spec_name": name, "spec": str(rng.choice(k["specs"][name]))}


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Top bar, price style, which sections appear and their order, buy bar buttons."""
    k = load("mobile_shopping", lang)
    sections = [s for s in ("coupons", "options", "reviews", "shop") if rng.random() < 0.8] or ["options", "reviews"]
    # the detail pictures come last, as the page's long tail
    order = [sections[int(i)] for i in rng.permutation(len(sections))] + ["detail"]
    return {
        "os": str(rng.choice(["ios", "android"])),
        "top": str(rng.choice(["float", "bar"])),              # icons over the photo, or an app bar with tabs
        "gallery_h": int(rng.choice([330, 360, 390])),
        "pager": str(rng.choice(["count", "dots"])),
        "photos": int(rng.integers(3, 8)),
        "price": str(rng.choice(["band", "plain"])),           # price on a coloured band (a sale) or plain
        "countdown": f"{int(rng.integers(0, 24)):02d}:{int(rng.integers(0, 60)):02d}:{int(rng.integers(0, 60)):02d}",
        "product": (product := products(rng, k, lang, 1)[0]),
        "sections": order,
        **_option(rng, k, product["title"]),
        "services": pick(rng, k["services"], 2),
        "review": pick(rng, k["reviews"], 1)[0],
        "review_count": max(1, int(product["sold_n"] * rng.uniform(0.05, 0.4))),    # some buyers write one
        "good_rate": int(rng.integers(92, 100)),
        "coupons": [int(v) for v in sorted(rng.choice([3, 5, 10, 20, 30, 50], 2, replace=False))],
        "icons": pick(rng, ["shop", "chat", "star"], int(rng.integers(2, 4))),
        "two_buttons": bool(rng.random() < 0.75),
    }
