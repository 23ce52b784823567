"""The component macros every design system's file (templates/screens/ui/<system>.j2) implements, so that
an archetype's template can be drawn in any system of its platform. Arguments are plain strings, lists and
dicts; icons are keys of synth.grounding.vocab.ICONS; every control carries its grounding annotations (g()).

Web and desktop systems implement WEB; phone systems implement MOBILE. OS chrome (status bars, window frames,
taskbars, docks) belongs to no design system: templates/screens/ui/_os.j2."""

COMMON = (
    "html_attrs()", "body_class()", "theme_css()",
    # variants: primary secondary outline link danger success
    'button(label, variant="primary", fn="", icon_key="", size="md")',
    'icon_button(key, label, fn="")',
    'field(label, placeholder="", field="", sample="", type="text", help="")',
    'select(label, options, field="")', 'check(label, checked=False, fn="")', 'toggle(label, on=False, fn="")',
    'radio_group(label, options, active=0)',
    'card(title="", subtitle="")',                  # {% call ui.card(...) %}body{% endcall %}
    "list(items)",                                  # [{title, meta?, icon?, badge?}]
    'badge(text, tone="primary")', 'alert(text, tone="info", title="")',
    'tabs(items, active=0)',
    'media(src, title, meta="", price="", action="", fn="")',   # a picture tile: product, video, album
    'avatar(name, size=32, src="")', 'progress(value, label="")',
    'dialog(title, actions=[])',                    # {% call %}; actions [{label, variant?, fn?}]
    'search_box(placeholder, sample="")',
)
WEB = COMMON + (
    'navbar(brand, links, active=0, search="", actions=[])',
    'sidebar(sections, title="")',                  # [{title, items: [{label, icon?, active?, badge?}]}]
    "breadcrumb(items)",
    'table(headers, rows, striped=True)',
    'pagination(pages=5, active=1, prev_label="Previous", next_label="Next")',
    'footer(columns, note="")',                     # [{title, links}]
    'stat(label, value, delta="", tone="success")',
)
MOBILE = COMMON + (
    'appbar(title, back=True, actions=[])',         # actions [{key, label, fn?}]
    'tabbar(items, active=0)',                      # [{label, icon, fn?}]
    'cells(items, title="")',                       # settings rows [{label, value?, icon?, arrow?}]
)


def names(signatures: tuple[str, ...]) -> list[str]:
    return [s.split("(")[0] for s in signatures]
