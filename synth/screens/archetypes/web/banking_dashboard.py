"""Banking: an online bank's dashboard: account balances, a spending chart, recent transactions, a
quick transfer form and shortcuts."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "banking"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the accounts and figures shown."""
    data = load("banking", lang)
    accounts = [{"name": n, "kind": k, "last4": f"{int(rng.integers(0, 10000)):04d}",
                 "balance": round(float(rng.uniform(300, 40000) if k != "credit" else rng.uniform(100, 3000)), 2)}
                for n, k in pick(rng, data["accounts"], int(rng.integers(2, 4)))]
    months = int(rng.choice([6, 6, 12]))
    transfer = bool(rng.random() < 0.8)
    return {
        "bank": str(rng.choice(data["banks"])),
        "accounts": accounts,
        "chart": str(rng.choice(["months", "categories", "none"], p=[0.45, 0.4, 0.15])),
        "spend": [int(x) for x in rng.integers(800, 4200, months)],
        "income": [int(x) for x in rng.integers(2500, 5200, months)],
        "cats": [{"name": n, "value": int(v)} for n, v in
                 zip(data["categories"],
                     sorted(rng.integers(40, 900, len(data["categories"])).tolist(), reverse=True))],
        "payees": data["payees"][: int(rng.integers(3, 6))],
        "offer": pick(rng, data["offers"], 1)[0],
        "greetings": data["greetings"],      # morning, afternoon, evening: the template picks by the sign-in time
        "nav": str(rng.choice(["sidebar", "navbar"])),
        "tx_style": str(rng.choice(["table", "list"])),
        "tx": int(rng.integers(5, 9)),
        "transfer": transfer,
        "actions": bool(rng.random() < 0.7),
        "offers": not transfer or bool(rng.random() < 0.5),     # the side column is never left almost empty
        "hide": bool(rng.random() < 0.5),
        "density": str(rng.choice(["compact", "normal"])),
        "month0": int(rng.integers(0, 12)),
    }
