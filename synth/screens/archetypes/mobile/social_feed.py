"""Social: a social network's home feed: app bar or channel tabs, an optional stories row, and posts with
photos and like, comment and share actions (or a two-column waterfall of notes)."""
import numpy as np

from synth.screens.content import compact, load, pick

CATEGORY = "social"
PLACEMENTS = ("sheet", "sheet", "modal", "interstitial")   # no form takes one: sheet, modal or full screen


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Header, stories, feed style (photo posts, text-first posts or a waterfall) and the posts."""
    k = load("mobile_social", lang)
    who = rng.permutation(len(k["people"]))
    posts = []
    captions = list(zip(k["captions"], k["caption_pics"], k["caption_tags"]))   # a caption with what it shows
    for i, (cap, pics, tags) in enumerate(pick(rng, captions, 4)):
        j = int(who[i % len(who)])
        likes = int(rng.choice([12, 86, 240, 1200, 5600, 23000]) * rng.uniform(1, 3))
        posts.append({"user": k["people"][j], "name": k["names"][j], "caption": cap, "pics": pics,
                      "tag": str(rng.choice(tags)) if rng.random() < 0.6 else "",
                      "place": str(rng.choice(k["places"])) if rng.random() < 0.5 else "",
                      "ago": k["ago"][min(i * 2 + int(rng.integers(0, 2)), len(k["ago"]) - 1)],
                      "photos": int(rng.choice([1, 1, 2, 3])), "liked": bool(rng.random() < 0.3),
                      "likes": compact(likes, lang), "comments": compact(int(likes * rng.uniform(0.02, 0.1)) + 1, lang),
                      "shares": compact(int(likes * rng.uniform(0.01, 0.05)) + 1, lang)})
    notes = list(zip(k["notes"], k["note_pics"]))
    notes = [{"title": t, "pics": pics, "user": k["names"][int(who[i % len(who)])],
              "likes": compact(int(rng.choice([30, 300, 2000, 12000]) * rng.uniform(1, 4)), lang),
              "h": int(rng.choice([170, 200, 230, 260]))} for i, (t, pics) in enumerate(pick(rng, notes, 6))]
    feed = str(rng.choice(["posts", "text", "notes"]))
    badge = int(rng.integers(1, 20)) if rng.random() < 0.5 else 0       # unread messages, on their tab
    return {
        "os": str(rng.choice(["ios", "android"])),
        "header": str(rng.choice(["logo", "tabs"])),
        "app": str(rng.choice(k["apps"])),
        "header_tabs": k["header_tabs"],
        "stories": ([{"user": k["people"][int(j)], "seen": bool(rng.random() < 0.3)} for j in who[:6]]
                    if rng.random() < 0.6 else []),
        "feed": feed,
        "posts": posts,
        "notes": notes,
        "square": bool(rng.random() < 0.5),
        "tabs": [dict(t, badge=badge) if t["icon"] in ("comment", "mail", "bell") and badge else t
                 for t in k["tabs_sets"][int(rng.integers(len(k["tabs_sets"])))]],
    }
