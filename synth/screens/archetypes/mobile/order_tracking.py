"""Shopping: an order's tracking page: delivery status and estimate, progress steps or a timeline of
parcel events, the courier, the items, order details and action buttons."""
import numpy as np

from synth.screens.archetypes.mobile._shop import products
from synth.screens.content import load, pick

CATEGORY = "shopping"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Status, which blocks appear and their order, step style, the timeline and the items."""
    k = load("mobile_shopping", lang)
    step = int(rng.integers(1, 4))           # placed, packed/shipped ... never delivered: the parcel is on its way
    hubs = pick(rng, ["杭州", "上海", "南京", "苏州", "广州"] if lang == "zh"
                else ["Oakland", "Reno", "Sacramento", "Portland", "Denver"], 2)
    # newest first: out for delivery (only once it is), at a hub, left the hub before, shipped, packed
    events = [e.format(hubs[i % 2]) for i, e in enumerate(k["events"])]
    start = {3: 0, 2: 1, 1: 3}[step]         # the newest event the step has reached
    eta = int(rng.integers(0, 3))
    blocks = ["items", "info"] + (["courier"] if rng.random() < 0.7 else [])
    return {
        "os": str(rng.choice(["ios", "android"])),
        "steps": k["track"], "step": step,
        "step_style": str(rng.choice(["bar", "timeline"])),
        "events": events[start:start + int(rng.integers(3, 5))],
        "event_mins": sorted([int(v) for v in rng.integers(20, 60 * 30, 5)]),
        "courier": str(rng.choice(k["couriers"])),
        "courier_name": str(rng.choice(["王师傅", "李师傅", "张师傅", "刘师傅"] if lang == "zh"
                                       else ["Marco R.", "Dana K.", "Luis P.", "Tom B."])),
        "tracking": f"{'SF' if lang == 'zh' else '1Z'}{int(rng.integers(10**11, 10**12))}",
        "eta_day": 0 if step >= 3 else eta,      # out for delivery: it comes today
        "eta_from": int(rng.choice([9, 10, 12, 14])),
        "map": bool(rng.random() < 0.4),
        "blocks": [blocks[int(i)] for i in rng.permutation(len(blocks))],
        "goods": products(rng, k, lang, int(rng.integers(1, 3))),
        "qty": [int(v) for v in rng.choice([1, 1, 1, 2, 3], 2)],
        "spec": str(rng.choice(k["specs"][list(k["specs"])[0]])),
        "actions": int(rng.integers(2, 4)),
    }
