"""Every archetype's stated facts follow from its own page: each element marked data-fact (templates/screens/
ui/_fact.j2) is checked against the rendered DOM: counts against the rows present, "n selected" against the
ticked boxes, a word count against the document's words, a filter against the rows it filters."""
import numpy as np
import pytest

from synth import screens
from synth.screens import PLATFORMS
from synth.screens.browser import CHROMIUM_ARGS
from synth.screens.chromium import launch
from synth.screens.content import load
from synth.screens.facts import WORD
from synth.screens.pages import PageSpec, render_html

VARIANTS = range(4)

# Each fact: [spec, what the page states, what its DOM shows, agrees?]
_CHECK_JS = """wordRe => {
  const num = t => Number((t.match(/\\d[\\d,]*/) || ['NaN'])[0].replace(/,/g, ''));
  const words = t => (t.match(new RegExp(wordRe, 'gu')) || []).length;
  const out = [];
  for (const el of document.querySelectorAll('[data-fact]')) {
    const spec = el.dataset.fact, cut = spec.indexOf(':'), kind = spec.slice(0, cut), arg = spec.slice(cut + 1);
    const all = [...document.querySelectorAll(arg)];
    let said = num(el.textContent), shown;
    if (kind === 'count') shown = all.length;
    else if (kind === 'checked') shown = all.filter(e => e.checked).length;
    else if (kind === 'words') shown = all.reduce((n, e) => n + words(e.textContent), 0);
    else if (kind === 'same') {
      const texts = all.map(e => e.textContent.trim());
      said = texts.length ? texts[0] : '(none)';
      shown = texts.every(t => t === said) ? said : texts.join('|');
    }
    else shown = 'unknown fact ' + kind;
    out.push([spec, said, shown, said === shown]);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def chromium():
    pw, browser, _ = launch(CHROMIUM_ARGS)
    tabs = {}
    for platform, plat in PLATFORMS.items():
        context = browser.new_context(viewport={"width": plat["viewport"][0], "height": plat["viewport"][1]})
        tabs[platform] = context.new_page()
    yield tabs
    browser.close()
    pw.stop()


def facts(page, name: str, lang: str, variant: int) -> list:
    page.set_content(render_html(PageSpec(name, lang, variant, "none", "none")), wait_until="load")
    return page.evaluate(_CHECK_JS, WORD.pattern)


@pytest.mark.parametrize("name", screens.names())
def test_the_page_agrees_with_itself(chromium, name):
    page = chromium[name.split("/")[0]]
    for lang in ("en", "zh"):
        for variant in VARIANTS:
            wrong = [f for f in facts(page, name, lang, variant) if not f[3]]
            assert not wrong, (name, lang, variant, wrong)


def test_a_fact_the_page_does_not_bear_out_is_caught(chromium):
    page = chromium["desktop"]
    found = {}
    for variant in range(12):
        stated = facts(page, "desktop/crm_console", "en", variant)
        found.update({f[0].split(":")[0]: f for f in stated})
        if {"count", "checked", "same"} <= set(found):
            break
    assert {"count", "checked", "same"} <= set(found)
    # an unticked row more, a box unticked, another owner, a word more: each fact now disagrees
    spec = PageSpec("desktop/crm_console", "en", variant, "none", "none")
    page.set_content(render_html(spec), wait_until="load")
    page.evaluate("""() => { const body = document.querySelector('.cr-table tbody');
      body.appendChild([...body.rows].find(r => !r.querySelector('input:checked')).cloneNode(true));
      body.rows[0].querySelector('.cr-owner').textContent = 'Someone Else';
      const ticked = [...body.querySelectorAll('input:checked')]; ticked[ticked.length - 1].checked = false; }""")
    wrong = {f[0].split(":")[0] for f in page.evaluate(_CHECK_JS, WORD.pattern) if not f[3]}
    assert wrong == {"count", "checked", "same"}, wrong
    page.set_content(render_html(PageSpec("desktop/docs_editor", "zh", 1, "none", "none")), wait_until="load")
    page.evaluate("() => document.querySelector('.de-page p').append(' 多')")
    assert [f[0] for f in page.evaluate(_CHECK_JS, WORD.pattern) if not f[3]] == ["words:.de-page"]


def _calendar_days(name: str, layout: dict, lang: str) -> list[tuple[int, list[tuple[str, bool]]]]:
    """(weekday, Monday 0; [(title, a work event?)]) of every day a calendar archetype's layout shows, one week
    after another, each week ending with a (-1, []) marker."""
    start = load("calendar", lang)["week_start"]
    if name == "desktop/calendar_app":
        week = [(c if layout["view"] == "workweek" else (start + c) % 7,
                 [(e[3], e[4] == 0) for e in layout["events"] if e[0] == c]) for c in range(len(layout["week"]))]
        month = [((start + i) % 7, [(e[0], e[1] == 0) for e in layout["chips"][f"{w},{i}"]]) if i < 7 else (-1, [])
                 for w in range(6) for i in range(8)]
        return week + [(-1, [])] + month
    if name == "web/calendar":
        def days(cells):
            return [((start + i) % 7, [(e["title"], e["cal"] == 0) for e in cell["events"]])
                    for i, cell in enumerate(cells)]
        month = days(layout["month_cells"])
        return days(layout["week_cells"]) + [(-1, [])] + [d for w in range(0, len(month), 7)
                                                          for d in month[w:w + 7] + [(-1, [])]]
    weekday = (layout["first"] + layout["selected"] - 1) % 7
    return [(weekday, [(e["title"], bool(e.get("work"))) for e in layout["agenda"]]), (-1, []),
            ((weekday + 1) % 7, [(e["title"], bool(e.get("work"))) for e in layout["next_day"]])]


@pytest.mark.parametrize("name", ["desktop/calendar_app", "web/calendar", "mobile/calendar"])
def test_a_calendar_keeps_work_to_weekdays_and_an_event_to_once_a_week(name):
    module = screens.archetype(name)
    for lang in ("en", "zh"):
        for seed in range(60):
            seen: set = set()
            for weekday, events in _calendar_days(name, module.layout(np.random.default_rng(seed), lang), lang):
                if weekday < 0:
                    seen = set()
                    continue
                assert not any(work and weekday >= 5 for _, work in events), (name, lang, seed, weekday, events)
                titles = [t for t, _ in events]
                assert not seen & set(titles) and len(set(titles)) == len(titles), (name, lang, seed, titles)
                seen |= set(titles)
