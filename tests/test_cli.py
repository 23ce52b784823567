"""Bad input: one clear line on stderr and a non-zero exit, never a traceback."""
import subprocess
import sys

import pytest

from synth.families import FAMILIES


def synth(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "synth", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("args, message", [
    (["--difficulty", "6"], "--difficulty must be in 1..5"),
    (["--difficulty", "0"], "--difficulty must be in 1..5"),
    (["--n", "0"], "--n must be at least 1"),
    (["--family", "nope"], "unknown family 'nope'"),
    (["--lang", "fr"], "--lang must be one of"),
    (["--platform", "tv"], "--platform must be one of"),
    (["--image-format", "gif"], "--image-format must be one of"),
    (["--out", "/proc/synth-out"], "cannot create output folder"),
    (["--n", "many"], "valid integer"),
])
def test_bad_captcha_input(args, message, tmp_path):
    r = synth("captcha", *args, *([] if "--out" in args else ["--out", str(tmp_path / "o")]))
    assert r.returncode != 0
    assert message in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_families_lists_each_with_a_description():
    r = synth("families")
    assert r.returncode == 0
    lines = r.stdout.strip().splitlines()
    assert [l.split("\t")[0] for l in lines] == list(FAMILIES)
    assert all(len(l.split("\t")[1]) > 20 for l in lines)


def test_other_run_in_the_same_folder_is_refused(dataset):
    r = synth("captcha", "--n", "5", "--seed", "99", "--out", str(dataset))
    assert r.returncode != 0 and "holds a different run" in r.stderr


def test_a_broken_template_is_named(tmp_path):
    import os
    import shutil
    from synth.paths import TEMPLATES
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES, templates)
    page = templates / "web" / "login.html.j2"
    page.write_text(page.read_text().replace("{% endblock %}", "{% endblok %}", 1))
    r = subprocess.run([sys.executable, "-m", "synth", "captcha", "--platform", "web", "--n", "40", "--workers", "1",
                        "--out", str(tmp_path / "o")], capture_output=True, text=True,
                       env={**os.environ, "SYNTH_TEMPLATES": str(templates)})
    assert r.returncode == 1 and "web/login" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_missing_gallery_input_and_corrupt_shard_for_score(dataset, tmp_path):
    r = synth("gallery", str(tmp_path / "nothing"), "--out", str(tmp_path / "g"))
    assert r.returncode == 1 and "does not exist" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    bad = tmp_path / "bad"
    bad.mkdir()
    shard = sorted(dataset.glob("*.tar"))[0]
    (bad / shard.name).write_bytes(shard.read_bytes()[:7000])
    (bad / "manifest.json").write_text((dataset / "manifest.json").read_text())
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"key": "x", "output": "Click(box=(1,1))"}\n')
    r = synth("score", str(bad), str(preds))
    assert r.returncode == 1 and "corrupt shard" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_parallel_run_exits_cleanly(tmp_path):
    r = synth("captcha", "--n", "30", "--shard-size", "10", "--workers", "2", "--family", "counting",
              "--out", str(tmp_path / "o"))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
