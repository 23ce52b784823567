"""Travel: a flight search page: trip form (from, to, dates, passengers), sort tabs, filters sidebar and
a list of flights with times, stops and prices."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "travel"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def _clock(m: int) -> str:
    return f"{m // 60 % 24:02d}:{m % 60:02d}"


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the flights found."""
    data = load("travel", lang)
    origin, dest, base = data["routes"][int(rng.integers(len(data["routes"])))]
    airlines = pick(rng, data["airlines"], 4)
    hubs = [h for h in data["hubs"] if h not in (*origin, *dest)]     # a stop is neither end of the trip
    flights = []
    for _ in range(int(rng.integers(5, 8))):
        stops = int(rng.choice([0, 0, 0, 1, 1, 2]))
        dur = base + stops * int(rng.integers(60, 150)) + int(rng.integers(-10, 25))
        dep = int(rng.integers(6 * 60, 21 * 60)) // 5 * 5
        k = int(rng.integers(len(airlines)))
        name, code = airlines[k]
        price = (int(rng.integers(90, 420) * (1.0 if stops else 1.25)) if lang == "en"
                 else int(rng.integers(40, 160)) * 10)
        flights.append({"airline": name, "code": code, "hue": (k * 83 + 200) % 360,
                        "number": f"{code}{int(rng.integers(100, 9999))}",
                        "dep": _clock(dep), "arr": _clock(dep + dur), "next_day": (dep + dur) >= 24 * 60,
                        "dur": dur, "stops": stops, "via": pick(rng, hubs, stops),
                        "price": price, "aircraft": str(rng.choice(data["aircraft"])),
                        "seats": int(rng.integers(1, 9))})
    # the sort tabs show the best (first found), cheapest and fastest flight; the list is in the chosen order
    picks = [flights[0], min(flights, key=lambda f: f["price"]), min(flights, key=lambda f: f["dur"])]
    sort = int(rng.choice([0, 0, 1, 2]))
    if sort:
        flights.sort(key=lambda f: f["price"] if sort == 1 else f["dur"])
    day = int(rng.integers(0, 4))
    return {
        "site": str(rng.choice(data["sites"])),
        "origin": origin, "dest": dest, "flights": flights, "airlines": airlines, "cabins": data["cabins"],
        "dates": data["dates"], "day": day, "ret_day": day + int(rng.integers(2, 5)),
        "calendar": ([int(p) for p in rng.integers(90, 400, 7)] if lang == "en"
                     else [int(p) * 10 for p in rng.integers(40, 160, 7)]),
        "trip": int(rng.choice([0, 0, 1])),                  # round trip, one way
        "form": str(rng.choice(["bar", "hero", "card"])),
        "filters": str(rng.choice(["left", "left", "right", "none"])),
        "sort": sort, "picks": [{"price": f["price"], "dur": f["dur"]} for f in picks],
        "sort_style": str(rng.choice(["tabs", "summary"])),
        "date_strip": bool(rng.random() < 0.5),
        "rows": str(rng.choice(["cards", "list"])),
        "passengers": int(rng.choice([1, 1, 2, 3])),
        "cabin": int(rng.choice([0, 0, 0, 2])),
        "alert": bool(rng.random() < 0.3),
    }
