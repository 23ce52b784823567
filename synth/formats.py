"""Action syntaxes: parse model output (UI-Venus-2 style or pixel JSON) and export labels to other conventions.

UI-Venus-2 actions: `Click(box=(x,y))`, `Drag(start=(x1,y1),end=(x2,y2))`, `Type(content='…')`,
`LongPress(box=(x,y))`, comma-separated, optionally inside <action>…</action>, coordinates normalised to
0–999 of the image; a <think>…</think> part is ignored."""
import json
import re

VENUS_SCALE = 999.0
_NUM = r"\s*(-?\d+(?:\.\d+)?)\s*"
_PAIR = rf"\({_NUM},{_NUM}\)"
_PATTERNS = [
    ("click", re.compile(rf"Click\s*\(\s*box\s*=\s*{_PAIR}\s*\)")),
    ("long_press", re.compile(rf"LongPress\s*\(\s*box\s*=\s*{_PAIR}\s*(?:,\s*duration\s*=\s*{_NUM})?\)")),
    ("drag", re.compile(rf"Drag\s*\(\s*start\s*=\s*{_PAIR}\s*,\s*end\s*=\s*{_PAIR}\s*\)")),
    ("type", re.compile(r"Type\s*\(\s*content\s*=\s*(?P<q>['\"])(?P<text>(?:\\.|(?!(?P=q)).)*)(?P=q)\s*\)", re.S)),
]
DEFAULT_LONG_PRESS = 5.0   # seconds assumed when LongPress gives no duration


class ParseError(ValueError):
    """Model output that is not a recognisable action sequence."""


def _px(v: str, size: int) -> float:
    return float(v) / VENUS_SCALE * size


def parse_venus(text: str, width: int, height: int) -> list[dict]:
    """Actions in image pixels from UI-Venus-2 action text; ParseError if none is found."""
    text = re.sub(r"<think>.*?</think>", "", text, flags=re.S)
    m = re.search(r"<action>(.*?)</action>", text, re.S)
    body = m.group(1) if m else text
    found = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(body):
            g = match.groups()
            if kind == "click":
                action = {"type": "click", "point": [_px(g[0], width), _px(g[1], height)]}
            elif kind == "long_press":
                action = {"type": "long_press", "point": [_px(g[0], width), _px(g[1], height)],
                          "duration": float(g[2]) if g[2] else DEFAULT_LONG_PRESS}
            elif kind == "drag":
                action = {"type": "drag", "start": [_px(g[0], width), _px(g[1], height)],
                          "end": [_px(g[2], width), _px(g[3], height)]}
            else:
                action = {"type": "type", "text": re.sub(r"\\(.)", r"\1", match.group("text"))}
            found.append((match.start(), action))
    if not found:
        raise ParseError("no action found")
    return [a for _, a in sorted(found, key=lambda f: f[0])]


def parse_output(output, width: int, height: int) -> list[dict]:
    """A model's output as pixel actions: a list of action dicts (the label's own format, or that list as
    JSON text), or UI-Venus-2 text. ParseError when it is neither."""
    if isinstance(output, str):
        stripped = output.strip()
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


def _venus_point(p, width: int, height: int) -> str:
    return f"({round(p[0] / width * VENUS_SCALE)},{round(p[1] / height * VENUS_SCALE)})"


def to_venus(actions: list[dict], width: int, height: int) -> str:
    """Actions in UI-Venus-2 syntax with 0–999 coordinates, wrapped in <action>…</action>."""
    parts = []
    for a in actions:
        if a["type"] == "click":
            parts.append(f"Click(box={_venus_point(a['point'], width, height)})")
        elif a["type"] == "long_press":
            parts.append(f"LongPress(box={_venus_point(a['point'], width, height)}, duration={a['duration']})")
        elif a["type"] == "drag":
            parts.append(f"Drag(start={_venus_point(a['start'], width, height)},"
                         f"end={_venus_point(a['end'], width, height)})")
        elif a["type"] == "type":
            text = a["text"].replace("\\", "\\\\").replace("'", "\\'")
            parts.append(f"Type(content='{text}')")
    return "<action>" + ", ".join(parts) + "</action>"


def screenspot_record(label: dict, image_name: str) -> dict:
    """A grounding label as a ScreenSpot-style record: bbox as [x, y, width, height] in pixels (the layout of
    the original ScreenSpot JSON), data_type "text" when the target shows text and "icon" otherwise."""
    x0, y0, x1, y1 = label["accept"]["steps"][0]["region"]
    return {"img_filename": image_name, "bbox": [x0, y0, round(x1 - x0, 2), round(y1 - y0, 2)],
            "instruction": label["instruction"], "data_type": label["params"]["target"].split(":")[-1],
            "platform": label["platform"], "lang": label["lang"], "data_source": label["template"],
            "key": label["key"]}
