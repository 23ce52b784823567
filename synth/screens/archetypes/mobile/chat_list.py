"""Chat: a messaging app's conversation list: search, optional stories or filter chips, rows of chats with
avatars, last messages, times and unread badges, and a tab bar."""
import numpy as np

from synth.screens.content import load, pick

CATEGORY = "chat"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Header style, which extras appear, the conversations (newest first) and the tab bar."""
    k = load("mobile_chat", lang)
    n = int(rng.integers(8, 11))
    people, groups = pick(rng, k["people"], n), pick(rng, k["groups"], 3)
    previews = pick(rng, k["previews"], n)
    official = pick(rng, k.get("official", []), int(rng.integers(0, 3)))
    rows = []
    for i in range(n):
        kind = "group" if i % 4 == 2 and groups else "person"
        name = groups.pop() if kind == "group" else people[i]
        text = str(rng.choice(k["media"])) if rng.random() < 0.2 else previews[i]
        if kind == "group" and rng.random() < 0.7:
            text = f"{people[(i + 3) % n]}: {text}" if lang == "en" else f"{people[(i + 3) % n]}：{text}"
        elif rng.random() < 0.25:
            text = f"{k['you']}: {text}" if lang == "en" else text
        members = [people[(i + j) % n] for j in range(1, 5)] if kind == "group" else []    # the group avatar's faces
        rows.append({"name": name, "kind": kind, "text": text, "members": members})
    for o in official:      # service accounts sit among the chats
        rows.insert(int(rng.integers(1, len(rows))),
                    {"name": o["name"], "kind": "official", "text": o["preview"], "members": []})
    rows = rows[:10]
    today = int(rng.integers(2, 6))
    ago = np.sort(rng.integers(1, 5 * 60, today)).tolist()
    for i, r in enumerate(rows):
        r["ago"] = int(ago[i]) if i < today else -1
        r["day"] = "" if i < today else k["days"][min(i - today, len(k["days"]) - 1)]
        r["unread"] = int(rng.choice([1, 1, 2, 3, 5, 12, 99])) if rng.random() < (0.45 if i < 4 else 0.15) else 0
        r["dot"] = bool(r["unread"] and r["kind"] == "group" and rng.random() < 0.5)   # muted groups show a dot
    pinned = int(rng.integers(0, 3)) if lang == "zh" else 0
    total = sum(r["unread"] for r in rows if not r["dot"])
    en = lang == "en"
    return {
        "os": str(rng.choice(["ios", "android"])),
        "header": str(rng.choice(["large", "center"] if en else ["center"])),
        "title": str(k["apps"][int(rng.integers(len(k["apps"])))]),
        "search": bool(rng.random() < 0.8),
        "stories": pick(rng, k["people"], 6) if en and rng.random() < 0.4 else [],
        "filters": k["filters"] if en and rng.random() < 0.4 else [],
        "pinned": pinned,
        "rows": rows,
        "typing": int(rng.integers(0, 3)) if rng.random() < 0.3 else -1,
        "dense": bool(rng.random() < 0.4),
        # WeChat-style apps count the unread chats on the first tab
        "tabs": [dict(t, badge=total) if i == 0 and total and lang == "zh" else t
                 for i, t in enumerate(k["tabs_sets"][int(rng.integers(len(k["tabs_sets"])))])],
        "unread_total": total,
    }
