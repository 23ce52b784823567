"""Stated numbers and states follow from the page's own data (issue "What a person sees", item 6): content several
archetypes share and archetypes drawn on more than one platform, checked on their `layout(rng, lang)` over many
seeds or on the rendered DOM."""
import re

import numpy as np
import pytest

from synth.screens.content import load
from synth.screens.pages import PageSpec, render_html
from tests.screens.layouts import LANGS, SEEDS, layouts


@pytest.mark.parametrize("name", ["web/docs_editor", "desktop/docs_editor"])
def test_a_document_is_set_in_the_font_and_size_its_boxes_name(chromium_desktop, name):
    page = chromium_desktop
    for lang in LANGS:
        faces = load("docs", lang)["font_css"]
        for variant in range(4):
            page.set_content(render_html(PageSpec(name, lang, variant, "none", "none")))
            font, family, size, px = page.evaluate("""() => {
              const box = document.querySelector('select[data-g-field=font]'), size = document.querySelector(
                'select[data-g-field=font_size], input[data-g-field=font_size]');
              const p = document.querySelector('.de-page p');
              return [box.options[box.selectedIndex].text, getComputedStyle(p).fontFamily, size.value,
                      parseFloat(getComputedStyle(p).fontSize)]; }""")
            assert family.replace('"', "'") == faces[font], (name, lang, variant, font, family)
            points = {"小四": 12, "五号": 10.5, "四号": 14}.get(size) or float(size)
            assert abs(px - points * 4 / 3) < 0.1, (name, lang, variant, size, px)


@pytest.mark.parametrize("name", ["desktop/calendar_app", "web/calendar"])
def test_a_calendar_event_starts_within_the_hours_its_title_implies(name):
    for lang, seed, lay in layouts(name):
        window = {e[0]: e[2] for e in load("calendar", lang)["events"]}
        if name == "web/calendar":
            cells = lay["week_cells"] + lay["month_cells"]
            starts = [(e["title"], e["start"] / 60) for c in cells for e in c["events"] if not e["all_day"]]
        else:
            starts = [(e[3], e[1]) for e in lay["events"]]
            # timed events only: not birthdays (calendar 3) nor holidays (4)
            starts += [(t, h) for chips in lay["chips"].values() for t, cal, h in chips if cal < 3]
        for title, hour in starts:
            assert window[title][0] <= hour <= window[title][1], (name, lang, seed, title, hour)


def test_a_mail_s_attachment_is_the_file_its_text_speaks_of():
    from synth.screens.content.common import WORDS, make_content
    for lang in LANGS:
        files = WORDS[lang]["mail_files"]
        for seed in SEEDS:
            for m in make_content(np.random.default_rng(seed), lang)["mails"]:
                assert m["attach"] == (m["file"][0] != "") and (not m["attach"] or files[m["subject"]] == m["file"]), \
                    (lang, seed, m["subject"], m["file"])


def test_a_budget_line_costs_about_the_same_each_month_and_the_book_is_about_costs():
    from synth.screens.content.common import make_content
    for lang in LANGS:
        for seed in SEEDS:
            c = make_content(np.random.default_rng(seed), lang)
            for row in c["budget"]:
                assert max(row) <= min(row) * 1.15 / 0.85 + 1, (lang, seed, row)
            assert not re.search(r"Sales|销售|Marketing Plan|市场计划", c["book"]), (lang, seed, c["book"])


@pytest.mark.parametrize("name", ["web/docs_editor", "desktop/docs_editor"])
def test_a_document_s_comments_are_about_that_document(name):
    for lang, seed, lay in layouts(name):
        others = [doc for doc in load("docs", lang)["docs"] if doc["title"] != lay["doc"]["title"]]
        theirs = [t for doc in others for t in doc["comments"]]
        texts = [c["text"] if isinstance(c, dict) else c for c in lay["comments"]]
        assert not set(texts) & set(theirs), (name, lang, seed, texts)


def test_a_postal_code_and_phone_belong_to_their_city_and_headphones_are_called_so():
    from synth.screens.content.common import AREA_CODE, WORDS, ZIP_PREFIX, make_content
    for lang in LANGS:
        assert not [p for p in WORDS[lang]["product"] if "arbud" in p]      # the picture of them is headphones
        for seed in SEEDS:
            c = make_content(np.random.default_rng(seed), lang)
            assert c["zip"].startswith(ZIP_PREFIX[c["city"]]) and len(c["zip"]) == (6 if lang == "zh" else 5)
            assert lang == "zh" or c["phone"].startswith(f"({AREA_CODE[c['city']]})"), (seed, c["city"], c["phone"])


def test_a_news_home_page_highlights_its_top_stories_not_a_section():
    assert load("news", "en")["sections"][0] == "Top stories" and load("news", "zh")["sections"][0] == "要闻"


def test_a_repository_s_languages_are_those_its_files_hold():
    from synth.screens.archetypes.web._code import WEB, repo
    for lang in LANGS:
        for seed in SEEDS:
            r = repo(np.random.default_rng(seed), lang)
            files = next(x for x in load("code", lang)["repos"] if x["name"] == r["name"]).get("files", [])
            for other in r["languages"][1:]:
                assert other["name"] == "Shell" or other["name"] in files or (
                    other["name"] in WEB and r["lang"] in ("TypeScript", "JavaScript")), (lang, seed, r["name"], other)
            assert abs(sum(x["share"] for x in r["languages"]) - 100) < 0.5, (lang, seed)
