"""Maps: a map web app: a drawn street map with pins, a side panel of place results, a place's details card."""
import re

import numpy as np

from synth.screens.archetypes.web._streetmap import street_map
from synth.screens.content import load, pick

CATEGORY = "maps"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def _places(rng: np.random.Generator, d: dict, q: dict, n: int) -> list[dict]:
    places = []
    for name in pick(rng, q["names"], n):
        status, hours, tone = d["hours"][int(rng.integers(len(d["hours"])))]
        places.append({
            "name": name, "type": q["kinds"][name],          # what the place is, as its name says
            "pics": [q["pics"][int(rng.integers(len(q["pics"])))]],   # its own picture, wherever it shows
            "rating": round(float(rng.uniform(3.6, 4.9)), 1),
            "reviews": d["reviews_count"].format(int(rng.integers(12, 3200))),
            "price": d["prices"][int(rng.integers(len(d["prices"])))] if q["priced"] else "",
            "address": (f"{d['streets'][int(rng.integers(len(d['streets'])))]}{int(rng.integers(1, 400))}号"
                        if d["distance"].endswith("公里")
                        else f"{int(rng.integers(100, 4000))} {d['streets'][int(rng.integers(len(d['streets'])))]}"),
            "status": status, "hours": hours, "tone": tone,
            "review": d["reviews"][int(rng.integers(len(d["reviews"])))],
        })
    return places


def _distances(rng: np.random.Generator, d: dict, places: list[dict], pins: list) -> None:
    """Each place's distance and driving time from "you are here" (the last pin), measured on the map: the map
    box is ~0.9 as high as wide and spans 2-6 miles (3-9 km) across; roads run ~1.3x the straight line."""
    metric = d["distance"].endswith("公里")
    span = float(rng.uniform(3, 9) if metric else rng.uniform(2, 6))
    (mx, my) = pins[-1]
    for p, (x, y) in zip(places, pins):
        road = max(0.1, round(1.3 * span / 100 * float(np.hypot(x - mx, (y - my) * 0.9)), 1))
        p["distance"] = d["distance"].format(road)
        p["minutes"] = d["minutes"].format(int(3 + road * (2 if metric else 3) + rng.uniform(0, 3)))


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("maps", lang)
    q = d["queries"][int(rng.integers(len(d["queries"])))]
    n = int(rng.integers(5, 9))
    places = _places(rng, d, q, n)
    sel = places[0]
    slug = d["slugs"][int(rng.integers(len(d["slugs"])))]
    lay = {
        "query": q["query"], "places": places, "city": d["city"][(city := int(rng.integers(len(d["city"]))))],
        "district": d["districts"][int(rng.integers(len(d["districts"])))],
        "chips": pick(rng, d["chips"], int(rng.integers(4, 7))),
        "phone": d["phone"].format(code=d["area_codes"][city],      # the city's area code
                                   number=int(rng.integers(10 ** (d["phone_digits"] - 1), 10 ** d["phone_digits"]))),
        # the place's own name as its site's name where it has Latin letters
        "web": d["web"][int(rng.integers(len(d["web"])))].format(re.sub(r"[^a-z0-9]", "", sel["name"].lower()) or slug),
        "features": pick(rng, d["features"], int(rng.integers(2, 5))),
        "selected": sel,
        "busy": [int(v) for v in np.clip(np.sin(np.linspace(0.2, 3.0, 14)) * rng.uniform(50, 95)
                                         + rng.normal(0, 9, 14), 6, 100)],
        "panel": str(rng.choice(["left", "right"], p=[0.8, 0.2])),
        "panel_width": int(rng.choice([380, 400, 420])),            # room for the CAPTCHA widget
        # the panel lists results, shows one place, or lists results while a details card floats on the map
        "mode": str(rng.choice(["results", "details", "both"], p=[0.4, 0.3, 0.3])),
        "topbar": bool(rng.random() < 0.4),                  # a site header above the app, or the map fills the page
        "chips_on": bool(rng.random() < 0.7),
        "thumbs": bool(rng.random() < 0.6),                  # result rows with a picture
        "numbered": bool(rng.random() < 0.4),                # pins labelled A, B, C ... or plain dots with names
        "zoom": str(rng.choice(["bottom", "top"])),
        "layers": bool(rng.random() < 0.6),
        "filters": bool(rng.random() < 0.5),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "pin": str(rng.choice(["red", "brand"])),
        "map": street_map(rng, d["streets"], len(places) + 1),    # the last spot is "you are here"
    }
    _distances(rng, d, places, lay["map"]["pins"])
    return lay
