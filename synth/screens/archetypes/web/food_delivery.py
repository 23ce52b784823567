"""Food: a delivery site's restaurant list: cuisine chips, promotions, restaurant cards with photos and delivery
times, and a cart."""
import numpy as np

from synth.screens.archetypes.web._food import basket, menu, shops
from synth.screens.content import load, pick

CATEGORY = "food"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")

SHOWN_TABS = 8              # a tab bar shows the first 8 chips
PICK_CUISINE = 0.6          # how often a cuisine tab is selected (else "All")


def _chips(rng: np.random.Generator, lang: str) -> dict:
    """The cuisine chips, "All" first, and the one selected: "All" (shops of every cuisine) or a cuisine the
    content has shops of (the shops shown are all of it)."""
    d = load("food", lang)
    names = [cu["name"] for cu in d["cuisines"]]
    cuisine = names[int(rng.integers(len(names)))] if rng.random() < PICK_CUISINE else None
    chips = [d["all_chip"]] + pick(rng, [ch for ch in d["chips"] if ch != cuisine], int(rng.integers(6, 10)))
    active = int(rng.integers(1, SHOWN_TABS)) if cuisine else 0
    if cuisine:
        chips.insert(active, cuisine)
    return {"chips": chips, "active": active, "cuisine": cuisine}


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("food", lang)
    cart = str(rng.choice(["right", "none"], p=[0.6, 0.4]))
    results = str(rng.choice(["grid", "list"], p=[0.6, 0.4]) if lang == "zh"
                  else rng.choice(["grid", "list"], p=[0.8, 0.2]))
    m = menu(rng, lang)
    chips = _chips(rng, lang)
    return {
        "header": str(rng.choice(["navbar", "app"])),   # a navbar with links, or an app bar with address and search
        **chips,
        "chip_style": str(rng.choice(["tabs", "pills"])),
        "banner": str(rng.choice(["none", "one", "three"], p=[0.3, 0.35, 0.35])),
        "banners": pick(rng, d["banners"], 3),
        "filters": bool(rng.random() < 0.65),
        "featured": bool(rng.random() < 0.5),                      # a "featured" row above all restaurants
        "results": results,
        "card": str(rng.choice(["tile", "media"])),                # borderless tile, or the design system's media card
        "columns": int(rng.integers(2, 4)) if cart == "right" else int(rng.integers(3, 5)),
        "cart": cart, "cart_shop": m["shop"], "basket": basket(rng, lang, m, int(rng.integers(2, 5))),
        "shops": shops(rng, lang, int(rng.integers(6, 10)), chips["cuisine"]),
        "featured_shops": shops(rng, lang, 4, chips["cuisine"]),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "promo_field": bool(rng.random() < 0.4),
    }
