"""Instructions that pick out exactly one element of a rendered page, in English and Chinese.

Each describer returns the instruction for an element, or None when its description would not be
unique on this page (the uniqueness check is the verification: an instruction that matches more than
one element is never produced)."""
from collections import Counter

from synth.scenes.vocab import FIELDS, FUNCTIONS, ICONS

ROLE_NAMES = {"button": ("button", "按钮"), "link": ("link", "链接"), "input": ("field", "输入框"),
              "icon": ("icon", "图标"), "tab": ("tab", "标签页"), "menuitem": ("menu item", "菜单项"),
              "checkbox": ("checkbox", "复选框"), "row": ("row", "行"), "select": ("dropdown", "下拉框"),
              "image": ("image", "图片")}
MAX_TEXT = 40
LEFTOVERS = ("{{", "}}", "{%", "%}", "None", "undefined", "NaN", "null")


def _zh(lang: str) -> bool:
    return lang == "zh"


def text(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """By its visible text, when that text appears exactly once on the whole page."""
    t = el["text"]
    if not t or len(t) > MAX_TEXT or texts.get(t, 0) != 1 or sum(e["text"] == t for e in page_elements) != 1:
        return None
    return f"点击“{t}”" if _zh(lang) else f'Click "{t}"'


def role_text(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """By role and text, when no other element has both."""
    t = el["text"]
    if not t or len(t) > MAX_TEXT or el["role"] not in ROLE_NAMES:
        return None
    if sum(e["role"] == el["role"] and e["text"] == t for e in page_elements) != 1:
        return None
    en, zh = ROLE_NAMES[el["role"]]
    return f"点击“{t}”{zh}" if _zh(lang) else f'Click the "{t}" {en}'


def field(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """An input by what it is for, when it is the only input of that kind."""
    key = el["field"]
    if el["role"] != "input" or key not in FIELDS or sum(e["field"] == key for e in page_elements) != 1:
        return None
    en, zh = FIELDS[key]
    return f"点击{zh}" if _zh(lang) else f"Click the {en}"


def icon(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str,
         decor_icons: dict[str, int] | None = None) -> str | None:
    """By what its icon shows, when nothing else on the page shows the same icon."""
    key = el["icon"]
    if key not in ICONS or sum(e["icon"] == key for e in page_elements) != 1 or (decor_icons or {}).get(key):
        return None
    en, zh = ICONS[key]
    return f"点击{zh}" if _zh(lang) else f"Click the {en}"


def function(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """By what it does, when no other element does the same."""
    key = el["fn"]
    if key not in FUNCTIONS or sum(e["fn"] == key for e in page_elements) != 1:
        return None
    en, zh = FUNCTIONS[key]
    return f"点击可以{zh}的控件" if _zh(lang) else f"Click the control to {en}"


def _overlap_y(a: list[float], b: list[float]) -> float:
    inter = min(a[3], b[3]) - max(a[1], b[1])
    return inter / max(1e-6, min(a[3] - a[1], b[3] - b[1]))


RELATION_ROLES = {"button", "icon", "link", "checkbox", "input"}


def relation(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """As the nearest element of its role to the right of a uniquely labelled neighbour on the same line,
    at most four of its own heights away."""
    if el["role"] not in RELATION_ROLES:
        return None
    box = el["box"]
    reach = 4 * (box[3] - box[1])
    anchors = [a for a in page_elements if a is not el and a["text"] and len(a["text"]) <= MAX_TEXT
               and texts.get(a["text"], 0) == 1 and sum(e["text"] == a["text"] for e in page_elements) == 1
               and box[0] - reach <= a["box"][2] <= box[0] and _overlap_y(a["box"], box) >= 0.5]
    if not anchors:
        return None
    anchor = max(anchors, key=lambda a: a["box"][2])           # the closest one on the left
    right = sorted((e for e in page_elements if e["role"] == el["role"] and e["box"][0] >= anchor["box"][2]
                    and _overlap_y(anchor["box"], e["box"]) >= 0.5), key=lambda e: e["box"][0])
    if not right or right[0] is not el or (len(right) > 1 and right[1]["box"][0] - box[0] < 4):
        return None
    en, zh = ROLE_NAMES[el["role"]]
    t = anchor["text"]
    return f"点击“{t}”右边的{zh}" if _zh(lang) else f'Click the {en} right of "{t}"'


DESCRIBERS = {"text": text, "role_text": role_text, "field": field, "icon": icon, "relation": relation,
              "function": function}


def has_leftovers(instruction: str) -> bool:
    """Template leftovers or missing values that must never reach a label."""
    return any(s in instruction for s in LEFTOVERS)


def look_alikes(el: dict, page_elements: list[dict]) -> int:
    """Other elements on the page with the same role."""
    return Counter(e["role"] for e in page_elements)[el["role"]] - 1
