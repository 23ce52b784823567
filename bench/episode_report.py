"""Per interactive task and level: how often the expert solves an episode (with return 1.0), after one of the
task's mistakes too, how often a uniformly random agent does, and the expert's mean steps.

Usage: python bench/episode_report.py [--family NAME]... [--episodes 50] [--level L]...
Episodes are seeds 0 .. N-1 of CaptchaEnv(family, level) on web pages in English (the pages do not change
the task's state)."""
import argparse
import statistics

import numpy as np

import synth.env
from synth.core.levels import LEVELS
from synth.episodes.env import CaptchaEnv


def expert(env: CaptchaEnv, seed: int, mistake: bool) -> tuple[bool, int]:
    """(solved with return 1.0, steps) of the expert, after one mistake first if `mistake`."""
    env.reset(seed=seed)
    wrong = env.task.mistake(np.random.default_rng(seed), env.episode.state) if mistake else None
    total, steps = 0.0, 0
    while True:
        act = env.encode(env.episode.to_image_action(wrong)) if wrong is not None else env.expert_action()
        wrong = None
        _, r, term, trunc, info = env.step(act)
        total, steps = total + r, steps + 1
        if term or trunc:
            return term and info["truth"]["done"] and total == 1.0, steps


def random_agent(env: CaptchaEnv, seed: int) -> bool:
    env.reset(seed=seed)
    env.action_space.seed(seed)
    while True:
        _, r, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            return r == 1.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--family", action="append")
    ap.add_argument("--episodes", type=int, default=50)
    ap.add_argument("--level", type=int, action="append")
    args = ap.parse_args()
    n = args.episodes
    print(f"{'task':16s} {'level':>5s} {'expert':>8s} {'after mistake':>13s} {'random':>7s} {'steps':>6s}")
    for name in args.family or synth.env.INTERACTIVE:
        for level in args.level or LEVELS:
            env = CaptchaEnv(family=name, difficulty=level)
            runs = [expert(env, s, False) for s in range(n)]
            recovered = sum(expert(env, s, True)[0] for s in range(n))
            lucky = sum(random_agent(env, s) for s in range(n))
            print(f"{name:16s} {level:5d} {sum(ok for ok, _ in runs):4d}/{n:<3d} {recovered:9d}/{n:<3d} "
                  f"{lucky:3d}/{n:<3d} {statistics.mean(s for _, s in runs):6.2f}", flush=True)


if __name__ == "__main__":
    main()
