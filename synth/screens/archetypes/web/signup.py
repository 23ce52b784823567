"""Account: a registration page: name, email or phone, password with its rules, terms checkbox, in a
card or a split page, optionally as the first or second step of a multi-step sign-up."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "account"
PLACEMENTS = ("inline", "modal")   # the CAPTCHA in the form, where sites put it, or over the page


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    data = load("account", lang)
    steps = bool(rng.random() < 0.35)
    return {
        "frame": str(rng.choice(["card", "split", "navbar"])),
        "side": str(rng.choice(["left", "right"])),
        "tagline": pick(rng, data["taglines"][:1] + data["taglines"][2:], 1)[0],   # not the "welcome back" one
        "steps": steps,
        "step": int(rng.choice([0, 0, 1])) if steps else 0,
        "identity": str(rng.choice(["email", "phone"])) if lang == "zh" else "email",
        "names": str(rng.choice(["full", "split"])) if lang == "en" else "full",
        "username": bool(rng.random() < 0.4),
        "confirm": bool(rng.random() < 0.6),
        "rules": str(rng.choice(["list", "meter", "help"])),
        "rules_met": 0,          # the password fields are empty: no rule is met yet
        "rule_texts": data["password_rules"],
        "newsletter": bool(rng.random() < 0.5),
        "social": bool(rng.random() < 0.4),
        "two_col": bool(rng.random() < 0.4),
        "card_w": int(rng.choice([420, 460, 520])),
        "top": int(rng.integers(24, 70)),
        "interests": pick(rng, data["interests"], 6),
        "countries": data["countries"],
        "checked": [bool(b) for b in rng.random(6) < 0.4],
    }
