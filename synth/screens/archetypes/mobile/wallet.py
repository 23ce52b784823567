"""Banking: a bank or wallet app's home: balance card, a grid of quick actions, optional spending summary and
promo, recent transactions and a tab bar."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "banking"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Header and balance card look, quick action count and style, extras and their order, transaction list."""
    k = load("mobile_banking", lang)
    n_actions = int(rng.choice([4, 8]))
    actions = k["actions"][:4] + pick(rng, k["actions"][4:], n_actions - 5) if n_actions == 8 else k["actions"][:4]
    extras = [e for e in ("spending", "promo") if rng.random() < 0.5]
    return {
        "os": str(rng.choice(["ios", "android"])),
        "header": str(rng.choice(["greeting", "title"])),
        "bank": str(rng.choice(k["banks"])),
        "card": str(rng.choice(["gradient", "bankcard", "plain"])),
        "actions": actions,
        "more": k["more"] if n_actions == 8 else "",
        "action_style": str(rng.choice(["tint", "filled", "glyph"])),
        "actions_in_card": bool(rng.random() < 0.4),
        "extras": [extras[int(i)] for i in rng.permutation(len(extras))],
        "promo": str(rng.choice(k["promos"])),
        "budget_used": int(rng.integers(30, 95)),
        "group_by_day": bool(rng.random() < 0.5),
        "tx": int(rng.integers(5, 9)),
        "tabs": k["tabs_sets"][int(rng.integers(len(k["tabs_sets"])))],
        "bars": [int(h) for h in rng.integers(8, 40, 7)],
    }
