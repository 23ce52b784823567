"""Contact sheet of the icon sets: per key of synth.grounding.vocab.ICONS its words and each set's drawing side by
side (a set without its own drawing shows tabler's, faded), to check by eye that every drawing shows what the
words say. Writes OUT-1.png, OUT-2.png, ... (ROWS keys each).

    .venv/bin/python scripts/icon_sheet.py /tmp/icons [ROWS]
"""
import sys
from html import escape

from playwright.sync_api import sync_playwright

from synth.grounding.vocab import ICONS
from synth.screens.browser import CHROMIUM_ARGS, chromium_path
from synth.screens.icon_names import NAMES
from synth.screens.icons import ICON_SETS, Icons


def sheet(keys: list[str]) -> str:
    """HTML of one part of the sheet."""
    head = "".join(f"<th>{s}</th>" for s in ICON_SETS)
    rows = []
    for key in keys:
        cells = []
        for s in ICON_SETS:
            own = key in NAMES[s]
            cells.append(f'<td class="{"" if own else "fallback"}">{Icons(s).svg(key, 32)}'
                         f'<small>{escape(NAMES[s].get(key, "(tabler)"))}</small></td>')
        en, zh = ICONS[key]
        rows.append(f"<tr><th class=k>{key}<small>{escape(en)} · {zh}</small></th>{''.join(cells)}</tr>")
    return f"""<!doctype html><meta charset=utf-8><style>
body {{ margin: 8px; font: 13px "DejaVu Sans", "Noto Sans CJK SC", sans-serif; color: #1a1a2e; background: #fff }}
table {{ border-collapse: collapse }} td, th {{ border: 1px solid #ddd; padding: 4px 8px; text-align: center }}
th.k {{ text-align: left; width: 330px }} small {{ display: block; font-weight: normal; color: #666; font-size: 11px }}
td {{ width: 170px }} td.fallback {{ opacity: .3 }} td svg {{ display: block; margin: 0 auto 2px }}
</style><table><tr><th>key / words</th>{head}</tr>{''.join(rows)}</table>"""


def main(out: str, per: int = 40) -> None:
    keys = list(ICONS)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1060, "height": 600})
        for n, i in enumerate(range(0, len(keys), per), 1):
            page.set_content(sheet(keys[i:i + per]))
            page.screenshot(path=f"{out}-{n}.png", full_page=True)
            print(f"{out}-{n}.png")
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1], *map(int, sys.argv[2:3]))
