"""The prompts of exported conversations.

`VENUS_CAPTCHA_SYSTEM` is the published UI-Venus CAPTCHA system prompt (inclusionAI/UI-Venus,
`models/captcha/captcha_prompt.py`, MIT licence, see assets/CREDITS.md), word for word: VenusBench-CAPTCHA
records carry it, and a model is best trained on the prompt it is evaluated with. For other coordinate
conventions only its coordinate range changes. The text is kept in venus_captcha_system.txt."""
from importlib import resources

from synth.export.coords import Frame

_SYSTEM_TEXT = resources.files(__package__) / "venus_captcha_system.txt"   # line for line as published
VENUS_CAPTCHA_SYSTEM = _SYSTEM_TEXT.read_text(encoding="utf-8").removesuffix("\n")

VENUS_CAPTCHA_USER = "<image>"


def captcha_system(frame: Frame) -> str:
    """The CAPTCHA system prompt with `frame`'s coordinate range (the published text for 0–999)."""
    corner = f"({int(frame.sx)}, {int(frame.sy)})"
    return VENUS_CAPTCHA_SYSTEM.replace("(999, 999)", corner)


def grounding_system(frame: Frame, target: str) -> str:
    """The grounding system prompt: answer a point or a box in `frame`'s coordinates, [-1, -1] when absent."""
    shape = "[x1, y1, x2, y2] box" if target == "box" else "[x, y] point"
    return (f"You are a GUI agent. Find the screen element the instruction refers to and answer with its "
            f"{shape}, in {frame.description}. If the element is not on the screen, answer [-1, -1].")

_THINK = {
    "en": {"type": "The CAPTCHA asks: {instruction} The answer is {text}, so I click the answer field and type it.",
           "click_set": "The CAPTCHA asks: {instruction} I click every matching target ({n} in all).",
           "click_order": "The CAPTCHA asks: {instruction} I click the {n} targets in the order asked.",
           "drag": "The CAPTCHA asks: {instruction} I drag the handle until the picture is put right.",
           "long_press": "The CAPTCHA asks: {instruction} I press and hold the right button.",
           "skip": "The CAPTCHA asks: {instruction} Nothing on the picture matches, so I choose Skip."},
    "zh": {"type": "验证码要求：{instruction} 答案是 {text}，点击输入框并输入。",
           "click_set": "验证码要求：{instruction} 点击所有符合的目标（共 {n} 个）。",
           "click_order": "验证码要求：{instruction} 按要求的顺序点击这 {n} 个目标。",
           "drag": "验证码要求：{instruction} 拖动滑块，直到图片复原。",
           "long_press": "验证码要求：{instruction} 长按正确的按钮。",
           "skip": "验证码要求：{instruction} 图中没有符合的目标，选择跳过。"},
}


def think(label: dict) -> str:
    """A short reasoning line for the <think> part: the task as shown and what the answer does."""
    lang = label["lang"] if label["lang"] in _THINK else "en"
    instruction = label["instruction"].strip()
    if instruction and instruction[-1] not in ".?!。？！":
        instruction += "。" if lang == "zh" else "."
    return _THINK[lang][label["params"]["task"]].format(
        instruction=instruction, text=label["answer"]["text"], n=len(label["accept"]["steps"]))
