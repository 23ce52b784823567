"""Scoring as training code calls it: a reward in [0, 1] for proposed actions, or for a model's raw output,
against a sample's label, and verdicts on every step. The rules live in synth.labels (reward: synth's own;
venus: VenusBench-CAPTCHA's; judge: the step and sequence verdicts).

    from synth.reward import score, score_output, query_label, judge
    score(label, actions)                  # pixel actions of the stored image
    score_output(label, text)              # UI-Venus action text, pixel JSON or a grounding answer; 0.0 if unreadable
    score(query_label(label, i), actions)  # query i of a grounding sample
    judge(label, actions)                  # {"steps": ["correct" | "exploratory" | "invalid" | "wrong", …],
                                           #  "verdict": "complete" | "partial" | "infeasible" | "failed", "reward"}"""
from synth.labels.judge import STEP_VERDICTS, VERDICTS, judge
from synth.labels.reward import RULES, score, score_answer, score_output
from synth.labels.spec import query_label

__all__ = ["RULES", "STEP_VERDICTS", "VERDICTS", "judge", "query_label", "score", "score_answer", "score_output"]
