"""Mail: a web mail client: folders beside a message list, a reading pane (split view) or the list alone, and a
compose button."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "mail"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    pane = str(rng.choice(["right", "none"], p=[0.6, 0.4]))
    d = load("mail", lang)
    n_older = int(rng.integers(6, 13))
    # older messages fill the list below the page's nine recent ones, on earlier days of the previous month
    days = sorted(rng.choice(np.arange(2, 29), n_older, replace=False).tolist(), reverse=True)
    older = [{"sender": s, "subject": subj, "body": body, "day": int(day), "unread": bool(rng.random() < 0.1),
              "starred": bool(rng.random() < 0.15), "attach": bool(rng.random() < 0.2), "person": int(rng.integers(6))}
             for (s, subj, body), day in zip(pick(rng, d["older"], n_older), days)]
    return {
        "older": older, "months": d["months"],
        "header": str(rng.choice(["app", "navbar"])),   # a mail app bar with a wide search, or a site navbar
        "folders": str(rng.choice(["sidebar", "rail"], p=[0.8, 0.2])),   # folder names, or an icon rail
        "pane": pane,                                                 # reading pane beside the list, or the list alone
        "rows": str(rng.choice(["line", "two_line"]) if pane == "none"
                    else rng.choice(["two_line", "line"], p=[0.75, 0.25])),
        "avatars": bool(rng.random() < 0.5),
        "tabs": bool(rng.random() < 0.5),                             # Primary / Social / Promotions
        "open": int(rng.integers(0, 3)),                              # which message the reading pane shows
        "labels": bool(rng.random() < 0.6),
        "quick_reply": bool(rng.random() < 0.5),
        "storage": bool(rng.random() < 0.5),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "list_width": int(rng.choice([400, 440, 480])),
        "snippets": bool(rng.random() < 0.75),
    }
