"""Shopping: a product page: picture gallery, buy box with price and options, description, specs and
reviews tabs, related items."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "shopping"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def _sold(n: int, lang: str) -> str:
    """A rounded sales count as shops show it: "5K+", "1万+"."""
    if lang == "zh":
        return f"{n // 10000}万+" if n >= 10000 else f"{n}+"
    return f"{n // 1000}K+" if n >= 1000 else f"{n}+"


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the product shown."""
    data = load("shopping", lang)
    product = dict(pick(rng, data["products"], 1)[0])
    lo, hi = product["price"]
    price = float(rng.uniform(lo, hi))
    discount = int(rng.choice([0, 0, 10, 15, 20, 25, 30]))
    reviews = [dict(r, date=d) for r, d in zip(pick(rng, data["reviews"], 4), data["review_dates"])]
    below = ["tabs", "related"]
    return {
        "product": product,
        "price": round(price, 2),
        "was": round(price / (1 - discount / 100), 2) if discount else 0,
        "discount": discount,
        "rating": round(float(rng.uniform(3.6, 4.9)), 1),
        "ratings": int(rng.integers(12, 9000)),
        "sold": _sold(int(rng.choice([100, 200, 500, 800, 1000, 2000, 5000, 10000, 30000])), lang),
        "stock": int(rng.integers(2, 40)),
        "reviews": reviews[: int(rng.integers(2, 5))],
        "header": str(rng.choice(["navbar", "util", "search"])),
        "width": int(rng.choice([0, 1140, 1200, 1240])),       # 0: full width
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "breadcrumb": bool(rng.random() < 0.7),
        "gallery": str(rng.choice(["thumbs_left", "thumbs_below", "single"])),
        "thumbs": int(rng.integers(3, 6)),
        "buy_card": bool(rng.random() < 0.45),                 # a separate buy box column
        "options": str(rng.choice(["radio", "select", "chips"])),
        "quantity": bool(rng.random() < 0.6),
        "bullets": bool(rng.random() < 0.6),
        "wishlist": bool(rng.random() < 0.6),
        "seller": bool(rng.random() < 0.5),
        "below": below if rng.random() < 0.6 else below[::-1],
        "tab": int(rng.integers(3)),
        "related": int(rng.integers(4, 7)),
        "related_style": str(rng.choice(["grid", "list"])),
        "footer": bool(rng.random() < 0.5),
    }
