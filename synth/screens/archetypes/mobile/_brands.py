"""Sign-in brand marks (WeChat, Apple, Google...) from the simple-icons package that setup installs."""
from functools import cache

from synth.core.paths import npm_file

COLORS = {"wechat": "#07C160", "qq": "#1EBAFC", "sinaweibo": "#E6162D", "alipay": "#1677FF", "apple": "#000000",
          "google": "#4285F4", "facebook": "#0866FF", "x": "#000000"}


@cache
def path(slug: str) -> str:
    """The `d` of the brand's single-path 24×24 drawing."""
    svg = npm_file(f"simple-icons/icons/{slug}.svg").read_text(encoding="utf-8")
    return svg[svg.index(' d="') + 4:svg.index('"', svg.index(' d="') + 4)]


def brand(slug: str, label: str) -> dict:
    return {"slug": slug, "label": label, "color": COLORS[slug], "path": path(slug)}
