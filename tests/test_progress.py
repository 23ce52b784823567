"""Progress when stderr is not a terminal (a log file, CI, nohup): plain lines every few seconds and one at the
end; --quiet prints none."""
import os
import re
import subprocess
import sys

LINE = re.compile(r"^synth: captcha (\d+)/6 samples, \d+\.\d samples/s, rejected \d+, "
                  r"(ETA (\d+:\d\d:\d\d|unknown)|done)$")


def run_logged(tmp_path, name: str, *extra: str) -> str:
    """A small run with stderr to a file; returns what the file holds."""
    log = tmp_path / f"{name}.log"
    with open(log, "w") as err:
        r = subprocess.run([sys.executable, "-m", "synth", "captcha", "--n", "6", "--shard-size", "3", "--workers",
                            "1", "--difficulty", "1", "--family", "counting", "--out", str(tmp_path / name), *extra],
                           stdout=subprocess.DEVNULL, stderr=err, env={**os.environ, "SYNTH_PROGRESS_SECONDS": "0.01"})
    assert r.returncode == 0, log.read_text()
    return log.read_text()


def test_progress_lines_in_a_log_and_none_with_quiet(tmp_path):
    lines = run_logged(tmp_path, "logged").splitlines()
    assert len(lines) >= 2 and all(LINE.match(line) for line in lines), lines
    done = [int(LINE.match(line).group(1)) for line in lines]
    assert done == sorted(done) and lines[-1].startswith("synth: captcha 6/6 samples") and lines[-1].endswith("done")
    assert any("ETA" in line for line in lines[:-1])
    assert run_logged(tmp_path, "quiet", "--quiet") == ""
