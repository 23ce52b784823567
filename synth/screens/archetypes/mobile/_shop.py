"""Products for the shopping archetypes (drawn from mobile_shopping.json, with prices and sales figures), and a
tab bar count helper."""
import numpy as np

from synth.screens.content import pick


def products(rng: np.random.Generator, k: dict, lang: str, n: int) -> list[dict]:
    """`n` products with a price, an original price, a sales count and up to two tags."""
    cur = "¥" if lang == "zh" else "$"
    out = []
    for p in pick(rng, k["products"], n):
        price = p["price"] * float(rng.uniform(0.8, 1.2))
        # prices end the way shops end them: ¥59.9, ¥128, $24.99
        price = int(price) + float(rng.choice([0, 0.9, 0.8])) if lang == "zh" else round(price) - 0.01
        sold = int(rng.choice([86, 320, 1200, 5000, 20000, 100000]) * rng.uniform(1, 3))
        out.append({"title": p["title"], "shop": p["shop"], "price": f"{cur}{price:g}",
                    "was": f"{cur}{price * float(rng.uniform(1.2, 1.8)):.0f}",
                    "sold": k["sold"].format(_count(sold, lang)), "sold_n": sold,
                    "tags": pick(rng, k["tags"], int(rng.integers(0, 3))),
                    "rating": round(float(rng.uniform(4.2, 5.0)), 1)})
    return out


def _count(n: int, lang: str) -> str:
    if lang == "zh":
        return f"{n // 10000}万+" if n >= 10000 else f"{n // 100 * 100}+" if n >= 1000 else str(n)
    return f"{n // 1000}k+" if n >= 1000 else str(n)


def with_badge(tabs: list[dict], fn: str, n: int) -> list[dict]:
    """The tab bar with a count `n` on the tab that does `fn` (the cart's items), when there is one."""
    return [dict(t, badge=n) if t.get("fn") == fn and n else t for t in tabs]
