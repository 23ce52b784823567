"""The Gymnasium environment of synth's CAPTCHAs, registered as "synth/Captcha-v0":

    import gymnasium, synth.env
    env = gymnasium.make("synth/Captcha-v0", family="rotate_arrows", difficulty=2, platform="web", lang="en")

FAMILIES names every family it serves: the interactive tasks, then every one-shot family (one answer per
episode). See synth.episodes.env for the spaces, TextActions for UI-Venus action text, make_vec for batches."""
import gymnasium

from synth.episodes import NAMES as FAMILIES
from synth.episodes.env import CaptchaEnv, TextActions, make_vec
from synth.episodes.tasks import NAMES as INTERACTIVE

ENV_ID = "synth/Captcha-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="synth.episodes.env:CaptchaEnv")

__all__ = ["CaptchaEnv", "ENV_ID", "FAMILIES", "INTERACTIVE", "TextActions", "make_vec"]
