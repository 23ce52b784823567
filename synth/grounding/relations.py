"""Spatial descriptions: an element named by where it lies from elements a person can read, in English and
Chinese. Each function returns, for every element it can name unambiguously on the page, the noun phrase
('the button right of "Name"'), by the element's index; candidates it has to refuse are counted in `why`.

- `directional`: the element of its role right of, left of, above or below a uniquely labelled neighbour;
- `between`: the only element between two uniquely labelled neighbours on one line or in one column;
- `ordinal`: the n-th of the elements that look alike (same role and text, or same icon) in one list,
  counted from the top or from the left;
- `row`: the one of such look-alikes stacked in a column that lies in the row of a uniquely labelled
  neighbour (the "Edit" link in the row of "Invoice 1042");
- `column`: the same across: the one of look-alikes side by side that lies in the column of a uniquely
  labelled neighbour above or below it (the "Choose plan" button in the column of "Pro")."""
from collections import Counter

from synth.grounding.describe import MAX_TEXT, ROLE_NAMES, icon_noun, quote, role_noun, unique_text
from synth.grounding.vocab import ICONS

RELATION_ROLES = {"button", "icon", "link", "checkbox", "input"}
ANCHOR_ROLES = {"button", "link", "tab", "menuitem", "checkbox"}   # boxes that end where their text ends
DIRECTIONS = {"right": ("right of", "右边"), "left": ("left of", "左边"), "above": ("above", "上方"),
              "below": ("below", "下方")}
REACH = 4             # a target at most this many of its own heights (widths, vertically) from the anchor
MARGIN = 0.5          # the next element of the target's role is at least this many of its heights farther


def _overlap(a: list[float], b: list[float], axis: int) -> float:
    """Overlap of two boxes along x (axis 0) or y (axis 1), as a share of the smaller one's extent."""
    inter = min(a[axis + 2], b[axis + 2]) - max(a[axis], b[axis])
    return inter / max(1e-6, min(a[axis + 2] - a[axis], b[axis + 2] - b[axis]))


def gap(anchor: list[float], box: list[float], direction: str) -> float | None:
    """How far `box` lies from `anchor` in `direction` (edge to edge), or None if it does not lie that way:
    beside it on the same line (right, left) or in the same column (above, below)."""
    if direction in ("right", "left"):
        if _overlap(anchor, box, 1) < 0.5:
            return None
        g = box[0] - anchor[2] if direction == "right" else anchor[0] - box[2]
    else:
        if _overlap(anchor, box, 0) < 0.5:
            return None
        g = box[1] - anchor[3] if direction == "below" else anchor[1] - box[3]
    return g if g >= -1 else None


def _between(anchor: list[float], box: list[float], direction: str) -> list[float]:
    """The corridor between the anchor and the box: what a person's eye crosses going from one to the other."""
    if direction in ("right", "left"):
        x0, x1 = (anchor[2], box[0]) if direction == "right" else (box[2], anchor[0])
        return [x0, max(anchor[1], box[1]), x1, min(anchor[3], box[3])]
    y0, y1 = (anchor[3], box[1]) if direction == "below" else (box[3], anchor[1])
    return [max(anchor[0], box[0]), y0, min(anchor[2], box[2]), y1]


def _meets(a: list[float], b: list[float]) -> bool:
    """Whether two boxes share an area (touching edges do not count)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def same_panel(a: dict, b: dict) -> bool:
    """Whether two things lie in one part of the screen (one panel, list, toolbar, table, card: the
    harvester's `panel`), so that one may name the other's place."""
    return a.get("panel", -1) == b.get("panel", -1)


def _contains(outer: list[float], inner: list[float]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _text_boxes(anchors: list[dict], labels: list[dict]) -> dict[int, list[float]]:
    """Each link anchor's box shrunk to its drawn text where the harvester found that text (`labels`): a link
    laid out as a block spans the row, but a person reads "above" or "right of" from the words. A button or a
    tab keeps its box: its shape is what a person sees."""
    out = {}
    for a in anchors:
        if a["role"] != "link":
            continue
        box = next((lb["box"] for lb in labels if lb["text"] == a["text"] and _contains(a["box"], lb["box"])), None)
        if box is not None:
            out[a["index"]] = box
    return out


def directional(page_elements: list[dict], texts: dict[str, int], lang: str, marks: list[list[float]] = (),
                why: Counter | None = None, labels: list[dict] = ()) -> dict[int, str]:
    """Every element that a relation names, by its index: the element of its role in one direction (right,
    left, above, below) from a uniquely labelled neighbour, within REACH of its own size. The reading must be
    the one a person would use: the target is the nearest element of its role that way from the anchor's
    visible text (the next one clearly farther), and nothing drawn lies between them (no other element, no
    icon or picture: `marks`). An element that has neighbours but no unambiguous relation to them is counted
    in `why`, once per reason."""
    found: dict[int, tuple] = {}
    refused: dict[int, set] = {}
    anchors = _anchors(page_elements, texts)
    words = _text_boxes(anchors, labels)
    for a in anchors:
        ab = words.get(a["index"], a["box"])
        for direction in DIRECTIONS:
            ahead: dict[str, list] = {}
            for e in page_elements:
                g = gap(ab, e["box"], direction) if e is not a else None
                if g is not None:
                    ahead.setdefault(e["role"], []).append((g, e))
            for role, row in ahead.items():
                if role not in RELATION_ROLES:
                    continue
                row.sort(key=lambda ge: ge[0])
                g, el = row[0]
                box = el["box"]
                size = box[3] - box[1] if direction in ("right", "left") else box[2] - box[0]
                if g > REACH * size:
                    continue
                if len(row) > 1 and row[1][0] < g + MARGIN * size:
                    reason = "relation.rival_of_same_role"
                elif not same_panel(a, el):
                    reason = "relation.other_panel"
                else:
                    corridor = _between(ab, box, direction)
                    crossed = any(_meets(corridor, o["box"]) for o in page_elements if o is not el and o is not a)
                    reason = "relation.something_between" if crossed or any(_meets(corridor, m) for m in marks) else ""
                if reason:
                    refused.setdefault(el["index"], set()).add(reason)
                elif el["index"] not in found or g < found[el["index"]][0]:
                    found[el["index"]] = (g, direction, a["text"], role)
    if why is not None:
        for index, reasons in refused.items():
            if index not in found:
                why.update(reasons)
    out = {}
    for index, (_, direction, t, role) in found.items():
        en, zh = ROLE_NAMES[role]
        out[index] = (f"{quote(t, lang)}{DIRECTIONS[direction][1]}的{zh}" if lang == "zh" else
                      f"the {en} {DIRECTIONS[direction][0]} {quote(t, lang)}")
    return out


def _anchors(page_elements: list[dict], texts: dict[str, int]) -> list[dict]:
    """Elements a relation may start from: drawn text that is unique on the page, in a box that ends where
    the text ends and holds no other element."""
    return [a for a in page_elements if a["role"] in ANCHOR_ROLES and unique_text(a["text"], page_elements, texts)
            and not any(o is not a and _contains(a["box"], o["box"]) for o in page_elements)]


def _aligned(a: list[float], b: list[float], direction: str) -> bool:
    """Whether two boxes sit on one line (right, left) or in one column (above, below): of like size across
    it, and overlapping by most of the smaller."""
    axis = 1 if direction in ("right", "left") else 0
    sa, sb = a[axis + 2] - a[axis], b[axis + 2] - b[axis]
    return max(sa, sb) <= 1.5 * min(sa, sb) and _overlap(a, b, axis) >= 0.8


def between(page_elements: list[dict], texts: dict[str, int], lang: str, marks: list[list[float]] = (),
            why: Counter | None = None) -> dict[int, str]:
    """Every element that is the only thing drawn between two uniquely labelled neighbours on one line (or in
    one column), each within REACH of its size: 'the button between "Cancel" and "Save"'."""
    anchors = _anchors(page_elements, texts)
    found: dict[int, tuple] = {}
    for a in anchors:
        for b in anchors:
            for first, last in (("right", "left"), ("below", "above")):
                if a is b or gap(a["box"], b["box"], first) is None or not _aligned(a["box"], b["box"], first):
                    continue
                corridor = _between(a["box"], b["box"], first)
                inside = [e for e in page_elements if e is not a and e is not b and _meets(corridor, e["box"])]
                if len(inside) != 1:
                    continue
                el = inside[0]
                box = el["box"]
                g1, g2 = gap(a["box"], box, first), gap(b["box"], box, last)
                size = min(box[2] - box[0], box[3] - box[1])
                if el["role"] not in RELATION_ROLES or g1 is None or g2 is None or max(g1, g2) > REACH * size:
                    continue
                if not (same_panel(a, el) and same_panel(b, el)):
                    if why is not None:
                        why["between.other_panel"] += 1
                    continue
                if any(_meets(corridor, m) and not _contains(box, m) for m in marks):
                    if why is not None:
                        why["between.something_between"] += 1
                    continue
                if el["index"] not in found or g1 + g2 < found[el["index"]][0]:
                    found[el["index"]] = (g1 + g2, a["text"], b["text"], el["role"])
    out = {}
    for index, (_, ta, tb, role) in found.items():
        en, zh = ROLE_NAMES[role]
        out[index] = (f"{quote(ta, lang)}和{quote(tb, lang)}之间的{zh}" if lang == "zh" else
                      f"the {en} between {quote(ta, lang)} and {quote(tb, lang)}")
    return out


ORDINALS_EN = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
ORDINALS_ZH = "一二三四五六七八九"
FROM = {0: ("from the left", "从左往右"), 1: ("from the top", "从上往下")}


def look_alike_groups(page_elements: list[dict], texts: dict[str, int], decor_icons: dict[str, int] | None = None,
                      why: Counter | None = None) -> list[tuple[str, list[dict]]]:
    """Elements that a person can tell apart only by where they are, as (noun key, members), two or more:
    the same role and text (no other drawn text reads the same), or icons of the same drawing with no text
    (drawn nowhere else on the page). All members must be fully on screen and visible, or a count of them
    could differ from a person's."""
    groups: dict[tuple, list[dict]] = {}
    for e in page_elements:
        if e["text"] and e["role"] in ROLE_NAMES:
            groups.setdefault(("text", e["role"], e["text"]), []).append(e)
        elif not e["text"] and e["role"] == "icon" and e["icon"] in ICONS:
            groups.setdefault(("icon", "icon", e["icon"]), []).append(e)
    out = []
    for (how, _, what), members in groups.items():
        if not 2 <= len(members) <= len(ORDINALS_EN):
            continue
        if how == "text" and (len(what) > MAX_TEXT or texts.get(what, 0) != len(members)):
            continue
        if how == "icon" and (decor_icons or {}).get(what):
            continue
        if not all(m["in_viewport"] and m["centre_hit"] for m in members):
            if why is not None:
                why["look_alikes.not_all_visible"] += 1
            continue
        out.append((how, members))
    return out


def _noun(how: str, el: dict, lang: str) -> str:
    return icon_noun(el["icon"], lang) if how == "icon" else role_noun(el["text"], el["role"], lang)


def _in_line(members: list[dict], axis: int) -> list[dict] | None:
    """The members in order along `axis` (0: a row, left to right; 1: a column, top to bottom) if they form
    one line there: each beside the first across the line, none overlapping the next along it."""
    across = 1 - axis
    if any(_overlap(members[0]["box"], m["box"], across) < 0.5 for m in members):
        return None
    line = sorted(members, key=lambda m: m["box"][axis])
    if any(b["box"][axis] < a["box"][axis + 2] - 1 for a, b in zip(line, line[1:])):
        return None
    return line


def ordinal(page_elements: list[dict], texts: dict[str, int], lang: str, decor_icons: dict[str, int] | None = None,
            why: Counter | None = None) -> dict[int, str]:
    """Every look-alike (see `look_alike_groups`) in a group that forms one row or one column, by its place
    in it: 'the second "Edit" link from the top' / '从上往下第二个“编辑”链接'."""
    out = {}
    for how, members in look_alike_groups(page_elements, texts, decor_icons, why):
        lines = [(axis, line) for axis in (1, 0) if (line := _in_line(members, axis)) is not None]
        if not lines:
            if why is not None:
                why["ordinal.not_one_line"] += 1
            continue
        axis, line = lines[0]
        for n, el in enumerate(line):
            noun = _noun(how, el, lang)
            if lang == "zh":
                out[el["index"]] = f"{FROM[axis][1]}第{ORDINALS_ZH[n]}个{noun}"
            else:
                out[el["index"]] = f"the {ORDINALS_EN[n]} {noun[len('the '):]} {FROM[axis][0]}"
    return out


def _shared(a: list[int], b: list[int]) -> list[int]:
    """The document place two places share: their common ancestors (see the harvester's `path`)."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


LINES = {"row": (1, "所在行的", "in the row of"), "column": (0, "所在列的", "in the column of")}   # axis, zh, en


def _lined_up(kind: str, page_elements: list[dict], texts: dict[str, int], lang: str,
              decor_icons: dict[str, int] | None, labels: list[dict], why: Counter | None) -> dict[int, str]:
    """`row` (axis 1: look-alikes stacked in a column, the text beside one of them on its line) or `column`
    (axis 0: look-alikes side by side in a row, the text above or below one of them), phrased."""
    axis, zh, en = LINES[kind]
    anchors = [*labels, *_anchors(page_elements, texts)]
    found: dict[int, tuple] = {}
    for how, members in look_alike_groups(page_elements, texts, decor_icons, why):
        if _in_line(members, axis) is None:
            continue
        for a in anchors:
            if any(_meets(a["box"], m["box"]) for m in members):     # the text of a look-alike itself
                continue
            touching = [m for m in members if _overlap(a["box"], m["box"], axis) > 0]
            if len(touching) != 1 or _overlap(a["box"], touching[0]["box"], axis) < 0.5:
                continue
            el = touching[0]
            along = 1 - axis          # the direction from the text to the target
            distance = max(a["box"][along] - el["box"][along + 2], el["box"][along] - a["box"][along + 2])
            if distance < 0:      # not beside it
                continue
            if not same_panel(a, el):
                if why is not None:
                    why[f"{kind}.other_panel"] += 1
                continue
            place = _shared(a["path"], el["path"])
            if any(m is not el and m["path"][:len(place)] == place for m in members):
                if why is not None:
                    why[f"{kind}.not_one_{kind}_of_the_page"] += 1
                continue
            if el["index"] not in found or distance < found[el["index"]][0]:
                found[el["index"]] = (distance, how, a["text"], el)
    out = {}
    for index, (_, how, t, el) in found.items():
        noun = _noun(how, el, lang)
        out[index] = f"{quote(t, lang)}{zh}{noun}" if lang == "zh" else f"{noun} {en} {quote(t, lang)}"
    return out


def row(page_elements: list[dict], texts: dict[str, int], lang: str, decor_icons: dict[str, int] | None = None,
        labels: list[dict] = (), why: Counter | None = None) -> dict[int, str]:
    """Every look-alike in a column of them (see `look_alike_groups`) that alone shares the row of a text
    drawn once on the page (`labels`, or an element's) beside it: 'the "Edit" link in the row of "Invoice 1042"'
    / '“Invoice 1042”所在行的“编辑”链接'. The row must be one in the document too: the smallest part of the
    page that holds the text and the target (a table row, a list item, a card) holds no other look-alike, and
    the other look-alikes lie clearly above or below the text. The nearest such text names it."""
    return _lined_up("row", page_elements, texts, lang, decor_icons, labels, why)


def column(page_elements: list[dict], texts: dict[str, int], lang: str, decor_icons: dict[str, int] | None = None,
           labels: list[dict] = (), why: Counter | None = None) -> dict[int, str]:
    """The transpose of `row`: every look-alike in a row of them that alone shares the column of a text drawn
    once above or below it, when the smallest part of the page holding both (a plan's card, a product tile)
    holds no other look-alike: 'the "Choose plan" button in the column of "Pro"' / '“Pro”所在列的“选择套餐”按钮'.
    A table's columns are no part of its document, so table cells are refused."""
    return _lined_up("column", page_elements, texts, lang, decor_icons, labels, why)


def spatial(kinds: tuple[str, ...], page_elements: list[dict], texts: dict[str, int], lang: str,
            marks: list[list[float]] = (), decor_icons: dict[str, int] | None = None, labels: list[dict] = (),
            why: Counter | None = None) -> dict[str, dict[int, str]]:
    """The spatial descriptions of `kinds` (relation, between, ordinal, row, column) on a page, by kind and element
    index. Between an anchor and its target nothing may be drawn: no element, icon or picture (`marks`), no text
    (`labels`)."""
    drawn = [*marks, *(label["box"] for label in labels)]     # what lies between two things, besides elements
    makers = {"relation": lambda: directional(page_elements, texts, lang, drawn, why, labels),
              "between": lambda: between(page_elements, texts, lang, drawn, why),
              "ordinal": lambda: ordinal(page_elements, texts, lang, decor_icons, why),
              "row": lambda: row(page_elements, texts, lang, decor_icons, labels, why),
              "column": lambda: column(page_elements, texts, lang, decor_icons, labels, why)}
    return {k: makers[k]() for k in kinds if k in makers}
