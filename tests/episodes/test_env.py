"""The Gymnasium environment's surface: registration, argument errors, one-shot families as episodes, the
UI-Venus text wrapper, vector environments and the loops docs/episodes.md shows."""
import re
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import synth.env
from synth import families
from synth.episodes.env import CaptchaEnv, TextActions

DOCS = Path(__file__).resolve().parents[2] / "docs" / "episodes.md"


def test_registered_and_every_family_served():
    env = gymnasium.make("synth/Captcha-v0", family="counting", difficulty=1)
    obs, info = env.reset(seed=0)
    assert obs["image"].shape == (800, 1280, 3) and obs["instruction"]
    assert set(families.NAMES) <= set(synth.env.FAMILIES) and set(synth.env.INTERACTIVE) <= set(synth.env.FAMILIES)


@pytest.mark.parametrize("kwargs, message", [
    ({"family": "nosuch"}, "family must be one of "),
    ({"difficulty": 6}, "difficulty must be one of 1, 2, 3, 4, 5, got 6"),
    ({"platform": "tv"}, "platform must be one of web, mobile, desktop"),
    ({"lang": "fr"}, "lang must be one of en, zh"),
    ({"reward": "shaped"}, "reward must be one of sparse, dense"),
])
def test_bad_arguments_name_the_argument_and_the_allowed_values(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        CaptchaEnv(**kwargs)


@pytest.mark.parametrize("action, message", [
    ({"type": 9}, "action type must be one of click"),
    ({"type": "click", "point": [1.0]}, "action point must be two finite numbers"),
    ({"type": "drag", "point": [1, 2], "end": [np.nan, 3]}, "action end must be two finite numbers"),
    ({"type": "type", "text": 5}, "action text must be a string"),
    ({"type": "long_press", "duration": -1}, "action duration must be one number"),
    ("Click(box=(1,2))", "action must be a dict"),
])
def test_a_malformed_action_raises_a_value_error(action, message):
    env = CaptchaEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=re.escape(message)):
        env.step(action)


@pytest.mark.parametrize("name, platform, lang", [("counting", "web", "en"), ("text", "mobile", "zh"),
                                                  ("slider", "desktop", "en"), ("hold", "web", "zh")])
def test_one_shot_families_are_one_answer_episodes(name, platform, lang):
    env = CaptchaEnv(family=name, difficulty=3, platform=platform, lang=lang)
    check_env(env, skip_render_check=True)
    for seed in range(3):
        env.reset(seed=seed)
        total, steps = 0.0, 0
        while True:
            obs, r, term, trunc, info = env.step(env.expert_action())
            total, steps = total + r, steps + 1
            if term or trunc:
                break
        assert term and total == 1.0 and steps <= 6
        env.reset(seed=seed)                          # a click on empty page ground does nothing ...
        obs, r, term, trunc, info = env.step({"type": "click", "point": [2.0, 2.0]})
        assert (r, term) == (0.0, False)
        x0, y0, x1, y1 = info["truth"]["objects"][-1]["bbox"]   # ... and Verify, unanswered, fails
        obs, r, term, trunc, info = env.step({"type": "click", "point": [(x0 + x1) / 2, (y0 + y1) / 2]})
        assert (r, term) == (0.0, True)


def test_dense_reward_has_the_sparse_return():
    sparse, dense = CaptchaEnv(difficulty=2), CaptchaEnv(difficulty=2, reward="dense")
    tried = 0
    for seed in range(8):
        returns = []
        for env in (sparse, dense):
            env.reset(seed=seed)
            rewards = []
            wrong = env.task.mistake(None, env.episode.state)
            if wrong is None:           # half a turn away: no way is the wrong one
                break
            wrong = env.encode(env.episode.to_image_action(wrong))
            for act in [wrong] + [None] * 10:
                obs, r, term, trunc, info = env.step(act or env.expert_action())
                rewards.append(r)
                if term:
                    break
            returns.append(rewards)
        if len(returns) < 2:
            continue
        tried += 1
        assert sum(returns[0]) == pytest.approx(sum(returns[1])) == 1.0
        assert returns[1][0] < 0 < max(returns[1][1:])   # the wrong turn costs, the way back earns
    assert tried >= 4


def test_text_actions_read_ui_venus_text_and_survive_garbage():
    env = TextActions(CaptchaEnv(difficulty=2))
    obs, info = env.reset(seed=3)
    h, w = obs["image"].shape[:2]
    obs, r, term, trunc, info = env.step("I think I should click somewhere")
    assert (r, term) == (0.0, False) and "parse_error" in info and info["step"] == 1
    obs, r, term, trunc, info = env.step(12345)
    assert r == 0.0 and "parse_error" in info
    total = 0.0
    while not (term or trunc):
        a = env.unwrapped.episode.expert_action()
        x, y = a["point"][0] / w * 999, a["point"][1] / h * 999
        text = f"<think>turn it</think><action>Click(box=({x:.0f},{y:.0f}))</action>"
        obs, r, term, trunc, info = env.step(text)
        total += r
    assert term and total == 1.0


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_envs_step_together_and_match_single_envs(mode):
    envs = synth.env.make_vec(2, mode=mode, family="rotate_arrows", difficulty=2)
    try:
        obs, info = envs.reset(seed=[5, 6])
        single = CaptchaEnv(difficulty=2)
        assert np.array_equal(obs["image"][1], single.reset(seed=6)[0]["image"])
        actions = envs.action_space.sample()
        obs, r, term, trunc, info = envs.step(actions)
        assert obs["image"].shape == (2, 800, 1280, 3) and r.shape == (2,)
    finally:
        envs.close()


def test_make_vec_checks_its_arguments_here():
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        synth.env.make_vec(0)
    with pytest.raises(ValueError, match="family must be one of"):
        synth.env.make_vec(2, family="nosuch")


def test_the_loops_in_the_docs_run(capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.S)
    loops = [b for b in blocks if "for episode in" in b]
    assert len(loops) == 2
    for code in loops:
        exec(compile(code, str(DOCS), "exec"), {})
    out = capsys.readouterr().out
    assert "expert: 10 of 10 solved" in out
    solved = int(re.search(r"random agent: (\d+) of 10", out).group(1))
    assert solved <= 1


def test_the_docs_list_every_interactive_task():
    text = DOCS.read_text()
    assert all(f"| `{name}` |" in text for name in synth.env.INTERACTIVE)
