"""One sample as a chat turn: system prompt, user turn and the assistant's answer, in a model's coordinate
convention. CAPTCHA samples answer in UI-Venus action syntax (a long press with its duration); grounding
samples answer with a point `[x, y]` or a box `[x1, y1, x2, y2]`, or `[-1, -1]` when the target is absent.
A grounding sample with several queries is one conversation with a turn per query, or (`split_queries`) one
conversation per query."""
from dataclasses import dataclass

from synth.export.answer import grounding_text, model_actions
from synth.export.prompts import VENUS_CAPTCHA_USER, captcha_system, grounding_system, think
from synth.labels import spec
from synth.labels.actions import action_block, parse_grounding, parse_venus


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
    answer = f"<think>{think(label)}</think>{action_block(model_actions(label, frame))}"
    return Turn(captcha_system(frame), VENUS_CAPTCHA_USER, answer)


def read_answer(label: dict, text: str, options) -> list[dict]:
    """An assistant answer (as `turn` writes it) back as pixel actions of the stored image."""
    frame = options.frame(label)
    read = parse_grounding if label["kind"] == "grounding" else parse_venus
    return read(text, frame.width, frame.height, grid=(frame.sx, frame.sy))


def dialogues(label: dict, options) -> list[tuple[int, list[dict]]]:
    """The sample's records: (index of the first query, the label as seen by each of its turns,
    `spec.query_label`). One record of every query in order, or one per query with `options.split_queries`."""
    views = [spec.query_label(label, i) for i in range(len(label.get("queries") or [None]))]
    return list(enumerate([v] for v in views)) if options.split_queries else [(0, views)]


def messages(turns: list[Turn]) -> list[dict]:
    """Turns as chat messages: the system prompt once, then each user question (the image placeholder in the
    first one only) and its answer."""
    out = [{"role": "system", "content": turns[0].system}]
    for j, t in enumerate(turns):
        out += [{"role": "user", "content": t.user if j == 0 else t.user.removeprefix("<image>")},
                {"role": "assistant", "content": t.assistant}]
    return out


def record_key(label: dict, query: int, options) -> str:
    """A record's key: the sample's, with `#<query>` when queries are split into records of their own."""
    return f"{label['key']}#{query}" if options.split_queries else label["key"]
