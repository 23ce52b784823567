"""Maps: a ride-hailing app: a street map with pins and nearby cars, a sheet with pickup and destination
fields and saved places, or (once a destination is set) the route and a choice of car types to confirm."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "maps"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen
CY = 210        # the map's centre line: the sheet covers its lower part
PICKUP_MIN_PER_BLOCK = 1.5   # a car's drive to the pickup, minutes a block (+1 to pull up)
SLOWER_TIER = (1, 7)         # other tiers' cars are further off than the nearest one by this many minutes


def _map(rng: np.random.Generator) -> dict:
    """A street grid (turned by an angle), a park, maybe a river, pins on crossings and cars on streets; the
    map is 390×520 CSS px, drawn around its centre."""
    step = int(rng.integers(56, 96))
    angle = int(rng.integers(-28, 28))
    ox, oy = int(rng.integers(0, step)), int(rng.integers(0, step))
    t = np.radians(angle)

    def cross(i, j):        # where crossing (i, j) of the unturned grid is
        return 195 + ox - step // 2 + i * step, CY + oy - step // 2 + j * step

    def shown(p):           # where a crossing lands once the grid is turned about the map's centre
        dx, dy = p[0] - 195, p[1] - CY
        return 195 + dx * np.cos(t) - dy * np.sin(t), CY + dx * np.sin(t) + dy * np.cos(t)

    # the pins go on crossings that stay in the part of the map above the sheet
    spots = [(i, j) for i in range(-3, 4) for j in range(-4, 3)
             if 50 <= shown(cross(i, j))[0] <= 340 and 90 <= shown(cross(i, j))[1] <= 300]
    a, b = spots[int(rng.integers(len(spots)))]
    far = ([s for s in spots if abs(s[0] - a) + abs(s[1] - b) >= 3]
           or [s for s in spots if abs(s[0] - a) + abs(s[1] - b) >= 2] or spots)
    di, dj = (v - w for v, w in zip(far[int(rng.integers(len(far)))], (a, b)))
    cars = []
    for _ in range(int(rng.integers(3, 6))):      # on a street, along it: a north-south one or an east-west one
        x, y = cross(int(rng.integers(-3, 4)), int(rng.integers(-3, 3)))
        along = int(rng.integers(10, step - 10))
        turn = int(rng.choice([0, 90]))
        cars.append({"x": int(x + along * (turn == 90)), "y": int(y + along * (turn == 0)), "turn": turn})
    px, py = cross(a, b)
    near = min(abs(car["x"] - px) + abs(car["y"] - py) for car in cars) / step     # blocks to the nearest car
    return {
        "angle": angle, "step": step, "ox": ox, "oy": oy, "cy": CY,
        "majors": [int(v) for v in rng.choice(range(-4, 5), 2, replace=False)],
        "park": {"i": int(rng.integers(-3, 3)), "j": int(rng.integers(-4, 2)),
                 "w": int(rng.integers(1, 3)), "h": int(rng.integers(1, 3))},
        "river": bool(rng.random() < 0.5), "river_y": int(rng.integers(60, 180)),
        "pickup": [int(v) for v in cross(a, b)], "dest": [int(v) for v in cross(a + di, b + dj)],
        "cars": cars, "blocks": abs(di) + abs(dj), "near": round(near, 2),
    }


def _trip(rng: np.random.Generator, fare: dict, blocks: int) -> dict:
    """The drawn route's distance (its blocks at a block's length, km or miles), the minutes it takes at a city
    speed, and the base tier's fare for both (the content's fare: base, per distance, per minute, least)."""
    dist = round(blocks * float(rng.uniform(*fare["block"])), 1)
    mins = max(2, round(dist / float(rng.uniform(*fare["speed"])) * 60))
    return {"dist": dist, "mins": mins,
            "fare": max(fare["least"], fare["base"] + fare["per_dist"] * dist + fare["per_min"] * mins)}


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Which stage the booking is at, the map, the places and ride options."""
    k = load("mobile_maps", lang)
    m = _map(rng)
    trip = _trip(rng, k["fare"], m["blocks"])
    first = 1 + round(m["near"] * PICKUP_MIN_PER_BLOCK)        # the nearest car drawn comes for the first tier
    rides = [{**r, "price": f"${trip['fare'] * r['k']:.2f}" if lang == "en" else f"¥{trip['fare'] * r['k']:.1f}",
              "eta": first + (0 if i == 0 else int(rng.integers(*SLOWER_TIER)))}
             for i, r in enumerate(k["rides"][:int(rng.integers(3, 6))])]
    places = k["places"][:2] + pick(rng, k["places"][2:], 4)
    return {
        "os": str(rng.choice(["ios", "android"])),
        "stage": str(rng.choice(["where", "options"])),
        "map": m,
        "services": k["services"] if rng.random() < 0.6 else [],
        "here": k["here"],
        "pickup": str(rng.choice(k["pickup_street"])),
        "dest": places[2 + int(rng.integers(0, 4))],
        "places": places,
        "saved_row": bool(rng.random() < 0.6),
        "rides": rides,
        "chosen": int(rng.integers(0, len(rides))),
        "pay": str(rng.choice(k["pay"])),
        "tabs": k["tabs"] if rng.random() < 0.5 else [],
        "mins": trip["mins"], "km": trip["dist"],
    }
