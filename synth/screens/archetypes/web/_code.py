"""A repository for the code-hosting pages, drawn from synth/screens/content/code.json."""
import numpy as np

from synth.screens.content import load, pick


def shown(n: int) -> str:
    """A count as GitHub shows it: 842, 3.4k."""
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


WEB = ("JavaScript", "CSS", "HTML")     # what a TypeScript or JavaScript project's front end adds


def _other_languages(r: dict) -> list[str]:
    """The languages besides its own that a repository's files hold: scripts, its Dockerfile and Makefile, and a
    web project's front end (no Rust in a Go project)."""
    out = ["Shell"] + [f for f in ("Dockerfile", "Makefile") if f in r.get("files", ())]
    if r["lang"] in ("TypeScript", "JavaScript"):
        out += [k for k in WEB if k != r["lang"]]
    return out[:3]


def repo(rng: np.random.Generator, lang: str, name: str = "") -> dict:
    """Owner, name, description, stats and languages of one repository (the one called `name`, if given)."""
    d = load("code", lang)
    r = d["repos"][int(rng.integers(len(d["repos"])))]
    r = next((x for x in d["repos"] if x["name"] == name), r)
    owner = d["owners"][int(rng.integers(len(d["owners"])))]
    others = _other_languages(r)
    shares = np.sort(rng.dirichlet(np.ones(len(others))))[::-1]
    main = 1 - (1 - float(rng.uniform(0.6, 0.92))) * len(others) / 3     # fewer other languages, less of them
    languages = [{"name": r["lang"], "share": round(main * 100, 1), "colour": d["languages"][r["lang"]]}]
    languages += [{"name": k, "share": round(float(s) * (1 - main) * 100, 1), "colour": d["languages"][k]}
                  for k, s in zip(pick(rng, others, len(others)), shares)]
    stars = int(np.exp(rng.uniform(np.log(40), np.log(40000))))
    commits = int(rng.integers(40, 4000))
    return {
        "owner": owner, "name": r["name"], "desc": r["desc"], "lang": r["lang"], "topics": r["topics"],
        "install": r["install"].format(owner=owner), "usage": r["usage"], "dirs": r["dirs"], "files": r["files"],
        # forks and watchers a share of the stars; contributors under a third of the commits, a quarter of the stars
        "stars": shown(stars), "forks": shown(max(1, int(stars * rng.uniform(0.04, 0.25)))),
        "watchers": shown(max(1, int(stars * rng.uniform(0.01, 0.05)))),
        "issues": int(rng.integers(0, 240)), "pulls": int(rng.integers(0, 40)),
        "commits": f"{commits:,}",
        "branches": int(rng.integers(2, 40)), "tags": int(rng.integers(1, 60)),
        "contributors": int(rng.integers(3, max(4, min(120, commits // 3, stars // 4)))),
        "release": d["release"].format(int(rng.integers(0, 4)), int(rng.integers(0, 20)), int(rng.integers(0, 10))),
        "languages": languages, "site": f"{r['name']}.{'dev' if lang == 'en' else 'cn'}",
    }
