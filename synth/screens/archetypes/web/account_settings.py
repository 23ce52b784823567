"""Account: account settings: side navigation or tabs, and one section's forms (profile, notification
toggles, or password, two-factor and sessions)."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "account"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    data = load("account", lang)
    return {
        "section": str(rng.choice(["profile", "notifications", "security"])),
        "nav": str(rng.choice(["sidebar", "sidebar", "tabs"])),
        "header": str(rng.choice(["navbar", "navbar", "none"])),
        "cards": bool(rng.random() < 0.6),               # groups in cards, or separated by rules
        "two_col": bool(rng.random() < 0.5),
        "notify_style": str(rng.choice(["toggles", "table"])),
        "bio": pick(rng, data["bios"], 1)[0],
        "countries": data["countries"], "languages": data["languages"],
        "devices": [{"name": d[0], "place": d[1], "ago": int(a)} for d, a in
                    zip(pick(rng, data["devices"], int(rng.integers(2, 5))),
                        np.sort(rng.integers(0, 60 * 24 * 20, 5)))],
        "two_factor": bool(rng.random() < 0.5),
        "danger": bool(rng.random() < 0.5),
        "banner": bool(rng.random() < 0.25),
        "width": int(rng.choice([0, 1100, 1180])),
        "content_w": int(rng.choice([640, 720, 800])),
    }
