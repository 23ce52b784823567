"""Simple 3D scenes drawn by three.js in headless Chromium (WebGL on the CPU): primitives with colour, size,
position and rotation, a camera, a sun with shadows (or soft contact shadows) on an optional ground.

render(scene) gives the picture, an ID pass (each pixel's object id, flat, not antialiased; 0 the sky,
GROUND_ID the ground), on request a depth pass (distance along the camera's axis) and the tags of the parts
seen, and each object's unoccluded silhouette (with its depth). The same scene gives the same bytes in any browser
of this Chromium, fresh or long-lived (tests/families/test_render3d.py). Chromium starts on the first scene of a process
(synth.families.kit.render3d.chromium)."""
import base64
from dataclasses import dataclass

import numpy as np

from synth.families.kit.render3d.chromium import Renderer, renderer
from synth.families.kit.render3d.scene import (
    GROUND_ID,
    KINDS,
    Camera,
    Ground,
    Light,
    Obj,
    Part,
    Scene,
    camera_axes,
    euler_yxz,
    orbit,
    project,
    rotation_matrix,
    screen_point,
    to_camera,
)

__all__ = ["GROUND_ID", "KINDS", "Camera", "Ground", "Light", "Obj", "Part", "Renderer", "Scene", "Silhouette",
           "Rendered", "render", "render_many", "close", "camera_axes", "euler_yxz", "orbit", "project",
           "rotation_matrix", "screen_point", "to_camera"]


@dataclass(frozen=True)
class Silhouette:
    """An object drawn alone: pixels, box [x0, y0, x1, y1) and centroid in pixels, nearest and mean depth of
    its front surface (world units along the camera's axis)."""
    area: int
    box: tuple[float, float, float, float]
    centre: tuple[float, float]
    depth_min: float
    depth_mean: float


@dataclass
class Rendered:
    rgb: np.ndarray                  # (H, W, 3) uint8
    ids: np.ndarray                  # (H, W) uint8: object id, 0 sky, GROUND_ID ground
    depth: np.ndarray | None         # (H, W) float32 world units along the camera's axis, inf for the sky
    tags: np.ndarray | None          # (H, W) uint8: the tag of the part seen (Part.tag); both None unless asked
    solo: dict[int, Silhouette]      # object id -> its unoccluded silhouette

    def instances(self) -> np.ndarray:
        """The ID pass as an instance map: objects 1..254, everything else 0."""
        out = self.ids.copy()
        out[out == GROUND_ID] = 0
        return out

    def visible_share(self, i: int) -> float:
        """Share of object i's unoccluded silhouette that shows in the scene."""
        full = self.solo[i].area if i in self.solo else 0
        return float(np.count_nonzero(self.ids == i)) / full if full else 0.0


def _decode(scene: Scene, raw: dict) -> Rendered:
    w, h = scene.size
    near, far = scene.camera.near, scene.camera.far

    def plane(key: str, dtype=np.uint8, channels: int = 1) -> np.ndarray:
        shape = (h, w, channels) if channels > 1 else (h, w)
        return np.frombuffer(base64.b64decode(raw[key]), dtype).reshape(shape).copy()

    rgb, ids = plane("rgb", channels=3), plane("ids")
    depth = tags = None
    if raw["depth"] is not None:
        depth = near + plane("depth", ">u2").astype(np.float32) * np.float32((far - near) / 65535)
        depth[ids == 0] = np.inf
    if raw["tags"] is not None:
        tags = plane("tags")
    scale = (far - near) / 65535
    solo = {s["id"]: Silhouette(int(s["area"]), tuple(float(v) for v in s["box"]), (float(s["cx"]), float(s["cy"])),
                                near + s["depth_min"] * scale, near + s["depth_mean"] * scale)
            for s in raw["solo"]}
    return Rendered(rgb, ids, depth, tags, solo)


SOLO = ("auto", "all", "none")


def render_many(scenes: list[Scene], depth: bool = False, solo: str = "auto", tags: bool = False,
                using: Renderer | None = None) -> list[Rendered]:
    """Draw several scenes in one round trip to Chromium (this process's, or `using`). `depth`, `tags`: also
    return the depth pass, the parts' tags (each a little more to carry back). `solo`: which objects are drawn
    alone for their unoccluded silhouettes: "auto" those that something nearer touches (the others are measured
    in the ID pass: the same numbers, tests/families/test_render3d.py), "all", or "none" (silhouettes as the ID pass
    shows them)."""
    if solo not in SOLO:
        raise ValueError(f"solo must be one of {SOLO}, got {solo!r}")
    if not scenes:
        return []
    raw = (using or renderer()).call("renderScenes", [{**s.to_json(), "depth": depth, "solo": solo, "tags": tags}
                                                      for s in scenes])
    return [_decode(s, r) for s, r in zip(scenes, raw)]


def render(scene: Scene, depth: bool = False, solo: str = "auto", tags: bool = False,
           using: Renderer | None = None) -> Rendered:
    """Draw one scene (see render_many)."""
    return render_many([scene], depth, solo, tags, using)[0]


def close() -> None:
    """Stop this process's Chromium now (it also stops at exit)."""
    renderer().close()
