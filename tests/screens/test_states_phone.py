"""Stated numbers and states follow from the page's own data (issue "What a person sees", item 6): phone apps (health,
calendar, rides, parcels, settings, food, super app, shop), checked on their `layout(rng, lang)` over many seeds or
on the rendered DOM."""


from synth.screens.content import load
from synth.screens.pages import PageSpec, render_html
from tests.screens.layouts import LANGS, layouts


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


def test_a_short_video_s_creator_and_place_fit_its_caption():
    for lang, seed, lay in layouts("mobile/short_video"):
        k = load("mobile_video", lang)
        shown = k["captions"].index(lay["caption"])
        assert k["users"].index(lay["user"]) in k["caption_users"][shown], (lang, seed, lay["user"], lay["caption"])
        assert not lay["place"] or {"sunset", "landscape"} & set(lay["pics"]), (lang, seed, lay["place"])


def test_a_parcel_s_events_run_newest_first_up_to_its_step():
    for lang, seed, lay in layouts("mobile/order_tracking"):
        events = load("mobile_shopping", lang)["events"]
        order = [next(i for i, e in enumerate(events) if e.split("{}")[0] in shown) for shown in lay["events"]]
        assert order == sorted(order) and (order[0] == 0) == (lay["step"] == 3), (lang, seed, lay["events"])
        assert lay["step"] < 3 or lay["eta_day"] == 0, (lang, seed)


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


def test_a_restaurant_further_away_takes_longer_to_deliver():
    for lang, seed, lay in layouts("mobile/food_delivery"):
        for r in lay["restaurants"]:
            assert 10 + 6 * r["dist"] - 1 <= r["mins"] <= 20 + 6 * r["dist"], (lang, seed, r)


def test_english_titles_break_between_words(chromium_phone):
    seen = 0
    for variant in range(16):
        chromium_phone.set_content(render_html(PageSpec("mobile/super_app_home", "en", variant, "none", "none")))
        breaks = chromium_phone.evaluate("""() => [...document.querySelectorAll('[class*=ellipsis]')]
          .map(e => getComputedStyle(e).lineBreak)""")
        seen += len(breaks)
        assert "anywhere" not in breaks, variant
    assert seen


def test_a_super_app_s_open_feed_tab_is_for_you_over_its_mixed_feed():
    for lang, seed, lay in layouts("mobile/super_app_home"):
        assert lay["feed_tabs"][0] == load("mobile_super_app", lang)["feed_tabs"][0], (lang, seed, lay["feed_tabs"])


def test_a_phone_shop_product_has_fewer_reviews_than_sales():
    for lang, seed, lay in layouts("mobile/product_detail"):
        assert 1 <= lay["review_count"] <= lay["product"]["sold_n"], (lang, seed)


def test_a_phone_shop_product_s_option_fits_the_product():
    for lang, seed, lay in layouts("mobile/product_detail"):
        title, spec = lay["product"]["title"], lay["spec"]
        if "Shoes" in title or "跑步鞋" in title:
            assert spec.isdigit(), (lang, seed, spec)          # a shoe size, not XL
        elif spec in ("S", "M", "L", "XL"):
            assert "Sweater" in title or "羽绒服" in title, (lang, seed, title)
