"""Dashboard: a web analytics report: date range picker, KPI tiles, a line or bar chart over time, traffic
sources, devices and a top pages table."""
import datetime as dt

import numpy as np

from synth.screens.content import load, pick

CATEGORY = "dashboard"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")
CW, CH = 800, 220          # main chart's SVG user units


def _series(rng: np.random.Generator, n: int, base: float) -> np.ndarray:
    """A daily metric: a trend, a weekly rhythm and noise."""
    t = np.arange(n)
    trend = base * (1 + rng.uniform(-0.2, 0.35) * t / n)
    weekly = 1 + 0.18 * np.sin(2 * np.pi * (t + rng.integers(7)) / 7)
    return trend * weekly * rng.normal(1, 0.06, n)


def _fmt(x: float) -> str:
    return f"{x / 1000:.1f}K" if x >= 10000 else f"{int(x):,}"


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("dashboard", lang)
    n = int(rng.choice([7, 14, 28, 30]))
    base = float(rng.uniform(800, 9000))
    cur, prev = _series(rng, n, base), _series(rng, n, base * rng.uniform(0.8, 1.05))
    top = float(max(cur.max(), prev.max())) * 1.1
    step = 10 ** int(np.log10(top / 4))
    tick = int(np.ceil(top / 4 / step) * step)
    ymax = tick * 4
    chart = str(rng.choice(["line", "area", "bars"]))
    # bars sit in the middle of their day's slot; lines run edge to edge
    xs = (np.arange(n) + 0.5) * CW / n if chart == "bars" else np.linspace(0, CW, n)

    def path(v: np.ndarray) -> str:
        return "M " + " L ".join(f"{x:.1f} {CH - y / ymax * CH:.1f}" for x, y in zip(xs, v))

    bars = [{"x": round((i + 0.15) * CW / n, 1), "w": round(CW / n * 0.7, 1), "h": round(float(y) / ymax * CH, 1)}
            for i, y in enumerate(cur)]

    def pct(lo: float, hi: float) -> str:
        return f"{rng.uniform(lo, hi):.1f}%"

    minutes = int(rng.integers(1, 5))
    views = float(cur.sum() * rng.uniform(2, 4))       # the site's page views: the top pages share them
    users = cur.sum() * 0.7                             # the site's users: a top page has fewer
    kpi_pool = {
        "users": _fmt(users), "sessions": _fmt(cur.sum()), "views": _fmt(views),
        "bounce": pct(28, 62), "duration": f"{minutes}m {int(rng.integers(0, 60)):02d}s", "conversion": pct(0.8, 4.5),
    }
    # the traffic figures change as the chart's two periods do; the others by their own draw
    growth = float(cur.sum() / prev.sum() - 1) * 100
    moved = {"users": growth, "sessions": growth, "views": growth + float(rng.uniform(-3, 3))}
    kpis = [{"key": k, "value": kpi_pool[k], "delta": f"{moved.get(k, rng.uniform(-12, 25)):+.1f}%",
             "spark": " ".join(f"{i * 12},{30 - float(v) * 26:.1f}"
                               for i, v in enumerate(np.clip(np.cumsum(rng.normal(0, 0.12, 10)) + 0.5, 0.05, 1)))}
            for k in pick(rng, list(kpi_pool), int(rng.integers(3, 6)))]
    shares = rng.dirichlet(np.ones(len(d["sources"])) * 2)
    order = np.argsort(-shares)
    sources = [{"name": d["sources"][int(i)], "share": round(float(shares[i]) * 100, 1),
                "sessions": _fmt(cur.sum() * float(shares[i]))} for i in order]
    dev = np.sort(rng.dirichlet([6, 4, 1]))[::-1]
    circ = 2 * np.pi * 54
    offsets = np.concatenate([[0], np.cumsum(dev)[:-1]])
    devices = [{"name": name, "share": round(float(s) * 100, 1), "dash": f"{float(s) * circ:.1f} {circ:.1f}",
                "offset": f"{-float(o) * circ:.1f}"}
               for name, s, o in zip(d["devices"], dev, offsets)]
    pages = []
    shares = np.sort(rng.dirichlet(np.ones(9) * 0.8))[::-1]      # eight top pages and all the others
    for (path_, title), v in zip(pick(rng, list(zip(d["pages"], d["page_titles"])), 8), shares[:8] * views):
        pages.append({"path": path_, "title": title, "views": _fmt(float(v)),
                      "users": _fmt(min(float(v) * rng.uniform(0.5, 0.8), users * 0.9)),
                      "time": f"{int(rng.integers(0, 4))}:{int(rng.integers(0, 60)):02d}", "bounce": pct(20, 70)})
    geo = np.sort(rng.dirichlet(np.ones(6) * 1.5))[::-1]
    end = dt.date(2024, 1, 1) + dt.timedelta(days=int(rng.integers(30, 360)))
    start = end - dt.timedelta(days=n - 1)
    day = (lambda x: f"{x.month}月{x.day}日") if lang == "zh" else (lambda x: f"{d['months'][x.month - 1]} {x.day}")
    axis = [{"x": round(float(xs[i]), 1), "label": day(start + dt.timedelta(days=int(i)))}
            for i in np.linspace(0, n - 1, 5).astype(int)]
    sections = ["sources", "devices", "pages", "geo"]
    rng.shuffle(sections)
    chart_side = bool(rng.random() < 0.5)           # the main chart shares its row with the first small section
    if chart_side and sections[0] == "pages":       # the pages table needs a wide column
        sections[0], sections[1] = sections[1], sections[0]
    return {
        "range": f"最近{n}天" if lang == "zh" else f"Last {n} days", "axis": axis,
        "range_dates": (f"{start:%Y年%-m月%-d日} - {end:%-m月%-d日}" if lang == "zh"
                        else f"{day(start)} – {day(end)}, {end.year}"),
        "kpis": kpis, "chart": chart, "compare": bool(rng.random() < 0.6),
        "cur": path(cur), "prev": path(prev), "bars_data": bars, "cw": CW, "ch": CH,
        "ticks": [_fmt(tick * i) for i in range(5)],
        "sources": sources, "devices": devices, "pages": pages,
        "geo": [{"name": name, "share": round(float(s) * 100, 1)}
                for name, s in zip(pick(rng, d["countries"], 6), geo)],
        "sections": [str(s) for s in sections[:int(rng.integers(2, 5))]],
        "nav": str(rng.choice(["rail", "sidebar", "topbar"])),
        "spark": bool(rng.random() < 0.5),
        "metric_tabs": bool(rng.random() < 0.5),       # switch the chart between the KPIs
        "chart_side": chart_side,
        "density": str(rng.choice(["compact", "normal", "roomy"])),
    }
