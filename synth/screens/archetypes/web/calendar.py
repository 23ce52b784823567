"""Calendar: a calendar web app: a month or week grid with events, a mini month calendar, calendar list and
an upcoming-events list."""
import datetime as dt

import numpy as np

from synth.screens.archetypes.desktop.calendar_app import MEETING_PLACES, at
from synth.screens.content import load

CATEGORY = "calendar"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")
COLOURS = ["#039be5", "#33b679", "#8e24aa", "#e67c73", "#f6bf26", "#f4511e"]   # calendar colours, as mail apps use


def _clock(lang: str, minutes: int) -> str:
    h, m = divmod(minutes, 60)
    if lang == "zh":
        return f"{h}:{m:02d}"
    return f"{h % 12 or 12}{f':{m:02d}' if m else ''}{'am' if h < 12 else 'pm'}"


def _event(rng: np.random.Generator, lang: str, d: dict, start: int, length: int, pool: list) -> dict:
    title, cal = pool[int(rng.integers(len(pool)))][:2]
    if cal == 3 and rng.random() < 0.85:      # birthdays are rare: most draws of one become another event
        title, cal = pool[int(rng.integers(len(pool)))][:2]
    return {"title": title, "colour": COLOURS[cal], "cal": cal, "start": start, "end": start + length,
            "time": _clock(lang, start), "span": f"{_clock(lang, start)} – {_clock(lang, start + length)}",
            # only work events have a place: a meeting room or a video call
            "place": (d["places"][MEETING_PLACES[int(rng.integers(len(MEETING_PLACES)))]]
                      if cal == 0 and rng.random() < 0.5 else ""),
            "all_day": cal == 3}


def _day_events(rng: np.random.Generator, lang: str, d: dict, k: int, day: dt.date, used: set,
                once: set | None = None) -> list[dict]:
    """`k` events of one day that do not overlap, in time order: work events (calendar 0) only Monday to Friday,
    no title twice in a week (`used`, the week's titles so far, grows) and a one-off appointment (calendar.json's
    `once`: a dentist, a flight) once in a month (`once`, those shown so far, grows)."""
    once = set() if once is None else once
    slots = sorted(rng.choice(np.arange(16, 40), k, replace=False).tolist())      # half hours from 8:00
    out = []
    for i, s in enumerate(slots):
        pool = [e for e in at(d["events"], s / 2)
                if (day.weekday() < 5 or e[1] != 0) and e[0] not in used and e[0] not in once]
        if not pool:            # nothing of the kind starts at this hour: the day has an event fewer
            continue
        room = (slots[i + 1] - s) if i + 1 < len(slots) else 4
        out.append(_event(rng, lang, d, int(s) * 30, 30 * int(rng.integers(1, min(room, 4) + 1)), pool))
        used.add(out[-1]["title"])
        if out[-1]["title"] in d["once"] or out[-1]["all_day"]:     # a birthday party is once a month too
            once.add(out[-1]["title"])
    return out


def _date_label(lang: str, d: dict, day: dt.date, today: dt.date) -> str:
    if day == today:
        return "今天" if lang == "zh" else "Today"
    if day == today + dt.timedelta(days=1):
        return "明天" if lang == "zh" else "Tomorrow"
    wd = d["weekdays"][(day.weekday() - d["week_start"]) % 7]
    return f"{day.month}月{day.day}日 {wd}" if lang == "zh" else f"{wd}, {d['short_months'][day.month - 1]} {day.day}"


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("calendar", lang)
    year, month = int(rng.integers(2024, 2026)), int(rng.integers(1, 13))
    today = dt.date(year, month, int(rng.integers(1, 29)))
    first = dt.date(year, month, 1)
    start = first - dt.timedelta(days=(first.weekday() - d["week_start"]) % 7)
    weeks = 6 if (start + dt.timedelta(days=35)).month == month else 5
    days = [start + dt.timedelta(days=i) for i in range(weeks * 7)]
    weeks_used, once = [set() for _ in range(weeks)], set()
    month_cells = [{"day": x.day, "in_month": x.month == month, "today": x == today,
                    "events": _day_events(rng, lang, d, int(rng.choice([0, 0, 1, 1, 2, 3])), x, weeks_used[i // 7],
                                          once)}
                   for i, x in enumerate(days)]
    # one calendar: the week view and the upcoming list show the month grid's own events of their days
    on_day = {x: cell["events"] for x, cell in zip(days, month_cells)}
    week0 = today - dt.timedelta(days=(today.weekday() - d["week_start"]) % 7)
    week = [week0 + dt.timedelta(days=i) for i in range(7)]
    week_cells = [{"day": x.day, "today": x == today, "events": on_day[x]} for x in week]
    # mini calendar: the same month, plain day numbers
    mini = [{"day": x.day, "in_month": x.month == month, "today": x == today} for x in days]
    ahead = [x for x in days if x >= today]
    upcoming = [{**ev, "date": _date_label(lang, d, x, today)} for x in ahead for ev in on_day[x]][:6]
    a, b = week[0], week[-1]
    if lang == "zh":
        week_title = f"{a.year}年{a.month}月{a.day}日 – {'' if a.month == b.month else f'{b.month}月'}{b.day}日"
        month_title = f"{year}年{month}月"
    else:
        sm = d["short_months"]
        end_month = "" if a.month == b.month else sm[b.month - 1] + " "
        week_title = f"{sm[a.month - 1]} {a.day} – {end_month}{b.day}, {b.year}"
        month_title = f"{d['months'][month - 1]} {year}"
    view = str(rng.choice(["month", "week"]))
    return {
        "view": view, "title": month_title if view == "month" else week_title, "month_title": month_title,
        "weekdays": d["weekdays"], "mini_weekdays": d["mini_weekdays"], "weeks": weeks,
        "month_cells": month_cells, "week_cells": week_cells, "mini": mini, "upcoming": upcoming,
        # every calendar has events on show, so every one is ticked
        "calendars": [{"name": n, "colour": COLOURS[i], "on": True} for i, n in enumerate(d["calendars"])],
        # the holidays calendar is not ticked: no holiday would show on the grid
        "other": [{"name": n, "colour": COLOURS[4 + i], "on": bool(rng.random() < 0.5) and i > 0}
                  for i, n in enumerate(d["other"])],
        # an upcoming panel on the right takes the mini calendar; the left sidebar then goes
        "upcoming_panel": (panel := bool(rng.random() < 0.4)),
        "sidebar": "none" if panel else str(rng.choice(["left", "none"], p=[0.85, 0.15])),
        "switcher": str(rng.choice(["tabs", "buttons", "select"])),
        "hours": list(range(7, 21)),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "chip_style": str(rng.choice(["filled", "dot"])),       # month events as coloured bars, or a dot and text
    }
