"""Calendar: a calendar app: the month (as a full grid or a week strip) with event dots, the selected day's
agenda with times, places and colours, an add button, optional tab bar."""
import calendar as cal

import numpy as np

from synth.screens.content import load, pick

CATEGORY = "calendar"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen
NEXT_DAY_COLOR = "#8c8c8c"   # the next day's events, greyed under the selected day's
LENGTHS = [30, 45, 60, 90]   # minutes
COLORS = ["#1677ff", "#f5222d", "#52c41a", "#fa8c16", "#722ed1", "#13c2c2", "#eb2f96"]


def timed(rng: np.random.Generator, events: list, colors: list) -> list:
    """The events at times that fit them (each starts on a half hour of its content's "hours", the window its title
    implies: a stand-up in the morning, dinner in the evening), in the order of the day."""
    timed_, used = [], set()
    for e in events:
        lo, hi = (int(h * 2) for h in e["hours"])
        free = [s for s in range(lo, hi + 1) if s not in used] or list(range(lo, hi + 1))   # two never start at once
        used.add(start := free[int(rng.integers(len(free)))])
        timed_.append({**e, "start": start * 30, "len": int(rng.choice(LENGTHS)),
                       "color": colors[int(rng.integers(len(colors)))]})
    return sorted(timed_, key=lambda e: e["start"])


def layout(rng: np.random.Generator, lang: str) -> dict:
    """View, month and selected day, which days carry events, and the agenda."""
    k = load("mobile_calendar", lang)
    year, month = 2025, int(rng.integers(1, 13))
    first, days = cal.monthrange(year, month)             # weekday of the 1st (Monday 0) and the month's length
    today = int(rng.integers(1, days + 1))
    selected = today if rng.random() < 0.6 else int(rng.integers(1, days + 1))
    busy = sorted({int(d) for d in rng.integers(1, days + 1, int(rng.integers(6, 14)))} | {selected})
    view = str(rng.choice(["month", "month", "week"]))
    n = int(rng.integers(3, 6)) if view == "month" else int(rng.integers(5, 8))     # a week strip leaves room for more
    holiday = f"{month}-{selected}" in k["holidays"]     # the country's public holidays of 2025

    def off(day: int) -> bool:
        """Whether `day` of the month is a weekend day or a public holiday (no work, no school)."""
        return (first + day - 1) % 7 >= 5 or f"{month}-{day}" in k["holidays"]

    def on(day: int) -> list:
        return [e for e in k["events"] if not (off(day) and (e.get("work") or e.get("school")))]
    agenda = timed(rng, pick(rng, on(selected), n), COLORS)
    next_day = [] if selected == days or not (view == "week" or rng.random() < 0.5) else \
        timed(rng, pick(rng, on(selected + 1), 2), [NEXT_DAY_COLOR])
    # an all-day item that fits the day: the holiday on a holiday (always shown), a conference or leave on a
    # working day, a birthday on any day
    fits = [a for i, a in enumerate(k["all_day"]) if i == 0 or (i > 1 and not off(selected))]
    busy = sorted(set(busy) | ({selected + 1} if next_day else set()))     # a day with events carries a dot
    return {
        "os": str(rng.choice(["ios", "android"])),
        "view": view,
        "year": year, "month_name": k["months"][month - 1],
        "first": first, "days": days, "prev_days": cal.monthrange(year - (month == 1), (month - 2) % 12 + 1)[1],
        "today": today, "selected": selected, "busy": busy,
        "weekdays": k["weekdays"],
        "agenda": agenda,
        "all_day": k["all_day"][1] if holiday else str(rng.choice(fits)) if rng.random() < 0.35 else "",
        "next_day": next_day,
        "fab": bool(rng.random() < 0.75),
        "tabs": k["tabs"] if rng.random() < 0.5 else [],
        "style": str(rng.choice(["bars", "cards"])),
    }
