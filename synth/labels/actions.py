"""The UI-Venus action syntax, read and written: model output into pixel actions, actions into text.

UI-Venus-2 actions: `Click(box=(x,y))`, `Drag(start=(x1,y1),end=(x2,y2))`, `Type(content='…')`,
`LongPress(box=(x,y))`, `Wait()` (an interactive episode's step that lets time pass), comma-separated,
optionally inside <action>…</action>, coordinates normalised to 0–999 of the image; a <think>…</think> part is
ignored. As VenusBench's parser does, `bbox=` may stand for `box=` and coordinates may be in square brackets.
Grounding answers `[x, y]` / `[x0, y0, x1, y1]` (0–999) and the refusal `[-1, -1]` are read and written here
too. Which actions an answer holds and on which grid (a model's convention) is the exporters' business
(synth.export.answer, synth.export.coords)."""
import json
import re

VENUS_SCALE = 999.0
VENUS_GRID = (VENUS_SCALE, VENUS_SCALE)
REFUSAL = (-1, -1)          # the grounding answer "the target is not on the screen"
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
GROUNDING_ANSWER = re.compile(rf"^\[{_NUM},{_NUM}(?:,{_NUM},{_NUM})?\]$")   # [x, y] or [x0, y0, x1, y1]


class ParseError(ValueError):
    """Model output that is not a recognisable action sequence."""


def _action(kind: str, match: re.Match, px) -> dict:
    g = match.groups()
    if kind == "click":
        return {"type": "click", "point": px(g[0], g[1])}
    if kind == "long_press":
        return {"type": "long_press", "point": px(g[0], g[1]), "duration": float(g[2]) if g[2] else DEFAULT_LONG_PRESS}
    if kind == "drag":
        return {"type": "drag", "start": px(g[0], g[1]), "end": px(g[2], g[3])}
    if kind == "wait":
        return {"type": "wait"}
    return {"type": "type", "text": re.sub(r"\\(.)", r"\1", match.group("text"), flags=re.S)}


def parse_venus(text: str, width: int, height: int, grid: tuple[float, float] = VENUS_GRID) -> list[dict]:
    """Actions in image pixels from UI-Venus-2 action text whose coordinates span 0..`grid` (0–999 by default);
    ParseError if none is found. Actions are read left to right, each after the end of the one before, so
    that a typed text which looks like an action (`Type(content='Click(box=(1,2))')`) is read as text only."""

    def px(x: str, y: str) -> list[float]:
        return [float(x) / grid[0] * width, float(y) / grid[1] * height]

    text = re.sub(r"<think>.*?</think>", "", text, flags=re.S)
    m = re.search(r"<action>(.*?)</action>", text, re.S)
    body = m.group(1) if m else text
    found, pos = [], 0
    while True:
        hits = [(match.start(), kind, match) for kind, pattern in _PATTERNS if (match := pattern.search(body, pos))]
        if not hits:
            break
        _, kind, match = min(hits, key=lambda h: h[0])
        found.append(_action(kind, match, px))
        pos = match.end()
    if not found:
        raise ParseError("no action found")
    return found


def _stripped(output: str) -> str:
    return re.sub(r"<think>.*?</think>", "", output, flags=re.S).strip()


def _grounding_match(stripped: str):
    inner = re.fullmatch(r"<action>(.*)</action>", stripped, re.S)
    return GROUNDING_ANSWER.match(inner.group(1).strip() if inner else stripped)


def is_grounding_answer(output) -> bool:
    """Whether a model's output is a bare grounding answer, `[x, y]` or `[x0, y0, x1, y1]` (the refusal too)."""
    return isinstance(output, str) and _grounding_match(_stripped(output)) is not None


def parse_grounding(text: str, width: int, height: int, grid: tuple[float, float] = VENUS_GRID) -> list[dict]:
    """A grounding answer on the 0..`grid` grid as pixel actions: a click at the point or the box's centre (as
    the exports teach), `[]` for the refusal `[-1, -1]`. ParseError when the text is not one."""
    match = _grounding_match(_stripped(text))
    if not match:
        raise ParseError(f"not a point, a box or [-1, -1]: {text[:80]!r}")
    v = [float(x) for x in match.groups() if x is not None]
    if v == [float(c) for c in REFUSAL]:
        return []
    x, y = (v[0], v[1]) if len(v) == 2 else ((v[0] + v[2]) / 2, (v[1] + v[3]) / 2)
    return [{"type": "click", "point": [x / grid[0] * width, y / grid[1] * height]}]


def parse_output(output, width: int, height: int) -> list[dict]:
    """A model's output as pixel actions: a list of action dicts (the label's own format, or that list as
    JSON text), UI-Venus-2 text, a grounding answer `[x, y]` or `[x0, y0, x1, y1]` on the 0–999 grid, or the
    refusal `[-1, -1]` (no action: `[]`). ParseError when it is none."""
    if isinstance(output, str):
        if is_grounding_answer(output):
            return parse_grounding(output, width, height)
        stripped = _stripped(output)
        if stripped.startswith("["):
            try:
                output = json.loads(stripped)
            except json.JSONDecodeError as e:
                raise ParseError(f"bad JSON action list: {e.msg}") from e
            except RecursionError as e:
                raise ParseError("JSON action list nested too deep") from e
        else:
            return parse_venus(output, width, height)
    if isinstance(output, list) and all(isinstance(a, dict) and "type" in a for a in output):
        return output
    raise ParseError("output is neither action text nor a list of actions")


def number(v) -> str:
    """A coordinate as written: an int as it is, a float to 2 decimals without trailing zeros (never in
    exponent form, which the reader does not take)."""
    if isinstance(v, int):
        return str(v)
    return f"{round(v, 2):.2f}".rstrip("0").rstrip(".")


def _pair(p) -> str:
    return f"({number(p[0])},{number(p[1])})"


def _call(a: dict, durations: bool) -> str:
    if a["type"] == "click":
        return f"Click(box={_pair(a['point'])})"
    if a["type"] == "long_press":
        return f"LongPress(box={_pair(a['point'])}" + (f", duration={a['duration']})" if durations else ")")
    if a["type"] == "drag":
        return f"Drag(start={_pair(a['start'])},end={_pair(a['end'])})"
    if a["type"] == "type":
        text = a["text"].replace("\\", "\\\\").replace("'", "\\'")     # the reader undoes both
        return f"Type(content='{text}')"
    if a["type"] == "wait":
        return "Wait()"
    raise ValueError(f"no UI-Venus syntax for action type {a['type']!r}")


def venus_text(actions: list[dict], durations: bool = True) -> str:
    """Actions in UI-Venus syntax, comma-separated, with their coordinates as they are (a grid's integers, or
    pixels); a long press carries its duration unless `durations` is False (VenusBench's parser rejects the
    argument)."""
    return ",".join(_call(a, durations) for a in actions)


def action_block(actions: list[dict], durations: bool = True) -> str:
    """`venus_text` inside <action>…</action>, as a model answers."""
    return f"<action>{venus_text(actions, durations)}</action>"


def grounding_text(values) -> str:
    """A grounding answer: a point `[x, y]` or a box `[x0, y0, x1, y1]` (a grid's integers), or REFUSAL."""
    return "[" + ", ".join(number(v) for v in values) + "]"
