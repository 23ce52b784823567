"""Pictures that pages show (product photos, thumbnails, banners, avatars), as data: URIs, from installed files only.

- photo(): a centre crop of a photograph or wallpaper from the Debian wallpaper packages that scripts/setup.sh
  installs (found under synth.core.paths.VENDOR, /usr/share by default; sources and licences in assets/CREDITS.md);
- product(): a Microsoft Fluent 3D emoji object (npm @lobehub/fluent-emoji-3d, MIT) on a soft backdrop, the
  look of a shop's product shot;
- avatar(): a user picture, the person's initials on a colour of their name, or a crop of a photo.

Same generator state and arguments, same bytes. Sizes are CSS px; `scale` is the page's device pixel ratio
(2 on phones), so that a picture is as sharp as the screen."""
import base64
import hashlib
import io
import math
import os
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
import PIL
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from synth.core import paths

QUALITY = 80
# Photos and product shots are lossy WebP, not JPEG: Chromium decodes a JPEG shown smaller than its pixels at a
# reduced scale or at full size depending on what its decode cache holds at raster time, so the same page came
# out up to 3 levels otherwise in ~1 render in 3 (web/music_web's 40 px covers of 272 px pictures). Its WebP
# decoder has one way only. Method 0 encodes fastest (5 ms a 272 px photo; its files still a tenth under JPEG's).
WEBP_METHOD = 0
COPY = 1600        # longest side of the cached copy of a picture: enough for a banner or a phone-wide photo
_CACHE = paths.CACHE / "imagery"
_EXTS = {".jpg", ".jpeg", ".png", ".webp"}      # what Pillow decodes here (not .svg, nor trixie's .jxl)
# Installed pictures that would not pass for a photo or a picture on a page: near-solid fills, mostly
# transparent, a desktop's logo, and larger copies of the same picture.
_SKIP = {"vnc-d", "vnc-l", "symbolic-d", "symbolic-l", "Arc-Colors-Transparent-Wallpaper", "Flow", "Gulp",
         "Silk", "Spring", "Waves", "Elephants_3840x2160", "Elephants_5640x3172", "GreenTraditional",
         "Float-into-MATE", "MATE-Stripes-Dark", "MATE-Stripes-Light", "Stripes", "Ubuntu-Mate-Dark-no-logo",
         "focal-ubuntukylin", "warty-final-ubuntu"}

# Fluent 3D emoji (file = code points) that look like things a shop sells, by kind
PRODUCTS = {
    "fashion": {"running shoe": "1f45f", "leather shoe": "1f45e", "high heel": "1f460", "boot": "1f462",
                "hiking boot": "1f97e", "handbag": "1f45c", "purse": "1f45b", "backpack": "1f392",
                "briefcase": "1f4bc", "t-shirt": "1f455", "jeans": "1f456", "dress": "1f457", "coat": "1f9e5",
                "necktie": "1f454", "scarf": "1f9e3", "gloves": "1f9e4", "socks": "1f9e6", "hat": "1f452",
                "cap": "1f9e2", "sunglasses": "1f576-fe0f", "glasses": "1f453", "ring": "1f48d", "watch": "231a",
                "lipstick": "1f484", "blouse": "1f45a", "shorts": "1fa73", "bikini": "1f459"},
    "electronics": {"phone": "1f4f1", "laptop": "1f4bb", "desktop computer": "1f5a5-fe0f",
                    "keyboard": "2328-fe0f", "mouse": "1f5b1-fe0f", "headphones": "1f3a7", "camera": "1f4f7",
                    "television": "1f4fa", "game controller": "1f3ae", "battery": "1f50b", "light bulb": "1f4a1",
                    "flashlight": "1f526", "radio": "1f4fb", "microphone": "1f399-fe0f", "printer": "1f5a8-fe0f",
                    "alarm clock": "23f0", "video camera": "1f3a5", "projector": "1f4fd-fe0f"},
    "food": {"coffee": "2615", "tea": "1f375", "teapot": "1fad6", "wine": "1f377", "juice box": "1f9c3",
             "apple": "1f34e", "orange": "1f34a", "lemon": "1f34b", "banana": "1f34c", "watermelon": "1f349",
             "grapes": "1f347", "strawberry": "1f353", "avocado": "1f951", "bread": "1f35e", "croissant": "1f950",
             "cheese": "1f9c0", "chocolate": "1f36b", "cookie": "1f36a", "cake": "1f382", "honey": "1f36f",
             "canned food": "1f96b", "coffee beans": "1fad8", "milk": "1f95b", "cupcake": "1f9c1",
             "cup with straw": "1f964"},
    "home": {"potted plant": "1fab4", "candle": "1f56f-fe0f", "couch": "1f6cb-fe0f", "chair": "1fa91",
             "bed": "1f6cf-fe0f", "lotion": "1f9f4", "soap": "1f9fc", "toothbrush": "1faa5", "sponge": "1f9fd",
             "frying pan": "1f373", "vase": "1f3fa", "mirror": "1fa9e", "hammer": "1f528",
             "screwdriver": "1fa9b", "wrench": "1f527", "toolbox": "1f9f0", "basket": "1f9fa", "broom": "1f9f9",
             "umbrella": "2602-fe0f", "yarn": "1f9f6", "gift": "1f381", "bouquet": "1f490"},
    "sports": {"bicycle": "1f6b2", "scooter": "1f6f4", "football": "26bd", "basketball": "1f3c0",
               "tennis": "1f3be", "american football": "1f3c8", "volleyball": "1f3d0", "ping pong": "1f3d3",
               "boxing glove": "1f94a", "skateboard": "1f6f9", "kite": "1fa81", "hockey": "1f3d2"},
    "toys": {"teddy bear": "1f9f8", "yo-yo": "1fa80", "guitar": "1f3b8", "piano": "1f3b9", "drum": "1f941",
             "violin": "1f3bb", "dice": "1f3b2", "puzzle piece": "1f9e9", "palette": "1f3a8", "books": "1f4da",
             "notebook": "1f4d3", "pencil": "270f-fe0f", "pen": "1f58a-fe0f"},
}
# What a product's name or shop title shows, by words in it (English, lower case, or Chinese): the first
# entry with a word in the name wins, so the more specific come first ("适用苹果" in an earbuds title is no apple)
NAMED = (
    (("earbud", "headphone", "耳机"), "1f3a7"), (("sweater", "coat", "jacket", "羽绒服", "外套", "毛衣"), "1f9e5"),
    (("water bottle", "保温杯", "水杯"), "1f964"), (("grinder", "磨豆机"), "1fad8"),
    (("running shoe", "sneaker", "跑步鞋", "运动鞋"), "1f45f"), (("mug", "马克杯", "咖啡杯"), "2615"),
    (("lamp", "台灯"), "1f4a1"), (("keyboard", "键盘"), "2328-fe0f"), (("backpack", "双肩包", "背包"), "1f392"),
    (("serum", "lotion", "精华", "乳液"), "1f9f4"), (("frying pan", "不粘锅", "炒锅"), "1f373"),
    (("watch", "手表", "手环"), "231a"), (("bed sheet", "床单", "四件套"), "1f6cf-fe0f"),
    (("sunglasses", "太阳镜"), "1f576-fe0f"), (("phone case", "手机壳"), "1f4f1"), (("scarf", "围巾"), "1f9e3"),
    (("notebook", "笔记本"), "1f4d3"), (("apple", "苹果"), "1f34e"),
)


def named_code(name: str) -> str | None:
    """The Fluent emoji that shows the product `name` (a name or a shop's long title), if NAMED knows it."""
    low = name.lower()
    return next((code for words, code in NAMED if any(w in low for w in words)), None)

# What a dish, a menu section or a cuisine shows, by words in its name (English, lower case, or Chinese): the
# first entry with a word in the name wins, so dishes come before the cuisines their names also name; an English
# word matches a whole word or its plural ("tea" not in "steak", "roll" in "Rolls")
FOODS = (
    (("fries", "薯条"), "1f35f"), (("onion ring", "洋葱圈", "bhaji"), "1f9c5"),
    (("satay", "skewer", "烧烤", "串"), "1f362"),
    (("taco", "塔可"), "1f32e"), (("burrito", "卷饼"), "1f32f"), (("sandwich", "三明治"), "1f96a"),
    (("burger", "堡"), "1f354"), (("pizza", "pizzeria", "披萨", "margherita", "pepperoni"), "1f355"),
    (("wings", "鸡翅", "炸鸡", "鸡排", "鸡米花", "鸡块", "鸡柳"), "1f357"),
    (("gyoza", "dumpling", "samosa", "spring roll", "饺", "馄饨", "包子"), "1f95f"),
    (("sushi", "nigiri", "roll", "寿司", "加州卷", "日料", "sakura", "樱花"), "1f363"),
    (("丸子", "takoyaki"), "1f361"), (("酸梅", "豆奶"), "1f964"), (("miso", "soup", "汤"), "1f963"),
    (("salad", "沙拉", "黄瓜", "木耳", "轻食", "healthy"), "1f957"),
    (("guacamole", "avocado"), "1f951"), (("elote", "corn"), "1f33d"),
    (("croissant", "bakery", "面包"), "1f950"),
    (("breakfast", "pancake"), "1f95e"), (("naan", "bread", "饼"), "1fad3"),
    (("curry", "curries", "masala", "tikka", "paneer", "rogan", "咖喱", "黄焖鸡", "biryani", "lemongrass"), "1f35b"),
    (("丼", "拌饭", "套餐", "快餐", "简餐", "老娘舅", "小碗菜", "bento"), "1f371"),
    (("rice", "饭"), "1f35a"), (("spaghetti", "pasta", "italian"), "1f35d"),
    (("noodle", "pad ", "pho", "ramen", "面", "粉", "wok", "chinese"), "1f35c"),
    (("水煮", "麻辣", "豆腐", "川", "湘", "火锅"), "1f372"), (("炒", "回锅", "鸡丁", "肺片", "口水鸡"), "1f958"),
    (("卤蛋", "egg"), "1f95a"), (("shake", "smoothie", "奶昔", "酸梅", "豆奶"), "1f964"),
    (("bubble tea", "奶茶", "波波", "果茶", "百香果", "多肉", "茶饮", "喜茶", "甜品饮品", "甜点饮品", "鲜果"), "1f9cb"),
    (("mango", "芒果", "杨枝甘露"), "1f96d"), (("双皮奶", "pudding", "布丁"), "1f36e"),
    (("cake", "tiramisu", "提拉米苏", "蛋糕", "dessert", "甜品", "甜点"), "1f370"),
    (("lemon", "lemonade", "柠檬"), "1f34b"),
    (("coffee", "café", "咖啡", "latte"), "2615"), (("tea", "茶"), "1f375"),
    (("cola", "可乐", "雪碧", "soda", "water", "山泉", "酸梅", "豆奶", "drink", "饮"), "1f964"),
    (("mexican", "墨西哥"), "1f32e"), (("japanese", "日韩", "首尔"), "1f363"), (("american",), "1f354"),
    (("thai", "indian"), "1f35b"), (("edamame", "vegan"), "1f96c"), (("鸡",), "1f357"),
)


def food_code(*names: str) -> str | None:
    """The Fluent emoji that shows the first of `names` FOODS knows (a dish, then its section, then its cuisine)."""
    for name in names:
        low = name.lower()
        code = next((code for words, code in FOODS if any(_says(low, w) for w in words)), None)
        if code:
            return code
    return None


def _says(text: str, word: str) -> bool:
    """Whether lower-case `text` holds `word`: an English word as a word of its own, or its plural."""
    return re.search(rf"\b{re.escape(word)}(e?s)?\b", text) is not None if word.isascii() else word in text


def dish(rng: np.random.Generator, width: int, height: int, *names: str, scale: int = 1) -> str:
    """A data:image/webp URI of a food shot: what the first of `names` shows (`food_code`), else a dish of FOODS."""
    codes = sorted({code for _, code in FOODS})
    code = codes[int(rng.integers(len(codes)))]    # drawn even for a known dish: the same draws either way
    code = food_code(*names) or code
    return _product_uri(code, width * scale, height * scale, int(rng.integers(len(_BACKDROPS))))


_EMOJI = "@lobehub/fluent-emoji-3d/assets/{}.webp"
# Soft studio backdrops (a few, so that product shots can be cached)
_BACKDROPS = ((244, 241, 236), (238, 242, 246), (241, 245, 239), (247, 240, 240), (243, 240, 247),
              (246, 244, 234), (236, 244, 244), (245, 245, 245))
# Avatar colours: mid-tone hues that keep white initials readable
_AVATAR = ((229, 57, 53), (216, 27, 96), (142, 36, 170), (94, 53, 177), (57, 73, 171), (30, 136, 229),
           (3, 155, 229), (0, 137, 123), (67, 160, 71), (124, 179, 66), (244, 81, 30), (109, 76, 65),
           (84, 110, 122), (251, 140, 0))


def picture_folders() -> list[Path]:
    """Where the wallpaper packages put their pictures, under synth.core.paths.VENDOR."""
    return [paths.VENDOR / "backgrounds", paths.VENDOR / "wallpapers"]


@lru_cache(maxsize=1)
def photos() -> tuple[Path, ...]:
    """The installed photographs and pictures, sorted; FileNotFoundError naming the fix when there are none."""
    found = []
    backgrounds, wallpapers = picture_folders()
    if backgrounds.is_dir():
        found += [p for p in backgrounds.rglob("*") if p.suffix.lower() in _EXTS and p.stem not in _SKIP]
    # a KDE wallpaper is a folder with one picture in many sizes: take the smallest landscape one ≥ 1920 px wide
    for folder in sorted(wallpapers.glob("*/contents/images")) if wallpapers.is_dir() else ():
        sizes = []
        for p in folder.iterdir():
            m = re.fullmatch(r"(\d+)x(\d+)", p.stem)
            if m and p.suffix.lower() in _EXTS and int(m[1]) >= int(m[2]):
                sizes.append((int(m[1]) < 1920, int(m[1]) if int(m[1]) >= 1920 else -int(m[1]), p.name, p))
        if sizes:
            found.append(min(sizes)[-1])
    if not found:
        raise FileNotFoundError(f"no pictures under {' or '.join(map(str, picture_folders()))}: run "
                                f"scripts/setup.sh (it installs the wallpaper packages)")
    return tuple(sorted(found))


def _decode(path: Path, longest: int) -> Image.Image:
    """The picture as RGB on white, downscaled so that its longest side is at most `longest`."""
    with Image.open(path) as im:
        r = min(1.0, longest / max(im.size))
        im.draft("RGB", (math.ceil(im.width * r), math.ceil(im.height * r)))   # JPEG: decode at 1/2 .. 1/8 scale
        im = im.convert("RGBA") if im.mode in ("RGBA", "LA", "PA", "P") else im.convert("RGB")
        if im.mode == "RGBA":
            flat = Image.new("RGB", im.size, (255, 255, 255))
            flat.paste(im, mask=im.getchannel("A"))
            im = flat
        im.thumbnail((longest, longest), Image.Resampling.LANCZOS)
        return im


SMALL = 640        # longest side of the small copy, which most pictures on a page are cut from


@lru_cache(maxsize=1024)
def _copy(path: Path, longest: int = COPY) -> Path:
    """A JPEG copy of the picture, at most `longest` px on its longest side, in the user's cache folder:
    decoding a 4K wallpaper (PNG, WebP) takes 0.5-5 s, its copy 10-20 ms (the small copy ~3 ms). Written
    once per machine, by whichever process needs it first (temporary name, then rename), and always read
    back from the file, so that every process crops the same pixels."""
    if longest != COPY:
        source = _copy(path)
        key = hashlib.sha256(f"{source.name}|{longest}|444".encode()).hexdigest()[:24]
    else:
        source, st = path, path.stat()
        stamp = f"{path}|{st.st_size}|{st.st_mtime_ns}|{COPY}|{PIL.__version__}|444"
        key = hashlib.sha256(stamp.encode()).hexdigest()[:24]
    out = _CACHE / f"{key}.jpg"
    if not out.is_file():
        _CACHE.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(f".{os.getpid()}.tmp")
        _decode(source, longest).save(tmp, "JPEG", quality=92, subsampling=0)   # 4:4:4: colour edges stay sharp
        os.replace(tmp, out)
    return out


# Most pictures on a page are small and come from the small copy (1 MB each in memory); banners and
# phone-wide pictures from the full copy (5 MB each, fewer kept).
@lru_cache(maxsize=128)
def _small(path: Path) -> Image.Image:
    return _decode(_copy(path, SMALL), SMALL)


@lru_cache(maxsize=16)
def _large(path: Path) -> Image.Image:
    return _decode(_copy(path), COPY)


@lru_cache(maxsize=1024)
def _size(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        return im.size


def crop(path: Path, width: int, height: int) -> Image.Image:
    """Centre crop of picture `path` at the aspect of width×height, resized to width×height pixels."""
    if width < 1 or height < 1:
        raise ValueError(f"width={width}, height={height}: both must be ≥ 1")
    w, h = _size(_copy(path))
    # the small copy when it still has a pixel for each output pixel
    im = _small(path) if max(w, h) / min(w / width, h / height) <= SMALL else _large(path)
    s = min(im.width / width, im.height / height)      # its pixels per output pixel
    cw, ch = min(im.width, width * s), min(im.height, height * s)
    box = ((im.width - cw) / 2, (im.height - ch) / 2, (im.width + cw) / 2, (im.height + ch) / 2)
    return im.resize((width, height), Image.Resampling.LANCZOS, box=box, reducing_gap=3.0)


def photo(rng: np.random.Generator, width: int, height: int, scale: int = 1) -> str:
    """A data:image/webp URI of a randomly drawn photo, cropped to fill width×height CSS px."""
    files = photos()
    return _photo_uri(files[int(rng.integers(len(files)))], width * scale, height * scale)


@lru_cache(maxsize=512)
def _photo_uri(path: Path, width: int, height: int) -> str:
    return _uri(crop(path, width, height), "webp")


def product(rng: np.random.Generator, width: int, height: int, scale: int = 1, kind: str | None = None,
            name: str | None = None) -> str:
    """A data:image/webp URI of a product shot on a soft backdrop: what the product `name` shows if NAMED knows
    it (`named_code`), else a random object of PRODUCTS[kind] (of any kind if None)."""
    if kind is not None and kind not in PRODUCTS:
        raise ValueError(f"kind={kind!r}: expected one of {', '.join(PRODUCTS)} or None")
    codes = sorted({c for k, items in PRODUCTS.items() if kind in (None, k) for c in items.values()})
    code = codes[int(rng.integers(len(codes)))]    # drawn even for a named product: the same draws either way
    code = named_code(name or "") or code
    return _product_uri(code, width * scale, height * scale, int(rng.integers(len(_BACKDROPS))))


@lru_cache(maxsize=512)
def _product_uri(code: str, width: int, height: int, backdrop: int | tuple) -> str:
    base = np.array(backdrop if isinstance(backdrop, tuple) else _BACKDROPS[backdrop], np.float32)
    # a backdrop lit from above: lighter at the top, a touch darker at the bottom
    ramp = np.linspace(1.02, 0.95, height, dtype=np.float32)[:, None, None]
    canvas = Image.fromarray(np.clip(base * ramp * np.ones((1, width, 1), np.float32), 0, 255).astype(np.uint8))
    side = max(1, min(int(min(width, height) * 0.68), 384))     # the files are 256 px: not blown up further
    with Image.open(paths.npm_file(_EMOJI.format(code))) as im:
        obj = im.convert("RGBA").resize((side, side), Image.Resampling.LANCZOS)
    x, y = (width - side) // 2, (height - side) // 2
    shadow = Image.new("L", (width, height), 0)
    ImageDraw.Draw(shadow).ellipse((x + side * 0.15, y + side * 0.9, x + side * 0.85, y + side * 1.02), fill=70)
    shadow = shadow.filter(ImageFilter.GaussianBlur(max(1.0, side * 0.04)))
    canvas.paste((90, 80, 70), mask=shadow)
    canvas.paste(obj, (x, y), obj)
    return _uri(canvas, "webp")


_ARTICLES = ("the", "a", "an")


def _initials(name: str) -> str:
    """What an avatar shows: "AK" for Alex Kim; as Chinese office apps do, the last two characters of a Chinese
    name (王芳, 小明 for 王小明)."""
    name = name.strip()
    if re.search(r"[\u3400-\u9fff]", name):
        return name[-2:]
    words = [w for w in re.split(r"[\s._-]+", name) if w]
    words = [w for w in words if w.lower() not in _ARTICLES] or words     # @the.plant.guy: PG, not TG
    return "".join(w[0] for w in (words[:1] + words[1:][-1:])).upper() or "?"


def avatar(name: str, size: int, style: str = "initials", scale: int = 1) -> str:
    """A data: URI of `name`'s avatar, size×size CSS px: "initials" (their initials on a colour of their name)
    or "photo" (a crop of a photo of their name's choosing). Same name, same picture."""
    if style not in ("initials", "photo"):
        raise ValueError(f"style={style!r}: expected 'initials' or 'photo'")
    return _avatar_uri(name, size * scale, style)


@lru_cache(maxsize=512)
def _avatar_uri(name: str, px: int, style: str) -> str:
    digest = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big")   # hash() differs per process
    if style == "photo":
        files = photos()
        return _uri(_round(crop(files[digest % len(files)], px, px)), "png")
    text = _initials(name)
    im = Image.new("RGB", (px, px), _AVATAR[digest % len(_AVATAR)])
    cjk = not text.isascii()
    font = ImageFont.truetype(paths.font("opentype/noto/NotoSansCJK-Bold.ttc" if cjk else
                                         "truetype/dejavu/DejaVuSans-Bold.ttf"),
                              int(px * (0.36 if len(text) > 1 else 0.44)))
    ImageDraw.Draw(im).text((px / 2, px / 2), text, fill=(255, 255, 255), font=font, anchor="mm")
    return _uri(_round(im), "png")


def _round(im: Image.Image) -> Image.Image:
    """The picture as a disc with a transparent rim. Design systems clip avatars to a circle, and Chromium
    anti-aliases that clip a little differently depending on what it painted before (tests/screens/test_browser.py);
    over transparent pixels the difference vanishes, so the disc stays 1.5 px inside the clip."""
    px = im.width
    big = Image.new("L", (px * 4, px * 4), 0)
    inset = 1.5 * 4 * max(1, px // 40)
    ImageDraw.Draw(big).ellipse((inset, inset, px * 4 - 1 - inset, px * 4 - 1 - inset), fill=255)
    out = im.convert("RGBA")
    out.putalpha(big.resize((px, px), Image.Resampling.LANCZOS))
    return out


def _uri(im: Image.Image, fmt: str) -> str:
    buf = io.BytesIO()
    if fmt == "webp":
        im.save(buf, "WEBP", quality=QUALITY, method=WEBP_METHOD)
    else:
        im.save(buf, "PNG", optimize=True)
    return f"data:image/{fmt};base64," + base64.b64encode(buf.getvalue()).decode("ascii")


# --- Pictures that fit a caption -------------------------------------------------------------------------------
# A subject is a tag of content/photo_subjects.json ("lake", "flower": the installed photos that show it) or a
# Fluent emoji's code points ("1f6b2": a bicycle on a studio backdrop). A captioned slot names its subjects and
# draws its picture among them, so the picture shows what the caption says.
EMOJI_CODE = re.compile(r"[0-9a-f]{4,5}(?:-[0-9a-f]{4,5})*")
# Dim backdrops for an object that fills a screen under white text (a short video's frame)
_DARK = ((38, 40, 48), (46, 38, 52), (34, 46, 50), (50, 42, 36), (30, 34, 40), (44, 48, 40), (52, 36, 40),
         (36, 36, 36))


def photo_key(path: Path) -> str:
    """The name a picture goes by in the subject table: its stem, or a KDE wallpaper's folder name."""
    return path.parents[2].name if re.fullmatch(r"\d+x\d+", path.stem) else path.stem


@lru_cache(maxsize=1)
def photo_subjects() -> dict[str, tuple[str, ...]]:
    """The subject table: picture key -> the tags of what it shows."""
    import json
    from importlib import resources
    table = json.loads((resources.files("synth.screens.content") / "photo_subjects.json").read_text("utf-8"))
    return {k: tuple(v) for k, v in table.items() if not k.startswith("_")}


@lru_cache(maxsize=256)
def showing(subject: str) -> tuple[Path | str, ...]:
    """What can show `subject`: its emoji code, or the installed photos tagged with it (sorted)."""
    if EMOJI_CODE.fullmatch(subject):
        return (subject,) if paths.npm_file(_EMOJI.format(subject)).is_file() else ()
    table = photo_subjects()
    return tuple(p for p in photos() if subject in table.get(photo_key(p), ()))


def fitting(subjects: tuple[str, ...], avoid: tuple = ()) -> tuple[Path | str, ...]:
    """The pictures that show one of `subjects` (any installed photo if there are none), those in `avoid` left
    out while others remain: a screen shows a picture once when it can."""
    pool = tuple(dict.fromkeys(x for s in subjects for x in showing(s))) if subjects else photos()
    if not pool:
        raise ValueError(f"no picture shows any of {subjects}: tag one in content/photo_subjects.json")
    fresh = tuple(x for x in pool if x not in avoid)
    return fresh or pool


def picture(rng: np.random.Generator, width: int, height: int, scale: int = 1, subjects: tuple[str, ...] = (),
            avoid: tuple = (), dark: bool = False) -> tuple[str, Path | str]:
    """A data URI of a picture that shows one of `subjects` (a photo, or an emoji on a backdrop: a dim one if
    `dark`), and what it is (the photo's path or the emoji code). One draw; an emoji's backdrop follows from it."""
    pool = fitting(subjects, avoid)
    k = int(rng.integers(len(pool) * len(_BACKDROPS)))
    chosen = pool[k % len(pool)]
    if isinstance(chosen, str):
        backdrop = _DARK[k // len(pool)] if dark else k // len(pool)
        return _product_uri(chosen, width * scale, height * scale, backdrop), chosen
    return _photo_uri(chosen, width * scale, height * scale), chosen


def again(chosen: Path | str, width: int, height: int, scale: int = 1) -> str:
    """A picture `picture` chose, at another size (a selected thumbnail in a preview pane). No draw."""
    if isinstance(chosen, str):
        return _product_uri(chosen, width * scale, height * scale, 0)
    return _photo_uri(chosen, width * scale, height * scale)
