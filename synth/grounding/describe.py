"""Descriptions that pick out exactly one element of a rendered page, in English and Chinese, and the three
styles a query is written in.

Each describer returns a noun phrase for an element ('the "Save" button', '“保存”按钮'), or None when the
description would not be unique on this page (the uniqueness check is the verification: a description that
matches more than one element is never produced). `phrase()` turns it into a query in one of STYLES:
an instruction ("Click the "Save" button"), an action ("Tap the "Save" button"; for what a control does, the
intent: "I want to log out") or a description ("the "Save" button"), as VenusBench-GD separates them."""
import re
from collections import Counter

from synth.grounding.vocab import FIELDS, FUNCTIONS, ICONS

ROLE_NAMES = {"button": ("button", "按钮"), "link": ("link", "链接"), "input": ("field", "输入框"),
              "icon": ("icon", "图标"), "tab": ("tab", "标签页"), "menuitem": ("menu item", "菜单项"),
              "checkbox": ("checkbox", "复选框"), "row": ("row", "行"), "select": ("dropdown", "下拉框"),
              "image": ("image", "图片")}
STYLES = ("instruction", "action", "description")
MAX_TEXT = 40
LEFTOVERS = ("{{", "}}", "{%", "%}", "None", "undefined", "NaN", "null")


def _zh(lang: str) -> bool:
    return lang == "zh"


def quote(t: str, lang: str) -> str:
    """'"Save"' / '“保存”': a text as an instruction quotes it."""
    return f"“{t}”" if _zh(lang) else f'"{t}"'


def role_noun(t: str, role: str, lang: str) -> str:
    """'the "Save" button' / '“保存”按钮': an element of `role` that shows `t`."""
    en, zh = ROLE_NAMES[role]
    return f"“{t}”{zh}" if _zh(lang) else f'the "{t}" {en}'


def icon_noun(key: str, lang: str) -> str:
    """'the magnifier icon' / '放大镜图标': what icon `key` of ICONS shows."""
    en, zh = ICONS[key]
    return zh if _zh(lang) else f"the {en}"


COUNT = re.compile(r"\s+\d+\+?$|\s*\(\d+\)$")       # a badge after a label: "Inbox 3", "Messages (12)", "Cart 99+"


def reads_as(el: dict, t: str) -> bool:
    """Whether a person would take `el` for an element labelled `t`: it draws `t` or is named `t` (a button
    whose drawn text the harvester could not read whole still shows its name), with or without a count badge
    after it ("Inbox 3" reads as "Inbox")."""
    return any(s and (s == t or COUNT.sub("", s) == t) for s in (el["text"], el.get("name") or ""))


def unique_text(t: str, page_elements: list[dict], texts: dict[str, int]) -> bool:
    """Whether `t` is short, drawn exactly once on the page and the label of exactly one element."""
    return bool(t) and len(t) <= MAX_TEXT and texts.get(t, 0) == 1 and sum(reads_as(e, t) for e in page_elements) == 1


def text(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """By its visible text, when that text appears exactly once on the whole page."""
    t = el["text"]
    if not unique_text(t, page_elements, texts):
        return None
    return quote(t, lang)


def role_text(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """By role and text, when no other element of that role reads as that text (`reads_as`)."""
    t = el["text"]
    if not t or len(t) > MAX_TEXT or el["role"] not in ROLE_NAMES:
        return None
    if sum(e["role"] == el["role"] and reads_as(e, t) for e in page_elements) != 1:
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
         decor_icons: dict[str, int] | None = None, painted: list[dict] | None = None) -> str | None:
    """By what its icon shows, when nothing else on the page shows the same icon: no other element carries
    its key, no decoration draws it, and of every icon painted on the screen (`painted`, the harvester's
    `icons`: icons inside fields and decorative ones included) only the element's own show it, and the
    element does paint it (a mark that names another drawing than the one painted is refused)."""
    key = el["icon"]
    if key not in ICONS or sum(e["icon"] == key for e in page_elements) != 1 or (decor_icons or {}).get(key):
        return None
    if painted is not None:
        own = [i for i in painted if i["holder"] == el["index"]]
        if any(i["key"] == key for i in painted if i["holder"] != el["index"]) or own and all(
                i["key"] != key for i in own):
            return None
    return icon_noun(key, lang)


GENERIC_WORDS = {"", "go", "open", "see", "show", "make", "turn", "change", "add", "create", "get", "switch", "read",
                 "start", "take", "record", "insert", "set", "format", "the", "a", "an", "this", "your"}
GENERIC_ZH = {"查看", "打开", "回到", "切换", "开启", "添加", "显示", "发起", "插入", "设为", "更改", "增加", "减少",
              "新建", "阅读"}


def same_job(el: dict, other: dict) -> bool:
    """Whether `other` is a control a person would take for doing `el`'s job: the same function key, the
    same drawn text or accessible name, the same icon, or a text that names the job's verb."""
    if other["fn"] and other["fn"] == el["fn"]:
        return True
    names = {n.casefold() for n in (el["text"], el.get("name", "")) if n}
    theirs = {n.casefold() for n in (other["text"], other.get("name", "")) if n}
    if names & theirs or (el["icon"] and other["icon"] == el["icon"]):
        return True
    en, zh = FUNCTIONS.get(el["fn"], ("", ""))
    verb = en.split(" ")[0]
    if verb not in GENERIC_WORDS and any(verb in w.split() for w in theirs):
        return True
    return len(zh) >= 2 and zh[:2] not in GENERIC_ZH and any(w.startswith(zh[:2]) and len(w) <= 6 for w in theirs)


def function(el: dict, page_elements: list[dict], texts: dict[str, int], lang: str) -> str | None:
    """By what it does, when no other visible control does the same job (see `same_job`)."""
    key = el["fn"]
    if key not in FUNCTIONS or any(e is not el and same_job(el, e) for e in page_elements):
        return None
    en, zh = FUNCTIONS[key]
    return f"可以{zh}的控件" if _zh(lang) else f"the control to {en}"


DESCRIBERS = {"text": text, "role_text": role_text, "field": field, "icon": icon, "function": function}


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
