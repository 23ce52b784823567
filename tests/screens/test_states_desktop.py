"""Stated numbers and states follow from the page's own data (issue "What a person sees", item 6): desktop apps
(terminal, settings, music, spreadsheet, chat, mail, calendar, CRM, IDE, photos), checked on their `layout(rng,
lang)` over many seeds or on the rendered DOM."""
import re

from synth.screens.content import load
from synth.screens.pages import PageSpec, render_html
from tests.screens.layouts import LANGS, layouts


def test_a_process_belongs_to_its_account_and_memory_is_not_rounded():
    rounded = 0
    for lang, seed, lay in layouts("desktop/terminal_tools"):
        owners = load("desktop_developer", lang)["users"][lay["os"]]
        for p in lay["procs"]:
            assert p["user"] == owners.get(p["name"], ""), (lang, seed, p)
            assert p["threads"] >= 4, (lang, seed, p)
        rounded += all(p["mem"] == int(p["mem"]) for p in lay["procs"])
    assert rounded == 0


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


def test_a_chat_thread_pane_lists_every_reply_it_counts():
    for lang, seed, lay in layouts("desktop/chat_app"):
        files = load("desktop_chat", lang)["message_files"]
        for m in lay["messages"]:
            assert not m["file"] or m["file"] == files[m["text"]], (lang, seed, m["text"], m["file"])
        if lay["right"] == "thread":
            first = next(m for m in lay["messages"] if m["replies"])
            assert first["replies"] <= min(len(first["later"]), len(lay["replies"])), (lang, seed)


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


def test_a_crm_open_view_lists_only_open_leads_and_deals():
    from synth.screens.archetypes.desktop.crm_console import OPEN
    for lang, seed, lay in layouts("desktop/crm_console"):
        assert all(r["status"] in lay["statuses"][:OPEN] for r in lay["records"]), (lang, seed)


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


def test_a_photo_library_holds_more_photos_than_any_album_and_than_its_grid_shows():
    for lang, seed, lay in layouts("desktop/photo_viewer"):
        shown = sum(g["n"] for g in lay["groups"])
        assert lay["library"] >= max(lay["album_counts"]) + shown, (lang, seed)
