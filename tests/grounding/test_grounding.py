"""Grounding samples: targets from the rendered DOM, unique instructions, exact boxes."""
import json
import subprocess
import sys
from collections import Counter

import pytest

from synth.cli import main
from synth.grounding.describe import LEFTOVERS, phrase, role_text, text
from synth.grounding.levels import SCREENS
from synth.grounding.relations import between, column, directional, ordinal, row
from synth.labels import reward, spec
from tests.conftest import read_samples


@pytest.fixture(scope="module")
def grounding_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("g") / "grounding"
    assert main(["grounding", "--difficulty", "3", "--n", "12", "--seed", "6", "--out", str(out), "--workers", "2",
                 "--shard-size", "6"]) == 0
    return out


def test_labels_meet_the_contract_and_every_query_hits_its_target(grounding_set):
    samples = read_samples(grounding_set)
    assert len(samples) == 12
    refusals = total = 0
    for s in samples:
        lab = s["label"]
        assert spec.validate(lab) == [] and lab["kind"] == "grounding" and lab["widget"] is None
        assert 1 <= len(lab["queries"]) <= 8 and lab["instruction"] == lab["queries"][0]["instruction"]
        total += len(lab["queries"])
        elements = {e["id"]: e for e in lab["elements"]}
        assert len({q["target"] for q in lab["queries"] if q["feasible"]}) == sum(q["feasible"] for q in lab["queries"])
        for i, q in enumerate(lab["queries"]):
            view = spec.query_label(lab, i)
            assert reward.score(view, view["actions"]) == 1.0
            assert not any(x in q["instruction"] for x in LEFTOVERS)
            if not q["feasible"]:      # nothing but no action answers a refusal
                refusals += 1
                assert view["actions"] == [] and q["target"] == -1
                assert reward.score(view, [{"type": "click", "point": spec.center(lab["elements"][0]["bbox"])}]) == 0.0
                continue
            x0, y0, x1, y1 = q["accept"]["steps"][0]["region"]
            assert elements[q["target"]]["bbox"] == [x0, y0, x1, y1]
            px, py = q["actions"][0]["point"]
            assert x0 <= px <= x1 and y0 <= py <= y1
            for other in lab["elements"]:        # a click on any other element's centre fails
                p = spec.center(other["bbox"])
                if not (x0 <= p[0] <= x1 and y0 <= p[1] <= y1):
                    assert reward.score(view, [{"type": "click", "point": p}] + view["actions"][1:]) < 1.0
        assert any((lab["image"]["width"], lab["image"]["height"]) == (w * dpr, h * dpr)
                   for (w, h), dpr in SCREENS[lab["platform"]][3])
    assert abs(refusals - 0.1 * total) <= 2       # the share is spread evenly over the run
    labels = [s["label"] for s in samples]
    assert {lab["platform"] for lab in labels} == {"web", "mobile", "desktop"}
    assert {lab["lang"] for lab in labels} == {"en", "zh"}


def _el(i, role, label, box, **kw):
    return {"index": i, "role": role, "text": label, "box": box, "icon": "", "fn": "", "field": "", "sample": "",
            "in_viewport": True, "centre_hit": True, "path": [0, i], **kw}


def relation(el, page, texts, lang, marks=(), why=None):
    return directional(page, texts, lang, marks, why).get(el["index"])


def test_descriptions_are_unique_or_refused():
    a = _el(0, "button", "Save", [100, 10, 160, 40])
    b = _el(1, "button", "Save", [200, 10, 260, 40])
    c = _el(2, "button", "Cancel", [300, 10, 360, 40])
    page = [a, b, c]
    assert text(a, page, {"Save": 2, "Cancel": 1}, "en") is None              # two "Save" buttons
    assert text(c, page, {"Save": 2, "Cancel": 1}, "en") == '"Cancel"'
    assert phrase("text", '"Cancel"', "instruction", "en", "web") == 'Click "Cancel"'
    assert phrase("text", "“取消”", "action", "zh", "mobile") == "轻触“取消”"
    label = _el(3, "link", "Name", [10, 10, 60, 40])
    texts = {"Save": 2, "Cancel": 1, "Name": 1}
    assert relation(a, page + [label], texts, "en") == 'the button right of "Name"'
    assert relation(b, page + [label], texts, "en") == 'the button left of "Cancel"'  # right of "Name": a is nearer
    assert relation(a, page + [label, _el(4, "button", "", [65, 10, 95, 40])], texts, "en") is None
    # a second control that shows the same label: named so though its drawn text was not read whole, or
    # with a count badge after it
    top_up, other = _el(5, "button", "Top up", [0, 0, 90, 30]), _el(6, "button", "", [0, 50, 90, 80], name="Top up")
    assert role_text(top_up, [top_up, other], {"Top up": 1}, "en") is None
    assert role_text(top_up, [top_up], {"Top up": 1}, "en") == 'the "Top up" button'
    inbox, badged = _el(7, "link", "Inbox", [0, 0, 90, 30]), _el(8, "link", "Inbox 3", [0, 50, 90, 80])
    assert role_text(inbox, [inbox, badged], {"Inbox": 1}, "en") is None
    assert text(inbox, [inbox, badged], {"Inbox": 1, "Inbox 3": 1}, "en") is None
    q4, q3 = _el(9, "tab", "Q4", [0, 0, 30, 30]), _el(10, "tab", "Q3", [40, 0, 70, 30])
    assert role_text(q4, [q4, q3], {"Q4": 1, "Q3": 1}, "en") == 'the "Q4" tab'


def test_relations_name_the_nearest_element_that_way_with_nothing_between():
    anchor = _el(0, "link", "Total", [100, 100, 160, 130])
    texts = {"Total": 1}
    for box, words in (([40, 100, 70, 130], "left of"), ([110, 40, 150, 70], "above"), ([110, 150, 150, 180], "below"),
                       ([180, 100, 210, 130], "right of")):
        target = _el(1, "button", "", box)
        assert relation(target, [anchor, target], texts, "en") == f'the button {words} "Total"'
    target = _el(1, "button", "", [200, 100, 230, 130])
    why = Counter()                      # an icon drawn between them: "right of" could mean either
    assert relation(target, [anchor, target], texts, "en", marks=[[170, 105, 185, 125]], why=why) is None
    assert why == {"relation.something_between": 1}
    rival = _el(2, "button", "", [205, 140, 235, 170])        # not on the line: no rival
    assert relation(target, [anchor, target, rival], texts, "zh") == "“Total”右边的按钮"
    # a field whose text is only part of its box is no anchor: the emoji button inside it is nearer
    field_ = _el(3, "link", "Message", [0, 300, 300, 340])
    emoji = _el(4, "icon", "", [260, 305, 290, 335])
    mic = _el(5, "icon", "", [310, 305, 340, 335])
    assert relation(mic, [field_, emoji, mic], {"Message": 1}, "en") is None


def test_between_names_the_only_thing_drawn_between_two_labels():
    cancel, save = _el(0, "button", "Cancel", [0, 0, 80, 30]), _el(1, "button", "Save", [200, 0, 280, 30])
    mid = _el(2, "icon", "", [120, 0, 150, 30])
    texts = {"Cancel": 1, "Save": 1}
    assert between([cancel, save, mid], texts, "en") == {2: 'the icon between "Cancel" and "Save"'}
    assert between([cancel, save, mid], texts, "zh") == {2: "“Cancel”和“Save”之间的图标"}
    second = _el(3, "icon", "", [160, 0, 190, 30])         # two things between them: neither is named
    assert between([cancel, save, mid, second], texts, "en") == {}
    why = Counter()                                       # a picture between them, outside the icon
    assert between([cancel, save, mid], texts, "en", marks=[[155, 5, 175, 25]], why=why) == {}
    assert why == {"between.something_between": 1}
    above, below = _el(4, "link", "Up", [100, 100, 160, 130]), _el(5, "link", "Down", [100, 300, 160, 330])
    box = _el(6, "checkbox", "", [115, 190, 145, 220])     # in one column
    assert between([above, below, box], {"Up": 1, "Down": 1}, "en") == {6: 'the checkbox between "Up" and "Down"'}
    far_below = _el(5, "link", "Down", [100, 900, 160, 930])     # too far from the checkbox to be its neighbour
    assert between([above, far_below, box], {"Up": 1, "Down": 1}, "en") == {}


def test_ordinal_counts_look_alikes_in_one_line_and_refuses_a_grid():
    edits = [_el(i, "link", "Edit", [300, 100 + 50 * i, 340, 130 + 50 * i]) for i in range(3)]
    texts = {"Edit": 3}
    assert ordinal(edits, texts, "en") == {0: 'the first "Edit" link from the top',
                                           1: 'the second "Edit" link from the top',
                                           2: 'the third "Edit" link from the top'}
    assert ordinal(edits[::-1], texts, "zh")[1] == "从上往下第二个“Edit”链接"
    assert ordinal(edits, {"Edit": 4}, "en") == {}        # a fourth "Edit" drawn somewhere that is no link
    hearts = [_el(i, "icon", "", [100 + 60 * i, 0, 130 + 60 * i, 30], icon="heart") for i in range(2)]
    assert ordinal(hearts, {}, "en")[1].endswith("from the left") and ordinal(hearts, {}, "en", {"heart": 1}) == {}
    grid = [_el(2 * r + c, "button", "Add", [200 * c, 100 * r, 200 * c + 80, 100 * r + 30])
            for r in range(2) for c in range(2)]
    why = Counter()
    assert ordinal(grid, {"Add": 4}, "en", why=why) == {} and why == {"ordinal.not_one_line": 1}
    hidden = [dict(edits[0], in_viewport=False), *edits[1:]]
    assert ordinal(hidden, texts, "en") == {}


def test_row_names_the_look_alike_in_the_row_of_a_label():
    # a table: row i holds "Invoice i" (a link, or plain text) and an "Edit" link; path = the document place
    edits = [_el(i, "link", "Edit", [300, 100 + 50 * i, 340, 130 + 50 * i], path=[0, 1, 10 + i, 20 + i])
             for i in range(3)]
    names = [_el(10 + i, "link", f"Invoice {i}", [0, 100 + 50 * i, 120, 130 + 50 * i], path=[0, 1, 10 + i, 30 + i])
             for i in range(3)]
    texts = {"Edit": 3, **{f"Invoice {i}": 1 for i in range(3)}}
    assert row(edits + names, texts, "en")[1] == 'the "Edit" link in the row of "Invoice 1"'
    assert row(edits + names, texts, "zh")[2] == "“Invoice 2”所在行的“Edit”链接"
    plain = [{"text": "Due 3 May", "box": [150, 155, 250, 175], "path": [0, 1, 11, 40]}]
    assert row(edits, {"Edit": 3, "Due 3 May": 1}, "en", labels=plain) == {
        1: 'the "Edit" link in the row of "Due 3 May"'}
    tall = _el(20, "link", "Both", [0, 100, 120, 180], path=[0, 1, 50])     # spans two rows: names neither
    assert row(edits + [tall], {**texts, "Both": 1}, "en") == {}
    why = Counter()     # on the line of the second row, but in another part of the page (a sidebar)
    aside = [{"text": "Settings", "box": [900, 150, 990, 180], "path": [0, 2, 60]}]
    assert row(edits, {"Edit": 3, "Settings": 1}, "en", labels=aside, why=why) == {}
    assert why == {"row.not_one_row_of_the_page": 1}


def test_column_names_the_look_alike_in_the_column_of_a_label():
    # pricing cards side by side: card i holds its plan's name above a "Choose" button
    buttons = [_el(i, "button", "Choose", [100 + 300 * i, 400, 300 + 300 * i, 440], path=[0, 1, 10 + i, 20 + i])
               for i in range(3)]
    plans = [{"text": name, "box": [150 + 300 * i, 100, 250 + 300 * i, 130], "path": [0, 1, 10 + i, 30 + i]}
             for i, name in enumerate(("Basic", "Pro", "Team"))]
    texts = {"Choose": 3, "Basic": 1, "Pro": 1, "Team": 1}
    assert column(buttons, texts, "en", labels=plans) == {
        0: 'the "Choose" button in the column of "Basic"', 1: 'the "Choose" button in the column of "Pro"',
        2: 'the "Choose" button in the column of "Team"'}
    assert column(buttons, texts, "zh", labels=plans)[1] == "“Pro”所在列的“Choose”按钮"
    assert row(buttons, texts, "en", labels=plans) == {}      # side by side: no row of look-alikes
    why = Counter()     # a table: the header and the cells share only the table, which holds every button
    header = [{"text": "Pro", "box": [450, 100, 550, 130], "path": [0, 1, 9, 40]}]
    assert column(buttons, {**texts, "Basic": 0, "Team": 0}, "en", labels=header, why=why) == {}
    assert why == {"column.not_one_column_of_the_page": 1}
    wide = [{"text": "All plans", "box": [100, 100, 900, 130], "path": [0, 1, 50]}]    # over every card
    assert column(buttons, {"Choose": 3, "All plans": 1}, "en", labels=wide) == {}


def test_screenspot_export(grounding_set, tmp_path):
    r = subprocess.run([sys.executable, "-m", "synth", "export", str(grounding_set), "--out", str(tmp_path / "ss")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    records = json.loads((tmp_path / "ss" / "screenspot.json").read_text())
    labels = {s["label"]["key"]: s["label"] for s in read_samples(grounding_set)}
    queries = [(k, i, q) for k, lab in labels.items() for i, q in enumerate(lab["queries"])]
    assert len(records) == sum(q["feasible"] for _, _, q in queries)      # one per query; refusals left out
    for rec in records:
        assert (tmp_path / "ss" / rec["img_filename"]).exists()
        q = labels[rec["key"]]["queries"][rec["query"]]
        x0, y0, x1, y1 = q["accept"]["steps"][0]["region"]
        assert rec["instruction"] == q["instruction"] and q["feasible"]
        assert rec["bbox"] == pytest.approx([x0, y0, x1 - x0, y1 - y0], abs=0.02)
        assert rec["data_type"] in ("text", "icon") and rec["platform"] in ("web", "mobile", "desktop")


def test_hf_datasets_loads_captcha_and_grounding_together(dataset, grounding_set):
    """Arrow infers the schema from the first rows: click-only rows first must not break later typing rows."""
    import datasets
    alone = datasets.load_dataset("webdataset", data_files={"train": str(grounding_set / "*.tar")}, split="train")
    assert len(alone) == 12
    files = [str(p) for p in sorted(dataset.glob("*.tar")) + sorted(grounding_set.glob("*.tar"))]
    ds = datasets.load_dataset("webdataset", data_files={"train": files}, split="train")
    kinds = {row["json"]["kind"] for row in ds}
    assert kinds == {"captcha", "grounding"} and len(ds) == 48


def test_ray_data_reads_the_grounding_shards(grounding_set):
    import ray
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        rows = ray.data.read_webdataset(sorted(str(p) for p in grounding_set.glob("*.tar"))).take_all()
    finally:
        ray.shutdown()
    assert len(rows) == 12
    for shard_row in rows:
        lab = shard_row["json"]
        assert shard_row["jpg"].shape[:2] == (lab["image"]["height"], lab["image"]["width"])
        assert lab["instruction"] == lab["queries"][0]["instruction"] and lab["elements"]


def test_an_icon_also_drawn_as_decoration_is_not_described_by_it():
    from synth.grounding.describe import icon
    el = {"index": 0, "role": "icon", "text": "", "box": [0, 0, 20, 20], "icon": "search", "fn": "", "field": "",
          "sample": ""}
    assert (icon(el, [el], {}, "en"), icon(el, [el], {}, "zh")) == ("the magnifier icon", "放大镜图标")
    assert icon(el, [el], {}, "en", decor_icons={"search": 1}) is None


def test_one_query_samples_keep_the_single_target_layout(tmp_path):
    out = tmp_path / "g"
    assert main(["grounding", "--difficulty", "2", "--n", "10", "--seed", "2", "--out", str(out), "--workers", "1",
                 "--queries", "1"]) == 0
    labels = [s["label"] for s in read_samples(out)]
    assert all(len(lab["queries"]) == 1 and spec.validate(lab) == [] for lab in labels)
    refusals = [lab for lab in labels if not lab["answer"]["feasible"]]
    assert len(refusals) == 1 and refusals[0]["actions"] == [] and refusals[0]["objects"][0]["role"] == "absent"
    assert reward.score_output(refusals[0], "[-1, -1]") == 1.0
    assert reward.score_output(refusals[0], "<action>Click(box=(500,500))</action>") == 0.0
    feasible = next(lab for lab in labels if lab["answer"]["feasible"])
    assert reward.score_output(feasible, "[-1, -1]") == 0.0 and reward.score_output(feasible, "nonsense") == 0.0


def test_a_refusal_names_nothing_the_page_shows():
    from synth.grounding.refusal import absent
    shown = ["download", "sign in", "退出"]
    assert absent(["Export CSV"], shown)
    assert not absent(["Download statement"], shown)      # a "Download" button would be a fair reading
    assert not absent(["Sign"], shown)                    # drawn inside a text on the page
    assert not absent(["Sign out", "退出登录"], shown)     # any of its names, in either language


def test_an_icon_refusal_names_no_icon_that_looks_like_one_on_the_page():
    import numpy as np

    from synth.grounding.refusal import icon_candidates
    from synth.screens.browser import RenderedPage
    from synth.screens.pages import PageSpec
    page = RenderedPage(spec=PageSpec("web/login", "en", 1, "none", "none"), rgb=np.zeros((8, 8, 3), np.uint8),
                        boxes={}, dpr=1, elements=[_el(0, "icon", "", [0, 0, 8, 8], icon="bell")],
                        shown_icons={"search": 2})
    keys = icon_candidates(page)
    assert "bell" not in keys and "search" not in keys      # drawn by an element, drawn elsewhere
    assert "zoom_in" not in keys and "zoom_out" not in keys  # a magnifier with a plus reads as "the magnifier"
    assert "printer" in keys
    folder = RenderedPage(spec=PageSpec("pages/a.html", "en", 0, "none", "none", site="/x"), rgb=page.rgb, boxes={},
                          dpr=1)
    assert icon_candidates(folder) == []          # a folder page's icons carry no keys: nothing is verifiably absent


def test_score_judges_every_query(grounding_set, tmp_path):
    from synth.tools.score import score_dataset
    labels = [s["label"] for s in read_samples(grounding_set)]
    lines = [{"key": lab["key"], "query": i, "output": json.dumps(q["actions"]) if q["feasible"] else "[-1, -1]"}
             for lab in labels for i, q in enumerate(lab["queries"])]
    preds = tmp_path / "p.jsonl"
    preds.write_text("\n".join(json.dumps(r) for r in lines[1:]) + "\n")      # the first query unanswered
    report = score_dataset(grounding_set, preds)
    assert report["n"] == len(lines) and report["missing"] == 1
    assert report["success_rate"] == round((len(lines) - 1) / len(lines), 4)


def test_a_grounding_answer_as_the_exports_teach_it_is_scored(grounding_set):
    from synth.export.answer import grounding_text
    from synth.export.coords import frame
    typed = 0
    for lab in (s["label"] for s in read_samples(grounding_set)):
        f = frame("ui-venus", lab["image"]["width"], lab["image"]["height"])
        for i, q in enumerate(lab["queries"]):
            view = spec.query_label(lab, i)
            if q["feasible"]:     # a point says where, for a click-then-type query too
                for target in ("point", "box"):
                    assert reward.score_output(view, grounding_text(view, f, target)) == 1.0
                assert reward.score_output(view, "[-1, -1]") == 0.0
            else:
                assert reward.score_output(view, grounding_text(view, f, "point")) == 1.0
            if len(q["accept"]["steps"]) == 2:     # actions must also type: a click alone does not do
                typed += 1
                click = [a for a in view["actions"] if a["type"] == "click"]
                assert reward.score_output(view, click) < 1.0 and reward.score_output(view, view["actions"]) == 1.0
    assert typed, "no click-then-type query to check"


def test_degraded_screens_keep_their_queries_with_boxes_moved_with_the_pixels():
    """--degrade: the same screen and queries, smaller and JPEG-compressed; every target box scaled as the
    image was, and the image close to the clean one shrunk the same way."""
    import cv2
    import numpy as np

    from synth.engine.config import RunConfig
    from synth.engine.generator import Generator

    base = {"difficulty": 3, "n": 3, "seed": 7, "kind": "grounding", "families": ("element",), "image_format": "png"}
    runs = []
    for degrade in (0.0, 1.0):     # one after the other: one Playwright per thread
        gen = Generator(RunConfig(**base, degrade=degrade))
        try:
            runs.append([gen.sample(i)[1] for i in range(3)])
        finally:
            gen.close()
    for clean, degraded in zip(*runs):
        a, b = json.loads(clean["json"]), json.loads(degraded["json"])
        img_a = cv2.imdecode(np.frombuffer(clean["png"], np.uint8), cv2.IMREAD_COLOR)
        img_b = cv2.imdecode(np.frombuffer(degraded["png"], np.uint8), cv2.IMREAD_COLOR)
        assert (b["image"]["height"], b["image"]["width"]) == img_b.shape[:2]
        assert "jpeg:" in b["params"]["augment"]["applied"] and a["params"]["augment"]["applied"] == ""
        sx, sy = img_b.shape[1] / img_a.shape[1], img_b.shape[0] / img_a.shape[0]
        assert sx < 1 and [q["instruction"] for q in a["queries"]] == [q["instruction"] for q in b["queries"]]
        assert b["accept"] == b["queries"][0]["accept"]
        for qa, qb in zip(a["queries"], b["queries"]):
            for ra, rb in zip(qa["accept"]["steps"], qb["accept"]["steps"]):
                assert rb["region"] == pytest.approx([ra["region"][0] * sx, ra["region"][1] * sy,
                                                      ra["region"][2] * sx, ra["region"][3] * sy], abs=0.01)
        for ea, eb in zip(a["elements"] + a["objects"], b["elements"] + b["objects"]):
            assert eb["bbox"] == pytest.approx([ea["bbox"][0] * sx, ea["bbox"][1] * sy, ea["bbox"][2] * sx,
                                                ea["bbox"][3] * sy], abs=0.01)
        shrunk = cv2.resize(img_a, img_b.shape[1::-1], interpolation=cv2.INTER_AREA)
        error = np.abs(shrunk.astype(int) - img_b).mean()
        assert error < 6
        # the pixels are where the boxes went, not shifted: a shift fits at least twice as badly (a ratio, as a
        # mostly flat screen differs little under any shift)
        moved = np.roll(shrunk, 16, axis=1)
        assert np.abs(moved.astype(int) - img_b).mean() > 2 * error


def test_an_icon_painted_inside_a_field_makes_the_icon_description_ambiguous():
    """The measured miss: "放大镜图标" with a second magnifier drawn in the search box (no element of its own)."""
    from synth.grounding.describe import icon
    el = _el(0, "icon", "", [0, 0, 20, 20], icon="search")
    field = _el(1, "input", "Search", [40, 0, 200, 20])
    own = {"key": "search", "box": [2, 2, 18, 18], "holder": 0}
    in_field = {"key": "search", "box": [44, 2, 58, 18], "holder": -1}
    assert icon(el, [el, field], {}, "zh", painted=[own]) == "放大镜图标"
    assert icon(el, [el, field], {}, "zh", painted=[own, in_field]) is None
    # a mark that names another drawing than the one the element paints
    assert icon(el, [el], {}, "en", painted=[{"key": "document", "box": [2, 2, 18, 18], "holder": 0}]) is None


def test_a_relation_needs_anchor_and_target_in_one_panel():
    """The measured miss: "“21”右边的链接" with the link in another panel."""
    anchor = _el(0, "link", "21", [0, 0, 30, 20], panel=5)
    target = _el(1, "link", "Lunch", [40, 0, 90, 20], panel=5)
    assert relation(target, [anchor, target], {"21": 1, "Lunch": 1}, "zh") == "“21”右边的链接"
    target["panel"] = 6
    why = Counter()
    assert relation(target, [anchor, target], {"21": 1, "Lunch": 1}, "zh", why=why) is None
    assert why["relation.other_panel"] >= 1


def test_a_function_query_is_refused_when_another_control_does_the_same_job():
    """The measured miss: "delete the selection" on a trash icon while a "Delete" control is also shown."""
    from synth.grounding.describe import function
    trash = _el(0, "icon", "", [0, 0, 20, 20], icon="trash", fn="delete", name="Trash")
    other = _el(1, "button", "Archive", [30, 0, 90, 20], fn="archive")
    assert function(trash, [trash, other], {}, "en") == "the control to delete the selection"
    for rival in (_el(2, "menuitem", "Delete", [0, 40, 90, 60]), _el(2, "icon", "", [0, 40, 20, 60], icon="trash"),
                  _el(2, "button", "删除", [0, 40, 90, 60]), _el(2, "icon", "", [0, 40, 20, 60], name="Trash")):
        assert function(trash, [trash, other, rival], {}, "en") is None, rival


def test_the_harvester_reports_every_painted_icon_with_its_key():
    """On a rendered screen: every icon drawn by the icon sets carries its key, icons in fields included."""
    from synth.grounding.levels import screen
    from synth.screens.browser import Browser
    from synth.screens.pages import PageSpec
    browser = Browser()
    try:
        viewport, dpr = screen("desktop", 3)
        page = browser.render(PageSpec("desktop/file_manager", "en", 1, "none", "none", viewport, dpr))
    finally:
        browser.close()
    assert page.icons and all(i["key"] for i in page.icons)
    held = {i["holder"] for i in page.icons}
    assert -1 in held and any(h >= 0 for h in held)     # decorations and targets' icons alike
    assert all("panel" in e and "nine_hit" in e for e in page.elements)


def test_a_relation_reads_from_the_anchor_s_words_not_its_block():
    """A search result's title link spans the row, its words the left part: the menu icon at the row's far right
    is not "above the title" to a person."""
    title = _el(0, "link", "Growing succulents in summer", [0, 100, 400, 120])
    menu = _el(1, "icon", "", [380, 70, 396, 90])
    texts = {"Growing succulents in summer": 1}
    words = [{"text": "Growing succulents in summer", "box": [0, 100, 150, 120]}]
    assert directional([title, menu], texts, "en").get(1) is not None          # from the block: named
    assert directional([title, menu], texts, "en", labels=words).get(1) is None


def test_a_button_anchor_keeps_its_shape():
    """Below a button whose label is centred, a person looks under the whole button, not under its word."""
    qq = _el(0, "button", "QQ", [900, 480, 1020, 510])
    signup = _el(1, "link", "Sign up", [975, 526, 1027, 541])
    words = [{"text": "QQ", "box": [952, 487, 968, 503]}]
    assert directional([qq, signup], {"QQ": 1, "Sign up": 1}, "en", labels=words).get(1) == 'the link below "QQ"'
