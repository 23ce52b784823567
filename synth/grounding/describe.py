"""Descriptions that pick out exactly one element of a rendered page, in English and Chinese, and the three
styles a query is written in.

Each describer returns a noun phrase for an element ('the "Save" button', '“保存”按钮'), or None when the
description would not be unique on this page (the uniqueness check is the verification: a description that
matches more than one element is never produced). `phrase()` turns it into a query in one of STYLES:
an instruction ("Click the "Save" button"), an action ("Tap the "Save" button"; for what a control does, the
intent: "I want to log out") or a description ("the "Save" button"), as VenusBench-GD separates them."""
from collections import Counter

from synth.scenes.vocab import FIELDS, FUNCTIONS, ICONS

ROLE_NAMES = {"button": ("button", "按钮"), "link": ("link", "链接"), "input": ("field", "输入框"),
              "icon": ("icon", "图标"), "tab": ("tab", "标签页"), "menuitem": ("menu item", "菜单项"),
              "checkbox": ("checkbox", "复选框"), "row": ("row", "行"), "select": ("dropdown", "下拉框"),
              "image": ("image", "图片")}
STYLES = ("instruction", "action", "description")
MAX_TEXT = 40
LEFTOVERS = ("{{", "}}", "{%", "%}", "None", "undefined", "NaN", "null")


def _zh(lang: str) -> bool:
    return lang == "zh"


def role_noun(t: str, role: str, lang: str) -> str:
    """'the "Save" button' / '“保存”按钮': an element of `role` that shows `t`."""
    en, zh = ROLE_NAMES[role]
    return f"“{t}”{zh}" if _zh(lang) else f'the "{t}" {en}'


def icon_noun(key: str, lang: str) -> str:
    """'the magnifier icon' / '放大镜图标': what icon `key` of ICONS shows."""
    en, zh = ICONS[key]
    return zh if _zh(lang) else f"the {en}"


def unique_text(t: str, page_elements: list[dict], texts: dict[str, int]) -> bool:
    """Whether `t` is short, drawn exactly once on the page and the text of exactly one element."""
    return bool(t) and len(t) <= MAX_TEXT and texts.get(t, 0) == 1 and sum(e["text"] == t for e in page_elements) == 1


def text(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """By its visible text, when that text appears exactly once on the whole page."""
    t = el["text"]
    if not unique_text(t, page_elements, texts):
        return None
    return f"“{t}”" if _zh(lang) else f'"{t}"'


def role_text(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """By role and text, when no other element has both."""
    t = el["text"]
    if not t or len(t) > MAX_TEXT or el["role"] not in ROLE_NAMES:
        return None
    if sum(e["role"] == el["role"] and e["text"] == t for e in page_elements) != 1:
        return None
    return role_noun(t, el["role"], lang)


def field(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """An input by what it is for, when it is the only input of that kind."""
    key = el["field"]
    if el["role"] != "input" or key not in FIELDS or sum(e["field"] == key for e in page_elements) != 1:
        return None
    en, zh = FIELDS[key]
    return zh if _zh(lang) else f"the {en}"


def icon(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str,
         decor_icons: dict[str, int] | None = None) -> str | None:
    """By what its icon shows, when nothing else on the page shows the same icon."""
    key = el["icon"]
    if key not in ICONS or sum(e["icon"] == key for e in page_elements) != 1 or (decor_icons or {}).get(key):
        return None
    return icon_noun(key, lang)


def function(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """By what it does, when no other element does the same."""
    key = el["fn"]
    if key not in FUNCTIONS or sum(e["fn"] == key for e in page_elements) != 1:
        return None
    en, zh = FUNCTIONS[key]
    return f"可以{zh}的控件" if _zh(lang) else f"the control to {en}"


# --- relations ---------------------------------------------------------------------------------

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


def _contains(outer: list[float], inner: list[float]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def relations(page_elements: list[dict], texts: dict[str, int], lang: str, marks: list[list[float]] = (),
              why: Counter | None = None) -> dict[int, str]:
    """Every element that a relation names, by its index: the element of its role in one direction (right,
    left, above, below) from a uniquely labelled neighbour, within REACH of its own size. The reading must be
    the one a person would use: the target is the nearest element of its role that way from the anchor's
    visible text (the next one clearly farther), and nothing drawn lies between them (no other element, no
    icon or picture: `marks`). An element that has neighbours but no unambiguous relation to them is counted
    in `why`, once per reason."""
    found: dict[int, tuple] = {}
    refused: dict[int, set] = {}
    anchors = [a for a in page_elements if a["role"] in ANCHOR_ROLES and unique_text(a["text"], page_elements, texts)
               and not any(o is not a and _contains(a["box"], o["box"]) for o in page_elements)]
    for a in anchors:
        ab = a["box"]
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
        out[index] = f"“{t}”{DIRECTIONS[direction][1]}的{zh}" if _zh(lang) else f'the {en} {DIRECTIONS[direction][0]} "{t}"'
    return out


def relation(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str,
             marks: list[list[float]] = (), why: Counter | None = None) -> str | None:
    """The relation that names `el` (see `relations`), or None."""
    return relations(page_elements, texts, lang, marks, why).get(el["index"])


DESCRIBERS = {"text": text, "role_text": role_text, "field": field, "icon": icon, "relation": relation,
              "function": function}


# --- styles ------------------------------------------------------------------------------------

def phrase(kind: str, noun: str, style: str, lang: str, platform: str, fn: str = "") -> str:
    """A query from a describer's noun phrase in `style` (STYLES). For a function description the action
    style states the intent ("I want to log out"), from the function key `fn`."""
    zh = _zh(lang)
    if style == "description":
        if kind == "text":
            return f"写着{noun}的元素" if zh else f"The element that reads {noun}"
        return noun if zh else noun[0].upper() + noun[1:]
    if style == "action":
        if kind == "function" and fn in FUNCTIONS:
            en, zh_words = FUNCTIONS[fn]
            return f"我想{zh_words}" if zh else f"I want to {en}"
        if zh:
            return ("轻触" if platform == "mobile" else "选择") + noun
        return ("Tap " if platform == "mobile" else "Select ") + noun
    if style == "instruction":
        return f"点击{noun}" if zh else f"Click {noun}"
    raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")


def to_type(noun: str, sample: str, lang: str) -> str:
    """A typing task into the field that `noun` names: 'Type "…" into the email field'."""
    if _zh(lang):
        return f"在{noun}中输入“{sample}”"
    return f'Type "{sample}" into {noun}'


def has_leftovers(instruction: str) -> bool:
    """Template leftovers or missing values that must never reach a label."""
    return any(s in instruction for s in LEFTOVERS)


def look_alikes(el: dict, page_elements: list[dict]) -> int:
    """Other elements on the page with the same role."""
    return Counter(e["role"] for e in page_elements)[el["role"]] - 1
