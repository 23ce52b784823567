"""Rasterise the emoji sprite set from Noto Color Emoji into assets/emoji/.

Run once when the set changes (`python assets/build_emoji.py`); the PNGs are
committed so that generation never depends on the font being installed.
"""
import json
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
OUT = Path(__file__).parent / "emoji"

# name: (codepoint, category, zh name)
EMOJI = {
    "cat": ("\U0001F431", "animal", "猫"), "dog": ("\U0001F436", "animal", "狗"),
    "fish": ("\U0001F41F", "animal", "鱼"), "bird": ("\U0001F426", "animal", "鸟"),
    "turtle": ("\U0001F422", "animal", "乌龟"), "rabbit": ("\U0001F430", "animal", "兔子"),
    "frog": ("\U0001F438", "animal", "青蛙"), "bee": ("\U0001F41D", "animal", "蜜蜂"),
    "snail": ("\U0001F40C", "animal", "蜗牛"), "elephant": ("\U0001F418", "animal", "大象"),
    "horse": ("\U0001F40E", "animal", "马"), "penguin": ("\U0001F427", "animal", "企鹅"),
    "apple": ("\U0001F34E", "food", "苹果"), "banana": ("\U0001F34C", "food", "香蕉"),
    "grapes": ("\U0001F347", "food", "葡萄"), "cherry": ("\U0001F352", "food", "樱桃"),
    "strawberry": ("\U0001F353", "food", "草莓"), "lemon": ("\U0001F34B", "food", "柠檬"),
    "pear": ("\U0001F350", "food", "梨"), "carrot": ("\U0001F955", "food", "胡萝卜"),
    "mushroom": ("\U0001F344", "food", "蘑菇"), "pineapple": ("\U0001F34D", "food", "菠萝"),
    "car": ("\U0001F697", "vehicle", "汽车"), "bus": ("\U0001F68C", "vehicle", "公交车"),
    "bicycle": ("\U0001F6B2", "vehicle", "自行车"), "sailboat": ("\u26F5", "vehicle", "帆船"),
    "truck": ("\U0001F69A", "vehicle", "卡车"), "tractor": ("\U0001F69C", "vehicle", "拖拉机"),
    "house": ("\U0001F3E0", "object", "房子"), "tree": ("\U0001F332", "object", "树"),
    "umbrella": ("\u2602\uFE0F", "object", "雨伞"), "bell": ("\U0001F514", "object", "铃铛"),
    "key": ("\U0001F511", "object", "钥匙"), "cup": ("\u2615", "object", "杯子"),
    "lightbulb": ("\U0001F4A1", "object", "灯泡"), "guitar": ("\U0001F3B8", "object", "吉他"),
    "hat": ("\U0001F3A9", "object", "帽子"), "shoe": ("\U0001F45F", "object", "鞋"),
    "scissors": ("\u2702\uFE0F", "object", "剪刀"), "pencil": ("\u270F\uFE0F", "object", "铅笔"),
    "star": ("\u2B50", "symbol", "星星"), "ball": ("\u26BD", "symbol", "足球"),
    "heart": ("\u2764\uFE0F", "symbol", "爱心"),
}


def render(char: str) -> Image.Image:
    """Draw one emoji at the font's bitmap size (109 px), cropped to its alpha."""
    font = ImageFont.truetype(FONT, 109)
    im = Image.new("RGBA", (160, 160), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((80, 80), char, font=font, embedded_color=True, anchor="mm")
    return im.crop(im.getbbox())


def main() -> None:
    OUT.mkdir(exist_ok=True)
    index = {}
    for name, (char, category, zh) in EMOJI.items():
        render(char).save(OUT / f"{name}.png", optimize=True)
        index[name] = {"category": category, "en": name, "zh": zh}
    (OUT / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
