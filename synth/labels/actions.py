"""Action syntaxes: parse model output (UI-Venus-2 style or pixel JSON) into pixel actions.

UI-Venus-2 actions: `Click(box=(x,y))`, `Drag(start=(x1,y1),end=(x2,y2))`, `Type(content='…')`,
`LongPress(box=(x,y))`, `Wait()` (an interactive episode's step that lets time pass), comma-separated,
optionally inside <action>…</action>, coordinates normalised to 0–999 of the image; a <think>…</think> part is ignored. As VenusBench's parser does, `bbox=` may stand for
`box=` and coordinates may be in square brackets. Writing answers in this syntax: `synth.export.answer`.
Grounding answers `[x, y]` / `[x0, y0, x1, y1]` (0–999) and the refusal `[-1, -1]` are read too."""
import json
import re

VENUS_SCALE = 999.0
_NUM = r"\s*(-?\d+(?:\.\d+)?)\s*"
_PAIR = rf"[(\[]{_NUM},{_NUM}[)\]]"
_PATTERNS = [
    ("click", re.compile(rf"Click\s*\(\s*b?box\s*=\s*{_PAIR}\s*\)")),
    ("long_press", re.compile(rf"LongPress\s*\(\s*b?box\s*=\s*{_PAIR}\s*(?:,\s*duration\s*=\s*{_NUM})?\)")),
    ("drag", re.compile(rf"Drag\s*\(\s*start\s*=\s*{_PAIR}\s*,\s*end\s*=\s*{_PAIR}\s*\)")),
    ("type", re.compile(r"Type\s*\(\s*content\s*=\s*(?P<q>['\"])(?P<text>(?:\\.|(?!(?P=q)).)*)(?P=q)\s*\)", re.S)),
    ("wait", re.compile(r"Wait\s*\(\s*\)")),
]
DEFAULT_LONG_PRESS = 5.0   # seconds assumed when LongPress gives no duration


class ParseError(ValueError):
    """Model output that is not a recognisable action sequence."""


def parse_venus(text: str, width: int, height: int, grid: tuple[float, float] = (VENUS_SCALE, VENUS_SCALE)) -> list[dict]:
    """Actions in image pixels from UI-Venus-2 action text whose coordinates span 0..`grid` (0–999 by default);
    ParseError if none is found."""

    def px(x: str, y: str) -> list[float]:
        return [float(x) / grid[0] * width, float(y) / grid[1] * height]

    text = re.sub(r"<think>.*?</think>", "", text, flags=re.S)
    m = re.search(r"<action>(.*?)</action>", text, re.S)
    body = m.group(1) if m else text
    found = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(body):
            g = match.groups()
            if kind == "click":
                action = {"type": "click", "point": px(g[0], g[1])}
            elif kind == "long_press":
                action = {"type": "long_press", "point": px(g[0], g[1]),
                          "duration": float(g[2]) if g[2] else DEFAULT_LONG_PRESS}
            elif kind == "drag":
                action = {"type": "drag", "start": px(g[0], g[1]), "end": px(g[2], g[3])}
            elif kind == "wait":
                action = {"type": "wait"}
            else:
                action = {"type": "type", "text": re.sub(r"\\(.)", r"\1", match.group("text"))}
            found.append((match.start(), action))
    if not found:
        raise ParseError("no action found")
    return [a for _, a in sorted(found, key=lambda f: f[0])]


GROUNDING_ANSWER = re.compile(rf"^\[{_NUM},{_NUM}(?:,{_NUM},{_NUM})?\]$")   # [x, y] or [x0, y0, x1, y1]


def _stripped(output: str) -> str:
    return re.sub(r"<think>.*?</think>", "", output, flags=re.S).strip()


def _grounding_match(stripped: str):
    inner = re.fullmatch(r"<action>(.*)</action>", stripped, re.S)
    return GROUNDING_ANSWER.match(inner.group(1).strip() if inner else stripped)


def is_grounding_answer(output) -> bool:
    """Whether a model's output is a bare grounding answer, `[x, y]` or `[x0, y0, x1, y1]` (the refusal too)."""
    return isinstance(output, str) and _grounding_match(_stripped(output)) is not None


def parse_output(output, width: int, height: int) -> list[dict]:
    """A model's output as pixel actions: a list of action dicts (the label's own format, or that list as
    JSON text), UI-Venus-2 text, a grounding answer `[x, y]` or `[x0, y0, x1, y1]` on the 0–999 grid (a
    click at the point or the box's centre, as the exports teach), or the refusal `[-1, -1]` (no action:
    `[]`). ParseError when it is none."""
    if isinstance(output, str):
        stripped = _stripped(output)
        point = _grounding_match(stripped)
        if point:
            v = [float(x) for x in point.groups() if x is not None]
            if v == [-1.0, -1.0]:       # the refusal: the target is not on the screen
                return []
            x, y = (v[0], v[1]) if len(v) == 2 else ((v[0] + v[2]) / 2, (v[1] + v[3]) / 2)
            return [{"type": "click", "point": [x / VENUS_SCALE * width, y / VENUS_SCALE * height]}]
        if stripped.startswith("["):
            try:
                output = json.loads(stripped)
            except json.JSONDecodeError as e:
                raise ParseError(f"bad JSON action list: {e.msg}") from e
        else:
            return parse_venus(output, width, height)
    if isinstance(output, list) and all(isinstance(a, dict) and "type" in a for a in output):
        return output
    raise ParseError("output is neither action text nor a list of actions")
