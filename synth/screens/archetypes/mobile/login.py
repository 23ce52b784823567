"""Account: a phone app's sign-in screen: logo or title, phone number with SMS code or account and password
(optionally as tabs), the agreement checkbox, the sign-in button, links and third-party sign-in."""
import numpy as np

from synth.screens.archetypes.mobile._brands import brand
from synth.screens.content import pick

CATEGORY = "account"
PLACEMENTS = ("inline", "modal")   # the CAPTCHA in the form, where sites put it, or over the page
APPS = {"en": ["Northwind", "Lumen", "Pinecone", "Orbit", "Harbor"], "zh": ["北风", "流明", "松果", "轨道", "海港生活"]}
BRANDS = {"en": [("apple", "Apple"), ("google", "Google"), ("facebook", "Facebook"), ("x", "X")],
          "zh": [("wechat", "微信"), ("qq", "QQ"), ("sinaweibo", "微博"), ("apple", "Apple"), ("alipay", "支付宝")]}


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Header, sign-in method, tabs, agreement, third-party sign-in style."""
    brands = [brand(s, lb) for s, lb in pick(rng, BRANDS[lang], int(rng.integers(2, 4)))]
    return {
        "os": str(rng.choice(["ios", "android"])),
        "app": str(rng.choice(APPS[lang])),
        "header": str(rng.choice(["logo", "title"])),
        "method": str(rng.choice(["sms", "password"] if lang == "zh" else ["sms", "password", "password"])),
        "tabs": bool(rng.random() < 0.45),
        "agree": bool(rng.random() < (0.9 if lang == "zh" else 0.4)),
        "agree_first": bool(rng.random() < 0.5),      # the agreement above the button, or under it
        "brands": brands,
        "brand_style": str(rng.choice(["icons", "icons", "buttons"])),
        "remember": bool(rng.random() < 0.3),
        "logo_shape": str(rng.choice(["square", "circle"])),
    }
