"""synth: verified CAPTCHA and grounding samples for GUI agents."""

__version__ = "0.1.0"
SCHEMA = "synth/1"
