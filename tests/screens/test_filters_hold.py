"""A selected tab, filter or sort is borne out by the items a page shows; a tag states what its item's data says;
a picture shows what its caption names (issue "What a person sees", item 6)."""
import re

import numpy as np
import pytest

from synth.screens import imagery
from synth.screens.archetypes.desktop import crm_console
from synth.screens.archetypes.mobile import food_delivery as mobile_food
from synth.screens.archetypes.web import food_delivery as web_food
from synth.screens.content import load
from synth.screens.content.common import WORDS, make_content
from synth.screens.pages import PageSpec, render_html

SEEDS = range(60)
LANGS = ("en", "zh")


@pytest.mark.parametrize("lang", LANGS)
def test_the_selected_cuisine_tab_holds_for_every_shop(lang):
    d, picked = load("food", lang), 0
    for seed in SEEDS:
        lay = web_food.layout(np.random.default_rng(seed), lang)
        selected = lay["chips"][lay["active"]]
        assert lay["active"] < web_food.SHOWN_TABS and lay["chips"][0] == d["all_chip"]
        if selected == d["all_chip"]:
            continue
        picked += 1
        assert {s["cuisine"] for s in lay["shops"] + lay["featured_shops"]} == {selected}, (seed, selected)
    assert picked > len(SEEDS) // 3          # a cuisine tab is often selected, not only "All"


@pytest.mark.parametrize("lang", LANGS)
def test_a_free_delivery_tag_only_on_a_shop_that_delivers_free(lang):
    web, mobile = load("food", lang), load("mobile_food", lang)
    for seed in SEEDS:
        for s in web_food.layout(np.random.default_rng(seed), lang)["shops"]:
            assert s["fee"] == web["free_fee"] or not set(s["promos"]) & set(web["free_promos"]), (seed, s)
        for r in mobile_food.layout(np.random.default_rng(seed), lang)["restaurants"]:
            assert r["fee"] == mobile["free"] or not set(r["offers"]) & set(mobile["free_offers"]), (seed, r)


def test_food_pictures_show_a_dish_of_the_shop_or_its_cuisine():
    """Every shop, dish and cuisine of the content has a picture of its own kind, and the picture file exists."""
    from synth.core import paths
    for lang in LANGS:
        d = load("food", lang)
        for cu in d["cuisines"]:
            assert imagery.food_code(cu["name"]), cu["name"]
            for title, _, dishes in cu["sections"]:
                assert all(imagery.food_code(name, title, cu["name"]) for name, _ in dishes)
        for r in load("mobile_food", lang)["restaurants"]:
            assert imagery.food_code(r["name"], r["cuisine"]), r
    for _, code in imagery.FOODS:
        assert paths.npm_file(imagery._EMOJI.format(code)).is_file(), code
    assert imagery.food_code("炸鸡兄弟(人民路店)", "汉堡炸鸡") == "1f357"     # fried chicken, not a burger
    assert imagery.food_code("Steak Bowl", "Burritos & Bowls") == "1f32f"    # "tea" is not in "steak"
    assert imagery.food_code("Lemongrass House", "Thai") == "1f35b"


@pytest.mark.parametrize("lang", LANGS)
def test_crm_rows_hold_the_filters_and_the_sort(lang):
    fmt = load("desktop_dashboard", lang)["date"]
    pattern = re.compile(fmt.replace("{m}", r"(\d+)").replace("{d}", r"(\d+)").replace("{m:02d}", r"(\d+)")
                         .replace("{d:02d}", r"(\d+)"))

    def day(text: str) -> tuple[int, int]:
        m = pattern.fullmatch(text)
        return int(m[1]), int(m[2])

    for seed in SEEDS:
        lay = crm_console.layout(np.random.default_rng(seed), lang)
        created = [day(r["created"]) for r in lay["records"]]
        close = [day(r["close"]) for r in lay["records"]]
        assert len({m for m, _ in created}) == 1                      # "Created: this month"
        assert min(close) >= max(created)                             # a deal closes after it was opened
        column = created if lay["module"] == "leads" else close        # the column with the sort arrow
        assert column == sorted(column, reverse=lay["sort_dir"] == "desc"), seed
        assert lay["sort_col"] == (5 if lay["module"] == "leads" else 4)
        assert len(lay["records"]) <= lay["total"] < len(lay["records"]) + crm_console.MORE_ROWS


@pytest.mark.parametrize("lang", LANGS)
def test_product_prices_fit_the_product(lang):
    w = WORDS[lang]
    ranges = dict(zip(w["product"], w["product_prices"]))
    for seed in SEEDS:
        for p in make_content(np.random.default_rng(seed), lang)["products"]:
            lo, hi = ranges[p["name"]]
            assert lo <= p["value"] < hi + 1 and p["price"].endswith(f"{p['value']:.2f}"), p


SHOP_PRICES = {"en": ["Any price", "Under $50", "$50 to $200", "Over $200"],
               "zh": ["不限", "50元以下", "50-200元", "200元以上"]}
BOUNDS = [(0, 1e9), (0, 50), (50, 200), (200, 1e9)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_selected_price_range_holds_for_every_product_shown(lang):
    narrowed = 0
    for variant in range(24):
        html = render_html(PageSpec("web/shop_home", lang, variant, "none", "none"))
        prices = [float(x) for x in re.findall(r"[$¥](\d+\.\d\d)<", html)]
        assert prices
        radio = re.search(r"<input[^>]*type=\"radio\"[^>]*\bchecked\b[^>]*>", html)
        if radio is None:                       # no filter panel on this page
            continue
        # the checked option's label is the first text after its input
        after = re.sub(r"<[^>]*>", " ", html[radio.end():radio.end() + 400]).split()
        option = next(i for i, text in enumerate(SHOP_PRICES[lang]) if text.split() == after[:len(text.split())])
        lo, hi = BOUNDS[option]
        narrowed += option > 0
        assert all(lo <= x < hi for x in prices), (variant, option, prices)
    assert narrowed                             # some pages do narrow the price


@pytest.mark.parametrize("lang", LANGS)
def test_a_restaurant_page_charges_its_own_delivery_fee(lang):
    from synth.screens.archetypes.web import restaurant_menu
    from synth.screens.archetypes.web._food import money
    d = load("food", lang)
    for seed in SEEDS:
        lay = restaurant_menu.layout(np.random.default_rng(seed), lang)
        shop = lay["shop"]
        assert lay["basket"]["fee"] == money(lang, shop["fee_value"]), seed
        assert shop["fee_value"] == 0 or not set(lay["promos"]) & set(d["free_promos"]), seed


@pytest.mark.parametrize("lang", LANGS)
def test_an_applied_discount_code_gives_the_percentage_it_names(lang):
    from synth.screens.archetypes.web import checkout
    fixed = load("payment", lang)["not_percent"]
    for seed in SEEDS:
        lay = checkout.layout(np.random.default_rng(seed), lang)
        if not lay["promo_applied"]:
            continue
        assert lay["promo"] not in fixed
        named = re.search(r"(\d+)$", lay["promo"])
        assert lang == "zh" or int(named[1]) == lay["discount"], (seed, lay["promo"], lay["discount"])


def test_the_list_heading_names_the_selected_cuisine():
    # with a cuisine tab selected, the list is headed by that cuisine, not "All restaurants"
    cuisines = {cu["name"] for cu in load("food", "en")["cuisines"]}
    headed = 0
    for variant in range(16):
        html = render_html(PageSpec("web/food_delivery", "en", variant, "none", "none"))
        heading = re.findall(r'class="fd-h"><span>([^<]*)</span>', html)[-1]     # the last: the list's
        if heading != "All restaurants":
            assert heading in cuisines, (variant, heading)
            headed += 1
    assert headed
