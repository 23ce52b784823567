"""Travel: hotel search results: a search bar, filters, result cards with photos, ratings and prices, a map."""
import numpy as np

from synth.screens.archetypes.web._streetmap import street_map
from synth.screens.content import load, pick

CATEGORY = "travel"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def _hotels(rng: np.random.Generator, lang: str, place: dict, n: int) -> list[dict]:
    d = load("travel_stay", lang)
    hotels = []
    for name in pick(rng, d["names"], n):
        area = place["areas"][int(rng.integers(len(place["areas"])))]
        score, word = d["scores"][int(rng.integers(len(d["scores"])))]
        price = int(rng.integers(6, 40)) * (20 if lang == "zh" else 7)
        near = (d["walk"].format(int(rng.integers(3, 20)), place["landmark"]) if rng.random() < 0.5
                else d["km"].format(round(float(rng.uniform(0.3, 6)), 1)))
        hotels.append({
            "name": name.format(area=area, city=place["city"]), "area": area, "near": near,
            "stars": int(rng.integers(2, 6)), "type": d["types"][int(rng.integers(len(d["types"])))],
            "room": d["rooms"][int(rng.integers(len(d["rooms"])))],
            "amenities": pick(rng, d["amenities"], int(rng.integers(2, 5))),
            "perks": pick(rng, d["perks"], int(rng.integers(1, 3))),
            "score": score, "word": word, "reviews": d["reviews"].format(int(rng.integers(40, 6000))),
            "price": f"{d['currency']}{price}",
            "was": f"{d['currency']}{int(price * rng.uniform(1.15, 1.5))}" if rng.random() < 0.35 else "",
        })
    return hotels


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("travel_stay", lang)
    place = d["cities"][int(rng.integers(len(d["cities"])))]
    map_mode = str(rng.choice(["none", "strip", "side"], p=[0.35, 0.35, 0.3]))
    results = str(rng.choice(["list", "grid"], p=[0.65, 0.35]))
    # a map beside the results leaves no room for a filter column: filters become a bar of buttons, or go
    filters = (str(rng.choice(["top", "none"])) if map_mode == "side"
               else str(rng.choice(["left", "right", "top", "none"], p=[0.5, 0.15, 0.2, 0.15])))
    n = int(rng.integers(4, 8))
    hotels = _hotels(rng, lang, place, n)
    day = int(rng.integers(0, len(d["dates"]) // 2)) * 2
    return {
        "place": place, "hotels": hotels, "count": int(rng.integers(40, 900)),
        "check_in": d["dates"][day], "check_out": d["dates"][day + 1],
        "guests": d["guests"][int(rng.integers(len(d["guests"])))],
        "nights": d["nights"].format(d["stays"][day // 2]), "per_night": d["per_night"],   # check-in to check-out
        "amenity_filters": pick(rng, d["amenities"], 4), "type_filters": pick(rng, d["types"], 3),
        "header": str(rng.choice(["navbar", "hero"])),           # plain navbar, or a coloured band holding the search
        # the search bar above the results, or as a panel on top of the filter column
        "search": str(rng.choice(["strip", "panel"])) if filters in ("left", "right") else "strip",
        "filters": filters, "map": map_mode, "results": results,
        "columns": 2 if filters in ("left", "right") or map_mode == "side" else int(rng.integers(2, 4)),
        "sort": str(rng.choice(["tabs", "select", "chips"])),
        "breadcrumb": bool(rng.random() < 0.5), "pagination": bool(rng.random() < 0.5),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "map_data": street_map(rng, place["streets"], min(n + 3, 9)),
    }
