"""Food: one restaurant's menu page on a delivery site: restaurant header, menu categories, dishes with prices
and add buttons, and the basket."""
import numpy as np

from synth.screens.archetypes.web._food import basket, menu, shops
from synth.screens.content import load, pick

CATEGORY = "food"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("food", lang)
    m = menu(rng, lang)
    shop = shops(rng, lang, 1)[0]
    promos = [p for p in d["promos"] if not shop["fee_value"] or p not in d["free_promos"]]
    hero = str(rng.choice(["banner", "side", "plain"], p=[0.45, 0.3, 0.25]))
    nav = str(rng.choice(["left", "tabs", "pills"], p=[0.45, 0.35, 0.2]))
    # a bottom bar would sit over the CAPTCHA widget below a tall banner
    cart = str(rng.choice(["right", "bar", "none"], p=[0.55, 0.3, 0.15]) if hero != "banner"
               else rng.choice(["right", "none"], p=[0.8, 0.2]))
    # dishes without pictures: the page's product() pictures are not food (see the report)
    dishes = str(rng.choice(["cards", "list"], p=[0.6, 0.4]))
    return {
        "menu": m, "name": m["shop"], "section_items": [{"label": sec["title"]} for sec in m["sections"]],
        "popular_dishes": pick(rng, [it for sec in m["sections"] for it in sec["items"]
                                     if sec["items"][0]["kind"] != "drink"], 3),
        # a "free delivery" promotion only if the shop delivers free, whose fee the basket charges
        "shop": shop, "promos": pick(rng, promos, int(rng.integers(1, 4))),
        "basket": basket(rng, lang, m, int(rng.integers(1, 4)), shop["fee_value"]),
        "hero": hero, "nav": nav, "cart": cart, "dishes": dishes,
        "columns": 2 if dishes == "cards" or (cart != "right" and nav != "left") else 1,
        "popular": bool(rng.random() < 0.4),
        "mode_tabs": bool(rng.random() < 0.6),                 # Delivery / Pickup switch
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "info_card": bool(rng.random() < 0.5),                 # opening hours and address card in the side column
        "open_until": f"{int(rng.integers(20, 24))}:00" if lang == "zh" else f"{int(rng.integers(8, 12))}:00 PM",
    }
