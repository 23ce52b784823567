"""Interactive tasks in the Gymnasium environment: every task passes Gymnasium's checker, a stray click is judged
invalid and the expert's last step correct, its expert solves every episode (also after a mistake), a random
agent rarely does, and the same seed gives the same pixels."""
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from synth.episodes import tasks
from synth.episodes.env import CaptchaEnv

NAMES = tasks.NAMES


def run(env: CaptchaEnv, seed: int, mistakes: int = 0, rng=None) -> tuple[float, int, bool]:
    """(return, steps, solved) of the expert, after `mistakes` of the task's wrong actions."""
    env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        act = None
        if mistakes:
            wrong = env.task.mistake(rng, env.episode.state)
            if wrong is not None:
                act = env.encode(env.episode.to_image_action(wrong))
            mistakes -= 1
        obs, r, term, trunc, info = env.step(act if act is not None else env.expert_action())
        total, steps = total + r, steps + 1
        if term or trunc:
            return total, steps, bool(term and info["truth"]["done"])


@pytest.mark.parametrize("name", NAMES)
def test_check_env_and_the_judge_of_each_step(name):
    env = CaptchaEnv(family=name, difficulty=3)
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=0)
    assert obs["instruction"].strip() and obs["image"].shape == env.observation_space["image"].shape
    # a click in the screen's corner, far from the widget, is judged invalid and earns nothing
    _, reward, term, _, info = env.step({"type": "click", "point": [1.0, 1.0]})
    assert (reward, term, info["judge"]["step"]) == (0.0, False, "invalid")
    env.reset(seed=0)
    while True:
        action = env.expert_action()
        assert env.action_space.contains(action)
        _, reward, term, trunc, info = env.step(action)
        if term or trunc:
            break
    # the expert's last step solves it: judged correct, and the episode complete
    assert term and reward == 1.0 and info["truth"]["done"]
    assert info["judge"]["step"] == "correct" and info["judge"]["verdict"] == "complete"


@pytest.mark.parametrize("name", NAMES)
def test_expert_solves_every_level(name):
    for level in (1, 3, 5):
        env = CaptchaEnv(family=name, difficulty=level)
        for seed in range(6):
            total, steps, solved = run(env, seed)
            assert solved and total == 1.0, (level, seed, total, steps)


@pytest.mark.parametrize("name", NAMES)
def test_expert_recovers_from_mistakes(name):
    env = CaptchaEnv(family=name, difficulty=2)
    rng = np.random.default_rng(0)
    for seed in range(6):
        total, steps, solved = run(env, seed, mistakes=1, rng=rng)
        assert solved and total == 1.0, (seed, total, steps)


@pytest.mark.parametrize("name", NAMES)
def test_random_agent_rarely_solves(name):
    env = CaptchaEnv(family=name, difficulty=2)
    env.action_space.seed(0)
    solved = 0
    for seed in range(20):
        env.reset(seed=seed)
        while True:
            obs, r, term, trunc, info = env.step(env.action_space.sample())
            if term or trunc:
                solved += r == 1.0
                break
    assert solved <= 1


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_pixels(name):
    a, b = CaptchaEnv(family=name, difficulty=4), CaptchaEnv(family=name, difficulty=4)
    for env in (a, b):
        env.reset(seed=7)
    for _ in range(3):
        oa, *_ = a.step(a.expert_action())
        ob, *_ = b.step(b.expert_action())
        assert np.array_equal(oa["image"], ob["image"])
        if a.episode.terminated:
            break
