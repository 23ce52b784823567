"""Super app: the home screen of an all-in-one payments-and-services app: search, entry icons, a dense
service grid, banners and a feed."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "super app"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Header look, which sections appear and in what order, grid size, feed style."""
    k = load("mobile_super_app", lang)
    cols = int(rng.choice([4, 5]))
    rows = int(rng.choice([2, 2, 3]))
    sections = ["banner", "notice", "wallet", "promos"]
    present = [s for s in sections if rng.random() < {"banner": 0.6, "notice": 0.45, "wallet": 0.5, "promos": 0.45}[s]]
    tabs = k["tabs"][:5] if rng.random() < 0.7 else k["tabs"][:2] + k["tabs"][3:5]
    return {
        "os": str(rng.choice(["ios", "android"])),
        "header": str(rng.choice(["brand", "brand", "plain"])),      # coloured band or white bar
        "hero": bool(rng.random() < 0.75),                          # four big entry icons
        "location": bool(rng.random() < 0.6),
        "app": str(rng.choice(k["apps"])),
        "search": str(rng.choice(k["search"])),
        "heroes": k["hero"],
        "cols": cols,
        "services": pick(rng, k["services"], cols * rows - 1),
        "more": k["more"],
        "tile": str(rng.choice(["glyph", "filled", "tint"])),       # how a service icon is drawn
        "sections": [present[int(i)] for i in rng.permutation(len(present))],
        "banner": pick(rng, k["banners"], 1)[0],
        "notice": str(rng.choice(k["notices"])),
        "promos": pick(rng, k["promos"], 2),
        "feed": str(rng.choice(["list", "cards"])),
        # the open tab is "For you": the feed below mixes every kind of post
        "feed_tabs": [k["feed_tabs"][0]] + pick(rng, k["feed_tabs"][1:], int(rng.integers(2, 4))),
        "posts": pick(rng, k["feed"], 6),
        "tabs": tabs,
    }
