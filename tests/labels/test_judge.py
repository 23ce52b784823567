"""synth.reward.judge: a verdict per action and per sequence, by the rules of synth/labels/judge.py."""
import pytest

from synth.cli import main
from synth.labels.spec import center, query_label
from synth.reward import judge
from tests.conftest import read_samples


def label(order: bool = False, partial: bool = True, feasible: bool = True) -> dict:
    """A hand-made two-target multi-select CAPTCHA: widget, two target tiles, a distractor, a refresh button,
    a Verify button (a neutral region the reference clicks last)."""
    t1, t2, d = [110.0, 110.0, 150.0, 150.0], [160.0, 110.0, 200.0, 150.0], [210.0, 110.0, 250.0, 150.0]
    verify, refresh = [300.0, 360.0, 380.0, 390.0], [110.0, 360.0, 140.0, 390.0]
    steps = [{"type": "click", "region": t, "end_region": t, "text": "", "tolerance": 0.0, "min_duration": 0.0}
             for t in (t1, t2)]
    return {"image": {"width": 640, "height": 480}, "widget": [100.0, 100.0, 400.0, 400.0],
            "answer": {"feasible": feasible},
            "objects": [{"role": "target", "label": "", "bbox": t1}, {"role": "target", "label": "", "bbox": t2},
                        {"role": "distractor", "label": "", "bbox": d},
                        {"role": "tile", "label": "", "bbox": [260.0, 110.0, 290.0, 150.0]},
                        {"role": "button", "label": "refresh", "bbox": refresh},
                        {"role": "button", "label": "verify", "bbox": verify}],
            "actions": [click(center(t1)), click(center(t2)), click(center(verify))],
            "accept": {"order_matters": order, "partial_credit": partial, "steps": steps, "neutral_regions": [verify]}}


def click(p) -> dict:
    return {"type": "click", "point": list(p)}


def test_each_rule_on_a_hand_made_label():
    lab = label()
    assert judge(lab, lab["actions"]) == {"steps": ["correct"] * 3, "verdict": "complete", "reward": 1.0}
    got = judge(lab, [click([5, 5]), click([230, 130]), click([125, 375]), click([275, 130]), click([275, 130]),
                      click([130, 130]), click([130, 130]), {"type": "type", "text": "x"}, "Click", {"type": "wait"}])
    assert got["steps"] == ["invalid", "wrong", "exploratory", "wrong", "exploratory", "correct", "exploratory",
                            "invalid", "invalid", "exploratory"]
    assert got["verdict"] == "partial"
    assert judge(lab, [click([700, 5])])["steps"] == ["invalid"]           # outside the image
    assert judge(lab, [])["verdict"] == "failed"
    ordered = label(order=True, partial=False)
    got = judge(ordered, [click([180, 130]), click([130, 130]), click([180, 130])])
    assert got["steps"] == ["wrong", "correct", "correct"] and got["verdict"] == "partial"   # an extra action
    assert judge(ordered, [click([130, 130]), click([180, 130])])["verdict"] == "complete"


def test_refusal_on_a_grounding_query_and_skip():
    lab = {**label(), "widget": None, "answer": {"feasible": False},
           "accept": {"order_matters": False, "partial_credit": False, "steps": [], "neutral_regions": [[0.0] * 4]},
           "actions": [], "elements": [{"id": 1, "role": "button", "name": "x", "bbox": [10.0, 10.0, 50.0, 50.0]}]}
    assert judge(lab, []) == {"steps": [], "verdict": "infeasible", "reward": 1.0}
    got = judge(lab, [click([30, 30]), click([600, 20])])
    assert got["steps"] == ["wrong", "invalid"] and got["verdict"] == "failed"


@pytest.fixture(scope="module")
def every_family(tmp_path_factory):
    out = tmp_path_factory.mktemp("judge") / "all"
    assert main(["captcha", "--difficulty", "2", "--n", "41", "--seed", "5", "--out", str(out), "--workers", "2"]) == 0
    return [s["label"] for s in read_samples(out)]


def test_reference_actions_of_every_family_are_correct_and_complete(every_family):
    from synth.families import NAMES
    assert {lab["family"] for lab in every_family} == set(NAMES)
    for lab in every_family:
        got = judge(lab, lab["actions"])
        assert set(got["steps"]) == {"correct"}, (lab["family"], got)
        assert got["verdict"] == ("complete" if lab["answer"]["feasible"] else "infeasible"), lab["family"]


def test_outside_distractor_and_refresh_clicks(every_family):
    seen = set()
    for lab in every_family:
        w = lab["widget"]
        assert judge(lab, [click([w[0] - 1, w[1] - 1])]) == {"steps": ["invalid"], "verdict": "failed", "reward": 0.0}
        refresh = next(o for o in lab["objects"] if o["label"] == "refresh")
        assert judge(lab, [click(center(refresh["bbox"]))])["steps"] == ["exploratory"]
        for o in lab["objects"]:
            in_step = any(s["region"][0] <= center(o["bbox"])[0] <= s["region"][2]
                          and s["region"][1] <= center(o["bbox"])[1] <= s["region"][3] for s in lab["accept"]["steps"])
            if o["role"] == "distractor" and not in_step:
                assert judge(lab, [click(center(o["bbox"]))])["steps"] == ["wrong"], lab["family"]
                seen.add(lab["family"])
    assert len(seen) >= 5


def test_grounding_queries(tmp_path):
    out = tmp_path / "g"
    assert main(["grounding", "--difficulty", "2", "--n", "3", "--seed", "2", "--refusal", "0.3", "--out", str(out),
                 "--workers", "1"]) == 0
    verdicts = set()
    for s in read_samples(out):
        for i in range(len(s["label"]["queries"])):
            q = query_label(s["label"], i)
            got = judge(q, q["actions"])
            assert set(got["steps"]) <= {"correct"}
            verdicts.add(got["verdict"])
    assert verdicts == {"complete", "infeasible"}


def test_environment_info_carries_the_verdicts():
    from synth.episodes.env import CaptchaEnv
    env = CaptchaEnv(family="paged_select", difficulty=2)
    _, info = env.reset(seed=1)
    arrow = next(o for o in info["truth"]["objects"] if o["label"] == "previous option")
    _, _, term, trunc, info = env.step({"type": "click", "point": center(arrow["bbox"])})
    assert info["judge"] == {"step": "exploratory", "steps": ["exploratory"], "verdict": "failed"}
    _, _, term, trunc, info = env.step({"type": "click", "point": [2.0, 2.0]})
    assert info["judge"]["step"] == "invalid"
    while not (term or trunc):
        _, _, term, trunc, info = env.step(env.expert_action())
    assert info["judge"]["steps"][2:] == ["correct"] * (len(info["judge"]["steps"]) - 2)
    assert info["judge"]["verdict"] == "complete"
