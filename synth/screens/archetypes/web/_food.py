"""Restaurants, menus and baskets for the food pages, drawn from synth/screens/content/food.json."""
import numpy as np

from synth.screens.content import load, pick

# price ranges per kind of dish, in whole currency units
PRICES = {"en": {"main": (9, 24), "side": (3, 9), "drink": (2, 6)},
          "zh": {"main": (16, 48), "side": (4, 18), "drink": (5, 16)}}


def money(lang: str, x: float) -> str:
    return ("¥" if lang == "zh" else "$") + (f"{x:.1f}".rstrip("0").rstrip(".") if lang == "zh" else f"{x:.2f}")


def _price(rng: np.random.Generator, lang: str, kind: str) -> float:
    lo, hi = PRICES[lang][kind]
    cents = float(rng.choice([0.0, 0.49, 0.99])) if lang == "en" else float(rng.choice([0.0, 0.0, 0.5, 0.9]))
    return int(rng.integers(lo, hi + 1)) + cents


def shops(rng: np.random.Generator, lang: str, n: int, cuisine: str | None = None) -> list[dict]:
    """`n` restaurants of mixed cuisines (or all of `cuisine`, at most as many as it has) with rating, delivery
    time and fee, and maybe a promotion."""
    d = load("food", lang)
    pool = [(s, cu["name"]) for cu in d["cuisines"] for s in cu["shops"] if cuisine in (None, cu["name"])]
    out = []
    for name, cuisine in pick(rng, pool, n):
        t = int(rng.integers(3, 9)) * 5
        free = rng.random() < 0.3
        fee = 0.0 if free else (float(rng.choice([0.99, 1.49, 1.99, 2.99, 3.49])) if lang == "en"
                                else float(rng.choice([1, 2, 2.5, 3, 4])))
        out.append({
            "name": name, "cuisine": cuisine, "rating": round(float(rng.uniform(4.2, 4.95)), 1),
            "count": (d["rating_count"].format(int(rng.choice([50, 100, 200, 500, 1000, 2000])))
                      if d["rating_count"] else ""),
            "time": d["time"].format(t, t + 10) if lang == "en" else d["time"].format(t),
            "fee": d["free_fee"] if free else d["fee"].format(money(lang, fee)), "fee_value": fee,
            "distance": d["distance"].format(round(float(rng.uniform(0.3, 4.8)), 1)),
            "sales": d["sales"].format(f"{int(rng.integers(1, 40)) * 100}+") if d["sales"] else "",
            "min_order": (d["min_order"].format(money(lang, float(rng.choice([15, 20, 25, 30]))))
                          if d["min_order"] else ""),
            # a "free delivery" promotion only on a shop that delivers for free
            "promos": pick(rng, [p for p in d["promos"] if free or p not in d["free_promos"]], int(rng.integers(0, 3))),
            "avg": (f"人均¥{int(rng.integers(12, 60))}" if lang == "zh"
                    else "$" * int(rng.integers(1, 4)) + " · " + cuisine),
        })
    return out


def menu(rng: np.random.Generator, lang: str, cuisine: str | None = None) -> dict:
    """One restaurant's menu: its cuisine's sections plus drinks, every dish with a price."""
    d = load("food", lang)
    cu = (next((c for c in d["cuisines"] if c["name"] == cuisine), None)
          or d["cuisines"][int(rng.integers(len(d["cuisines"])))])
    sections = [[title, kind, dishes] for title, kind, dishes in cu["sections"]]
    if all(kind != "drink" for _, kind, _ in sections):
        sections.append(["饮料" if lang == "zh" else "Drinks", "drink", d["drinks"]])
    out = []
    for title, kind, dishes in sections:
        items = []
        for name, desc in dishes:
            price = _price(rng, lang, kind)
            items.append({"name": name, "desc": desc, "price": price, "price_text": money(lang, price), "kind": kind,
                          "sales": int(rng.integers(20, 3000)), "likes": int(rng.integers(88, 100)),
                          "tag": bool(rng.random() < 0.18)})
        out.append({"title": title, "items": items})
    return {"cuisine": cu["name"], "sections": out, "shop": cu["shops"][int(rng.integers(len(cu["shops"])))]}


def basket(rng: np.random.Generator, lang: str, m: dict, n: int, fee: float | None = None) -> dict:
    """`n` dishes of menu `m` with quantities, and the order's totals as display strings; the delivery `fee` is
    the shop's when given, else drawn."""
    dishes = [it for s in m["sections"] for it in s["items"]]
    items = [{"name": it["name"], "qty": int(rng.integers(1, 3)), "price": it["price"]} for it in pick(rng, dishes, n)]
    subtotal = sum(i["qty"] * i["price"] for i in items)
    drawn = float(rng.choice([0, 1.99, 2.99])) if lang == "en" else float(rng.choice([0, 2, 3]))
    fee = drawn if fee is None else fee
    service = round(subtotal * 0.05, 2) if lang == "en" else 0.0
    for i in items:
        i["line"] = money(lang, i["qty"] * i["price"])
    return {"items": items, "count": sum(i["qty"] for i in items), "subtotal": money(lang, subtotal),
            "fee": money(lang, fee), "free": fee == 0,
            "service": money(lang, service) if service else "", "total": money(lang, subtotal + fee + service)}
