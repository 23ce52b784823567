"""Banking: a money transfer screen: the recipient (picked or typed), the amount in large type, a note and
the paying account, then a number keypad or a confirm button."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "banking"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Recipient style, whether a keypad or a button confirms, extras, and the amount being typed."""
    k = load("mobile_banking", lang)
    typed = rng.random() < 0.6
    amount = f"{int(rng.choice([20, 50, 88, 120, 200, 500, 1000, 2500]) * (1 if lang == 'en' else 5))}" if typed else ""
    if typed and rng.random() < 0.3:
        amount += "." + str(int(rng.integers(1, 10)))
    return {
        "os": str(rng.choice(["ios", "android"])),
        "recipient": str(rng.choice(["card", "field"])),
        "to": str(rng.choice(k["recipients"])),
        "to_bank": str(rng.choice(k["banks_short"])),
        "to_last4": f"{int(rng.integers(0, 10000)):04d}",
        "recents": pick(rng, k["recipients"], 5) if rng.random() < 0.5 else [],
        "amount": amount,
        "chips": sorted(int(v) for v in (rng.choice([10, 20, 50, 100, 200, 500], 4, replace=False)   # as apps
                                         * (1 if lang == "en" else 5))),                             # list them
        "show_chips": bool(rng.random() < 0.4),       # quick amounts (always when no keypad takes the bottom)
        "note": str(rng.choice(k["notes"])) if rng.random() < 0.5 else "",
        "keypad": bool(rng.random() < 0.55),
        "method": bool(rng.random() < 0.7),
        "account": str(rng.choice(k["accounts"])),
        "speed": bool(rng.random() < 0.4),
    }
