"""Distinct page layouts in a dataset, by a pixel-only measure: colour, theme and text changes alone do not
make a new layout.

Each screenshot becomes a coarse map of edge density (Canny on a 256-px-wide grey copy, averaged over a
grid of 32 columns, each map scaled to its own mean), with the CAPTCHA widget masked out. Screenshots are
grouped greedily: one joins the first group whose first member's map is within DISTANCE (mean absolute
difference) of its own, else starts a group. The number of groups is the number of distinct layouts.
DISTANCE was set so that renders of one hand-written template with other themes and words fall into one
group (docs/screens.md).

Usage: python bench/layout_diversity.py DATASET [DATASET...] [--distance D]"""
import argparse
import json
from collections import Counter, defaultdict

import cv2
import numpy as np

from synth.tools.dataset import iter_samples

DISTANCE = 0.8
COLUMNS = 32


def density_map(image: np.ndarray, mask: list[float] | None) -> np.ndarray:
    """The edge-density map of an RGB screenshot; `mask` (a box in its pixels) is blanked first."""
    h, w = image.shape[:2]
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    if mask is not None:
        x0, y0, x1, y1 = (int(round(v)) for v in mask)
        grey[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = 128
    small = cv2.resize(grey, (256, max(1, round(256 * h / w))), interpolation=cv2.INTER_AREA)
    edges = cv2.Canny(small, 60, 160).astype(np.float32) / 255.0
    rows = max(1, round(COLUMNS * h / w))
    grid = cv2.resize(edges, (COLUMNS, rows), interpolation=cv2.INTER_AREA)
    return grid / max(float(grid.mean()), 1e-6)


def count_layouts(maps: list[np.ndarray], distance: float = DISTANCE) -> int:
    """Greedy grouping of same-shaped maps; the number of groups."""
    leaders: list[np.ndarray] = []
    for m in maps:
        if not any(leader.shape == m.shape and float(np.abs(leader - m).mean()) < distance for leader in leaders):
            leaders.append(m)
    return len(leaders)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("datasets", nargs="+")
    ap.add_argument("--distance", type=float, default=DISTANCE)
    args = ap.parse_args()
    maps, templates = defaultdict(list), defaultdict(Counter)
    for d in args.datasets:
        for _, members in iter_samples(d):
            label = json.loads(members["json"])
            ext = next(e for e in members if e != "json")
            rgb = cv2.cvtColor(cv2.imdecode(np.frombuffer(members[ext], np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
            maps[label["platform"]].append(density_map(rgb, label["widget"]))
            templates[label["platform"]][label["template"]] += 1
    total = 0
    for platform in sorted(maps):
        n = count_layouts(maps[platform], args.distance)
        total += n
        print(f"{platform:8s} screens {len(maps[platform]):5d}  templates {len(templates[platform]):3d}  "
              f"layouts {n:5d}")
    print(f"{'all':8s} screens {sum(map(len, maps.values())):5d}  layouts {total:5d}")


if __name__ == "__main__":
    main()
