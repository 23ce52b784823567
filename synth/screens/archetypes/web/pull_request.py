"""Code: a code-hosting site's pull request page: title and status label, the conversation timeline with
comments and a review on a code diff, the merge box, or the files-changed view; reviewers and labels aside."""
import re

import numpy as np

from synth.screens.archetypes.web._code import repo
from synth.screens.content import load, pick

CATEGORY = "code"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def _numbered(diff: dict) -> dict:
    """The diff's lines with their old and new line numbers ("" where a side has none)."""
    old, new, context = re.match(r"@@ -(\d+),\d+ \+(\d+),\d+ @@(.*)", diff["hunk"]).groups()
    old, new = int(old), int(new)
    kinds = [k for k, _ in diff["lines"]]
    hunk = f"@@ -{old},{len(kinds) - kinds.count('+')} +{new},{len(kinds) - kinds.count('-')} @@{context}"   # its lines
    lines = []
    for kind, text in diff["lines"]:
        lines.append({"kind": kind, "text": text, "old": "" if kind == "+" else old, "new": "" if kind == "-" else new})
        old += kind != "+"
        new += kind != "-"
    return {"path": diff["path"], "hunk": hunk, "lines": lines,
            "added": sum(k == "+" for k, _ in diff["lines"]), "removed": sum(k == "-" for k, _ in diff["lines"])}


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    d = load("code", lang)
    change = d["changes"][int(rng.integers(len(d["changes"])))]     # title, branch, body, commits and files: one change
    r = repo(rng, lang, change["repo"])
    diffs = [_numbered(d["diffs"][i]) for i in change["diffs"]]
    number = int(rng.integers(12, 900))
    state = str(rng.choice(["open", "merged", "draft", "closed"], p=[0.55, 0.25, 0.12, 0.08]))
    if state in ("open", "draft"):
        r["pulls"] = max(1, r["pulls"])                               # this one is among the repository's open ones
    view = str(rng.choice(["conversation", "files"], p=[0.65, 0.35]))
    said = change["body"][:int(rng.integers(1, len(change["body"]) + 1))]
    body = [b.format(int(rng.integers(1, number))) for b in said]
    return {
        "repo": r, "number": number, "title": change["title"],
        "state": state, "view": view,
        "body": body, "reviews": pick(rng, d["reviews"], 3),
        "commits": change["commits"][:int(rng.integers(2, len(change["commits"]) + 1))],
        "shas": ["".join(str(rng.choice(list("0123456789abcdef"))) for _ in range(7)) for _ in range(4)],
        "diffs": diffs, "files": len(diffs), "checks": int(rng.integers(2, 9)),
        "branch": change["branch"], "labels": change["labels"],
        "sidebar": bool(rng.random() < 0.8),
        "composer": bool(rng.random() < 0.6),
        "inline_thread": bool(rng.random() < 0.7),     # the review's comment shown under its diff line
        "ago": d["ago"], "density": str(rng.choice(["compact", "normal"])),
        "comment_at": int(rng.integers(2, 6)),
    }
