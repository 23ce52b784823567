"""Write docs/screens/<platform>-<n>.jpg: contact sheets of the screen archetypes, each in the design system
and language its first variants draw (English and Chinese alternate), captioned with name and system. Run
after adding or changing archetypes."""
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from synth import screens
from synth.core.paths import font
from synth.screens.browser import Browser
from synth.screens.pages import PageSpec
from synth.screens.render import choose_system

OUT = Path(__file__).parent / "screens"
TILE_W = {"web": 480, "desktop": 480, "mobile": 220}
PER_SHEET = {"web": 12, "desktop": 12, "mobile": 10}
COLUMNS = {"web": 3, "desktop": 3, "mobile": 5}


def tile(browser: Browser, name: str, index: int) -> Image.Image:
    platform = name.split("/")[0]
    variant, lang = 1 + index, ("en", "zh")[index % 2]
    page = browser.render(PageSpec(name, lang, variant, "none", "none"))
    shot = Image.fromarray(page.rgb)
    shot.thumbnail((TILE_W[platform], 10_000))
    card = Image.new("RGB", (shot.width, shot.height + 22), "white")
    card.paste(shot, (0, 22))
    ImageDraw.Draw(card).text((4, 3), f"{name} · {choose_system(name, variant)} · {lang}", fill="#222",
                              font=ImageFont.truetype(font("truetype/dejavu/DejaVuSans-Bold.ttf"), 12))
    return card


def sheets(tiles: list[Image.Image], columns: int) -> Image.Image:
    w, h = max(t.width for t in tiles), max(t.height for t in tiles)
    rows = -(-len(tiles) // columns)
    sheet = Image.new("RGB", (columns * (w + 8) + 8, rows * (h + 8) + 8), "#d0d3d8")
    for i, t in enumerate(tiles):
        sheet.paste(t, (8 + (i % columns) * (w + 8), 8 + (i // columns) * (h + 8)))
    return sheet


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("*.jpg"):
        old.unlink()
    browser = Browser()
    try:
        for platform in screens.PLATFORMS:
            names = [n for n in screens.names() if n.startswith(platform + "/")]
            tiles = [tile(browser, n, i) for i, n in enumerate(names)]
            for k in range(0, len(tiles), PER_SHEET[platform]):
                path = OUT / f"{platform}-{k // PER_SHEET[platform] + 1}.jpg"
                sheets(tiles[k:k + PER_SHEET[platform]], COLUMNS[platform]).save(path, quality=82)
                print(path)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
