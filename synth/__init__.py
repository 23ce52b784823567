"""synth: verified CAPTCHA and grounding samples for GUI agents."""

__version__ = "0.2.0"
SCHEMA = "synth/1"
