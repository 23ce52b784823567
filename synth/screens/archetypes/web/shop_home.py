"""Shopping: a store's catalogue page: navigation, optional hero banner, filters beside a product grid."""
import numpy as np

CATEGORY = "shopping"
# no form here takes a CAPTCHA: a modal over the dimmed page, or a full-page check
PLACEMENTS = ("modal", "modal", "interstitial")


def layout(rng: np.random.Generator, lang: str) -> dict:
    """Sections and their arrangement for one page."""
    columns = int(rng.integers(3, 6))
    return {
        "hero": bool(rng.random() < 0.5),
        "filters": str(rng.choice(["left", "right", "none"])),
        "columns": columns,
        "products": min(8, 2 * columns),      # two full rows (content has 8 products)
        "breadcrumb": bool(rng.random() < 0.6),
        "tabs": bool(rng.random() < 0.4),
        "pagination": bool(rng.random() < 0.5),
        "footer": bool(rng.random() < 0.5),
        "compact": bool(rng.random() < 0.5),
        "price": int(rng.integers(0, 4)),     # the price range asked for: any, under 50, 50-200, over 200
    }
