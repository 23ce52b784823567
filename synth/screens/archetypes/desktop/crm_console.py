"""Dashboard: a business desktop app (a CRM like Dynamics 365 or Salesforce, 纷享销客 in Chinese): module
navigation, a records table with filters and search, status badges, and a detail form pane for one record."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome
from synth.screens.content import load, pick

CATEGORY = "dashboard"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window
LATEST_DAY = 28       # days drawn 1..28: in every month
MORE_ROWS = 30        # records past the first page, under the filters "Owner: me, Created: this month"


def _dates(rng: np.random.Generator, n: int) -> tuple[list, list]:
    """`n` (month, day) creation dates, newest first, all this month up to today (the filter "Created: this
    month" holds), and `n` estimated close dates from today on, nearest first."""
    month, today = int(rng.integers(1, 13)), int(rng.integers(LATEST_DAY // 2, LATEST_DAY + 1))
    created = sorted(((month, int(day)) for day in rng.integers(1, today + 1, n)), reverse=True)
    close = []
    for m in rng.integers(month, min(12, month + 6) + 1, n):
        close.append((int(m), int(rng.integers(today if m == month else 1, LATEST_DAY + 1))))
    return created, sorted(close)


OPEN = 4     # the first four statuses of a lead or a deal are open ones


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Module, navigation, filters, records and detail pane of one CRM window."""
    base = chrome(rng, lang, "users", "客户管理" if lang == "zh" else "CRM")
    d = load("desktop_dashboard", lang)
    n = int(rng.integers(19, 25))
    module = str(rng.choice(["leads", "deals"], p=[0.5, 0.5]))
    people, firms = pick(rng, d["people"], n), rng.integers(0, len(d["companies"]), n)
    owners = pick(rng, d["people"], 4)
    statuses = d["lead_status"] if module == "leads" else d["stages"]

    def email(name: str, firm: int) -> str:   # Chinese contacts often give a QQ address
        return (f"{int(rng.integers(10**8, 10**10))}@qq.com" if lang == "zh"
                else f"{name.lower().replace(' ', '.')}@{d['domains'][firm]}")

    created, close = _dates(rng, n)

    def date(md: tuple[int, int]) -> str:
        return d["date"].format(m=md[0], d=md[1])

    records = [{"name": p, "company": d["companies"][int(f)], "email": email(p, int(f)),
                "title": d["titles"][int(rng.integers(len(d["titles"])))],
                # the view lists open leads and open deals: none won, lost or dropped
                "status": statuses[int(rng.choice(OPEN, p=[0.28, 0.28, 0.22, 0.22]))],
                "source": d["sources"][int(rng.integers(len(d["sources"])))],
                "deal": d["deals"][int(rng.integers(len(d["deals"])))],
                "amount": f"{d['currency']}{int(rng.integers(3, 400)) * 500:,}",
                "prob": int(rng.choice([10, 20, 40, 60, 80, 90])), "created": date(made), "close": date(shut),
                "phone": (f"1{int(rng.integers(30, 90))}{int(rng.integers(1000, 9999))}{int(rng.integers(1000, 9999))}"
                          if lang == "zh"
                          else f"({int(rng.integers(200, 990))}) 555-{int(rng.integers(1000, 9999))}"),
                "street": d["streets"][int(rng.integers(len(d["streets"])))],
                "city": d["cities"][int(rng.integers(len(d["cities"])))]}
               for p, f, made, shut in zip(people, firms, created, close)]
    out = {
        **base, "module": module, "records": records, "owners": owners, "statuses": statuses, "sources": d["sources"],
        "sample": d["sample"], "total": n + int(rng.integers(0, MORE_ROWS)),
        # leads newest first by creation date; deals by the nearest close date (the column with the sort arrow)
        "sort_col": 5 if module == "leads" else 4, "sort_dir": "desc" if module == "leads" else "asc",
        "nav": str(rng.choice(["tree", "rail"], p=[0.6, 0.4])),            # labelled module list, or a narrow icon rail
        "detail": str(rng.choice(["right", "none"], p=[0.75, 0.25])),      # the selected record's form beside the table
        "filters": str(rng.choice(["chips", "selects"], p=[0.5, 0.5])),    # filter pills, or a row of drop-downs
        "selected": int(rng.integers(0, 6)),
        "checked": [bool(x) for x in rng.random(n) < 0.12],
        "toolbar": str(rng.choice(["labels", "icons"], p=[0.6, 0.4])),
        "tab": int(rng.integers(0, 2)),
        "menubar": bool(rng.random() < 0.3),
        "status": bool(rng.random() < 0.7),
        "detail_width": int(rng.choice([360, 400])),
    }
    if out["detail"] != "none":          # the record open in the detail pane is ticked too
        out["checked"][out["selected"]] = True
    return out
