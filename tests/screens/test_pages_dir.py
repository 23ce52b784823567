"""`--pages DIR`: folders of self-contained pages (tests/pages/) served as a site root, harvested, verified."""
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from synth.cli import main
from synth.engine.config import RunConfig
from synth.engine.survey import survey
from synth.labels import reward, spec
from synth.screens.site import Site, list_pages
from tests.conftest import read_samples

PAGES = Path(__file__).resolve().parent.parent / "pages"
SHOP, DOCS = PAGES / "shop", PAGES / "docs"


def run(kind: str, folder: Path, out: Path, workers: int, n: int = 10, *extra: str) -> Path:
    assert main([kind, "--pages", str(folder), "--n", str(n), "--shard-size", "5", "--out", str(out),
                 "--workers", str(workers), *extra]) == 0
    return out


@pytest.fixture(scope="module")
def grounding_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("pages")
    return [run("grounding", SHOP, base / f"g{w}", w) for w in (1, 2)]


@pytest.fixture(scope="module")
def captcha_run(tmp_path_factory):
    return run("captcha", DOCS, tmp_path_factory.mktemp("pages") / "c", 2, 8)


def test_site_serves_the_folder_and_nothing_outside_it():
    site = Site(SHOP)
    assert site.file("http://pages.synth/") == (SHOP / "index.html").resolve()
    assert site.file("http://pages.synth/assets/site.css?v=2") == (SHOP / "assets/site.css").resolve()
    assert site.file("http://pages.synth/account/") is None                 # no index.html there
    assert site.file("http://pages.synth/../docs/index.html") is None      # `..` stays inside the folder
    assert site.file("http://pages.synth/%2e%2e/%2e%2e/etc/passwd") is None
    assert list_pages(SHOP) == ["account/login.html", "catalog.html", "help.html", "index.html"]


def test_grounding_labels_are_valid_and_scored(grounding_runs):
    samples = read_samples(grounding_runs[0])
    assert len(samples) == 10
    for s in samples:
        lab = s["label"]
        assert spec.validate(lab) == [] and lab["template"].startswith("pages/")
        assert lab["platform"] in ("web", "mobile")
        w, h = lab["image"]["width"], lab["image"]["height"]
        for o in lab["objects"]:
            x0, y0, x1, y1 = o["bbox"]
            assert 0 <= x0 <= x1 <= w and 0 <= y0 <= y1 <= h
        for i, q in enumerate(lab["queries"]):
            view = spec.query_label(lab, i)
            assert reward.score(view, view["actions"]) == 1.0
            if not q["feasible"]:
                assert view["actions"] == [] and reward.score(view, [{"type": "click", "point": [w / 2, h / 2]}]) == 0.0
                continue
            x0, y0, x1, y1 = q["accept"]["steps"][0]["region"]
            px, py = view["actions"][0]["point"]
            assert x0 <= px <= x1 and y0 <= py <= y1
            assert reward.score(view, [{"type": "click", "point": [x1 + 40, y1 + 40]}] + view["actions"][1:]) < 1.0
        if lab["queries"][0]["feasible"]:
            quoted = lab["instruction"].split('"')[1] if '"' in lab["instruction"] else ""
            assert quoted == "" or quoted == lab["objects"][0]["label"]     # only text drawn inside the target
    # module scripts built the catalog's buttons; absolute asset paths loaded the stylesheet and the logo
    assert any(s["label"]["template"] == "pages/catalog.html" for s in samples)


def test_the_survey_counts_skipped_pages_and_blocked_requests(grounding_runs):
    pages = json.loads((grounding_runs[0] / "manifest.json").read_text())["pages"]
    assert pages["found"] == 4 and pages["usable"] == 3
    assert pages["skipped_pages"] == {"help.html": "pages.no_target"}
    assert pages["blocked_by_page"] == {"index.html": 2}     # the external image and the fetch to another origin


def test_the_survey_reports_progress_page_by_page():
    calls = []
    cfg, report = survey(RunConfig(kind="grounding", difficulty=2, n=2, pages=str(SHOP)),
                         lambda done, total: calls.append((done, total)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert len(cfg.page_list) == report["usable"] == 3


def test_same_bytes_whatever_the_workers(grounding_runs):
    one, two = grounding_runs
    for shard in sorted(one.glob("*.tar")):
        assert shard.read_bytes() == (two / shard.name).read_bytes()


def test_captcha_widget_in_folder_pages(captcha_run):
    samples = read_samples(captcha_run)
    assert len(samples) == 8
    for s in samples:
        lab = s["label"]
        assert spec.validate(lab) == [] and lab["template"] in ("pages/index.html", "pages/zh/index.html")
        assert lab["lang"] == ("zh" if "zh/" in lab["template"] else "en")    # the page's own language
        assert reward.score(lab, lab["actions"]) == 1.0
        wx0, wy0, wx1, wy1 = lab["widget"]
        assert 0 <= wx0 < wx1 <= lab["image"]["width"] and 0 <= wy0 < wy1 <= lab["image"]["height"]
    pages = json.loads((captcha_run / "manifest.json").read_text())["pages"]
    assert pages["blocked_requests"] == 2 and pages["usable"] == 2   # each page's fetch to another origin


def test_hf_datasets_loads_folder_grounding(grounding_runs):
    import datasets
    ds = datasets.load_dataset("webdataset", data_files={"train": str(grounding_runs[0] / "*.tar")}, split="train")
    assert len(ds) == 10


@pytest.mark.parametrize("case, message", [
    ("missing", "does not exist"), ("empty", "is empty"), ("no_html", "holds no .html page"),
    ("file", "is a file"),
])
def test_bad_pages_folder_gives_one_line_and_creates_nothing(case, message, tmp_path):
    folder = tmp_path / "site"
    if case == "empty":
        folder.mkdir()
    elif case == "no_html":
        folder.mkdir()
        (folder / "notes.txt").write_text("no pages here")
    elif case == "file":
        folder.write_text("x")
    out = tmp_path / "out"
    for kind in ("grounding", "captcha"):
        r = subprocess.run([sys.executable, "-m", "synth", kind, "--pages", str(folder), "--n", "2",
                            "--out", str(out)], capture_output=True, text=True)
        assert r.returncode == 1 and r.stdout == ""
        assert r.stderr.count("\n") == 1 and message in r.stderr, r.stderr
        assert not out.exists()


def test_a_folder_without_a_usable_page_fails_in_one_line(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html><html lang=en><body><p>Nothing to click.</p></body></html>")
    r = subprocess.run([sys.executable, "-m", "synth", "grounding", "--pages", str(folder), "--n", "2",
                        "--out", str(tmp_path / "out"), "--workers", "1", "--quiet"], capture_output=True, text=True)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "no usable page" in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()


RESPONSIVE = PAGES / "responsive"     # a long page, a page with a dark scheme, a page with neither


@pytest.fixture(scope="module")
def variety_run(tmp_path_factory):
    return run("grounding", RESPONSIVE, tmp_path_factory.mktemp("pages") / "v", 2, 24, "--shard-size", "12")


def test_every_page_before_any_page_twice_and_no_image_twice(variety_run):
    import hashlib
    samples = read_samples(variety_run)
    assert len(samples) == 24
    pages = [s["label"]["template"] for s in samples]
    assert len(set(pages[:3])) == 3, pages      # the first round shows the folder's three pages
    for end in range(1, 10):                    # and while all have views, none comes twice before the others
        counts = [pages[:end].count(p) for p in set(pages)]
        assert max(counts) - min(counts) <= 1, pages
    images = [hashlib.sha256(s["jpg"]).hexdigest() for s in samples]
    assert len(set(images)) == len(images)


def test_phone_renders_are_mobile_with_the_phone_layout(variety_run):
    samples = read_samples(variety_run)
    phones = [s["label"] for s in samples if s["label"]["platform"] == "mobile"]
    assert phones and all(lab["image"]["width"] < lab["image"]["height"] for lab in phones)
    for lab in phones:    # the links of the top bar fold into the Menu button on a phone: no target there
        assert not {"Home", "Guides", "Pricing"} & {e["name"] for e in lab["elements"]}
        assert all(q["instruction"].startswith(("Tap", "The", "Click", "Select")) for q in lab["queries"])
    assert any(lab["platform"] == "web" for lab in (s["label"] for s in samples))


def test_views_are_counted_in_the_manifest(variety_run):
    views = json.loads((variety_run / "manifest.json").read_text())["pages"]["views"]
    assert views["screens"] == 24 and views["pages"] == 3 and not views["short"]
    assert views["dropped"]["pages.view.no_dark_scheme"] >= 1   # dark views of the pages that have none: not rendered
    kept = views["kept_by_view"]
    assert kept["desktop"] == kept["phone"] == 3 and "desktop.dark" in kept   # index.html has a dark scheme


def test_a_folder_too_small_for_n_says_so_and_ends_with_its_distinct_screens(tmp_path):
    import shutil
    folder = tmp_path / "site"           # one short page without a dark scheme: a handful of screens
    shutil.copytree(RESPONSIVE / "assets", folder / "assets")
    shutil.copy(RESPONSIVE / "contact.html", folder / "index.html")
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "synth", "grounding", "--pages", str(folder), "--n", "40",
                        "--out", str(out), "--workers", "1"], capture_output=True, text=True)
    assert r.returncode == 3, r.stderr
    views = json.loads((out / "manifest.json").read_text())["pages"]["views"]
    assert 1 < views["screens"] < 40 and views["short"]
    assert f"--pages {folder} gives {views['screens']} distinct screens from 1 page:" in r.stderr
    assert len(read_samples(out)) == views["screens"]


def test_schedule_shows_every_page_before_any_page_twice():
    from synth.screens.views import schedule
    pages = tuple((f"pages/{k}.html", "en") for k in "abcde")
    views = (("desktop", "phone", "tablet"), ("desktop",), ("desktop", "phone"), ("desktop", "phone", "tablet"),
             ("desktop", "phone"))
    screens = schedule(3, pages, views)
    assert len(screens) == len(set(screens)) == sum(map(len, views))
    names = [s[0] for s in screens]
    assert set(names[:5]) == {p for p, _ in pages}                    # round 0: every page
    assert set(names[5:9]) == {"pages/a.html", "pages/c.html", "pages/d.html", "pages/e.html"}   # round 1
    assert [s[2] for s in screens[:5]] == ["desktop"] * 5
    assert schedule(3, pages, views) == screens and schedule(4, pages, views) != screens


def test_captcha_host_pages_cover_the_folder_and_come_in_turn():
    """A short CAPTCHA run over a folder holds every usable page in its pool (14 pages: two blocks of 10
    host slots, not the one block 60 samples of the built-in screens get), and its samples take the pool's
    pages in turn: the first 14 samples show 14 different pages."""
    from synth.engine.pools import STEP, host_slots, page_pool, pick_page
    from synth.screens.views import schedule
    pages = tuple((f"pages/p{k:02d}.html", "en") for k in range(14))
    cfg = RunConfig(kind="captcha", difficulty=2, n=60, pages=str(RESPONSIVE), page_list=pages,
                    page_views=tuple(("desktop", "phone") for _ in pages))
    assert host_slots(cfg) == 2 * STEP
    pool = page_pool(cfg, 0)
    shown = [pick_page(cfg, pool, i, None)[0] for i in range(cfg.n)]
    assert sorted(set(shown[:14])) == [p for p, _ in pages]
    assert [p[:2] for p in pool[:14]] == [s[:2] for s in schedule(cfg.seed, pages, cfg.page_views)[:14]]
    built_in = dataclasses.replace(cfg, pages="", page_list=(), page_views=())
    assert host_slots(built_in) == STEP
