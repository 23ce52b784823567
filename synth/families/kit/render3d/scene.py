"""What a 3D scene is made of (primitives, objects, camera, light, ground) and the camera's geometry in numpy.

World axes as in three.js: y up, the ground at y = 0 by default; angles in degrees. An object's rotation
(rx, ry, rz) turns it about z first, then x, then y (three.js Euler order "YXZ"): ry is its heading."""
from dataclasses import dataclass, field

import numpy as np

KINDS = ("cube", "sphere", "cylinder", "cone", "torus", "wedge")   # unit-size primitives, centred on 0
GROUND_ID = 255          # the ground's id in the ID pass (0 is the sky)
SHADOWS = ("sun", "contact", "none")


@dataclass(frozen=True)
class Part:
    """One primitive of an object, placed in the object's own frame. `edges`: colour of its drawn edges."""
    kind: str
    colour: tuple[int, int, int]
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    edges: tuple[int, int, int] | None = None
    lit: bool = True          # False: flat colour, no shading
    shine: float = 0.25       # strength of the specular highlight, 0 (matte) to 1
    tag: int = 0              # 0..255, this part's pixels in the ID pass's tag channel (to tell parts apart)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"part kind must be one of {KINDS}, got {self.kind!r}")
        if not 0 <= self.tag <= 255:
            raise ValueError(f"part tag must be in 0..255, got {self.tag}")


@dataclass(frozen=True)
class Obj:
    """An object: parts that move together and share one id (1..254) in the ID pass."""
    id: int
    parts: tuple[Part, ...]
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)

    def __post_init__(self) -> None:
        if not 1 <= self.id < GROUND_ID:
            raise ValueError(f"object id must be in 1..{GROUND_ID - 1}, got {self.id}")


@dataclass(frozen=True)
class Camera:
    """A perspective camera at `position` looking at `target` (y up); `fov` vertical, degrees."""
    position: tuple[float, float, float]
    target: tuple[float, float, float] = (0.0, 0.0, 0.0)
    fov: float = 40.0
    near: float = 0.5
    far: float = 60.0


@dataclass(frozen=True)
class Light:
    """A sun (directional, from `direction` towards the origin) plus a sky/floor hemisphere fill."""
    direction: tuple[float, float, float] = (0.45, 1.0, 0.35)
    intensity: float = 2.4
    colour: tuple[int, int, int] = (255, 250, 240)
    ambient: float = 1.1
    sky: tuple[int, int, int] = (235, 240, 255)
    floor: tuple[int, int, int] = (120, 110, 100)
    distance: float = 20.0
    shadow_extent: float = 8.0     # half-size of the square the shadows are computed on, world units
    shadow_map: int = 1024


@dataclass(frozen=True)
class Ground:
    colour: tuple[int, int, int] = (200, 200, 196)
    size: float = 40.0
    y: float = 0.0


@dataclass(frozen=True)
class Scene:
    size: tuple[int, int]                    # (w, h) pixels
    objects: tuple[Obj, ...]
    camera: Camera
    light: Light = field(default_factory=Light)
    ground: Ground | None = field(default_factory=Ground)
    shadows: str = "sun"                     # "sun" (shadow map), "contact" (soft discs under objects), "none"
    background: tuple[int, int, int] = (226, 232, 240)

    def __post_init__(self) -> None:
        if self.shadows not in SHADOWS:
            raise ValueError(f"shadows must be one of {SHADOWS}, got {self.shadows!r}")
        ids = [o.id for o in self.objects]
        if len(set(ids)) != len(ids):
            raise ValueError(f"object ids must be distinct, got {ids}")

    def to_json(self) -> dict:
        """The description scene.js builds the scene from."""
        def part(p: Part) -> dict:
            return {"kind": p.kind, "colour": list(p.colour), "position": list(p.position),
                    "rotation": list(p.rotation), "scale": list(p.scale),
                    "edges": list(p.edges) if p.edges else None, "lit": p.lit, "shine": p.shine, "tag": p.tag}

        c, li = self.camera, self.light
        return {
            "width": self.size[0], "height": self.size[1], "background": list(self.background),
            "shadows": self.shadows,
            "camera": {"position": list(c.position), "target": list(c.target), "fov": c.fov, "near": c.near,
                       "far": c.far},
            "light": {"direction": list(li.direction), "intensity": li.intensity, "colour": list(li.colour),
                      "ambient": li.ambient, "sky": list(li.sky), "floor": list(li.floor),
                      "distance": li.distance, "shadow_extent": li.shadow_extent, "shadow_map": li.shadow_map},
            "ground": ({"colour": list(self.ground.colour), "size": self.ground.size, "y": self.ground.y}
                       if self.ground else None),
            "objects": [{"id": o.id, "position": list(o.position), "rotation": list(o.rotation),
                         "scale": list(o.scale), "parts": [part(p) for p in o.parts]} for o in self.objects],
        }


# ---------------------------------------------------------------- geometry

def rotation_matrix(rotation: tuple[float, float, float]) -> np.ndarray:
    """3x3 matrix of an (rx, ry, rz) rotation in degrees, Euler order YXZ (as scene.js applies it)."""
    rx, ry, rz = np.deg2rad(rotation)
    cx, sx, cy, sy, cz, sz = np.cos(rx), np.sin(rx), np.cos(ry), np.sin(ry), np.cos(rz), np.sin(rz)
    mx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    my = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    mz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return my @ mx @ mz


def euler_yxz(matrix: np.ndarray) -> tuple[float, float, float]:
    """The (rx, ry, rz) rotation in degrees, Euler order YXZ, of a 3x3 rotation matrix (rotation_matrix's
    inverse)."""
    m = np.asarray(matrix, float)
    rx = np.arcsin(np.clip(-m[1, 2], -1.0, 1.0))
    if abs(m[1, 2]) < 0.9999999:
        ry, rz = np.arctan2(m[0, 2], m[2, 2]), np.arctan2(m[1, 0], m[1, 1])
    else:                 # looking straight up or down: heading and roll turn about one axis
        ry, rz = np.arctan2(-m[2, 0], m[0, 0]), 0.0
    return tuple(float(v) for v in np.degrees([rx, ry, rz]))


def screen_point(camera: Camera, size: tuple[int, int], pixel: tuple[float, float], distance: float) -> np.ndarray:
    """The world point seen at `pixel` (x right, y down), `distance` in front of the camera (project's inverse)."""
    w, h = size
    right, up, back = camera_axes(camera)
    t = np.tan(np.deg2rad(camera.fov) / 2)
    ndc_x, ndc_y = 2 * pixel[0] / w - 1, 1 - 2 * pixel[1] / h
    return (np.asarray(camera.position, float) - back * distance + right * ndc_x * distance * t * w / h
            + up * ndc_y * distance * t)


def camera_axes(camera: Camera) -> np.ndarray:
    """Rows: the camera's right, up and backward (away from the target) unit vectors in world axes."""
    back = np.subtract(camera.position, camera.target).astype(float)
    back /= np.linalg.norm(back)
    right = np.cross([0.0, 1.0, 0.0], back)
    right /= np.linalg.norm(right)
    return np.stack([right, np.cross(back, right), back])


def to_camera(camera: Camera, points) -> np.ndarray:
    """World points (n, 3) in camera axes: x right, y up, z the distance in front of the camera."""
    rel = np.atleast_2d(np.asarray(points, float)) - np.asarray(camera.position, float)
    out = rel @ camera_axes(camera).T
    out[:, 2] *= -1
    return out


def project(camera: Camera, size: tuple[int, int], points) -> np.ndarray:
    """World points (n, 3) -> pixel coordinates (n, 2) in an image of `size` (x right, y down)."""
    w, h = size
    c = to_camera(camera, points)
    f = 1 / np.tan(np.deg2rad(camera.fov) / 2)
    ndc_x = f * h / w * c[:, 0] / c[:, 2]
    ndc_y = f * c[:, 1] / c[:, 2]
    return np.stack([(ndc_x + 1) / 2 * w, (1 - ndc_y) / 2 * h], 1)


def orbit(distance: float, elevation: float, azimuth: float, target=(0.0, 0.0, 0.0), fov: float = 40.0,
          near: float = 0.5, far: float = 60.0) -> Camera:
    """A camera `distance` from `target`, `elevation` degrees above the horizon, at `azimuth` degrees about
    the y axis (0: on the +z side looking towards -z)."""
    e, a = np.deg2rad(elevation), np.deg2rad(azimuth)
    offset = distance * np.array([np.cos(e) * np.sin(a), np.sin(e), np.cos(e) * np.cos(a)])
    pos = tuple(float(v) for v in np.add(target, offset))
    return Camera(pos, tuple(float(v) for v in target), fov, near, far)
