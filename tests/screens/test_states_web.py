"""Stated numbers and states follow from the page's own data (issue "What a person sees", item 6): web pages (shops,
maps, calendars, analytics, code, forums, travel, video, banking), checked on their `layout(rng, lang)` over many
seeds or on the rendered DOM."""
import re

import numpy as np

from synth.screens.content import load
from synth.screens.pages import PageSpec, render_html
from tests.screens.layouts import LANGS, layouts


def test_a_pull_request_is_one_change_of_its_own_repository_and_its_numbers_add_up():
    for lang, seed, lay in layouts("web/pull_request"):
        change = next(c for c in load("code", lang)["changes"] if c["title"] == lay["title"])
        assert lay["branch"] == change["branch"] and set(lay["commits"]) <= set(change["commits"]), (lang, seed)
        assert lay["body"][0].split("#")[0] == change["body"][0].split("#")[0], (lang, seed)
        name = lay["repo"]["name"]
        for df in lay["diffs"]:
            assert df["path"].startswith(("tests/", f"src/{name}/")) or "/" not in df["path"][4:], (lang, seed, df)
            old, new = (int(n) for n in re.match(r"@@ -\d+,(\d+) \+\d+,(\d+) @@", df["hunk"]).groups())
            kept = len(df["lines"]) - df["added"] - df["removed"]
            assert (old, new) == (kept + df["removed"], kept + df["added"]), (lang, seed, df["hunk"])
        assert lay["files"] == len(lay["diffs"]), (lang, seed)
        if lay["state"] in ("open", "draft"):
            assert lay["repo"]["pulls"] >= 1, (lang, seed)


def test_a_repository_shows_no_more_contributors_than_it_has_and_its_latest_commit_on_a_file():
    for lang, seed, lay in layouts("web/code_repo"):
        assert lay["contributors_shown"] <= lay["repo"]["contributors"], (lang, seed)
        latest = (lay["last_commit"], lay["last_ago"])
        assert any((e["commit"], e["ago"]) == latest for e in lay["entries"]), (lang, seed)


def test_an_instructor_has_at_least_the_course_s_students_and_reviews():
    for lang, seed, lay in layouts("web/course_page"):
        assert lay["teacher_students"] > lay["students"] and lay["teacher_reviews"] > lay["ratings"], (lang, seed)


def test_a_forum_member_has_one_post_count_and_join_date(chromium_desktop):
    classic = 0
    for lang in LANGS:
        for variant in range(12):
            html = render_html(PageSpec("web/forum_thread", lang, variant, "none", "none"))
            if "ft-user" not in html.split("</style>")[-1]:
                continue
            classic += 1
            chromium_desktop.set_content(html)
            users = chromium_desktop.evaluate("""() => [...document.querySelectorAll('.ft-user')].map(
              u => [u.querySelector('b').textContent, u.textContent.replace(/\\s+/g, ' ')])""")
            seen: dict = {}
            for name, text in users:
                assert seen.setdefault(name, text) == text, (lang, variant, name)
    assert classic


def test_a_web_player_shows_one_cover_an_album(chromium_desktop):
    for lang in LANGS:
        for variant in range(6):
            chromium_desktop.set_content(render_html(PageSpec("web/music_web", lang, variant, "none", "none")))
            covers = chromium_desktop.evaluate("""() => [...document.querySelectorAll(
              '.mu-ttl img, .mu-q img, .mu-big, .mu-np img')].map(i => [i.alt, i.src.length, i.src.slice(-64)])""")
            seen: dict = {}
            for alt, *src in covers:
                assert seen.setdefault(alt, src) == src, (lang, variant, alt)


def test_a_gov_application_filled_in_is_a_signed_in_applicant_s():
    filled = 0
    for lang in LANGS:
        for variant in range(12):
            html = render_html(PageSpec("web/gov_service", lang, variant, "none", "none"))
            if '<dl class="gv-sum">' in html:
                filled += 1
                assert 'data-g-fn="sign_in"' not in html, (lang, variant)
    assert filled


def test_a_flight_stops_only_between_its_ends():
    for lang, seed, lay in layouts("web/travel_search"):
        ends = {*lay["origin"], *lay["dest"]}
        for f in lay["flights"]:
            assert len(f["via"]) == f["stops"] and not ends & set(f["via"]), (lang, seed, f["via"], ends)


def test_a_repository_has_fewer_forks_watchers_and_contributors_than_stars():
    def number(text):
        return float(text[:-1]) * 1000 if text.endswith("k") else float(text)
    for lang, seed, lay in layouts("web/code_repo"):
        r = lay["repo"] if "repo" in lay else lay
        stars = number(r["stars"])
        assert number(r["forks"]) <= stars and number(r["watchers"]) <= stars, (lang, seed)
        assert r["contributors"] <= max(3, stars / 4, 4), (lang, seed)


def test_an_analytics_chart_s_open_tab_is_the_metric_it_plots():
    opened = 0
    for lang in LANGS:
        for variant in range(12):
            html = render_html(PageSpec("web/analytics", lang, variant, "none", "none"))
            tabs = re.findall(r'data-g="tab"[^>]*>([^<]*)<', html)
            metric = {"en": "Users", "zh": "访客数"}[lang]
            if metric in tabs:
                opened += 1
                assert tabs[0] == metric, (lang, variant, tabs)
    assert opened


def test_a_web_calendar_month_shows_a_one_off_once_and_places_only_for_work():
    for lang, seed, lay in layouts("web/calendar"):
        d = load("calendar", lang)
        titles = [e["title"] for c in lay["month_cells"] for e in c["events"]]
        assert all(titles.count(t) <= 1 for t in d["once"]), (lang, seed)
        events = [e for c in lay["month_cells"] + lay["week_cells"] for e in c["events"]]
        assert all(not e["place"] or e["cal"] == 0 for e in events), (lang, seed)
        assert not lay["other"][0]["on"], (lang, seed)


def test_a_place_s_phone_has_its_city_s_area_code_and_its_site_its_name():
    for lang, seed, lay in layouts("web/maps_local"):
        d = load("maps", lang)
        code = d["area_codes"][d["city"].index(lay["city"])]
        assert code in lay["phone"].split("-")[0].strip("()") or lay["phone"].startswith(f"({code})"), \
            (lang, seed, lay["city"], lay["phone"])
        name = re.sub(r"[^a-z0-9]", "", lay["selected"]["name"].lower())
        assert not name or name in lay["web"], (lang, seed, lay["web"])
        pics = next(q["pics"] for q in d["queries"] if q["query"] == lay["query"])
        assert all(p["pics"][0] in pics for p in lay["places"]), (lang, seed)      # pictures of the query's kind


def test_a_checkout_address_names_the_state_of_its_city():
    from synth.screens.content.common import WORDS
    for lang in LANGS:
        states = load("payment", lang)["city_state"]
        assert set(WORDS[lang]["city"]) <= set(states), lang
        shown = 0
        for variant in range(8):
            html = render_html(PageSpec("web/checkout", lang, variant, "none", "none"))
            if lang == "en":       # every "City, ST" the page writes names its city's state
                cities = "|".join(states)
                for city, state in re.findall(rf"({cities}), ([A-Z]{{2}})\b", html):
                    assert state == states[city], (variant, city, state)
                    shown += 1
            else:
                shown += sum(state in html for state in states.values())
        assert shown >= 1, lang
    assert "四川省深圳" not in render_html(PageSpec("web/checkout", "zh", 804684223, "none", "none"))


def test_an_analytics_top_page_has_fewer_views_and_users_than_the_site():
    def number(text):
        return float(text[:-1]) * {"K": 1e3, "M": 1e6}[text[-1]] if text[-1] in "KM" else float(text.replace(",", ""))
    for lang, seed, lay in layouts("web/analytics"):
        kpis = {k["key"]: k["value"] for k in lay["kpis"]}
        for page in lay["pages"]:
            for key in ("views", "users"):
                if key in kpis:
                    assert number(page[key]) <= number(kpis[key]), (lang, seed, key, page[key], kpis[key])


def test_a_site_s_name_fits_any_kind_of_site_and_one_hour_is_singular(chromium_desktop):
    from synth.screens.content.common import WORDS
    for lang in LANGS:
        assert not [s for s in WORDS[lang]["site"] if re.search(r"Store|Market|Goods|商城|市场|好物|小铺", s)]
    seen = 0
    for variant in range(12):
        chromium_desktop.set_content(render_html(PageSpec("web/docs_editor", "en", variant, "none", "none")))
        text = chromium_desktop.evaluate("() => document.body.innerText")
        assert not re.search(r"(?<!\d)1 hours", text), variant
        seen += "1 hour ago" in text
    assert seen      # the singular is shown somewhere


def test_a_playlist_shows_its_own_description_and_a_length_that_fits_its_songs():
    descs = {lang: load("music", lang)["descs"] for lang in LANGS}
    for lang, seed, lay in layouts("web/music_web"):
        assert lay["desc"] == descs[lang][lay["playlists"][0]], (lang, seed)
        low, high = (lay["total"] * 140 / 3600, lay["total"] * 330 / 3600)
        assert max(1, round(low)) <= lay["hours"] <= round(high), (lang, seed, lay["total"], lay["hours"])
        mean = sum(s["seconds"] for s in lay["songs"]) / len(lay["songs"])
        assert abs(lay["hours"] - lay["total"] * mean / 3600) <= 0.5 or lay["hours"] == 1, (lang, seed)


def test_a_place_nearer_on_the_map_is_nearer_in_the_list_and_quicker_to_reach():
    for lang, seed, lay in layouts("web/maps_local"):
        (mx, my), places = lay["map"]["pins"][-1], lay["places"]
        on_map = [np.hypot(x - mx, (y - my) * 0.9) for x, y in lay["map"]["pins"][:-1]]
        stated = [float(re.search(r"[\d.]+", p["distance"]).group()) for p in places]
        mins = [int(re.search(r"\d+", p["minutes"]).group()) for p in places]
        for i in range(len(places)):
            for j in range(len(places)):
                if on_map[i] < on_map[j] * 0.9:
                    assert stated[i] <= stated[j] and mins[i] <= mins[j] + 3, (lang, seed, i, j)


def _month_day(s: str) -> tuple[int, int]:
    """(month, day) of a date as the travel pages write it: "Thu, Sep 5" or "9月5日 周四"."""
    if m := re.search(r"(\d+)月(\d+)日", s):
        return int(m.group(1)), int(m.group(2))
    m = re.search(r"([A-Z][a-z]{2}) (\d+)", s)
    return ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].index(m.group(1)) + 1, \
        int(m.group(2))


def test_a_hotel_stay_counts_the_nights_between_its_dates():
    for lang, seed, lay in layouts("web/hotel_listing"):
        (m0, d0), (m1, d1) = _month_day(lay["check_in"]), _month_day(lay["check_out"])
        assert m0 == m1 and int(re.search(r"\d+", lay["nights"]).group()) == d1 - d0, (lang, seed, lay["nights"])


def test_a_hotel_search_shows_its_city_in_the_destination_field(chromium_desktop):
    for lang in LANGS:
        for variant in range(4):
            chromium_desktop.set_content(render_html(PageSpec("web/hotel_listing", lang, variant, "none", "none")))
            shown, text = chromium_desktop.evaluate("""() => [
              document.querySelector('[data-g-field=destination]').placeholder, document.body.innerText]""")
            assert shown and shown in text, (lang, variant, shown)     # the results are for the city it shows


def test_a_web_calendar_s_week_and_upcoming_list_show_the_month_grid_s_events():
    for lang, seed, lay in layouts("web/calendar"):
        shown = [(c["day"], e["title"], e["start"]) for c in lay["month_cells"] for e in c["events"]]
        for c in lay["week_cells"]:
            for e in c["events"]:
                assert (c["day"], e["title"], e["start"]) in shown, (lang, seed, c["day"], e["title"])
        for e in lay["upcoming"]:
            assert any(t == e["title"] and s == e["start"] for _, t, s in shown), (lang, seed, e["title"])
        parties = [t for _, t, _ in shown if t in {e["title"] for c in lay["month_cells"] for e in c["events"]
                                                    if e["all_day"]}]
        assert len(parties) == len(set(parties)), (lang, seed, parties)


def test_a_forum_thread_highlights_the_community_section_or_nothing(chromium_desktop):
    seen = 0
    for lang in LANGS:
        for variant in range(10):
            chromium_desktop.set_content(render_html(PageSpec("web/forum_thread", lang, variant, "none", "none")))
            on = chromium_desktop.evaluate("""() => [...document.querySelectorAll(
              'nav a.active, nav a.on, nav .is-active, nav [aria-current]')].filter(a => !a.closest('ol, .breadcrumb'))
              .map(a => a.textContent.trim())""")
            assert set(on) <= {"Community", "社区"}, (lang, variant, on)
            seen += bool(on)
            links = chromium_desktop.evaluate("""() => {
              const head = [...document.querySelectorAll('*')].find(e => e.children.length === 0 &&
                ['Related threads', '相关帖子'].includes(e.textContent.trim()));
              let card = head;
              while (card && card.querySelectorAll('a').length === 0) card = card.parentElement;
              const links = card ? [...card.querySelectorAll('a')] : [];
              return links.map(a => a.textContent.trim().replace(/[?？]$/, '')); }""")
            assert len(links) == len(set(links)), (lang, variant, links)     # no thread listed twice
    assert seen


def test_a_product_page_marks_its_category_or_the_shop_in_the_header(chromium_desktop):
    for lang in LANGS:
        for variant in range(10):
            chromium_desktop.set_content(render_html(PageSpec("web/product_detail", lang, variant, "none", "none")))
            on, crumbs = chromium_desktop.evaluate("""() => [[...document.querySelectorAll(
              'nav a.active, nav a.on, nav .is-active')].filter(a => !a.closest('ol, .breadcrumb'))
              .map(a => a.textContent.trim()), [...document.querySelectorAll('ol li, .breadcrumb a, .breadcrumb li')]
              .map(a => a.textContent.trim())]""")
            name = chromium_desktop.evaluate("() => document.querySelector('h1').textContent")
            product = next(p for p in load("shopping", lang)["products"] if p["title"] in name)
            cat = (["All", "Today's deals", "Electronics", "Home & Kitchen", "Fashion", "Sports", "Gift ideas",
                    "Customer service"] if lang == "en"
                   else ["全部分类", "秒杀", "优惠券", "数码", "家居", "服饰", "运动", "超市"])
            assert all(t in ("Shop", "商城", cat[product["cat"]]) for t in on), (lang, variant, on)
            assert not crumbs or cat[product["cat"]] in crumbs, (lang, variant, crumbs)


def test_a_video_site_s_shorts_are_short_and_not_also_in_its_grid():
    for lang, seed, lay in layouts("web/video_browse"):
        grid = {v["title"] for v in lay["videos"]}
        assert len(lay["shorts"]) == 6 and not grid & {v["title"] for v in lay["shorts"]}, (lang, seed)
        assert not any("secs" in v or v.get("live_ok") for v in lay["shorts"]), (lang, seed)


def test_a_place_is_the_kind_of_place_its_name_says():
    for lang, seed, lay in layouts("web/maps_local"):
        kinds = next(q for q in load("maps", lang)["queries"] if q["query"] == lay["query"])["kinds"]
        for p in lay["places"]:
            assert p["type"] == kinds[p["name"]], (lang, seed, p["name"], p["type"])
            assert not ("诊所" in p["name"] and "药" in p["type"]), (lang, seed, p["name"])
            assert len(p["pics"]) == 1, (lang, seed, p)     # one picture a place, in its row and on its card


def test_an_analytics_page_s_traffic_changes_as_its_chart_s_two_periods_do():
    def total(lay: dict, path: str) -> float:          # the period's sum, read off its line's points
        return sum(lay["ch"] - float(y) for y in re.findall(r"[ML] [\d.]+ ([\d.]+)", lay[path]))
    for lang, seed, lay in layouts("web/analytics"):
        cur, prev = total(lay, "cur"), total(lay, "prev")
        for k in lay["kpis"]:
            if k["key"] in ("users", "sessions"):
                assert abs(float(k["delta"].rstrip("%")) - (cur / prev - 1) * 100) < 1.0, (lang, seed, k)


def test_a_course_s_struck_through_price_is_above_its_price():
    for lang, seed, lay in layouts("web/course_page"):
        if lay["orig"]:
            assert float(re.sub(r"[^\d.]", "", lay["orig"])) > float(re.sub(r"[^\d.]", "", lay["price"])), (lang, seed)


def test_a_video_runs_long_only_when_its_title_says_so():
    for lang, seed, lay in layouts("web/video_browse"):
        stated = {v["title"] for v in load("video", lang)["videos"] if "secs" in v}    # "3 hour mix" and the like
        for v in lay["videos"]:
            assert v["title"] in stated or v["secs"] <= 45 * 60, (lang, seed, v["title"], v["duration"])


def test_a_bank_greets_for_the_time_of_day_of_today_s_sign_in(chromium_desktop):
    for lang in LANGS:
        greetings = load("banking", lang)["greetings"]
        for variant in range(8):
            chromium_desktop.set_content(render_html(PageSpec("web/banking_dashboard", lang, variant, "none", "none")))
            text = chromium_desktop.evaluate("() => document.body.innerText")
            hour = int(re.search(r"(?:today at|今天) (\d+):", text).group(1))
            said = next(i for i, g in enumerate(greetings) if g in text)
            assert said == (0 if hour < 12 else 1 if hour < 18 else 2), (lang, variant, hour, greetings[said])


def test_a_flight_search_s_date_strip_runs_in_order_round_the_departure(chromium_desktop):
    seen = 0
    for lang in LANGS:
        dates = load("travel", lang)["dates"]
        for variant in range(12):
            chromium_desktop.set_content(render_html(PageSpec("web/travel_search", lang, variant, "none", "none")))
            strip, on, depart = chromium_desktop.evaluate("""() => [
              [...document.querySelectorAll('.ts-dates a')].map(a => a.firstChild.textContent.trim()),
              (document.querySelector('.ts-dates a.on') || {textContent: ''}).textContent,
              document.querySelector('[data-g-field=depart_date]').placeholder]""")
            if strip:
                seen += 1
                idx = [dates.index(d) for d in strip]
                assert idx == list(range(idx[0], idx[0] + len(idx))), (lang, variant, strip)
                assert on.startswith(depart), (lang, variant, on, depart)
    assert seen


def test_a_social_feed_counts_in_plural_and_marks_one_page_as_current(chromium_desktop):
    for variant in range(10):
        chromium_desktop.set_content(render_html(PageSpec("web/social_feed", "en", variant, "none", "none")))
        text, current = chromium_desktop.evaluate("""() => [document.body.innerText,
          [...document.querySelectorAll('a.on, a.active, .active > a, [aria-current=page]')]
            .map(a => a.textContent.trim()).filter(t => t)]""")
        assert not re.search(r"\b(?!1\b)\d[\d.,]*[KM]? (Comment|Repost)\b", text), variant
        assert "Explore" not in current, (variant, current)      # the home feed is not the Explore page


def test_a_checkout_s_saved_addresses_each_have_their_own_street_and_phone(chromium_desktop):
    seen = 0
    for variant in range(10):
        chromium_desktop.set_content(render_html(PageSpec("web/checkout", "zh", variant, "none", "none")))
        cards = chromium_desktop.evaluate("""() => [...document.querySelectorAll('.co-addr > a')]
          .map(a => [...a.querySelectorAll('.s-muted')].map(d => d.textContent.trim()).join(' | '))""")
        seen += len(cards) > 1
        assert len(set(cards)) == len(cards), (variant, cards)
        assert len({c.split(" | ")[1] for c in cards}) == len(cards), (variant, cards)     # phones differ too
    assert seen
