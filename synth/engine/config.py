"""A run's configuration: everything that decides the bytes of a run, and nothing that imports the families'
drawing code or the augmentations (the main process of a run plans it from this alone)."""
from dataclasses import dataclass

from synth.families import NAMES

# The chunks of a run's plan (synth.engine.plan), here so that the command line knows a run of one chunk
# before it imports anything heavy
CHUNK = 50              # samples per task (the main process holds those of chunks done ahead of their turn)
TAIL, TAIL_CHUNK = 200, 25   # the plan's last TAIL samples go in smaller tasks, so that workers finish together


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides the bytes of a run (workers and executor do not)."""
    difficulty: int
    n: int
    seed: int = 0
    families: tuple[str, ...] = NAMES
    lang: str = "mix"                 # en | zh | mix
    platform: str = "mix"             # web | mobile | desktop | mix
    shard_size: int = 1000
    image_format: str = "jpg"         # jpg | png
    infeasible: float = 0.1           # share of samples with no valid target, where a family supports it
    kind: str = "captcha"
    queries: int = 8                  # grounding: queries per screenshot
    refusal: float = 0.1              # grounding: share of queries whose target is absent
    degrade: float = 0.0              # grounding: share of screenshots made smaller and JPEG-compressed
    mistakes: float = 0.2             # episodes: share of episodes that take a wrong action, then recover
    pages: str = ""                   # --pages: a folder of pages to use instead of the built-in screens
    page_list: tuple[tuple[str, str], ...] = ()   # its usable pages, (template, lang), set by
                                                  # synth.engine.survey.survey
    page_views: tuple[tuple[str, ...], ...] = ()  # the views each of them is shown in (synth.engine.variety)
    difficulty_max: int = 0           # --difficulty LO-HI: the highest level (0: `difficulty` alone)
    focus: tuple[tuple[str, int, float], ...] = ()     # --focus: (family, level, weight) cells (synth.core.focus)
    focus_kinds: tuple[tuple[str, float], ...] = ()    # --focus on a grounding run: (instruction kind, weight)

    def key(self, index: int) -> str:
        return f"{self.kind}-d{self.difficulty}-s{self.seed}-{index:08d}"


# fields a manifest leaves out at their default, so that the manifests of runs without them stay as they were
# (and resume): a level range and focus weights
OPTIONAL = {"difficulty_max": 0, "focus": (), "focus_kinds": ()}
# options of one kind of run: the manifest of another kind leaves them out (they do not change its bytes)
KIND_OPTIONS = {"captcha": ("infeasible",), "grounding": ("queries", "refusal", "degrade"), "episode": ("mistakes",)}
