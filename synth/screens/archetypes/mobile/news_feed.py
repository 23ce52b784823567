"""News: a news app's feed: search or masthead, a row of channel tabs, an optional trending card, then
headlines with thumbnails, picture rows, large pictures or text only."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "news"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Header, channels, what sits on top of the list, and the kind of every headline."""
    k = load("mobile_news", lang)
    heads = pick(rng, k["headlines"], 12)       # eight for the list, four for the trending card or lead
    hot, heads = heads[8:], heads[:8]
    kinds = rng.choice(["thumb", "thumb", "thumb", "three", "big", "text"], len(heads))
    # a row of three pictures only for a story with three subjects to show, not one picture three times
    stories = [{**h, "kind": str(kd) if kd != "three" or len(h["pics"]) >= 3 else "thumb",
                "ago": k["ago"][min(i, len(k["ago"]) - 1)],
              "comments": int(rng.choice([3, 26, 140, 980, 2400]) * rng.uniform(1, 3)),
              "tag": str(rng.choice(k["tags"])) if i < 2 and rng.random() < 0.5 else ""}
             for i, (h, kd) in enumerate(zip(heads, kinds))]
    start = int(rng.integers(0, 2))
    return {
        "os": str(rng.choice(["ios", "android"])),
        "header": str(rng.choice(["search", "masthead"] if lang == "en" else ["search", "search", "masthead"])),
        "app": str(rng.choice(k["apps"])),
        "channels": k["channels"][start:start + 8],
        "active": 1 - start if lang == "zh" else 0,
        "top": str(rng.choice(["hot", "lead", "none"])),
        "hot": hot,
        "hot_title": k["hot_title"],
        "stories": stories,
        "tabs": k["tabs_sets"][int(rng.integers(len(k["tabs_sets"])))],
        "search": k["search"],
        "comments": k["comments"],
    }
