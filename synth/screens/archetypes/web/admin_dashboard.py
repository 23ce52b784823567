"""Dashboard: an admin console: side navigation, KPI stats, tables of users and orders with status badges,
recent activity and a small chart."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "dashboard"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def _kpi_value(rng: np.random.Generator, lang: str, icon: str) -> str:
    if icon in ("dollar", "yuan"):
        return ("¥" if lang == "zh" else "$") + f"{int(rng.integers(12, 980)):,},{int(rng.integers(0, 1000)):03d}"
    if icon == "percent":
        return f"{rng.uniform(1.2, 6.5):.1f}%"
    return f"{int(rng.integers(40, 48000)):,}"


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("dashboard", lang)
    kpis = []
    for label, icon in pick(rng, d["kpis"], int(rng.integers(3, 5))):
        up = bool(rng.random() < 0.7)
        kpis.append({"label": label, "icon": icon, "value": _kpi_value(rng, lang, icon),
                     "delta": f"{'+' if up else '-'}{rng.uniform(0.4, 18):.1f}%", "up": up})
    month = int(rng.integers(1, 13))
    orders = []
    for day in sorted(rng.integers(1, 29, 7).tolist(), reverse=True):
        status, tone = d["order_status"][int(rng.choice(len(d["order_status"]), p=[0.4, 0.2, 0.25, 0.1, 0.05]))]
        orders.append({"id": f"#{int(rng.integers(10000, 99999))}", "customer": int(rng.integers(6)),
                       "product": d["products"][int(rng.integers(len(d["products"])))],
                       "date": d["date"].format(m=month if lang == "zh" else d["months"][month - 1], d=int(day)),
                       "amount": ("¥" if lang == "zh" else "$") + f"{rng.uniform(9, 900):,.2f}",
                       "status": status, "tone": tone})
    # both tables, and one or both of the chart and the activity list, in a random order
    sections = ["users", "orders"] + pick(rng, ["chart", "activity"], int(rng.integers(1, 3)))
    rng.shuffle(sections)
    return {
        "nav": d["nav"], "nav_more": d["nav_more"][:int(rng.integers(0, 4))],
        "greeting": bool(rng.random() < 0.5),   # "Welcome back, …" or the page's name
        "kpis": kpis if rng.random() < 0.85 else [], "orders": orders,
        "activity": [{"text": t, "person": int(rng.integers(6)), "minutes": int(m)}
                     for t, m in zip(pick(rng, d["activity"], 5), sorted(rng.integers(2, 600, 5).tolist()))],
        "bars": [int(v) for v in rng.integers(25, 100, 12)], "months": d["months"],
        "sections": [str(s) for s in sections],
        "columns": int(rng.choice([1, 2])),                          # sections in one column or two
        "nav_style": str(rng.choice(["sidebar", "topbar"], p=[0.75, 0.25])),
        "table_tabs": bool(rng.random() < 0.5), "striped": bool(rng.random() < 0.5),
        "kpi_icons": bool(rng.random() < 0.5),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "users_shown": int(rng.integers(4, 8)),
    }
