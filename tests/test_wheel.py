"""A plain wheel install works on its own: built from the checkout, installed into a fresh venv that sees the
already-installed dependencies but not the editable synth, and run from an unrelated folder."""
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
# what a build does not read: environments, outputs, caches (a stale build/ could leak deleted files)
NOT_COPIED = shutil.ignore_patterns(".git", ".venv", "out", "build", "dist", "*.egg-info", "__pycache__",
                                    ".pytest_cache")


def run(*cmd, cwd, env=None) -> str:
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{cmd} exited {r.returncode}:\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    return r.stdout


def test_wheel_installs_and_runs_outside_the_checkout(tmp_path):
    src, dist, env_dir, work = tmp_path / "src", tmp_path / "dist", tmp_path / "env", tmp_path / "work"
    shutil.copytree(CHECKOUT, src, ignore=NOT_COPIED)   # building in place would leave build/ in the checkout
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", dist, ".", cwd=src)
    [wheel] = dist.glob("synth-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for shipped in ("synth/tools/gallery/static/index.html", "synth/_data/templates/screens/web",
                    "synth/_data/assets/emoji/index.json", "synth/_data/backgrounds/texture-00.jpg",
                    "synth/export/venus_captcha_system.txt"):
        assert any(n.startswith(shipped) for n in names), shipped
    assert not [n for n in names if n.startswith(("tests/", "docs/", "bench/")) or
                n.startswith("synth/_data/") and n.endswith(".py")]

    run(sys.executable, "-m", "venv", "--without-pip", env_dir, cwd=tmp_path)
    python = env_dir / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path).strip())
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel,
        cwd=tmp_path)
    # Only now (pip must not see the editable synth and touch it) add this environment's site-packages as a
    # plain path: its .pth files, among them the editable install's finder, are not processed from there.
    ours = sysconfig.get_paths()
    (site / "deps.pth").write_text("".join(f"{p}\n" for p in dict.fromkeys([ours["purelib"], ours["platlib"]])))

    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNTH_") and k != "PYTHONPATH"}
    work.mkdir()
    where = run(python, "-c", "import synth, synth.core.paths as p; print(synth.__file__, p.TEMPLATES, p.ASSETS, "
                "p.BACKGROUNDS, sep='\\n')", cwd=work, env=env).split()
    assert all(Path(w).is_relative_to(site) for w in where), where

    synth = env_dir / "bin" / "synth"
    run(synth, "captcha", "--n", "4", "--difficulty", "1", "--out", "X", "--workers", "1", cwd=work, env=env)
    run(synth, "grounding", "--n", "2", "--difficulty", "1", "--out", "Y", "--workers", "1", cwd=work, env=env)
    run(synth, "gallery", "X", "--out", "G", cwd=work, env=env)
    for out in ("X", "Y"):
        assert list((work / out).glob("*.tar")) and (work / out / "manifest.json").is_file(), out
    assert (work / "G" / "index.html").is_file()
