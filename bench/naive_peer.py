"""The naive peer synth is judged against: a real Bootstrap page (the npm package's stylesheet, a navbar, a
form, cards, a table), loaded and screenshotted once per sample with Playwright, in several processes.

Usage: python bench/naive_peer.py [--n 200] [--processes 2]   (prints renders/s and the start time)

`renders_per_s` is what a pipeline that renders a page for every sample makes on this machine;
`start_seconds` is the time from nothing to one captured page (launch Chromium, load, screenshot), the
fixed cost a small run pays at least."""
import argparse
import json
import multiprocessing
import shutil
import tempfile
import time
from pathlib import Path

from synth.core.paths import npm_file

ROWS = "".join(f"<tr><td>{i}</td><td>Order #{1000 + i}</td><td>${i * 13 % 97}.00</td>"
               f"<td><span class='badge bg-success'>paid</span></td></tr>" for i in range(12))
PAGE = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="bootstrap.min.css"><title>Dashboard</title></head><body>
<nav class="navbar navbar-expand navbar-dark bg-dark px-3"><a class="navbar-brand" href="#">Acme</a>
<ul class="navbar-nav"><li class="nav-item"><a class="nav-link active" href="#">Home</a></li>
<li class="nav-item"><a class="nav-link" href="#">Orders</a></li><li class="nav-item">
<a class="nav-link" href="#">Settings</a></li></ul></nav>
<div class="container my-4"><div class="row g-4"><div class="col-md-4"><div class="card"><div class="card-body">
<h5 class="card-title">Sign in</h5><form><div class="mb-3"><label class="form-label">Email</label>
<input class="form-control" type="email" placeholder="name@example.com"></div><div class="mb-3">
<label class="form-label">Password</label><input class="form-control" type="password"></div>
<div class="form-check mb-3"><input class="form-check-input" type="checkbox" id="r">
<label class="form-check-label" for="r">Remember me</label></div>
<button class="btn btn-primary w-100" type="button">Continue</button></form></div></div></div>
<div class="col-md-8"><div class="card"><div class="card-header">Recent orders</div>
<table class="table table-striped mb-0"><thead><tr><th>#</th><th>Order</th><th>Total</th><th>Status</th></tr>
</thead><tbody>{ROWS}</tbody></table></div></div></div></div></body></html>"""


def write_page(folder: Path) -> Path:
    """The page and its stylesheet in `folder`; returns the page's path."""
    shutil.copy(npm_file("bootstrap/dist/css/bootstrap.min.css"), folder / "bootstrap.min.css")
    page = folder / "index.html"
    page.write_text(PAGE, encoding="utf-8")
    return page


def _renders(args: tuple[str, int]) -> int:
    """One process: launch Chromium, then load and screenshot the page `n` times (a fresh load each time)."""
    from playwright.sync_api import sync_playwright

    from synth.screens.chromium import chromium_path
    url, n = args
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        for _ in range(n):
            page.goto(url)
            page.screenshot(type="jpeg", quality=90)
        browser.close()
    return n


def start_seconds(url: str) -> float:
    """Seconds from nothing to one captured page in a fresh process's Chromium."""
    t0 = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        pool.map(_renders, [(url, 1)])
    return time.perf_counter() - t0


def renders_per_s(url: str, n: int, processes: int = 2) -> float:
    """Pages loaded and captured per second by `processes` processes sharing `n` renders (start included,
    as a run of the peer would pay it)."""
    share = [n // processes + (i < n % processes) for i in range(processes)]
    t0 = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        done = sum(pool.map(_renders, [(url, k) for k in share]))
    return done / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--processes", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = write_page(Path(tmp)).as_uri()
        print(json.dumps({"renders_per_s": round(renders_per_s(url, args.n, args.processes), 2),
                          "start_seconds": round(start_seconds(url), 2)}))


if __name__ == "__main__":
    main()
