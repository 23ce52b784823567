"""Account: a sign-in page: a centred card or a split page with a picture, with password or code
sign-in, remember me, social sign-in buttons and links to sign up or reset the password."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "account"
PLACEMENTS = ("inline", "modal")   # the CAPTCHA in the form, where sites put it, or over the page


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    data = load("account", lang)
    frame = str(rng.choice(["card", "split", "navbar", "plain"]))
    return {
        "frame": frame,
        "side": str(rng.choice(["left", "right"])),                    # where the picture is on a split page
        "art": str(rng.choice(["photo", "gradient", "quote"])),
        "tagline": pick(rng, data["taglines"], 1)[0],
        "quote": pick(rng, data["quotes"], 1)[0],
        "identity": str(rng.choice(["email", "username", "phone"] if lang == "zh" else ["email", "email", "username"])),
        "method_tabs": bool(rng.random() < (0.7 if lang == "zh" else 0.3)),
        "social": str(rng.choice(["none", "above", "below"])),
        "social_style": str(rng.choice(["buttons", "icons"])),
        "remember": bool(rng.random() < 0.7),
        "show_pw": bool(rng.random() < 0.4),
        "qr": lang == "zh" and frame != "plain" and bool(rng.random() < 0.35),
        "qr_bits": [[int(b) for b in row] for row in rng.random((21, 21)) < 0.5],
        "card_w": int(rng.choice([380, 400, 440])),
        "top": int(rng.integers(40, 110)),
        "language": bool(rng.random() < 0.4),
        "languages": data["languages"],
    }
