"""Environment steps per second, per interactive task and for vector environments on every core.

Usage: python bench/env_steps.py [--family NAME]... [--steps 400] [--repeat 3] [--envs 2]

Each measurement steps environments for `--steps` steps, half the expert's actions and half a uniformly
random agent's (resetting when an episode ends; resets are counted in the time), after one warm-up episode
(the pages render then). Reported: the median of `--repeat` runs, for one environment in this process and
for `--envs` environments in worker processes (synth.env.make_vec), and beside them a reference measured in
the same run: how fast this machine composes a screenshot (synth.captcha.compose, the floor of any step), so that
the ratio is comparable across machines and loads."""
import argparse
import statistics
import time

import numpy as np

import synth.env
from synth.captcha.compose import compose
from synth.episodes.env import CaptchaEnv


def one_env(name: str, steps: int) -> float:
    env = CaptchaEnv(family=name, difficulty=3)
    env.action_space.seed(0)
    for seed in range(4):                               # warm-up: every page of the platform rendered
        env.reset(seed=100 + seed)
    env.reset(seed=1)
    t0, seed = time.perf_counter(), 2
    for i in range(steps):
        act = env.expert_action() if i % 2 == 0 else env.action_space.sample()
        _, _, term, trunc, _ = env.step(act)
        if term or trunc:
            env.reset(seed=seed)
            seed += 1
    return steps / (time.perf_counter() - t0)


def vector_envs(name: str, steps: int, n: int) -> float:
    envs = synth.env.make_vec(n, family=name, difficulty=3)
    try:
        envs.action_space.seed(0)
        envs.reset(seed=list(range(n)))
        envs.step(envs.action_space.sample())          # warm: every worker has rendered its pages
        t0 = time.perf_counter()
        for _ in range(steps // n):
            envs.step(envs.action_space.sample())      # vector envs reset themselves when an episode ends
        return (steps // n) * n / (time.perf_counter() - t0)
    finally:
        envs.close()


def reference(steps: int) -> float:
    """Screenshots composed per second: the page copied, a puzzle pasted, the instruction written."""
    env = CaptchaEnv(difficulty=3)
    env.reset(seed=0)
    e = env.episode
    puzzle = np.full((320, 320, 3), 128, np.uint8)
    t0 = time.perf_counter()
    for _ in range(steps):
        compose(e.page, puzzle, e.instruction)
    return steps / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--family", action="append")
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--envs", type=int, default=2)
    args = ap.parse_args()
    names = args.family or list(synth.env.INTERACTIVE)
    ref = statistics.median(reference(args.steps) for _ in range(args.repeat))
    print(f"reference: {ref:.0f} screenshots composed per second (one process)")
    print(f"{'family':16s} {'1 env steps/s':>14s} {'ratio':>6s} {f'{args.envs} envs steps/s':>15s} {'ratio':>6s}")
    for name in names:
        single = statistics.median(one_env(name, args.steps) for _ in range(args.repeat))
        vec = statistics.median(vector_envs(name, args.steps, args.envs) for _ in range(args.repeat))
        print(f"{name:16s} {single:14.0f} {single / ref:6.2f} {vec:15.0f} {vec / ref:6.2f}", flush=True)


if __name__ == "__main__":
    main()
