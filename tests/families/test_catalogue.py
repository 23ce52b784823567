"""`synth families`: the family catalogue and what it claims about each family."""
import json

import numpy as np

from synth.cli import main
from synth.core.errors import Reject
from synth.core.levels import LEVELS
from synth.families import FAMILIES, catalogue

STEP = {"type": "type", "click_set": "click", "click_order": "click", "skip": "click", "drag": "drag",
        "long_press": "long_press"}
SOURCES = {"VenusBench-CAPTCHA", "OpenCaptchaWorld", "NextGenCAPTCHAs", "MCA-Bench", "Spatial-CAPTCHA-Bench", "GeeTest",
           "Tencent", "Aliyun", "NetEase-Yidun", "Dingxiang", "reCAPTCHA", "hCaptcha", "Arkose", "PerimeterX"}
VENUSBENCH = {"OCR", "drag_end", "icon_click", "image_rotation", "oneclick_login", "slider_puzzle", "text_click",
              "visual_reasoning"}


def test_every_family_is_listed_with_what_it_covers():
    rows = catalogue()
    assert len(rows) >= 40 and [r["name"] for r in rows] == list(FAMILIES)
    for r in rows:
        assert r["description"] and r["languages"] == ["en", "zh"], r["name"]
        assert r["answers"] and set(r["answers"]) <= set(STEP.values()), r["name"]
        assert r["covers"], r["name"]
        for c in r["covers"]:
            source, _, kind = c.partition(":")
            assert source in SOURCES and kind, (r["name"], c)
    venus = {c.split(":", 1)[1] for r in rows for c in r["covers"] if c.startswith("VenusBench-CAPTCHA:")}
    assert venus == VENUSBENCH


def test_declared_answer_kinds_are_the_ones_tasks_use():
    for name, family in FAMILIES.items():
        seen = set()
        for level in LEVELS:
            for seed in range(2 if family.NEEDS_BROWSER else 6):
                for infeasible in (False, True) if family.SUPPORTS_INFEASIBLE else (False,):
                    try:
                        params = family.sample_params(np.random.default_rng(seed), level, (320, 320),
                                                      infeasible=infeasible)
                        seen.add(STEP[family.solve(params, family.render(params)).rule])
                    except Reject:
                        pass
        assert seen <= set(family.ANSWERS), (name, seen)


def test_cli_lists_the_catalogue_as_json(capsys):
    assert main(["families", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == catalogue()


def test_readme_table_is_up_to_date():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "docs" / "make_family_table.py"
    spec = importlib.util.spec_from_file_location("make_family_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.table() in module.README.read_text(encoding="utf-8"), "run docs/make_family_table.py"
