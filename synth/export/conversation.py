"""One sample as a chat turn: system prompt, user turn and the assistant's answer, in a model's coordinate
convention. CAPTCHA samples answer in UI-Venus action syntax (a long press with its duration); grounding
samples answer with a point `[x, y]` or a box `[x1, y1, x2, y2]`, or `[-1, -1]` when the target is absent."""
from dataclasses import dataclass

from synth.export.answer import action_text, grounding_text, model_actions, parse_actions, parse_grounding
from synth.export.prompts import VENUS_CAPTCHA_USER, captcha_system, grounding_system, think


@dataclass(frozen=True)
class Turn:
    system: str
    user: str          # starts with the "<image>" placeholder
    assistant: str


def turn(label: dict, options) -> Turn:
    """The sample's conversation under `options` (coordinate convention, point or box)."""
    frame = options.frame(label)
    if label["kind"] == "grounding":
        return Turn(grounding_system(frame, options.target), "<image>" + label["instruction"],
                    grounding_text(label, frame, options.target))
    answer = f"<think>{think(label)}</think>{action_text(model_actions(label, frame))}"
    return Turn(captcha_system(frame), VENUS_CAPTCHA_USER, answer)


def read_answer(label: dict, text: str, options) -> list[dict]:
    """An assistant answer (as `turn` writes it) back as pixel actions of the stored image."""
    frame = options.frame(label)
    if label["kind"] == "grounding":
        return parse_grounding(text, frame)
    return parse_actions(text, frame)
