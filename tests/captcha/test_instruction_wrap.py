"""The widget instruction breaks lines as a reader expects: English at spaces; Chinese between characters, never
before a closing mark or after an opening one, and never leaving one character alone on the last line."""
import numpy as np
import pytest

from synth.captcha.compose import _NO_END, _NO_START, wrap
from synth.core.fonts import font

CHINESE = ("请拖动一颗棋子到空位上，使五颗同色棋子连成一线（横、竖或斜均可）", "请点击所有元音字母（A、E、I、O、U）",
           "两个图块互换了位置：请把靠前的一块（按阅读顺序）拖到另一块上", "请按住蓝色的按钮 3 秒",
           "请点击“验证”按钮，再点击所有侧躺（旋转了90度）的字母。")


def random_chinese(rng: np.random.Generator) -> str:
    """Words, some in brackets or quotes, some followed by a comma or a stop, as instructions are written."""
    words = ("请点击", "图中", "所有", "按钮", "的", "字母", "ABC", " 3 ", "验证", "侧躺", "旋转")
    marks = ("{}", "{}", "{}，", "{}。", "{}、", "（{}）", "“{}”", "《{}》")
    return "".join(marks[int(rng.integers(len(marks)))].format(words[int(rng.integers(len(words)))])
                   for _ in range(int(rng.integers(4, 16))))


@pytest.mark.parametrize("seed", range(40))
def test_chinese_lines_keep_punctuation_with_its_words(seed):
    rng = np.random.default_rng(seed)
    text = CHINESE[seed % len(CHINESE)] if seed < 10 else random_chinese(rng)
    fnt = font(15)
    for width in range(120, 420, 7):      # the narrowest band is ~250 px
        lines = wrap(text, fnt, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", ""), (text, lines)
        for line in lines[1:]:
            assert line[0] not in _NO_START, (width, lines)
        for line in lines[:-1]:
            assert line[-1] not in _NO_END, (width, lines)
        assert len(lines) == 1 or len(lines[-1]) > 1, (width, lines)


def test_english_breaks_at_spaces():
    lines = wrap("Click every vowel (A, E, I, O or U).", font(15), 200)
    assert lines == ["Click every vowel (A, E, I, O", "or U)."]
