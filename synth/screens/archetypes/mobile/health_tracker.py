"""Health: a fitness tracker's today screen: activity rings or a step ring, tiles for steps, heart rate,
sleep, calories and water with small charts, a weekly chart, and a tab bar."""
import numpy as np

CATEGORY = "health"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen
KCAL_PER_STEP = (0.04, 0.05)   # active energy a step burns
STRIDE_KM = 0.00072            # one step's length
BRISK_SHARE = (0.2, 0.6)       # of the steps walked at 100 a minute or more: the exercise minutes
TILES = ["steps", "heart", "sleep", "calories", "water", "distance", "weight", "spo2"]
TABS = {"en": [[("Summary", "heart"), ("Fitness", "flame"), ("Sharing", "users"), ("Browse", "grid")],
               [("Today", "home"), ("Workouts", "bolt"), ("Devices", "smartphone"), ("Profile", "user")]],
        "zh": [[("健康", "heart"), ("运动", "flame"), ("设备", "smartphone"), ("我的", "user")],
               [("首页", "home"), ("运动", "bolt"), ("发现", "compass"), ("我的", "user")]]}


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Hero style, which tiles appear in what order, and every number and chart point."""
    goal = int(rng.choice([6000, 8000, 10000]))
    steps = int(goal * rng.uniform(0.25, 1.15))
    hero = str(rng.choice(["rings", "steps"]))
    shown = [t for t in TILES if not (hero == "steps" and t == "steps")]      # the step ring already shows them
    tiles = [shown[int(i)] for i in rng.permutation(len(shown))[:int(rng.choice([4, 4, 6]))]]
    tabs = TABS[lang][int(rng.integers(2))]
    kcal = int(steps * rng.uniform(*KCAL_PER_STEP))
    weekday = int(rng.integers(7))
    week = [int(v) for v in rng.integers(2000, 13000, 7)]
    week = week[:weekday] + [steps] + [0] * (6 - weekday)     # today's bar is today's steps; days to come are empty
    return {
        "os": str(rng.choice(["ios", "android"])),
        "header": str(rng.choice(["greeting", "title"])),
        "hero": hero,
        "move": kcal, "move_goal": int(rng.choice([400, 500, 600])),           # the move ring is active energy
        "exercise": max(1, int(steps / 100 * rng.uniform(*BRISK_SHARE))), "stand": int(rng.integers(3, 12)),
        "steps": steps, "goal": goal,
        "tiles": tiles,
        "bpm": int(rng.integers(58, 96)), "bpm_series": [int(v) for v in rng.integers(55, 110, 16)],
        "sleep_h": int(rng.integers(5, 9)), "sleep_m": int(rng.integers(0, 60)),
        "sleep_bars": [int(v) for v in rng.integers(1, 5, 14)],
        "kcal": kcal, "water": int(rng.integers(2, 8)), "water_goal": 8,
        "km": round(steps * STRIDE_KM, 1),
        "kg": round(float(rng.uniform(52, 88)), 1), "spo2": int(rng.integers(95, 100)),
        "week": week,
        "weekly": bool(rng.random() < 0.6),
        "tabs": [{"label": lb, "icon": ic} for lb, ic in tabs],
        "weekday": weekday,
    }
