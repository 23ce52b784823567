"""synth.screens.imagery on the installed wallpapers and emoji (scripts/setup.sh installs them)."""
import base64
import io
import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from synth.core import paths
from synth.screens import imagery


def decode(uri: str) -> Image.Image:
    head, data = uri.split(",", 1)
    assert head in ("data:image/webp;base64", "data:image/png;base64"), head
    im = Image.open(io.BytesIO(base64.b64decode(data)))
    assert im.format.lower() == head[len("data:image/"):-len(";base64")]
    return im


def test_photos_are_found():
    files = imagery.photos()
    assert len(files) >= 20, f"only {len(files)} pictures: run scripts/setup.sh"
    assert list(files) == sorted(files) and len(set(files)) == len(files)
    folders = imagery.picture_folders()
    for f in files:
        assert f.is_file() and any(folder in f.parents for folder in folders), f
        assert f.suffix.lower() in imagery._EXTS and f.stem not in imagery._SKIP, f
    # one picture per KDE wallpaper folder, not each of its sizes
    kde = [f for f in files if paths.VENDOR / "wallpapers" in f.parents]
    assert len({f.parents[2] for f in kde}) == len(kde)


@pytest.mark.parametrize("scale", [1, 2])
def test_sizes(scale):
    rng = np.random.default_rng(3)
    for w, h in [(320, 180), (120, 120), (90, 160), (1280, 360)]:
        assert decode(imagery.photo(rng, w, h, scale)).size == (w * scale, h * scale)
        assert decode(imagery.product(rng, w, h, scale)).size == (w * scale, h * scale)
    for style in ("initials", "photo"):
        assert decode(imagery.avatar("Maria Lopez", 40, style, scale)).size == (40 * scale, 40 * scale)


def test_same_seed_same_bytes():
    def draw(seed):
        rng = np.random.default_rng(seed)
        return [imagery.photo(rng, 300, 200), imagery.product(rng, 160, 160, kind="food"), imagery.photo(rng, 64, 64)]
    first = draw(7)
    for cache in (imagery._photo_uri, imagery._product_uri, imagery._small, imagery._large):
        cache.cache_clear()        # the bytes must come from the files, not from what a cache kept
    assert draw(7) == first
    assert len({draw(seed)[0] for seed in range(6)}) > 1


def test_centre_crop(tmp_path, monkeypatch):
    monkeypatch.setattr(imagery, "_CACHE", tmp_path / "cache")
    stripes = np.zeros((200, 600, 3), np.uint8)
    stripes[:, :200, 0] = stripes[:, 200:400, 1] = stripes[:, 400:, 2] = 255     # red | green | blue
    Image.fromarray(stripes).save(tmp_path / "stripes.png")
    out = np.asarray(imagery.crop(tmp_path / "stripes.png", 100, 100)).astype(int)
    assert out.shape == (100, 100, 3)
    assert (out[..., 1] > 200).all() and (out[..., 0] < 60).all() and (out[..., 2] < 60).all()
    wide = np.asarray(imagery.crop(tmp_path / "stripes.png", 300, 100)).astype(int)
    assert wide[50, 5, 0] > 200 and wide[50, 150, 1] > 200 and wide[50, 295, 2] > 200


def test_avatar_is_a_function_of_the_name():
    assert imagery.avatar("Alex Kim", 48) == imagery.avatar("Alex Kim", 48)
    assert imagery.avatar("Alex Kim", 48) != imagery.avatar("Sam Patel", 48)
    assert imagery.avatar("王芳", 48, "photo") == imagery.avatar("王芳", 48, "photo")
    assert [imagery._initials(n) for n in ("Alex Kim", "jordan", "王小明", "李明")] == ["AK", "J", "小明", "李明"]
    # and not of the process: Python's hash() of a string differs between processes, the avatar may not
    code = ("from synth.screens import imagery; import hashlib; "
            "print(hashlib.sha256((imagery.avatar('Priya Shah', 40) + imagery.avatar('Priya Shah', 40, 'photo'))"
            ".encode()).hexdigest())")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in (1, 2)}
    assert len(runs) == 1


def test_product_kinds():
    for kind, items in imagery.PRODUCTS.items():
        for code in items.values():
            assert paths.npm_file(imagery._EMOJI.format(code)).is_file(), (kind, code)
    with pytest.raises(ValueError, match="kind"):
        imagery.product(np.random.default_rng(0), 100, 100, kind="cars")
    with pytest.raises(ValueError, match="style"):
        imagery.avatar("Alex Kim", 40, "cartoon")


def test_named_products_show_the_product():
    from synth.screens.content import load
    from synth.screens.content.common import WORDS
    names = [n for lang in WORDS.values() for n in lang["product"]]
    for lang in ("en", "zh"):     # the shop content's names and long titles
        names += [p[k] for p in load("shopping", lang)["products"] for k in ("name", "title")]
        names += [p["title"] for p in load("mobile_shopping", lang)["products"]]
    assert [n for n in names if imagery.named_code(n) is None] == []
    assert imagery.named_code("【官方正品】主动降噪无线蓝牙耳机 超长续航 适用苹果华为") == "1f3a7"    # not the apple
    assert imagery.named_code("Gift card") is None
    for _, code in imagery.NAMED:
        assert paths.npm_file(imagery._EMOJI.format(code)).is_file(), code
    a, b, c = (np.random.default_rng(4) for _ in range(3))
    assert imagery.product(a, 120, 120, name="双肩包") == imagery.product(b, 120, 120, name="Backpack")
    assert imagery.product(c, 120, 120, name="Sunglasses") != imagery.product(a, 120, 120, name="Backpack")
    unnamed = np.random.default_rng(4)
    imagery.product(unnamed, 120, 120)
    assert unnamed.bit_generator.state == b.bit_generator.state     # a name changes the picture, not the draws
