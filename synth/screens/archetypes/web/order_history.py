"""Shopping: a customer's order history: status tabs, search and filters, orders as cards, a table or
rows with items, totals, statuses and actions, and pagination."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "shopping"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")
STATUSES = ["delivered", "delivered", "delivered", "shipped", "processing", "cancelled", "returned"]


def _short(date: str, lang: str) -> str:
    return date.split(" ")[0] if lang == "zh" else date.rsplit(",", 1)[0]


def _when(data: dict, status: str, i: int, lang: str, rng: np.random.Generator) -> str:
    """The date a status note names: a weekday ahead for a shipment, a later date for a delivery
    (the next newer order's), else the order's own date."""
    if status == "shipped":
        return str(rng.choice(["周四", "周五", "周六"] if lang == "zh" else ["Thursday", "Friday", "Saturday"]))
    if status == "delivered" and i > 0:
        return _short(data["order_dates"][i - 1], lang)
    return _short(data["order_dates"][i], lang)


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the orders shown."""
    data = load("shopping", lang)
    n = int(rng.integers(4, 8))
    status = sorted((str(s) for s in rng.choice(STATUSES, n)), key=lambda s: s not in ("processing", "shipped"))
    orders = []
    for i in range(n):
        items = []
        for p in pick(rng, data["products"], int(rng.choice([1, 1, 1, 2, 3]))):
            lo, hi = p["price"]
            items.append({"name": p["title"], "short": p["name"], "option": f'{p["option_label"]}: {p["options"][0]}',
                          "price": round(float(rng.uniform(lo, hi)), 2), "qty": int(rng.choice([1, 1, 1, 2]))})
        orders.append({"date": data["order_dates"][i], "number": f"{int(rng.integers(10**11, 10**12))}",
                       "status": status[i],
                       "status_text": data["order_status"][status[i]],
                       "note": data["status_note"][status[i]].format(_when(data, status[i], i, lang, rng)),
                       "carrier": str(rng.choice(data["carriers"])), "items": items,
                       "total": round(sum(it["price"] * it["qty"] for it in items), 2)})
    return {
        "orders": orders,
        "style": str(rng.choice(["cards", "table", "rows"])),
        "side": bool(rng.random() < 0.55),
        "tabs": bool(rng.random() < 0.75),
        "search": bool(rng.random() < 0.6),
        "filter": bool(rng.random() < 0.6),
        "header": str(rng.choice(["navbar", "search"])),
        "pages": (pages := int(rng.integers(2, 8))),
        # the orders the count above the list states: as many as fill `pages` pages of n orders, the last in part
        "total_orders": n * (pages - 1) + int(rng.integers(1, n + 1)),
        "density": str(rng.choice(["compact", "normal"])),
        "width": int(rng.choice([0, 1140, 1200])),
    }
