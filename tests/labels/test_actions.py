"""The UI-Venus action syntax round trip: what synth.labels.actions writes, it reads back as the same actions,
on every coordinate grid of synth.export.coords, for made-up sequences of every action type and for the
reference actions of real labels."""
import pytest

from synth.export.answer import model_actions, to_pixels
from synth.export.coords import CONVENTIONS, frame
from synth.labels import reward
from synth.labels.actions import (
    REFUSAL,
    ParseError,
    action_block,
    grounding_text,
    parse_grounding,
    parse_output,
    parse_venus,
    venus_text,
)
from synth.tools.dataset import iter_labels

SIZES = [(1280, 800), (780, 1688), (1440, 900), (333, 517)]
TEXTS = ["x7k2", "it's", 'say "hi"', "back\\slash", "ends with \\", "\\'", "line\nbreak\n", "验证码 二十三",
         "Click(box=(1,2)),Wait()", "')", ""]


def pixel_actions(w: int, h: int, text: str) -> list[dict]:
    """One action of every type, at points spread over a w x h image (the corners included)."""
    return [{"type": "click", "point": [0.0, 0.0]},
            {"type": "click", "point": [w * 0.37, h * 0.81]},
            {"type": "type", "text": text},
            {"type": "drag", "start": [w * 0.1, h * 0.9], "end": [float(w), float(h)]},
            {"type": "long_press", "point": [w * 0.5, h * 0.25], "duration": 2.5},
            {"type": "wait"}]


def on_grid(actions: list[dict], f) -> list[dict]:
    """Pixel actions with their coordinates on `f`'s integer grid, as the exporters write them."""
    return [{**a, **{k: f.to_model(a[k]) for k in ("point", "start", "end") if k in a}} for a in actions]


def assert_same(read: list[dict], want: list[dict], tol: tuple[float, float]) -> None:
    assert [a["type"] for a in read] == [a["type"] for a in want]
    for r, a in zip(read, want):
        if a["type"] == "type":
            assert r["text"] == a["text"]
        if a["type"] == "long_press":
            assert r["duration"] == a["duration"]
        for k in {"drag": ("start", "end"), "click": ("point",), "long_press": ("point",)}.get(a["type"], ()):
            assert abs(r[k][0] - a[k][0]) <= tol[0] and abs(r[k][1] - a[k][1]) <= tol[1], (k, r[k], a[k])


@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.parametrize("w, h", SIZES)
def test_every_action_type_round_trips_on_every_grid(convention, w, h):
    f = frame(convention, w, h)
    half = (0.5 * w / f.sx + 1e-9, 0.5 * h / f.sy + 1e-9)     # a grid's rounding, in pixels
    for text in TEXTS:
        pixels = pixel_actions(w, h, text)
        grid = on_grid(pixels, f)
        written = action_block(grid)
        read = parse_venus(written, w, h, grid=(f.sx, f.sy))
        assert_same(read, to_pixels(grid, f), (0.01, 0.01))      # exactly the grid's points
        assert_same(read, pixels, half)                           # within the grid's rounding of the originals
        assert written == f"<action>{venus_text(grid)}</action>" and written.endswith(",Wait()</action>")


def test_pixel_coordinates_round_trip_to_two_decimals():
    w, h = 1280, 800
    pixels = pixel_actions(w, h, "a'b") + [{"type": "click", "point": [1279.996, 0.004]},
                                          {"type": "click", "point": [12.3456, 7.891]}]
    text = venus_text(pixels)
    assert "e+" not in text and "e-" not in text and "(1280,0)" in text and "(12.35,7.89)" in text
    assert_same(parse_venus(text, w, h, grid=(w, h)), pixels, (0.005 + 1e-9, 0.005 + 1e-9))


def test_without_durations_a_long_press_reads_back_with_the_default():
    text = action_block([{"type": "long_press", "point": [10, 20], "duration": 2.5}], durations=False)
    assert text == "<action>LongPress(box=(10,20))</action>"
    assert parse_venus(text, 999, 999)[0]["duration"] == 5.0


def test_typed_text_that_looks_like_actions_is_only_text():
    text = action_block([{"type": "type", "text": "Click(box=(1,2)), Drag(start=(1,1),end=(2,2))"},
                         {"type": "click", "point": [5, 6]}])
    read = parse_venus(text, 999, 999)
    assert [a["type"] for a in read] == ["type", "click"] and read[1]["point"] == [5.0, 6.0]


def test_an_action_without_syntax_is_refused():
    with pytest.raises(ValueError, match="scroll"):
        venus_text([{"type": "scroll", "point": [1, 2]}])


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_grounding_answers_round_trip(convention):
    w, h = 1280, 800
    f = frame(convention, w, h)
    point, box = f.to_model([400.0, 300.0]), f.box([100.0, 200.0, 300.0, 260.0])
    assert grounding_text(REFUSAL) == "[-1, -1]" and parse_grounding("[-1, -1]", w, h, grid=(f.sx, f.sy)) == []
    read = parse_grounding(grounding_text(point), w, h, grid=(f.sx, f.sy))
    assert read == [{"type": "click", "point": f.to_pixels(point)}]
    centre = parse_grounding(f"<action>{grounding_text(box)}</action>", w, h, grid=(f.sx, f.sy))[0]["point"]
    assert abs(centre[0] - 200.0) <= w / f.sx and abs(centre[1] - 230.0) <= h / f.sy
    with pytest.raises(ParseError):
        parse_grounding("[1, 2, 3]", w, h)


def test_parse_output_reads_each_form():
    assert parse_output("[-1, -1]", 999, 999) == []
    assert parse_output("[10, 20]", 999, 999) == [{"type": "click", "point": [10.0, 20.0]}]
    assert parse_output("<action>Wait()</action>", 999, 999) == [{"type": "wait"}]


def test_reference_actions_of_real_labels_round_trip(dataset):
    labels = list(iter_labels(dataset))
    assert {a["type"] for lab in labels for a in lab["actions"]} >= {"click", "drag", "type"}
    for lab in labels:
        w, h = lab["image"]["width"], lab["image"]["height"]
        read = parse_venus(venus_text(lab["actions"]), w, h, grid=(w, h))           # the label's own pixels
        assert_same(read, lab["actions"], (0.005 + 1e-9, 0.005 + 1e-9))
        assert reward.score(lab, read) == 1.0
        for convention in CONVENTIONS:                                              # as each export writes them
            f = frame(convention, w, h)
            grid = model_actions(lab, f)
            read = parse_venus(action_block(grid), w, h, grid=(f.sx, f.sy))
            assert_same(read, to_pixels(grid, f), (0.01, 0.01))
            assert reward.score(lab, read) == 1.0, (lab["family"], convention)
