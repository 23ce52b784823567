"""The static QA gallery: built from the session dataset, opened from file:// in the system Chromium, offline."""
import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from PIL import Image

from synth.screens.browser import CHROMIUM_ARGS
from synth.screens.chromium import chromium_path
from synth.tools.gallery import build_gallery, read_flags

pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def gallery(dataset, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gallery")
    assert build_gallery(dataset, out) == 36
    return out


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


class Session:
    """A fresh browser context on a gallery: non-file requests are recorded and aborted, page errors kept."""

    def __init__(self, browser, out: Path) -> None:
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
        self.page = self.context.new_page()
        self.page.route("**/*", self._route)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto((out / "index.html").as_uri())
        self.page.wait_for_selector(".card")

    def _route(self, route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            self.requests.append(route.request.url)
            route.abort()

    def keys(self) -> list[str]:
        return self.page.eval_on_selector_all(".card", "cards => cards.map(c => c.dataset.key)")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def session(browser, gallery):
    s = Session(browser, gallery)
    yield s
    assert s.errors == [], s.errors
    assert s.requests == [], s.requests
    s.close()


def test_grid_shows_every_sample_with_its_thumbnail(session, gallery, samples):
    page = session.page
    keys = session.keys()
    assert len(keys) == 36 and len(set(keys)) == 36
    assert set(keys) == {s["key"] for s in samples}
    assert "36 samples" in page.inner_text("#count")
    for card in page.locator(".card").all():
        img = card.locator(".thumb img")
        assert img.get_attribute("loading") == "lazy"
        card.scroll_into_view_if_needed()
        img.evaluate("""im => new Promise((ok, fail) => {
            if (im.complete) return im.naturalWidth > 0 ? ok() : fail("not loaded: " + im.src);
            im.onload = () => ok(); im.onerror = () => fail("failed: " + im.src);
        })""")
        assert img.evaluate("im => im.naturalWidth") > 0
    # the files: full screenshots as stored, ~320 px thumbnails
    for s in samples[:5]:
        assert (gallery / "full" / f"{s['key']}.jpg").read_bytes() == s["jpg"]
        assert Image.open(gallery / "thumb" / f"{s['key']}.jpg").width == 320
    # filters are built from the data and narrow the grid
    families = page.eval_on_selector_all('select[data-field="family"] option', "os => os.map(o => o.value)")
    assert set(families) == {""} | {s["label"]["family"] for s in samples}
    page.select_option('select[data-field="family"]', "rotation")
    n_rotation = sum(s["label"]["family"] == "rotation" for s in samples)
    assert len(session.keys()) == n_rotation
    assert f"{n_rotation} of 36 samples" in page.inner_text("#count")


def _first_key(page, js_test: str) -> str:
    return page.evaluate(f"() => window.SYNTH_DATA.samples.find(s => {js_test}).key")


def test_detail_view_overlay_and_keyboard(session):
    page = session.page
    keys = session.keys()
    key = _first_key(page, "s.objects.some(o => o[1] === 'target') && s.actions.some(a => a.type === 'click')")
    page.click(f'.card[data-key="{key}"]')
    assert page.is_visible("#detail")
    assert page.inner_text("#detail-key") == key
    page.wait_for_function("() => { const i = document.querySelector('#full-image');"
                           " return i.complete && i.naturalWidth > 0; }")
    size = page.evaluate(f"() => window.SYNTH_DATA.samples.find(s => s.key === '{key}').size")
    assert page.evaluate("() => document.querySelector('#full-image').naturalWidth") == size[0]
    assert page.get_attribute("#full-image", "src") == f"full/{key}.jpg"
    box = page.locator("#full-image").bounding_box()
    assert box["width"] > 300 and box["height"] > 200
    assert page.locator("#overlay rect.target").count() >= 1
    assert page.locator("#overlay circle.action-mark").count() >= 1
    assert page.locator("#overlay rect.widget").count() == 1
    assert page.locator("#overlay rect.accept").count() >= 1
    assert page.locator("#overlay rect.target").first.is_visible()
    text = page.inner_text("#panel")
    assert page.evaluate(f"() => window.SYNTH_DATA.samples.find(s => s.key === '{key}').instruction") in text
    assert "reference_reward" in text and ("any order" in text or "in order" in text)

    # layers: a key toggles one, o toggles all
    page.keyboard.press("2")
    assert not page.locator("#overlay rect.target").first.is_visible()
    page.keyboard.press("2")
    assert page.locator("#overlay rect.target").first.is_visible()
    page.keyboard.press("o")
    assert not page.locator("#overlay rect.target").first.is_visible()
    assert not page.locator("#overlay circle.action-mark").first.is_visible()
    page.keyboard.press("o")
    assert page.locator("#overlay rect.target").first.is_visible()

    # next / previous within the current filter
    i = keys.index(key)
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#detail-key") == keys[i + 1] != key
    page.keyboard.press("j")
    assert page.inner_text("#detail-key") == keys[i + 2]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("k")
    assert page.inner_text("#detail-key") == key
    page.keyboard.press("Escape")
    assert not page.is_visible("#detail")


def test_flag_export_and_read_flags(session, tmp_path):
    page = session.page
    keys = session.keys()
    page.click(f'.card[data-key="{keys[3]}"]')
    page.keyboard.press("f")
    assert page.is_visible("#flag-dialog")
    page.click('#reasons .reason[data-reason="ambiguous"]')
    page.click("#flag-save")
    assert not page.is_visible("#flag-dialog")
    assert page.inner_text("#detail-flag") == "⚑ ambiguous"
    # a second flag by keyboard, with a note
    page.keyboard.press("ArrowRight")
    page.keyboard.press("f")
    page.keyboard.press("1")
    page.fill("#flag-note", "count is 3")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    assert page.locator(f'.card[data-key="{keys[3]}"] .flag-badge').inner_text() == "⚑ ambiguous"
    assert page.locator(".card .flag-badge").count() == 2

    with page.expect_download() as info:
        page.click("#export-flags")
    download = info.value
    assert download.suggested_filename == "flags.json"
    path = tmp_path / "flags.json"
    download.save_as(path)
    assert read_flags(path) == {keys[3]: "ambiguous", keys[4]: "wrong label: count is 3"}

    # flags persist in localStorage across a reload
    page.reload()
    page.wait_for_selector(".card")
    assert page.locator(".card .flag-badge").count() == 2
    page.select_option("#flag-filter", "flagged")
    assert sorted(session.keys()) == sorted([keys[3], keys[4]])


def test_max_samples_is_an_even_deterministic_subsample(browser, dataset, samples, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert build_gallery(dataset, a, max_samples=10) == 10
    assert build_gallery(dataset, b, max_samples=10) == 10
    assert (a / "data.js").read_bytes() == (b / "data.js").read_bytes()
    order = [s["key"] for s in samples]           # shard order, members sorted
    expected = [order[i * 36 // 10] for i in range(10)]
    s = Session(browser, a)
    try:
        assert s.keys() == expected
        assert s.errors == [] and s.requests == []
    finally:
        s.close()
    assert sorted(p.stem for p in (a / "thumb").iterdir()) == sorted(expected)
    # rebuilding a folder drops the files of the earlier build
    assert build_gallery(dataset, a, max_samples=4) == 4
    assert len(list((a / "full").iterdir())) == len(list((a / "thumb").iterdir())) == 4


def test_charts_are_copied_and_shown(browser, dataset, tmp_path):
    chart = tmp_path / "difficulty.png"
    Image.new("RGB", (400, 240), (40, 90, 200)).save(chart)
    out = tmp_path / "g"
    build_gallery(dataset, out, max_samples=3, charts=[chart])
    assert (out / "stats" / "difficulty.png").read_bytes() == chart.read_bytes()
    s = Session(browser, out)
    try:
        s.page.click('#views .tab[data-view="stats"]')
        img = s.page.locator("#charts img")
        assert img.count() == 1
        img.scroll_into_view_if_needed()
        s.page.wait_for_function("() => document.querySelector('#charts img').naturalWidth === 400")
        assert s.errors == [] and s.requests == []
    finally:
        s.close()
    not_png = tmp_path / "chart.png"
    not_png.write_text("hello")
    with pytest.raises(ValueError, match="not a PNG"):
        build_gallery(dataset, tmp_path / "h", max_samples=1, charts=[not_png])


def test_missing_or_empty_dataset_raises(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        build_gallery(tmp_path / "nope", tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no shards"):
        build_gallery(tmp_path / "empty", tmp_path / "out")


def test_output_folder_rules(dataset, tmp_path):
    with pytest.raises(ValueError, match="other than the dataset"):
        build_gallery(dataset, dataset)
    # a non-empty folder the gallery did not make is refused, untouched
    out = tmp_path / "mine"
    (out / "stats").mkdir(parents=True)
    (out / "notes.txt").write_text("keep me")
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    with pytest.raises(ValueError, match="not empty and was not made by synth gallery.*--force"):
        build_gallery(dataset, out, max_samples=2)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    # forced, it writes beside the user's files, but never over one
    (out / "stats" / "chart.png").write_text("mine too")
    with pytest.raises(ValueError, match="holds stats/chart.png, which the gallery would overwrite"):
        build_gallery(dataset, out, max_samples=2, force=True)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == [*before, Path("stats/chart.png")]
    (out / "stats" / "chart.png").unlink()
    assert build_gallery(dataset, out, max_samples=3, force=True) == 3
    assert (out / "notes.txt").read_text() == "keep me" and not (out / "data.js.tmp").exists()
    # a rebuild needs no --force, deletes only what the earlier build wrote, and keeps what the user added since
    (out / "thumb" / "later.txt").write_text("added by hand")
    with pytest.raises(ValueError, match="holds thumb/later.txt"):
        build_gallery(dataset, out, max_samples=2)
    (out / "thumb" / "later.txt").unlink()
    (out / "todo.md").write_text("review")
    assert build_gallery(dataset, out, max_samples=2) == 2
    assert len(list((out / "full").iterdir())) == len(list((out / "thumb").iterdir())) == 2
    assert (out / "notes.txt").exists() and (out / "todo.md").exists()
    # a record naming files outside the gallery's places is not followed
    record = json.loads((out / ".synth-gallery.json").read_text())
    record["files"] += ["notes.txt", "../outside.txt", "full/../../todo.md"]
    (out / ".synth-gallery.json").write_text(json.dumps(record))
    (tmp_path / "outside.txt").write_text("outside")
    assert build_gallery(dataset, out, max_samples=1) == 1
    assert (out / "notes.txt").exists() and (out / "todo.md").exists() and (tmp_path / "outside.txt").exists()


def test_cli_refuses_a_users_folder_in_one_line(dataset, tmp_path):
    out = tmp_path / "user"
    out.mkdir()
    (out / "index.html").write_text("<p>my page</p>")
    cmd = [sys.executable, "-m", "synth", "gallery", str(dataset), "--out", str(out), "--max", "2"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1 and "--force" in r.stderr, r.stderr
    r = subprocess.run([*cmd, "--force"], capture_output=True, text=True)
    assert r.returncode == 1 and "holds index.html" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert [p.name for p in out.iterdir()] == ["index.html"] and "my page" in (out / "index.html").read_text()
    (out / "index.html").unlink()
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0 and (out / "index.html").exists(), r.stderr


def test_corrupt_shard_is_named(dataset, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "captcha-000000.tar").write_bytes(b"this is not a tar file" * 100)
    with pytest.raises(ValueError, match="captcha-000000.tar"):
        build_gallery(bad, tmp_path / "out")
    # a shard cut off in the middle of a member
    cut = tmp_path / "cut"
    cut.mkdir()
    shard = sorted(dataset.glob("*.tar"))[0]
    data = shard.read_bytes()
    (cut / shard.name).write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=shard.name):
        build_gallery(cut, tmp_path / "out2")
    # a label that is not JSON
    broken = tmp_path / "broken"
    broken.mkdir()
    with tarfile.open(broken / "captcha-000007.tar", "w") as tar:
        for name, payload in [("k-1.jpg", _jpeg()), ("k-1.json", b"{not json")]:
            info = tarfile.TarInfo(name)
            info.size = len(payload)
            tar.addfile(info, io.BytesIO(payload))
    with pytest.raises(ValueError, match="captcha-000007.tar"):
        build_gallery(broken, tmp_path / "out3")


def _jpeg() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 48)).save(buf, "JPEG")
    return buf.getvalue()


@pytest.mark.parametrize("content, message", [
    ("not json", "not JSON"),
    ("[1, 2]", "expected"),
    ('{"flag": {}}', "expected"),
    ('{"flags": {"k": 3}}', "not a string"),
])
def test_read_flags_rejects_malformed_files(tmp_path, content, message):
    path = tmp_path / "flags.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message) as err:
        read_flags(path)
    assert "\n" not in str(err.value)


def test_read_flags_reads_the_export_format(tmp_path):
    path = tmp_path / "flags.json"
    path.write_text(json.dumps({"flags": {"a": "ugly page", "b": "other: 中文"}}), encoding="utf-8")
    assert read_flags(path) == {"a": "ugly page", "b": "other: 中文"}
    with pytest.raises(FileNotFoundError):
        read_flags(tmp_path / "missing.json")
