"""Mail: a desktop mail client (Outlook, Thunderbird, Apple Mail): account folders, a message list, a reading
pane beside or below it, and a toolbar."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome
from synth.screens.content import load, pick

CATEGORY = "mail"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Panes, list style and toolbar of one mail client window."""
    base = chrome(rng, lang, "mail", "邮件" if lang == "zh" else "Mail")
    d = load("mail", lang)
    older = [{"sender": s, "subject": subj, "body": body, "day": int(day), "unread": bool(rng.random() < 0.15),
              "starred": bool(rng.random() < 0.15), "attach": bool(rng.random() < 0.2)}
             for (s, subj, body), day in zip(
                 pick(rng, d["older"], 8),
                 sorted(rng.choice(np.arange(2, 28), 8, replace=False).tolist(), reverse=True))]
    pane = str(rng.choice(["right", "bottom", "none"], p=[0.6, 0.25, 0.15]))
    return {
        **base, "older": older, "months": d["months"],
        "pane": pane,                                                           # reading pane beside, below, or none
        "rows": "table" if pane == "bottom" else str(rng.choice(["cards", "table"], p=[0.65, 0.35])),
        "folders": str(rng.choice(["tree", "rail"], p=[0.8, 0.2])),   # account folder tree, or an icon rail + tree
        "toolbar": str(rng.choice(["labels", "icons", "ribbon"], p=[0.4, 0.35, 0.25])),
        "menubar": bool(rng.random() < 0.4),
        "accounts": int(rng.integers(1, 3)),
        "open": int(rng.integers(0, 4)),
        "avatars": bool(rng.random() < 0.6),
        "preview": bool(rng.random() < 0.7),
        "focused": bool(rng.random() < 0.5),                                     # Focused / Other tabs above the list
        "list_width": int(rng.choice([340, 380, 420])),
        "side_width": int(rng.choice([200, 220, 240])),
        "status": bool(rng.random() < 0.6),
    }
