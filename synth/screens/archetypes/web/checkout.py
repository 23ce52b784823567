"""Payment: a checkout page: contact and shipping address, delivery options, payment form, and an
order summary with items, promo code and total."""
import re

import numpy as np

from synth.screens.content import load
from synth.screens.content.common import WORDS

CATEGORY = "payment"
PLACEMENTS = ("inline", "modal")   # the CAPTCHA in the form, where sites put it, or over the page


def _promo(rng: np.random.Generator, data: dict) -> dict:
    """The discount code in the field, whether it is applied, and its percentage: the number a code names
    (SPRING15: 15 %); a code that is no percentage (FREESHIP, 满200减20) is never shown applied."""
    applied = bool(rng.random() < 0.35)
    codes = [p for p in data["promos"] if not applied or p not in data["not_percent"]]
    code = codes[int(rng.integers(len(codes)))]
    named = re.search(r"(\d+)$", code) if code.isascii() else None
    return {"promo": code, "promo_applied": applied,
            "discount": int(named[1]) if named else int(rng.choice([10, 15, 20]))}


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    data = load("payment", lang)
    n = int(rng.integers(1, 5))
    return {
        "n_items": n,
        "qty": [int(q) for q in rng.choice([1, 1, 1, 2, 3], n)],
        "shipping": data["shipping"], "ship": int(rng.choice([0, 0, 1, 2])),
        "methods": data["methods"], "method": int(rng.choice([0, 0, 1])),
        **_promo(rng, data),
        # the state (Chinese: province and city) of the address's city
        "city_state": data["city_state"], "countries": data["countries"], "tax_rate": data["tax_rate"],
        "flow": str(rng.choice(["single", "accordion"])),      # one long form, or steps with the first one done
        "header": str(rng.choice(["minimal", "navbar"])),
        "summary": str(rng.choice(["right", "right", "left"])),
        "steps": bool(rng.random() < 0.6),
        "express": lang == "en" and bool(rng.random() < 0.4),   # quick pay buttons above the form
        "billing_same": bool(rng.random() < 0.8),
        "save_info": bool(rng.random() < 0.5),
        "cards": bool(rng.random() < 0.6),
        "width": int(rng.choice([1040, 1120, 1200])),
        "saved_addresses": (n := int(rng.integers(2, 4)) if lang == "zh" else 0),
        # the saved addresses after the user's own (work, parents'): each its own street and phone; one more
        # than needed, as the template leaves out any on the user's own street
        "other_addresses": [{"street": WORDS[lang]["street"][int(i)],
                             "phone": f"1{int(rng.integers(30, 90))}****{int(rng.integers(0, 10000)):04d}"}
                            for i in rng.permutation(len(WORDS[lang]["street"]))[:n]],
    }
