"""Optional degradations of grounding screenshots (`synth grounding --degrade SHARE`): the screen at a smaller
size and with JPEG compression artefacts, as screenshots are after a chat upload or a video call, with every
box and point of the label moved with the pixels."""
import math

import cv2
import numpy as np

from synth.labels import spec

SCALE_RANGE = (0.5, 0.9)       # the degraded screenshot's size, as a share of the screen's
QUALITY_RANGE = (30, 70)       # JPEG quality of the compression pass
MIN_TARGET_PX = 6              # a target stays at least this many pixels on its shorter side


def targets(label: dict) -> list[list[float]]:
    """The target boxes of the label's feasible queries."""
    return [q["accept"]["steps"][0]["region"] for q in label["queries"] if q["feasible"]]


def scale_label(label: dict, sx: float, sy: float, width: int, height: int) -> None:
    """Move every box and point of a grounding label to an image scaled by (sx, sy) to width×height, in place.
    The top-level accept and actions are the first query's (sample.make_label)."""
    def box(b: list[float]) -> list[float]:
        return spec.fbox([b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy])

    def point(p: list[float]) -> list[float]:
        return spec.fbox([p[0] * sx, p[1] * sy])

    def accept(acc: dict) -> None:
        for s in acc["steps"]:
            s["region"], s["end_region"] = box(s["region"]), box(s["end_region"])
            s["tolerance"] = round(s["tolerance"] * min(sx, sy), 3)
        acc["neutral_regions"] = [box(b) for b in acc["neutral_regions"]]

    label["image"] = {"width": width, "height": height}
    for q in label["queries"]:
        accept(q["accept"])
        for a in q["actions"]:
            a["point"], a["start"], a["end"] = point(a["point"]), point(a["start"]), point(a["end"])
    label["accept"], label["actions"] = label["queries"][0]["accept"], label["queries"][0]["actions"]
    for item in label["objects"] + label["elements"]:
        item["bbox"] = box(item["bbox"])


def degrade(rng: np.random.Generator, rgb: np.ndarray, label: dict) -> np.ndarray:
    """The screenshot smaller (area-averaged) and passed through JPEG at a low quality; the label's geometry
    moved with it and the degradation named in `params.augment.applied`. The scale is raised where it would
    bring a target under MIN_TARGET_PX, up to no downscale at all."""
    h, w = rgb.shape[:2]
    smallest = min((min(b[2] - b[0], b[3] - b[1]) for b in targets(label)), default=math.inf)
    scale = min(1.0, max(float(rng.uniform(*SCALE_RANGE)), MIN_TARGET_PX / max(1e-6, smallest)))
    quality = int(rng.integers(QUALITY_RANGE[0], QUALITY_RANGE[1] + 1))
    applied = []
    if scale < 1.0:
        nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
        rgb = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA)
        scale_label(label, nw / w, nh / h, nw, nh)
        applied.append(f"downscale:{nw / w:.3f}")
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("could not encode the degraded screenshot")
    rgb = cv2.imdecode(data, cv2.IMREAD_COLOR_RGB)
    applied.append(f"jpeg:{quality}")
    label["params"]["augment"]["applied"] = ",".join(applied)
    return rgb
