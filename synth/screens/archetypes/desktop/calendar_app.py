"""Calendar: a desktop calendar app (Outlook, Apple Calendar, GNOME Calendar): a week or month grid with
events, a mini month, the list of calendars, and an optional event details pane."""
import datetime as dt

import numpy as np

from synth.screens.archetypes.desktop._desk import chrome
from synth.screens.content import load, pick

CATEGORY = "calendar"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window
YEAR = 2024
MEETING_PLACES = [0, 1, 2, 5]   # the rooms and video calls among calendar.json's places (only work events show one)


def month_grid(year: int, month: int, week_start: int) -> list[list[list]]:
    """Six weeks of [day, month offset (-1, 0, 1)] covering `month`, weeks starting on `week_start` (0 = Monday)."""
    first = dt.date(year, month, 1)
    start = first - dt.timedelta(days=(first.weekday() - week_start) % 7)
    days = [start + dt.timedelta(days=i) for i in range(42)]

    def offset(d: dt.date) -> int:
        return 1 if (d.year, d.month) > (year, month) else -1 if (d.year, d.month) < (year, month) else 0
    return [[[d.day, offset(d)] for d in days[w * 7:w * 7 + 7]] for w in range(6)]


def at(pool: list, hour: float) -> list:
    """The events of `pool` that may start at `hour`: each event's third field is the window of hours its title
    implies (a stand-up in the morning, lunch at noon, dinner in the evening)."""
    return [e for e in pool if e[2][0] <= hour <= e[2][1]]


def day_events(rng: np.random.Generator, pool: list, weekday: int, n: int, used: set) -> list:
    """Up to `n` events of `pool` ([title, calendar]) for a day of `weekday` (0 = Monday): work events (calendar
    0) only Monday to Friday, and no title twice in a week (`used`, the week's titles so far, grows)."""
    fits = [t for t in pool if (weekday < 5 or t[1] != 0) and t[0] not in used]
    chosen = pick(rng, fits, n)
    used.update(t[0] for t in chosen)
    return chosen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """View, panes, dates and events of one calendar window."""
    base = chrome(rng, lang, "calendar", "日历" if lang == "zh" else "Calendar")
    d = load("calendar", lang)
    week_start = int(d["week_start"])
    month = int(rng.integers(1, 13))
    today = int(rng.integers(1, 29))
    grid = month_grid(YEAR, month, week_start)
    row = next(i for i, w in enumerate(grid) if [today, 0] in w)
    view = str(rng.choice(["week", "workweek", "month"], p=[0.45, 0.2, 0.35]))
    week, day_names = grid[row], d["weekdays"]          # the content lists weekdays from its week start
    if view == "workweek":   # Monday to Friday
        mon = -week_start % 7
        week, day_names = week[mon:mon + 5], day_names[mon:mon + 5]
    titles = d["events"]
    timed = [e for e in titles if e[1] != 3]
    events, used = [], set()   # week view: [day column, start hour (fractional), hours, title, calendar, place]
    for col in range(len(week)):
        weekday = col if view == "workweek" else (week_start + col) % 7
        hours = sorted(rng.choice(np.arange(8, 20), int(rng.integers(1, 4)), replace=False).tolist())
        day = []
        for h in hours:
            start = h + float(rng.choice([0, 0.5]))
            for t in day_events(rng, at(timed, start), weekday, 1, used):
                day.append([col, start, float(rng.choice([0.5, 1, 1, 1.5, 2])), t[0], int(t[1]),
                            d["places"][int(rng.choice(MEETING_PLACES))]])
        for e, after in zip(day, day[1:]):   # an event ends before the next one of the day starts
            e[2] = min(e[2], after[1] - e[1])
        events += day
    chips = {}   # month view: "week,day" -> [[title, calendar, hour]]
    once = set()    # titles that happen once in a month (a dentist, a flight), once shown
    holiday = {(w, i): d["holidays"].get(f"{(month - 1 + off) % 12 + 1}-{day_}")
               for w, week_days in enumerate(grid) for i, (day_, off) in enumerate(week_days)}
    for w in range(6):
        used = set()
        for i in range(7):
            n = int(rng.choice([0, 0, 1, 1, 2, 3]))
            fits = [t for t in timed if t[0] not in once]
            weekday = 6 if holiday[w, i] else (week_start + i) % 7     # a public holiday has no work events
            day = [[t[0], int(t[1]), int(rng.integers(int(np.ceil(t[2][0])), int(t[2][1]) + 1))]
                   for t in day_events(rng, fits, weekday, n, used)]
            once.update(e[0] for e in day if e[0] in d["once"])
            chips[f"{w},{i}"] = sorted(day, key=lambda e: e[2])
    birthday = [e[0] for e in titles if e[1] == 3]
    chips[f"{int(rng.integers(6))},{int(rng.integers(7))}"].insert(
        0, [birthday[int(rng.integers(len(birthday)))], 3, 0])
    checked = [True] * 4 + [bool(x) for x in rng.random(2) < 0.8]   # my calendars' events are on show
    for (w, i), name in holiday.items():
        if name and checked[4]:     # the holidays calendar on show: its days in the month view, first
            chips[f"{w},{i}"].insert(0, [name, 4, 0])
    return {
        **base, "month": month, "year": YEAR, "today": today, "grid": grid, "week_row": row, "week": week,
        "day_names": day_names, "mini_names": d["mini_weekdays"],
        "months": d["months"], "short_months": d["short_months"], "calendars": d["calendars"], "other": d["other"],
        "events": events, "chips": chips,
        "allday": ([int(rng.integers(len(week))), birthday[int(rng.integers(len(birthday)))]]
                   if rng.random() < 0.6 else []),
        "view": view,
        "sidebar": str(rng.choice(["left", "none"], p=[0.85, 0.15])),
        "details": bool(rng.random() < 0.35),   # the selected event's details on the right
        "selected": int(rng.integers(0, len(events))),
        "checked": checked,
        "toolbar": str(rng.choice(["tabs", "segmented"], p=[0.5, 0.5])),
        "first_hour": int(rng.choice([7, 8, 9])),
        "hour_px": int(rng.choice([44, 52, 60])),
        "menubar": bool(rng.random() < 0.35),
    }
