"""synth's reward in the shapes RL trainers call: TRL's GRPOTrainer reward functions and verl's custom reward
function. Both score a model's completion against a sample's label as `synth score` does
(synth.labels.reward.score_output: UI-Venus action text or grounding answers on the 0–999 grid, pixel action
JSON; 0.0 for text that holds no action), so a trainer's rewards and `synth score` agree.

    # TRL: the dataset has a `label` column (`synth export --format trl` writes it), GRPOTrainer passes it
    from synth.rl import trl_reward
    GRPOTrainer(model=..., reward_funcs=trl_reward, train_dataset=dataset, ...)

    # verl: custom_reward_function.path=<path of this file> custom_reward_function.name=verl_score, on the
    # parquet of `synth export --format verl` (reward_model.ground_truth holds the label)"""
import json

from synth.labels.reward import score_output


def _label(value) -> dict:
    """A label given as JSON text (as the export columns hold it) or as a dict."""
    return json.loads(value) if isinstance(value, (str, bytes)) else value


def completion_text(completion) -> str:
    """A completion as text: a string as it is; a conversational completion (a list of messages, or one
    message) as its last message's content, whose typed parts ({"type": "text", "text": …}) are joined."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if not isinstance(completion, list) or not completion or not isinstance(completion[-1], dict):
        return ""
    content = completion[-1].get("content", "")
    if isinstance(content, list):
        return "".join(p.get("text") or "" for p in content if isinstance(p, dict) and p.get("type") == "text")
    return content if isinstance(content, str) else ""


def trl_reward(completions: list, label: list, **kwargs) -> list[float]:
    """Rewards of a batch of completions as TRL's GRPOTrainer asks for them: `completions` (strings, or message
    lists for conversational datasets) and `label`, the dataset column of each completion's sample label as
    JSON; the other columns and trainer arguments arrive in `kwargs` and are not needed."""
    return [score_output(_label(lab), completion_text(c)) for c, lab in zip(completions, label, strict=True)]


def verl_score(data_source: str, solution_str: str, ground_truth: str, extra_info: dict | None = None) -> float:
    """The reward of one response as verl's custom reward function is called: `solution_str` the decoded
    response, `ground_truth` the sample's label as JSON (reward_model.ground_truth of the exported parquet)."""
    return score_output(_label(ground_truth), solution_str if isinstance(solution_str, str) else "")
