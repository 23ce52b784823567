"""A drawn street map (shared by the map and hotel pages): a rotated street grid with a few main roads, an
avenue, an optional river and parks, street labels and marker positions, all as plain numbers for
templates/screens/web/_streetmap.j2."""
import numpy as np

W, H = 1000, 700          # SVG user units; the map is drawn with "slice" so it fills any box


def street_map(rng: np.random.Generator, streets: list[str], pins: int) -> dict:
    """Geometry of one map; `streets` are names to label main roads with, `pins` marker positions to place."""
    spacing = float(rng.uniform(46, 78))
    reach = int(np.hypot(W, H) / 2 / spacing) + 1
    lines = [round(W / 2 + k * spacing, 1) for k in range(-reach, reach + 1)]
    major_every = int(rng.integers(3, 6))
    v_major = [x for i, x in enumerate(lines) if i % major_every == 1]
    h_major = [round(H / 2 + (x - W / 2) * 0.9, 1) for i, x in enumerate(lines) if i % major_every == 3]
    cx, cy = W / 2, H / 2
    river = None
    if rng.random() < 0.55:
        y0, y1 = rng.uniform(0.1, 0.9, 2) * H
        river = {"d": f"M -50 {y0:.0f} C {W * 0.35:.0f} {y0 + rng.uniform(-200, 200):.0f}, {W * 0.65:.0f} "
                      f"{y1 + rng.uniform(-200, 200):.0f}, {W + 50} {y1:.0f}", "width": int(rng.integers(26, 60))}
    avenue = (f"M {rng.uniform(-50, W * 0.3):.0f} -40 "
              f"Q {rng.uniform(0.2, 0.8) * W:.0f} {rng.uniform(0.3, 0.7) * H:.0f}, "
              f"{rng.uniform(W * 0.6, W + 50):.0f} {H + 40}")
    parks = []
    for _ in range(int(rng.integers(1, 4))):
        i, j = rng.integers(-reach + 1, reach - 1, 2)
        parks.append({"x": round(cx + i * spacing + 4, 1), "y": round(cy + j * spacing * 0.9 + 4, 1),
                      "w": round(spacing * int(rng.integers(1, 3)) - 8, 1),
                      "h": round(spacing * 0.9 * int(rng.integers(1, 3)) - 8, 1)})
    labels = []
    for k, name in enumerate(streets[:3]):
        if k % 2 == 0 and k // 2 < len(v_major):
            labels.append({"text": name, "x": v_major[min(k // 2, len(v_major) - 1)] - 4, "y": cy + 40 * (k - 1),
                           "vertical": True})
        elif k // 2 < len(h_major):
            labels.append({"text": name, "x": cx - 120 + 60 * k, "y": h_major[min(k // 2, len(h_major) - 1)] - 6,
                           "vertical": False})
    # markers in percent of the map box, kept off the edges and apart from each other
    spots: list[tuple[float, float]] = []
    tries = 0
    while len(spots) < pins:
        x, y = rng.uniform(12, 88), rng.uniform(14, 86)
        tries += 1
        if all(abs(x - a) > 9 or abs(y - b) > 9 for a, b in spots) or tries > 200:   # crowded: accept an overlap
            spots.append((round(float(x), 1), round(float(y), 1)))
    return {"w": W, "h": H, "angle": round(float(rng.uniform(-28, 28)), 1), "lines": lines,
            "v_major": v_major, "h_major": h_major, "span": round(reach * spacing * 1.2),
            "river": river, "avenue": avenue, "parks": parks, "labels": labels, "pins": spots,
            "scale": str(rng.choice(["100 m", "200 m", "500 m", "1 km"]))}
