"""synth: verified CAPTCHA and grounding samples for GUI agents."""

__version__ = "0.1.0"
SCHEMA = "synth/1"


def first_line(error: BaseException) -> str:
    """An error's message cut to its first line (its type's name if it has none), for one-line reports."""
    lines = str(error).splitlines()
    return lines[0] if lines else type(error).__name__
