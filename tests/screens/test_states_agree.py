"""Stated numbers and states follow from the page's own data (issue "What a person sees", item 6), checked on the
`layout(rng, lang)` of app-like archetypes over many seeds: owners of processes, energy burned for the steps
walked, a ride's time and fare for its route, a pull request's numbers, and the like."""
import re

import numpy as np
import pytest

from synth import screens
from synth.screens import PLATFORMS
from synth.screens.content import load
from synth.screens.pages import PageSpec, render_html

SEEDS = range(40)
LANGS = ("en", "zh")


def _tab(browser, platform: str):
    width, height = PLATFORMS[platform]["viewport"]
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


@pytest.fixture(scope="module")
def chromium_phone(chromium):
    return _tab(chromium, "mobile")


@pytest.fixture(scope="module")
def chromium_desktop(chromium):
    return _tab(chromium, "desktop")


def layouts(name: str):
    """(lang, seed, layout) of an archetype over SEEDS in both languages."""
    module = screens.archetype(name)
    for lang in LANGS:
        for seed in SEEDS:
            yield lang, seed, module.layout(np.random.default_rng(seed), lang)


def test_a_process_belongs_to_its_account_and_memory_is_not_rounded():
    rounded = 0
    for lang, seed, lay in layouts("desktop/terminal_tools"):
        owners = load("desktop_developer", lang)["users"][lay["os"]]
        for p in lay["procs"]:
            assert p["user"] == owners.get(p["name"], ""), (lang, seed, p)
            assert p["threads"] >= 4, (lang, seed, p)
        rounded += all(p["mem"] == int(p["mem"]) for p in lay["procs"])
    assert rounded == 0


def test_energy_burned_and_distance_follow_from_the_steps():
    for lang, seed, lay in layouts("mobile/health_tracker"):
        steps = lay["steps"]
        assert 0.04 * steps - 1 <= lay["kcal"] <= 0.05 * steps, (lang, seed, steps, lay["kcal"])
        assert lay["move"] == lay["kcal"] and lay["exercise"] <= steps / 100, (lang, seed)
        assert abs(lay["km"] - steps * 0.00072) <= 0.05 and lay["week"][lay["weekday"]] == steps, (lang, seed)


def test_a_calendar_day_with_events_has_a_dot_and_events_keep_to_their_hours():
    for lang, seed, lay in layouts("mobile/calendar"):
        if lay["next_day"]:
            assert lay["selected"] + 1 in lay["busy"], (lang, seed)
        for e in lay["agenda"] + lay["next_day"]:
            lo, hi = e["hours"]
            assert lo * 60 <= e["start"] <= hi * 60, (lang, seed, e)


def test_no_work_or_school_on_a_weekend_or_holiday_and_a_holiday_only_on_its_day():
    import calendar
    for lang, seed, lay in layouts("mobile/calendar"):
        k, month = load("mobile_calendar", lang), load("mobile_calendar", lang)["months"].index(lay["month_name"]) + 1
        for day, events in ((lay["selected"], lay["agenda"]), (lay["selected"] + 1, lay["next_day"])):
            if not events:
                continue
            off = calendar.weekday(2025, month, day) >= 5 or f"{month}-{day}" in k["holidays"]
            assert not (off and any(e.get("work") or e.get("school") for e in events)), (lang, seed, month, day)
        holiday = f"{month}-{lay['selected']}" in k["holidays"]
        assert (lay["all_day"] == k["all_day"][1]) == holiday, (lang, seed, month, lay["selected"], lay["all_day"])


def test_a_calendar_day_with_a_dot_sits_where_the_others_do(chromium_phone):
    for lang in LANGS:
        for variant in range(8):
            chromium_phone.set_content(render_html(PageSpec("mobile/calendar", lang, variant, "none", "none")))
            tops = chromium_phone.evaluate("""() => [...document.querySelectorAll('.grid7 .d')].map(a => {
              const r = document.createRange(); r.selectNodeContents(a.querySelector('span'));
              return [Math.round(a.getBoundingClientRect().top), Math.round(r.getBoundingClientRect().top)]; })""")
            rows: dict = {}
            for cell, text in tops:
                rows.setdefault(cell, set()).add(text)
            assert all(len(t) == 1 for t in rows.values()), (lang, variant, rows)


def test_a_ride_s_distance_time_fare_and_pickup_follow_from_the_drawn_route():
    for lang, seed, lay in layouts("mobile/ride_hailing"):
        fare, m = load("mobile_maps", lang)["fare"], lay["map"]
        dist, mins = lay["km"], lay["mins"]
        assert fare["block"][0] * m["blocks"] - 0.05 <= dist <= fare["block"][1] * m["blocks"] + 0.05, (lang, seed)
        assert dist / fare["speed"][1] * 60 - 1 <= mins <= max(2, dist / fare["speed"][0] * 60 + 1), (lang, seed)
        base = max(fare["least"], fare["base"] + fare["per_dist"] * dist + fare["per_min"] * mins)
        for r in lay["rides"]:
            assert abs(float(r["price"].lstrip("$¥")) - base * r["k"]) <= 0.06, (lang, seed, r, base)
        etas = [r["eta"] for r in lay["rides"]]
        assert etas[0] == 1 + round(m["near"] * 1.5) and min(etas[1:]) > etas[0], (lang, seed, etas)


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


def test_settings_show_wi_fi_on_as_the_tray_does_and_every_select_its_value(chromium_desktop):
    page, seen = chromium_desktop, 0
    for lang in LANGS:
        for variant in range(40):
            html = render_html(PageSpec("desktop/system_settings", lang, variant, "none", "none"))
            if "toggle_airplane_mode" not in html and variant % 5:
                continue                 # every network page, and every fifth of the others for the selects
            page.set_content(html)
            toggles, selects = page.evaluate("""() => [
              Object.fromEntries([...document.querySelectorAll('.st-row input[type=checkbox]')].map(
                i => [i.getAttribute('aria-label') || i.closest('.st-row').textContent.trim(), i.checked])),
              [...document.querySelectorAll('.st-sel')].map(
                s => s.getBoundingClientRect().height > 0 && s.innerText.trim() !== '')]""")
            assert all(selects), (lang, variant, selects)
            wifi = {k: v for k, v in toggles.items() if k in ("Wi-Fi", "WLAN", "Airplane mode", "飞行模式")}
            right = ({"Wi-Fi": True, "Airplane mode": False}, {"WLAN": True, "飞行模式": False})
            assert not wifi or wifi in right, (lang, variant, wifi)
            seen += bool(wifi)
    assert seen >= 4


def test_an_album_page_lists_its_own_tracks():
    for lang, seed, lay in layouts("desktop/music_player"):
        if lay["view"] == "album_page":
            album = lay["albums"][0]
            assert {(t["album"], t["artist"]) for t in lay["tracks"]} == {(album[0], album[1])}, (lang, seed)


def test_an_album_has_one_cover_and_up_next_is_not_the_track_playing(chromium_desktop):
    for lang in LANGS:
        for variant in range(6):
            chromium_desktop.set_content(render_html(PageSpec("desktop/music_player", lang, variant, "none", "none")))
            covers, now, queue = chromium_desktop.evaluate("""() => [
              [...document.querySelectorAll('.mp-card img, .mp-hero img, .mp-now img')].map(
                i => [i.alt, i.src.length, i.src.slice(-64)]),
              document.querySelector('.mp-now b').textContent,
              [...document.querySelectorAll('.mp-q b')].map(b => b.textContent)]""")
            seen: dict = {}
            for alt, *src in covers:
                assert seen.setdefault(alt, src) == src, (lang, variant, alt)
            assert now not in queue, (lang, variant, now, queue)


def test_a_spreadsheet_states_no_range_statistics_for_one_selected_cell(chromium_desktop):
    for lang in LANGS:
        for variant in range(6):
            chromium_desktop.set_content(render_html(PageSpec("desktop/spreadsheet", lang, variant, "none", "none")))
            cells, status = chromium_desktop.evaluate("""() => [document.querySelectorAll('.ss-grid td.cur').length,
              (document.querySelector('.dk-status') || {}).textContent || '']""")
            stats = [w for w in ("Count", "Sum", "计数", "求和") if w in status]
            assert cells == 1 and not stats, (lang, variant, status)


def test_a_chat_channel_shown_is_one_whose_topic_fits_its_messages():
    for lang, seed, lay in layouts("desktop/chat_app"):
        d = load("desktop_chat", lang)
        here = lay["channels"][lay["active"]]
        assert here in d["team"] and lay["topic"] == d["topics"][here], (lang, seed, here, lay["topic"])
        assert len(set(lay["channels"])) == len(lay["channels"]), (lang, seed)


def test_a_mail_shows_an_attachment_only_when_its_row_has_a_paperclip(chromium_desktop):
    opened = 0
    for lang in LANGS:
        for variant in range(8):
            chromium_desktop.set_content(render_html(PageSpec("desktop/mail_client", lang, variant, "none", "none")))
            row, pane = chromium_desktop.evaluate("""() => {
              const on = document.querySelector('tr.on, .ml-card.on');
              const clip = on ? !!on.querySelector('[data-icon=paperclip]') : null;
              return [clip, !!document.querySelector('.ml-att')]; }""")
            if row is not None:
                opened += 1
                assert row == pane, (lang, variant, row, pane)
    assert opened


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


def test_a_chat_thread_pane_lists_every_reply_it_counts():
    for lang, seed, lay in layouts("desktop/chat_app"):
        files = load("desktop_chat", lang)["message_files"]
        for m in lay["messages"]:
            assert not m["file"] or m["file"] == files[m["text"]], (lang, seed, m["text"], m["file"])
        if lay["right"] == "thread":
            first = next(m for m in lay["messages"] if m["replies"])
            assert first["replies"] <= min(len(first["later"]), len(lay["replies"])), (lang, seed)


def test_a_short_video_s_creator_and_place_fit_its_caption():
    for lang, seed, lay in layouts("mobile/short_video"):
        k = load("mobile_video", lang)
        shown = k["captions"].index(lay["caption"])
        assert k["users"].index(lay["user"]) in k["caption_users"][shown], (lang, seed, lay["user"], lay["caption"])
        assert not lay["place"] or {"sunset", "landscape"} & set(lay["pics"]), (lang, seed, lay["place"])


def test_a_repository_has_fewer_forks_watchers_and_contributors_than_stars():
    def number(text):
        return float(text[:-1]) * 1000 if text.endswith("k") else float(text)
    for lang, seed, lay in layouts("web/code_repo"):
        r = lay["repo"] if "repo" in lay else lay
        stars = number(r["stars"])
        assert number(r["forks"]) <= stars and number(r["watchers"]) <= stars, (lang, seed)
        assert r["contributors"] <= max(3, stars / 4, 4), (lang, seed)


def test_a_mail_s_attachment_is_the_file_its_text_speaks_of():
    from synth.screens.content.common import WORDS, make_content
    for lang in LANGS:
        files = WORDS[lang]["mail_files"]
        for seed in SEEDS:
            for m in make_content(np.random.default_rng(seed), lang)["mails"]:
                assert m["attach"] == (m["file"][0] != "") and (not m["attach"] or files[m["subject"]] == m["file"]), \
                    (lang, seed, m["subject"], m["file"])


def test_a_spreadsheet_shows_its_quarter_s_tab_and_comments_on_its_own_lines(chromium_desktop):
    from synth.screens.content.common import SCREEN_WORDS, WORDS
    commented = 0
    for lang in LANGS:
        lines = dict(SCREEN_WORDS[lang]["comments"])       # comment -> the budget line it is about (None: the sheet)
        for variant in range(8):
            chromium_desktop.set_content(render_html(PageSpec("desktop/spreadsheet", lang, variant, "none", "none")))
            tab, heads, rows, notes = chromium_desktop.evaluate("""() => [
              document.querySelector('.ss-sheetbar a.on').textContent,
              Array.from(document.querySelectorAll('.ss-grid td.h'), td => td.textContent.trim()),
              Object.fromEntries(Array.from(document.querySelectorAll('.ss-grid tr'), r => [
                (r.querySelector('th') || {}).textContent, (r.querySelector('td') || {}).textContent])),
              Array.from(document.querySelectorAll('.ss-comment'), c => [c.querySelector('small').textContent,
                                                                          c.textContent])]""")
            months = [WORDS[lang]["month"].index(h.removesuffix("月")) for h in heads if h.removesuffix("月") in
                      WORDS[lang]["month"]]      # the columns' months say the quarter
            assert tab == SCREEN_WORDS[lang]["sheets"][months[0] // 3 + 1], (lang, variant, heads, tab)
            for ref, text in notes:
                said = next(c for c in lines if c in text)
                row = re.search(r"A(\d+)\s*$", ref).group(1)
                assert (row == "1") if lines[said] is None else rows.get(row, "").strip() == lines[said], \
                    (lang, variant, said, ref)
                commented += 1
    assert commented


def test_a_parcel_s_events_run_newest_first_up_to_its_step():
    for lang, seed, lay in layouts("mobile/order_tracking"):
        events = load("mobile_shopping", lang)["events"]
        order = [next(i for i, e in enumerate(events) if e.split("{}")[0] in shown) for shown in lay["events"]]
        assert order == sorted(order) and (order[0] == 0) == (lay["step"] == 3), (lang, seed, lay["events"])
        assert lay["step"] < 3 or lay["eta_day"] == 0, (lang, seed)


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


def test_a_month_shows_its_holidays_and_one_off_events_once():
    import datetime as dt
    for lang, seed, lay in layouts("desktop/calendar_app"):
        d = load("calendar", lang)
        chips = [c for w in range(6) for i in range(7) for c in lay["chips"][f"{w},{i}"]]
        for title in d["once"]:
            assert sum(c[0] == title for c in chips) <= 1, (lang, seed, title)
        shown = {(w, i) for w in range(6) for i in range(7) if any(c[1] == 4 for c in lay["chips"][f"{w},{i}"])}
        due = set()
        for w, days in enumerate(lay["grid"]):
            for i, (day, off) in enumerate(days):
                month = (lay["month"] - 1 + off) % 12 + 1
                if f"{month}-{day}" in d["holidays"]:
                    assert dt.date(2024, month, day)       # a real date
                    due.add((w, i))
                    assert all(c[1] != 0 for c in lay["chips"][f"{w},{i}"]), (lang, seed, "work on a holiday")
        assert shown == (due if lay["checked"][4] else set()), (lang, seed)


def test_phone_settings_switches_agree_with_the_screen(chromium_phone):
    """Airplane mode is off (the status bar shows signal); dark mode is on exactly when the page is dark."""
    seen = 0
    for lang in LANGS:
        for variant in range(16):
            chromium_phone.set_content(render_html(PageSpec("mobile/settings", lang, variant, "none", "none")))
            states = chromium_phone.evaluate("""() => Object.fromEntries(Array.from(
              document.querySelectorAll('[data-g-fn=toggle_airplane_mode], [data-g-fn=toggle_dark_mode]'), e => {
                const box = e.matches('input') ? e : e.querySelector('input');
                return [e.dataset.gFn, box ? box.checked : e.getAttribute('aria-checked') === 'true'];
              }))""")
            dark = chromium_phone.evaluate(r"""() => {      // light text: a dark page
              const [r, g, b] = getComputedStyle(document.body).color.match(/\d+/g).map(Number);
              return (r + g + b) / 3 > 128; }""")
            if states:
                seen += 1
                assert not states.get("toggle_airplane_mode", False), (lang, variant)
                assert states.get("toggle_dark_mode", dark) == dark, (lang, variant, states, dark)
    assert seen


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


def test_a_crm_open_view_lists_only_open_leads_and_deals():
    from synth.screens.archetypes.desktop.crm_console import OPEN
    for lang, seed, lay in layouts("desktop/crm_console"):
        assert all(r["status"] in lay["statuses"][:OPEN] for r in lay["records"]), (lang, seed)


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


def test_an_ide_status_bar_names_the_caret_s_line_and_column_and_the_file_s_indentation(chromium_desktop):
    page = chromium_desktop
    for lang in LANGS:
        for variant in range(6):
            page.set_content(render_html(PageSpec("desktop/code_editor", lang, variant, "none", "none")))
            line, status, lines = page.evaluate("""() => [
              document.querySelector('.ce-lines > div.cur').textContent,
              [...document.querySelectorAll('.ce-status .dk-fill ~ span')].map(s => s.textContent).join(' | '),
              [...document.querySelectorAll('.ce-lines > div')].map(d => d.textContent)]""")
            numbers = [int(n) for n in re.findall(r"\d+", status.split(" | ")[0])]
            assert numbers[1] == len(line.expandtabs(4)) + 1, (lang, variant, numbers, line)   # a visual column
            steps = {len(t) - len(t.lstrip(" ")) for t in lines if t.startswith(" ") and t.strip()}
            tabs = any(t.startswith("\t") for t in lines)
            assert status.split(" | ")[1][-1] == ("4" if tabs else str(min(steps))), (lang, variant, status)


def test_a_budget_line_costs_about_the_same_each_month_and_the_book_is_about_costs():
    from synth.screens.content.common import make_content
    for lang in LANGS:
        for seed in SEEDS:
            c = make_content(np.random.default_rng(seed), lang)
            for row in c["budget"]:
                assert max(row) <= min(row) * 1.15 / 0.85 + 1, (lang, seed, row)
            assert not re.search(r"Sales|销售|Marketing Plan|市场计划", c["book"]), (lang, seed, c["book"])


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


def test_a_restaurant_further_away_takes_longer_to_deliver():
    for lang, seed, lay in layouts("mobile/food_delivery"):
        for r in lay["restaurants"]:
            assert 10 + 6 * r["dist"] - 1 <= r["mins"] <= 20 + 6 * r["dist"], (lang, seed, r)


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


@pytest.mark.parametrize("name", ["web/docs_editor", "desktop/docs_editor"])
def test_a_document_s_comments_are_about_that_document(name):
    for lang, seed, lay in layouts(name):
        others = [doc for doc in load("docs", lang)["docs"] if doc["title"] != lay["doc"]["title"]]
        theirs = [t for doc in others for t in doc["comments"]]
        texts = [c["text"] if isinstance(c, dict) else c for c in lay["comments"]]
        assert not set(texts) & set(theirs), (name, lang, seed, texts)


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


def test_english_titles_break_between_words(chromium_phone):
    seen = 0
    for variant in range(16):
        chromium_phone.set_content(render_html(PageSpec("mobile/super_app_home", "en", variant, "none", "none")))
        breaks = chromium_phone.evaluate("""() => [...document.querySelectorAll('[class*=ellipsis]')]
          .map(e => getComputedStyle(e).lineBreak)""")
        seen += len(breaks)
        assert "anywhere" not in breaks, variant
    assert seen


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


def test_a_postal_code_and_phone_belong_to_their_city_and_headphones_are_called_so():
    from synth.screens.content.common import AREA_CODE, WORDS, ZIP_PREFIX, make_content
    for lang in LANGS:
        assert not [p for p in WORDS[lang]["product"] if "arbud" in p]      # the picture of them is headphones
        for seed in SEEDS:
            c = make_content(np.random.default_rng(seed), lang)
            assert c["zip"].startswith(ZIP_PREFIX[c["city"]]) and len(c["zip"]) == (6 if lang == "zh" else 5)
            assert lang == "zh" or c["phone"].startswith(f"({AREA_CODE[c['city']]})"), (seed, c["city"], c["phone"])


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


def test_a_photo_library_holds_more_photos_than_any_album_and_than_its_grid_shows():
    for lang, seed, lay in layouts("desktop/photo_viewer"):
        shown = sum(g["n"] for g in lay["groups"])
        assert lay["library"] >= max(lay["album_counts"]) + shown, (lang, seed)


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


def test_a_news_home_page_highlights_its_top_stories_not_a_section():
    assert load("news", "en")["sections"][0] == "Top stories" and load("news", "zh")["sections"][0] == "要闻"


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


def test_a_super_app_s_open_feed_tab_is_for_you_over_its_mixed_feed():
    for lang, seed, lay in layouts("mobile/super_app_home"):
        assert lay["feed_tabs"][0] == load("mobile_super_app", lang)["feed_tabs"][0], (lang, seed, lay["feed_tabs"])


def test_a_phone_shop_product_has_fewer_reviews_than_sales():
    for lang, seed, lay in layouts("mobile/product_detail"):
        assert 1 <= lay["review_count"] <= lay["product"]["sold_n"], (lang, seed)


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


def test_a_phone_shop_product_s_option_fits_the_product():
    for lang, seed, lay in layouts("mobile/product_detail"):
        title, spec = lay["product"]["title"], lay["spec"]
        if "Shoes" in title or "跑步鞋" in title:
            assert spec.isdigit(), (lang, seed, spec)          # a shoe size, not XL
        elif spec in ("S", "M", "L", "XL"):
            assert "Sweater" in title or "羽绒服" in title, (lang, seed, title)
