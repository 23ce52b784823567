"""Pictures fit their captions: a captioned slot shows a picture of a subject its caption names, the subject
table names installed pictures, and the numbers beside a video fit its title."""
import html
import json
import re
from importlib import resources

import numpy as np
import pytest

from synth.screens import imagery
from synth.screens.archetypes.mobile import news_feed, short_video
from synth.screens.archetypes.web import _video, course_page, video_browse
from synth.screens.content.common import SCREEN_WORDS
from synth.screens.pages import PageSpec, render_html

CAPTIONED = ("web/video_browse", "web/video_watch", "web/news_portal", "web/news_article", "web/search_results",
             "web/social_feed", "mobile/news_feed", "mobile/short_video", "mobile/social_feed",
             "mobile/super_app_home", "web/course_page", "desktop/file_manager", "web/forum_thread")
VARIANTS = range(6)
CAPTION_FIELDS = ("title", "caption", "text", "q")
PARALLEL = (("captions", "caption_pics"), ("notes", "note_pics"))
MARK = "data:image/x-test;base64,"
IMG = re.compile(r'<img[^>]*?src="' + re.escape(MARK) + r'([^"]+)"[^>]*?alt="([^"]*)"')
LONG_TITLE = re.compile(r"3 hour|3小时")


def _content() -> dict:
    folder = resources.files("synth.screens.content")
    files = {f.name: json.loads(f.read_text("utf-8")) for f in folder.iterdir() if f.name.endswith(".json")}
    files["common.py"] = [{"title": name, "pics": pics}       # image files in a file manager
                          for lang in ("en", "zh") for name, pics in SCREEN_WORDS[lang]["file_pics"].items()]
    return files


def _captions(node, out: dict) -> dict:
    """Every caption in the content with the subjects its picture may show."""
    if isinstance(node, dict):
        pairs = [(node[f], node["pics"]) for f in CAPTION_FIELDS if "pics" in node and isinstance(node.get(f), str)]
        pairs += [pair for texts, pics in PARALLEL if texts in node and pics in node
                  for pair in zip(node[texts], node[pics])]
        for text, pics in pairs:     # a story's headline may head an article too, with pictures of its own
            out[text] = out.get(text, []) + pics
        for v in node.values():
            _captions(v, out)
    elif isinstance(node, list):
        for v in node:
            _captions(v, out)
    return out


def _subjects(node, out: set) -> set:
    """Every subject the content names."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("pics", "caption_pics", "note_pics"):
                out.update(s for group in (v if k != "pics" else [v]) for s in group)
            else:
                _subjects(v, out)
    elif isinstance(node, list):
        for v in node:
            _subjects(v, out)
    return out


def _shows(subject: str) -> set:
    return {x if isinstance(x, str) else imagery.photo_key(x) for x in imagery.showing(subject)}


@pytest.fixture
def marked(monkeypatch):
    """Pictures drawn as markers naming what they show: a photo's key or an emoji's code."""
    monkeypatch.setattr(imagery, "_photo_uri", lambda path, w, h: MARK + imagery.photo_key(path))
    monkeypatch.setattr(imagery, "_product_uri", lambda code, w, h, backdrop: MARK + code)


def test_the_subject_table_names_every_installed_picture():
    table = imagery.photo_subjects()
    keys = [imagery.photo_key(p) for p in imagery.photos()]
    assert len(set(keys)) == len(keys)
    assert set(keys) == set(table), set(keys) ^ set(table)


def test_every_subject_in_the_content_can_be_shown():
    subjects = set()
    for data in _content().values():
        _subjects(data, subjects)
    assert len(subjects) > 50
    missing = sorted(s for s in subjects if not imagery.showing(s))
    assert not missing, f"no installed picture or emoji shows {missing}"


@pytest.mark.parametrize("name", CAPTIONED)
def test_captioned_pictures_show_their_caption(name, marked):
    captions = {}
    for data in _content().values():
        _captions(data, captions)
    checked = 0
    for lang in ("en", "zh"):
        for v in VARIANTS:
            for key, alt in IMG.findall(render_html(PageSpec(name, lang, v, "none", "none"))):
                subjects = captions.get(html.unescape(alt))
                if subjects is None:
                    continue
                fits = set().union(*(_shows(s) for s in subjects))
                assert key in fits, f"{name} {lang} {v}: {alt!r} shows {key}, not one of {subjects}"
                checked += 1
    assert checked >= 2, f"{name}: only {checked} captioned pictures"


def test_a_photo_library_shows_photographs_once_and_its_selection(marked):
    photographs = _shows("photo")
    for lang in ("en", "zh"):
        for v in range(8):
            page = render_html(PageSpec("desktop/photo_viewer", lang, v, "none", "none"))
            cells = [(k, a) for k, a in IMG.findall(page) if a.startswith("IMG_")]
            library = [k for k, a in cells]
            assert set(library) <= photographs
            shown = library[:-1] if 'class="dk-side right ph-info"' in page else library
            if len(shown) <= len(photographs):
                assert len(set(shown)) == len(shown), f"{lang} {v}: a photo repeats"
            if len(shown) < len(library):      # the info pane shows the selected cell's photo under its name
                selected = re.search(r'class="ph-cell on"[^>]*aria-label="([^"]+)"', page)[1]
                assert cells[-1] == ({a: k for k, a in cells[:-1]}[selected], selected)


def test_a_stated_length_is_kept():
    for lang in ("en", "zh"):
        long = [v for v in _content()["video.json"][lang]["videos"] if LONG_TITLE.search(v["title"])]
        assert long and all("secs" in v for v in long)
        for seed in range(60):
            for v in _video.videos(np.random.default_rng(seed), lang, 12):
                if LONG_TITLE.search(v["title"]):
                    assert v["secs"] >= 2.5 * 3600, v


def test_live_only_now_and_only_for_a_stream():
    seen = 0
    for lang in ("en", "zh"):
        for seed in range(80):
            for v in _video.videos(np.random.default_rng(seed), lang, 12):
                if v["live"]:
                    seen += 1
                    assert v.get("live_ok") and v["age"] == _video.LIVE_AGE[lang], v
    assert seen > 5


def test_the_selected_chip_is_borne_out():
    old = ("month", "year", "个月", "年")
    for lang in ("en", "zh"):
        for seed in range(80):
            lay = video_browse.layout(np.random.default_rng(seed), lang)
            assert lay["chip"] in (0, video_browse.RECENT_CHIP) and lay["chip"] < len(lay["chips"])
            if lay["chip"] == video_browse.RECENT_CHIP:
                assert not any(w in v["age"] for v in lay["videos"] for w in old), lay["videos"]


def test_a_signed_out_page_has_no_personal_sidebar():
    checked = 0
    for lang in ("en", "zh"):
        for v in range(12):
            page = render_html(PageSpec("web/video_browse", lang, v, "none", "none"))
            signed_in = 'data-g-fn="open_account_menu"' in page
            if not signed_in:
                checked += 1
                assert 'data-g-icon="history"' not in page, (lang, v)
    assert checked > 0


def test_three_pictures_only_for_three_subjects():
    for lang in ("en", "zh"):
        for seed in range(60):
            for s in news_feed.layout(np.random.default_rng(seed), lang)["stories"]:
                assert s["kind"] != "three" or len(s["pics"]) >= 3


def test_an_early_view_is_a_sunrise_and_initials_skip_articles():
    for lang in ("en", "zh"):
        for seed in range(40):
            lay = short_video.layout(np.random.default_rng(seed), lang)
            if "5am" in lay["caption"] or "五点" in lay["caption"]:
                assert not {"#sunset", "#日落"} & set(lay["tags"])
    assert imagery._initials("the.plant.guy") == "PG"
    assert imagery._initials("ava.travels") == "AT"


def test_a_lesson_plays_within_its_length():
    for lang in ("en", "zh"):
        for seed in range(60):
            lay = course_page.layout(np.random.default_rng(seed), lang)
            current = [i for s in lay["sections"] for i in s["lessons"] if i["current"]]
            minutes, secs = map(int, lay["player_time"].split(":"))
            assert lay["player_length"] == f"{current[0]['minutes']}:00"
            assert minutes * 60 + secs < current[0]["minutes"] * 60
