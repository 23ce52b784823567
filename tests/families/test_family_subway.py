"""Subway map: answers from the line graph, labels and stations checked on the instance map, maps that could
mislead (a line brushing past a station, shared track, lines crossing between stations) rejected."""
import numpy as np
import pytest

from synth.core.errors import Reject
from synth.families import subway

SIZE = (320, 320)
# a 4 x 3 grid of stations, 80 px apart
GRID = [(40 + 80 * c, 40 + 80 * r) for r in range(3) for c in range(4)]
NAMES = "ABCDEFGHJKLM"


def params(lines, target, numbered=False, labels=None, stations=GRID):
    lw, radius, px = 5.0, 5.5, 11.0
    names = tuple(NAMES[:len(stations)])
    label_at = labels or subway.place_labels(np.random.default_rng(0), SIZE, stations, lines, names, lw, radius,
                                             int(px), 280)
    return subway.Params(SIZE, target, numbered, tuple(lines), tuple(stations), names, tuple(label_at),
                         (lw, radius, px, 280), 0.0, 6, {})


RED = ("red", (0, 1, 2, 3))               # A B C D along the top
BLUE = ("blue", (1, 5, 9))                # B F K down the second column
GREEN = ("green", (4, 5, 6, 10, 11))      # E F G, then down to L and across to M


def solved(p):
    return subway.solve(p, subway.render(p))


def test_stations_between_two_stops():
    p = params([RED, BLUE, GREEN], "between:0:A:D")
    assert solved(p).text == "2"
    p = params([RED, BLUE, GREEN], "between:2:M:E", numbered=True)
    task = solved(p)
    assert task.answer == {"count": 3} and task.rule == "type"
    assert subway.instruction(p, "en") == \
        "How many stations lie between M and E on line 3 (not counting M and E)? Type the number."
    assert subway.instruction(p, "zh") == "在3号线上，M 站和 E 站之间有几个车站（不含 M 和 E）？请输入数字"
    assert "the green line" in subway.instruction(params([RED, BLUE, GREEN], "between:2:M:E"), "en")


def test_lines_stopping_at_a_station():
    assert solved(params([RED, BLUE, GREEN], "lines:B")).text == "2"
    assert solved(params([RED, BLUE, GREEN], "lines:F")).text == "2"
    assert solved(params([RED, BLUE, GREEN], "lines:M")).text == "1"
    p = params([RED, BLUE, GREEN], "lines:F")
    assert subway.instruction(p, "en") == "How many lines stop at station F? Type the number."
    assert subway.instruction(p, "zh") == "有几条线路在 F 站停靠？请输入数字"


def test_every_label_stands_clear_on_the_instance_map():
    p = params([RED, BLUE, GREEN], "lines:B")
    puzzle = subway.render(p)
    for i in puzzle.extras["labels"]:
        ys, xs = np.nonzero(puzzle.instances == i)
        x0, y0, x1, y1 = xs.min() - 2, ys.min() - 2, xs.max() + 3, ys.max() + 3
        assert set(np.unique(puzzle.instances[y0:y1, x0:x1])) <= {0, i}


def test_a_label_on_a_line_is_rejected():
    good = params([RED, BLUE, GREEN], "lines:B")
    labels = list(good.label_at)
    labels[0] = (70.0, 34.0)              # A's label on the red track between A and B
    with pytest.raises(Reject, match="subway.label_touches"):
        solved(params([RED, BLUE, GREEN], "lines:B", labels=labels))


def test_a_line_brushing_past_a_station_is_rejected():
    # purple runs from A straight to C, right past B, which only the red line stops at
    lines = [("red", (1, 5, 9)), ("purple", (0, 2))]
    with pytest.raises(Reject, match="subway.line_passes_station"):
        solved(params(lines, "lines:A", labels=[(0.0, 0.0)] * 12))


def test_shared_track_and_crossings_between_stations_are_rejected():
    lines = [("red", (0, 1, 2)), ("blue", (1, 2, 6))]          # both run B-C
    with pytest.raises(Reject, match="subway.shared_track"):
        solved(params(lines, "lines:B", labels=[(0.0, 0.0)] * 12))
    lines = [("red", (0, 5)), ("blue", (1, 4))]                # two diagonals of one square cross in its middle
    with pytest.raises(Reject, match="subway.lines_cross_between_stations"):
        solved(params(lines, "lines:A", labels=[(0.0, 0.0)] * 12))


def test_sampled_maps_meet_and_name_every_station_once():
    for seed in range(10):
        try:
            p = subway.sample_params(np.random.default_rng(seed), 5, SIZE)
        except Reject:
            continue
        visits = [s for _, st in p.lines for s in st]
        assert len(set(p.names)) == len(p.names) == len(p.stations) and len(set(visits)) < len(visits)
        assert subway.answer(p) >= 1
