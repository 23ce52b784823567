"""The Gymnasium environment: a CAPTCHA widget on a rendered page, stepped by clicks, drags, long presses,
typed text and waits (`CaptchaEnv`); the same with UI-Venus action text (`TextActions`); several in
worker processes (`make_vec`). Registered as "synth/Captcha-v0" by `import synth.env`."""
import string
from functools import partial

import gymnasium
import numpy as np
from gymnasium import spaces

from synth import episodes
from synth.core.errors import Reject
from synth.core.levels import LEVELS
from synth.episodes import pages
from synth.episodes.base import ACTION_TYPES
from synth.episodes.base import action as make_action
from synth.episodes.episode import Episode, start
from synth.episodes.rollout import accept_step, label_objects
from synth.labels import spec
from synth.labels.actions import ParseError, parse_venus
from synth.labels.judge import judge
from synth.screens import PLATFORMS

LANGS = ("en", "zh")
REWARDS = ("sparse", "dense")
# every character an instruction or typed answer may hold: printable ASCII, CJK punctuation, ideographs
# and full-width forms
CHARSET = ("".join(c for c in string.printable if c not in "\t\n\r\x0b\x0c")
           + "".join(map(chr, range(0x3000, 0x3040))) + "".join(map(chr, range(0x4E00, 0xA000)))
           + "".join(map(chr, range(0xFF00, 0xFFF0))) + "“”‘’—…·×÷")
TYPED = string.ascii_letters + string.digits + "-"     # every typed answer's characters (counts, codes, sums)
MAX_INSTRUCTION, MAX_TYPED, MAX_DURATION = 400, 32, 10.0


def _choice(name: str, value, allowed) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(str, allowed))}, got {value!r}")


class CaptchaEnv(gymnasium.Env):
    """One CAPTCHA family (`family`, any of synth.env.FAMILIES) at one level on a platform's screens.

    Observation: {"image": the screenshot (H, W, 3) uint8, "instruction": the task as the agent is told it}.
    Action: {"type": index into ACTION_TYPES, "point": [x, y], "end": [x, y] (drags), "text": typed text,
    "duration": [seconds] (long presses)}, in screenshot pixels; a click on the widget's Verify button
    ends the episode. Reward: 1.0 when the episode ends solved (one-shot families: synth.labels.reward's score of
    the actions, with partial credit where the family gives it), else 0; `reward="dense"` spreads it over
    the steps by the task's progress, with the same return. `info["truth"]` is the state's ground truth;
    `info["judge"]` the verdict on the step's action as the trajectory writer's label of the state would give it
    (synth.labels.judge: correct, exploratory, invalid or wrong), every step's so far, and the episode's
    verdict (complete when it ended solved; partial when some step was correct; failed otherwise)."""
    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, family: str = "rotate_arrows", difficulty: int = 2, platform: str = "web", lang: str = "en",
                 reward: str = "sparse", render_mode: str | None = None) -> None:
        _choice("family", family, episodes.NAMES)
        _choice("difficulty", difficulty, LEVELS)
        _choice("platform", platform, tuple(PLATFORMS))
        _choice("lang", lang, LANGS)
        _choice("reward", reward, REWARDS)
        _choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        self.family, self.level, self.platform, self.lang = family, difficulty, platform, lang
        self.dense, self.render_mode = reward == "dense", render_mode
        self.task = episodes.task(family)
        screen = PLATFORMS[platform]
        w, h = (v * screen["dpr"] for v in screen["viewport"])
        self.puzzle_size = screen["puzzle"]
        self.observation_space = spaces.Dict({
            "image": spaces.Box(0, 255, (h, w, 3), np.uint8),
            "instruction": spaces.Text(MAX_INSTRUCTION, charset=CHARSET)})
        corner = np.array([w, h], np.float32)
        self.action_space = spaces.Dict({
            "type": spaces.Discrete(len(ACTION_TYPES)),
            "point": spaces.Box(np.zeros(2, np.float32), corner, dtype=np.float32),
            "end": spaces.Box(np.zeros(2, np.float32), corner, dtype=np.float32),
            "text": spaces.Text(MAX_TYPED, min_length=0, charset=TYPED),
            "duration": spaces.Box(0.0, MAX_DURATION, (1,), np.float32)})
        self.episode = None
        self._image = None

    # -- Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = np.random.default_rng(int(self.np_random.integers(2**63)))

        def page_for(controls: str):        # a page for each draw: some pages' bands hold fewer words
            return pages.page(self.platform, self.lang, int(rng.integers(pages.SCREENS)), controls)
        self.episode = start(self.task, rng, self.level, self.lang, self.puzzle_size, page_for, self.dense)
        self.verdicts = []
        return self._observe(), self._info()

    def step(self, action):
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        act = self.decode(action)
        self.verdicts.append(judge(state_label(self.episode), [act])["steps"][0])
        reward = self.episode.step(act)
        return self._observe(), reward, self.episode.terminated, self.episode.truncated, self._info()

    def render(self):
        return self._image if self.render_mode == "rgb_array" else None

    # -- beyond the API
    def expert_action(self) -> dict:
        """The expert's next action for the current state, in the action space's form."""
        return self.encode(self.episode.expert_action())

    def decode(self, act) -> dict:
        """An action of the action space (or with "type" as a name) as synth.episodes.base.action's dict;
        ValueError naming the part that is malformed."""
        if not isinstance(act, dict):
            raise ValueError("action must be a dict with keys type, point, end, text, duration; "
                             f"got {type(act).__name__}")
        kind = act.get("type")
        if isinstance(kind, (int, np.integer)) and 0 <= int(kind) < len(ACTION_TYPES):
            kind = ACTION_TYPES[int(kind)]
        _choice("action type", kind, ACTION_TYPES)
        point = self._point(act, "point", [0.0, 0.0])
        end = self._point(act, "end", point)
        text = act.get("text", "")
        if not isinstance(text, str):
            raise ValueError(f"action text must be a string, got {type(text).__name__}")
        duration = np.asarray(act.get("duration", 0.0), np.float64).reshape(-1)
        if duration.size != 1 or not np.isfinite(duration[0]) or duration[0] < 0:
            raise ValueError(f"action duration must be one number of seconds >= 0, got {act.get('duration')!r}")
        return make_action(kind, point, end, text, float(duration[0]))

    @staticmethod
    def _point(act: dict, key: str, default) -> list[float]:
        if key not in act:
            return list(default)
        p = np.asarray(act[key], np.float64).reshape(-1)
        if p.size != 2 or not np.all(np.isfinite(p)):
            raise ValueError(f"action {key} must be two finite numbers [x, y], got {act[key]!r}")
        return [float(p[0]), float(p[1])]

    @staticmethod
    def encode(act: dict) -> dict:
        """synth.episodes.base.action's dict in the action space's form."""
        return {"type": ACTION_TYPES.index(act["type"]), "point": np.array(act["point"], np.float32),
                "end": np.array(act["end"], np.float32), "text": act["text"],
                "duration": np.array([act["duration"]], np.float32)}

    def _observe(self) -> dict:
        self._image = self.episode.image()
        return {"image": self._image, "instruction": self.episode.instruction}

    def _info(self) -> dict:
        e = self.episode
        verdicts = list(self.verdicts)
        solved = e.terminated and e.task.done(e.state)
        verdict = "complete" if solved else "partial" if "correct" in verdicts else "failed"
        return {"truth": e.truth(), "family": self.family, "step": e.steps, "budget": e.limit,
                "judge": {"step": verdicts[-1] if verdicts else "", "steps": verdicts, "verdict": verdict}}


def state_label(episode: Episode) -> dict:
    """The parts of a label synth.labels.judge reads, for the episode's current state: its objects, the widget,
    and the accept step of the expert's next action, measured as the trajectory writer measures it (none when
    no region holds)."""
    truth, ref = episode.truth(), episode.expert_action()
    try:
        steps = [accept_step(episode, ref, truth["objects"])]
    except Reject:
        steps = []
    h, w = episode.page.rgb.shape[:2]
    return {"image": {"width": int(w), "height": int(h)}, "widget": spec.fbox(episode.page.boxes["synth-widget"]),
            "objects": label_objects(truth), "actions": [ref], "answer": spec.answer(),
            "accept": {"order_matters": False, "partial_credit": False, "steps": steps,
                       "neutral_regions": [[0.0, 0.0, 0.0, 0.0]]}}


class TextActions(gymnasium.Wrapper):
    """A CaptchaEnv stepped by model text in UI-Venus syntax (`Click(box=(x,y))`, `Drag(start=…,end=…)`,
    `Type(content='…')`, `LongPress(box=(x,y))`, coordinates 0–999 of the screenshot), as synth.labels.actions reads
    it. Several actions in one text are taken in order, as one step of the agent. Text that holds no
    readable action counts as a failed step: the step is spent (time passes), the reward is 0 and
    `info["parse_error"]` says why."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.action_space = spaces.Text(4096, min_length=0, charset=CHARSET)

    def step(self, text):
        base = self.env.unwrapped
        h, w = base.observation_space["image"].shape[:2]
        try:
            actions = parse_venus(text if isinstance(text, str) else "", w, h)
        except ParseError as e:
            obs, _, terminated, truncated, info = self.env.step({"type": "wait"})
            return obs, 0.0, terminated, truncated, {**info, "parse_error": str(e)}
        total = 0.0
        for act in actions:
            obs, reward, terminated, truncated, info = self.env.step(
                {k: v for k, v in act.items() if k in ("type", "point", "end", "text", "duration")}
                | ({"point": act["start"]} if act["type"] == "drag" else {}))
            total += reward
            if terminated or truncated:
                break
        return obs, total, terminated, truncated, info


def make_vec(num_envs: int, mode: str = "async", **kwargs) -> gymnasium.vector.VectorEnv:
    """`num_envs` CaptchaEnvs with the same arguments, stepped together: in worker processes ("async",
    each with its own Chromium for its pages) or in this one ("sync")."""
    _choice("mode", mode, ("async", "sync"))
    if not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
    CaptchaEnv(**kwargs)            # bad arguments fail here, with their message, not in a worker
    fns = [partial(CaptchaEnv, **kwargs) for _ in range(num_envs)]
    if mode == "sync":
        return gymnasium.vector.SyncVectorEnv(fns)
    return gymnasium.vector.AsyncVectorEnv(fns, context="spawn")
