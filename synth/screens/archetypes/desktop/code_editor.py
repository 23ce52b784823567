"""Code: a desktop IDE (VS Code, PyCharm style): activity bar, file explorer tree, editor tabs, a source file with
line numbers and syntax colours, a terminal panel and a status bar."""
import re

import numpy as np

from synth.screens.archetypes.desktop._desk import chrome
from synth.screens.content import load

CATEGORY = "code"
PLACEMENTS = ("modal",)   # no form here takes a CAPTCHA: a modal dialog over the dimmed window

KEYWORDS = {
    "py": "from import def class return if not raise for in is None self float list tuple str as with".split(),
    "ts": "import from export interface class private constructor const return this void string number new".split(),
    "go": "package import const type struct func return if nil err var defer string float64 error".split(),
}
# one token at a time: comment, string, number, word, anything else
TOKEN = re.compile(r'(?P<c>#.*|//.*|/\*\*.*?\*/|"""[^"]*"""|""".*)'
                   r'|(?P<s>"[^"]*"|\'[^\']*\'|`[^`]*`)'
                   r'|(?P<n>\b\d+\b)|(?P<w>[A-Za-z_]\w*)|(?P<o>.)')


def tokens(line: str, kind: str) -> list[list[str]]:
    """The line as [css class, text] pieces: kw, str, num, com, fn (a name before "("), ty (a capitalised name)."""
    out, keys = [], set(KEYWORDS[kind])
    for m in TOKEN.finditer(line):
        text, cls = m.group(0), ""
        if m.group("c"):
            cls = "com"
        elif m.group("s"):
            cls = "str"
        elif m.group("n"):
            cls = "num"
        elif m.group("w"):
            after = line[m.end():m.end() + 1]
            cls = "kw" if text in keys else "fn" if after == "(" else "ty" if text[0].isupper() else ""
        if out and out[-1][0] == cls:
            out[-1][1] += text
        else:
            out.append([cls, text])
    return out


def indentation(lines: list[str]) -> str:
    """How the file indents, as a status bar names it: "tab" or the smallest step of leading spaces."""
    if any(line.startswith("\t") for line in lines):
        return "tab"
    return str(min((len(line) - len(line.lstrip(" ")) for line in lines if line.startswith(" ") and line.strip()),
                   default=4))


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Panes, theme and the open file of one IDE window; the caret sits at the end of the cursor's line, and
    the status bar states that line, its column and the file's indentation."""
    f = load("desktop_code", lang)["files"][int(rng.integers(3))]
    cursor = int(rng.integers(8, 24))
    return {
        **chrome(rng, lang, "code", "代码" if lang == "zh" else "Code"),
        "file": {**f, "code": [tokens(line, f["kind"]) for line in f["lines"]]},
        "ide": str(rng.choice(["vscode", "jetbrains"], p=[0.65, 0.35])),
        "dark_editor": bool(rng.random() < 0.7),                 # editors mostly run dark themes
        "explorer": bool(rng.random() < 0.85),
        "explorer_right": bool(rng.random() < 0.12),
        "terminal": bool(rng.random() < 0.7),
        "minimap": bool(rng.random() < 0.5),
        "tabs": int(rng.integers(2, 5)),
        "cursor": cursor,
        "column": len(f["lines"][cursor - 1].expandtabs(4)) + 1,
        "indent": indentation(f["lines"]),
        "font": int(rng.choice([12, 13, 14])),
        "side_width": int(rng.choice([220, 250, 280])),
        "menubar": bool(rng.random() < 0.6),
    }
