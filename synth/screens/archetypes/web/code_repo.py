"""Code: a code-hosting site's repository page: repository header, Code / Issues / Pull requests tabs, the
file list, a README preview and a sidebar with About, releases and languages."""
import numpy as np

from synth.screens.archetypes.web._code import repo
from synth.screens.content import load, pick

CATEGORY = "code"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("code", lang)
    r = repo(rng, lang)
    entries = [{"name": n, "dir": True} for n in r["dirs"]] + [{"name": n, "dir": False} for n in r["files"]]
    newest = int(rng.integers(2))                              # how long ago the latest commit was (an index of "ago")
    for e in entries:                                          # every file last changed then or earlier
        e["commit"] = d["commits"][int(rng.integers(len(d["commits"])))]
        e["ago"] = d["ago"][int(rng.integers(newest, len(d["ago"])))]
    latest = entries[int(rng.integers(len(entries)))]          # the latest commit changed this one
    latest["ago"] = d["ago"][newest]
    return {
        "repo": r, "entries": entries, "last_commit": latest["commit"],
        "sha": "".join(str(rng.choice(list("0123456789abcdef"))) for _ in range(7)),
        "last_ago": d["ago"][newest],
        "sidebar": str(rng.choice(["right", "left", "none"], p=[0.7, 0.1, 0.2])),
        "readme": bool(rng.random() < 0.8),
        "public": bool(rng.random() < 0.85),
        "header": str(rng.choice(["dark", "light"])),
        "contributors_shown": min(r["contributors"], int(rng.integers(4, 9))),   # no more faces than contributors
        "density": str(rng.choice(["compact", "normal"])),
        "about_parts": pick(rng, ["topics", "release", "contributors", "languages"], int(rng.integers(2, 5))),
    }
