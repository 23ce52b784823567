"""Random page themes: colours, fonts, corner radius and spacing."""
import colorsys

import numpy as np

# Sans faces, as sites and apps set their interface (Inter, Roboto and Open Sans from Debian's fonts-inter,
# fonts-roboto-unhinted and fonts-open-sans, which scripts/setup.sh installs); Chinese falls back to a sans face
FONTS = {
    "en": ["'DejaVu Sans', sans-serif", "'Liberation Sans', Arial, sans-serif", "Inter, 'Noto Sans CJK SC', sans-serif",
           "Roboto, 'Noto Sans CJK SC', sans-serif", "'Open Sans', 'Noto Sans CJK SC', sans-serif",
           "'Noto Sans CJK SC', sans-serif"],
    "zh": ["'Noto Sans CJK SC', sans-serif", "'Liberation Sans', 'Noto Sans CJK SC', sans-serif",
           "Roboto, 'Noto Sans CJK SC', sans-serif"],
}


def _hex(h: float, s: float, v: float) -> str:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def make_theme(rng: np.random.Generator, lang: str) -> dict:
    """Draw a coherent colour scheme and type settings for one page."""
    hue = rng.random()
    dark = bool(rng.random() < 0.2)
    bg = _hex(hue, 0.04, 0.12) if dark else _hex(hue, rng.uniform(0.0, 0.06), rng.uniform(0.95, 1.0))
    surface = _hex(hue, 0.05, 0.18) if dark else "#ffffff"
    return {
        "dark": dark,
        "primary": _hex(hue, rng.uniform(0.55, 0.85), rng.uniform(0.55, 0.8)),
        "accent": _hex(hue + rng.uniform(0.3, 0.6), rng.uniform(0.5, 0.8), rng.uniform(0.7, 0.9)),
        "bg": bg,
        "surface": surface,
        "text": "#e8e8ea" if dark else _hex(hue, 0.1, rng.uniform(0.1, 0.25)),
        "muted": "#9a9aa2" if dark else _hex(hue, 0.06, rng.uniform(0.45, 0.55)),
        "border": _hex(hue, 0.06, 0.3) if dark else _hex(hue, 0.06, rng.uniform(0.85, 0.9)),
        "font": FONTS[lang][int(rng.integers(len(FONTS[lang])))],
        "radius": int(rng.choice([0, 4, 6, 8, 12])),
        "gap": int(rng.choice([8, 12, 16, 20])),
        "base_size": int(rng.choice([13, 14, 15, 16])),
    }
