"""Draw a label over its image: widget, objects by role, accept regions, reference actions, and a grounding
sample's other queries' targets, numbered."""
from PIL import Image, ImageDraw

from synth.core.fonts import font

ROLE_COLOURS = {"target": (0, 200, 0), "distractor": (230, 40, 40)}
OTHER = (0, 120, 255)


def draw_label(image: Image.Image, label: dict) -> Image.Image:
    """A copy of `image` with the label's geometry drawn on it."""
    im = image.convert("RGB")
    d = ImageDraw.Draw(im)
    width = max(2, im.width // 600)
    if label.get("widget"):
        d.rectangle(label["widget"], outline=(255, 0, 255), width=width)
    for o in label["objects"]:
        d.rectangle(o["bbox"], outline=ROLE_COLOURS.get(o["role"], OTHER), width=1)
    for s in label["accept"]["steps"]:
        d.rectangle(s["region"], outline=(255, 220, 0), width=width)
        if s["type"] == "drag":
            d.rectangle(s["end_region"], outline=(255, 140, 0), width=width)
    numbers = font(max(12, im.width // 90))
    for i, q in enumerate(label.get("queries") or []):
        if i and q["feasible"]:
            box = q["accept"]["steps"][0]["region"]
            d.rectangle(box, outline=(190, 70, 255), width=width)
            d.text((box[0], max(0, box[1] - numbers.size - 2)), f"q{i + 1}", fill=(190, 70, 255), font=numbers)
    r = 4 * width
    for a in label["actions"]:
        if a["type"] in ("click", "long_press"):
            x, y = a["point"]
            d.ellipse([x - r, y - r, x + r, y + r], outline=(255, 0, 0), width=width)
        elif a["type"] == "drag":
            d.line([*a["start"], *a["end"]], fill=(255, 0, 0), width=width)
            x, y = a["end"]
            d.ellipse([x - r, y - r, x + r, y + r], outline=(255, 0, 0), width=width)
    return im

