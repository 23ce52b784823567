"""Facts a page states about its own content, computed the way the page's reader would (tests/screens/test_facts.py
checks each marked fact against the rendered DOM with the same rules)."""
import re

# A word as a word processor counts one: each CJK character, or a run of Latin letters and digits (joined by
# an apostrophe, a point, a comma or a hyphen, as in "don't", "3.5", "1,200", "follow-up")
WORD = re.compile(r"[\u3400-\u9fff]|[A-Za-z0-9]+(?:['’.,\-][A-Za-z0-9]+)*")


def count_words(text: str) -> int:
    """The number of words in `text` (WORD)."""
    return len(WORD.findall(text))
