"""Forum: a discussion thread: the opening post with votes, replies (nested or one after another),
a reply box, and a sidebar with the community's rules and related threads."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "forum"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page, with the thread shown."""
    data = load("forum", lang)
    thread = pick(rng, data["threads"], 1)[0]
    users = pick(rng, data["users"], len(data["users"]))
    op, others = users[0], users[1:]
    ages = iter(np.sort(rng.integers(5, 60 * 30, 20))[::-1].tolist())
    op_age = int(rng.integers(60 * 30, 60 * 48))

    def who(post: dict, i: int) -> dict:
        return {"text": post["text"], "votes": post["votes"], "op": bool(post.get("op")),
                "user": op if post.get("op") else others[i % len(others)], "age": next(ages)}

    replies, k = [], 0
    for r in thread["replies"]:
        reply = who(r, k)
        k += 1
        reply["children"] = []
        for ch in r["children"]:
            reply["children"].append(who(ch, k))
            k += 1
        replies.append(reply)
    style = str(rng.choice(["nested", "classic", "stream"]))
    cards = pick(rng, ["about", "rules", "related"], int(rng.integers(1, 4)))
    return {
        "thread": {k: thread[k] for k in ("community", "flair", "title", "body", "pics")},
        "op": op, "op_age": op_age,
        # one member's post count and join date, the same on each of their posts (a month index of the template's)
        "profiles": {u: {"posts": int(rng.integers(3, 4000)), "joined": int(rng.integers(6))}
                     for u in users}, "replies": replies[: int(rng.integers(3, len(replies) + 1))],
        "votes": int(rng.integers(40, 3000)), "members": int(rng.integers(2, 900)) * 1000 + int(rng.integers(0, 999)),
        "online": int(rng.integers(20, 2000)), "views": int(rng.integers(300, 90000)),
        "rules": data["rules"][: int(rng.integers(3, 6))],
        "others": [t["title"] for t in data["threads"] if t["title"] != thread["title"]],
        "style": style,
        "header": str(rng.choice(["navbar", "search"])),
        "side": str(rng.choice(["right", "right", "left", "none"])),
        "cards": cards,
        "sort": bool(rng.random() < 0.7),
        "composer": str(rng.choice(["top", "bottom", "button"])),
        "image": bool(rng.random() < 0.35),
        "density": str(rng.choice(["compact", "normal", "roomy"])),
        "breadcrumb": bool(rng.random() < 0.5),
        "width": int(rng.choice([0, 1120, 1200])),
    }
