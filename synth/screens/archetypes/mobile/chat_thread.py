"""Chat: one conversation in a messaging app: the contact's name bar, message bubbles with time stamps,
pictures and voice notes, and an input bar with voice, emoji and attachment buttons."""
import numpy as np

from synth.screens.content import load

CATEGORY = "chat"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Header and input bar variants, bubble look, the messages and where pictures and voice notes go."""
    k = load("mobile_chat", lang)
    order = rng.permutation(len(k["thread"]))
    older, thread = k["thread"][int(order[0])], k["thread"][int(order[1])]
    # the end of an earlier conversation sits above today's, so the screen is full as in a real chat
    earlier = [{"me": bool(me), "kind": "text", "text": text} for me, text in older[-int(rng.integers(3, 7)):]]
    messages = [{"me": bool(me), "kind": "text", "text": text} for me, text in thread[int(rng.integers(0, 3)):]]
    # swap a message or two for a picture or a voice note, as real chats have
    for i in rng.choice(len(messages), int(rng.integers(0, 3)), replace=False):
        messages[int(i)] = {"me": messages[int(i)]["me"], "kind": str(rng.choice(["photo", "voice"])),
                            "text": k["voice"].format(int(rng.integers(2, 40)))}
    stamp = int(rng.integers(1, len(messages) - 1))
    return {
        "os": str(rng.choice(["ios", "android"])),
        "contact": str(rng.choice(k["people"])),
        "header": str(rng.choice(["center", "left"])),        # name centred (WeChat) or avatar + name at the left
        "status": str(rng.choice(["online", "seen", "none"])),
        "seen_at": f"{int(rng.integers(8, 12)):02d}:{int(rng.integers(0, 60)):02d}",
        "avatars": str(rng.choice(["both", "them", "none"] if lang == "en" else ["both", "both", "them"])),
        "bubble": str(rng.choice(["round", "tail"])),
        "wallpaper": str(rng.choice(["plain", "tint", "dots"])),
        "earlier": earlier,
        "messages": messages,
        "stamp": stamp,                       # a time stamp before this message, besides the first
        "input": str(rng.choice(["voice", "plus"])),           # voice key at the left (WeChat) or attach button
        "read": bool(rng.random() < 0.6) and lang == "en" and messages[-1]["me"],
        "typing": bool(rng.random() < 0.3) and messages[-1]["me"],
        "gap_min": int(rng.integers(30, 300)),
    }
