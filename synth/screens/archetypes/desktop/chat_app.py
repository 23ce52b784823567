"""Chat: a desktop team chat app (Slack, Teams, Feishu/Lark): a workspace rail, a channel list, a message pane
with avatars, reactions and threads, and a composer with formatting buttons."""
import numpy as np

from synth.screens.archetypes.desktop._desk import chrome
from synth.screens.content import load, pick

CATEGORY = "chat"
COMPANY, TEAM = (60, 400), (6, 24)   # members of the company-wide channel, of a team's
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window


def clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Panes, rail style, channel list and messages of one team chat window."""
    base = chrome(rng, lang, "comment", "聊天" if lang == "zh" else "Chat")
    d = load("desktop_chat", lang)
    n_msg = int(rng.integers(8, 12))
    texts = pick(rng, d["messages"], n_msg)
    minutes = np.sort(rng.integers(9 * 60, 12 * 60, n_msg)).tolist()
    messages = [{"text": t, "who": int(rng.integers(0, 6)), "time": clock(m),
                 "later": [clock(m + int(x))   # times of the thread's replies
                           for x in np.sort(rng.integers(2, 50, 3))],
                 "replies": int(rng.integers(2, 9)) if rng.random() < 0.3 else 0,
                 "reactions": ([int(x) for x in rng.integers(1, 6, int(rng.integers(1, 3)))]
                               if rng.random() < 0.35 else []),
                 # the file a message speaks of, shown with it in about half the pages
                 "file": d["message_files"].get(t, "") if rng.random() < 0.5 else ""}
                for t, m in zip(texts, minutes)]
    if not any(m["replies"] for m in messages):
        messages[int(rng.integers(0, n_msg))]["replies"] = int(rng.integers(2, 9))
    right = str(rng.choice(["none", "thread", "members"], p=[0.45, 0.35, 0.2]))
    if right == "thread":    # the thread pane lists every reply of the first thread: at most its three
        first = next(m for m in messages if m["replies"])
        first["replies"] = min(first["replies"], len(first["later"]))
    n_ch = int(rng.integers(5, 9))
    here = d["team"][int(rng.integers(len(d["team"])))]      # the channel shown: one whose topic fits a team's day
    channels = pick(rng, [c for c in d["channels"] if c != here], n_ch - 1)
    active = int(rng.integers(0, n_ch))
    channels.insert(active, here)
    return {
        **base, "messages": messages, "channels": channels,
        "workspaces": pick(rng, d["workspaces"], int(rng.integers(2, 5))),
        "topic": d["topics"][here], "members": int(rng.integers(*(COMPANY if here == d["team"][0] else TEAM))),
        "replies": d["replies"], "sample": d["sample"],
        "unread": [bool(u) for u in rng.random(n_ch) < 0.3],
        "active": active,
        "dms": int(rng.integers(3, 6)),
        "rail": str(rng.choice(["workspaces", "apps"], p=[0.5, 0.5])),      # Slack's workspace icons, or Teams' app bar
        "right": right,
        "tabs": bool(rng.random() < 0.6),                                     # Messages / Files / Pins under the header
        "toolbar": str(rng.choice(["top", "bottom"], p=[0.6, 0.4])),          # formatting row above or below the input
        "compact": bool(rng.random() < 0.25),                                 # one-line messages without avatars
        "search_top": bool(rng.random() < 0.6),                               # a search bar across the window top
        "side_width": int(rng.choice([220, 240, 260])),
    }
