"""Geometry click by description: flat shapes of several colours and sizes, some inside a big shape or
overlapping another; click the one shape the description fits ("the small red triangle inside the blue
circle"). Colours, kinds, size classes and the inside / overlapping relations are measured on the masks,
and the description must fit exactly one shape."""
from dataclasses import dataclass

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.levels import LevelTable, draw_knob
from synth.families.base import Puzzle, Task
from synth.families.kit import draw, geom

NAME = "geometry_click"
DESCRIPTION = "click the one shape a description of colour, kind, size and position fits (e.g. inside another)"
COVERS = ("OpenCaptchaWorld:Geometry_Click", "VenusBench-CAPTCHA:visual_reasoning", "NetEase-Yidun:spatial_reasoning")
ANSWERS = ("click",)            # synth.labels.reward step types of its tasks
STAT, STAT_DIRECTION = "number of shapes shown", +1
CONTAINERS = ("circle", "square", "hexagon", "pentagon")     # big convex shapes others can sit in
UNDERS = ("circle", "square", "hexagon", "pentagon")         # shapes another one overlaps
AREA = {"small": (0.92, 1.08), "large": (2.1, 2.4), "under": (3.6, 4.2)}   # areas in units of scale²
SMALL_MAX, LARGE_MIN = 1.4, 1.8      # measured area / scale² at most / at least this: "small" / "large"
GAP = 7               # px at 320 between the bounding circles of two groups of shapes
INNER_GAP = 6         # px between two shapes inside one container, and between them and its rim
KNOWN = 0.7           # a shape this much visible shows its kind
SIZE_KNOWN = 0.6      # ... and its size
INSIDE, OUTSIDE = 0.99, 0.9          # share of a shape within another's filled outline: inside / not inside
SQUARE_TILT = 20      # a square turned further looks like a diamond
TOUCH = 12            # pixels of another shape within 2 px of a shape: they overlap

TABLE = LevelTable(NAME, knobs={
    "count_range": "number of shapes, the big ones that hold others included",
    "size_word_range": "probability that the description needs a size word (a look-alike of the other size exists)",
    "relation_range": "probability that the description needs a relation (inside / overlapping another shape)",
    "overlaps_range": "probability that that relation is 'overlaps' rather than 'inside'",
    "containers_range": "big shapes holding other shapes, besides the one the description names",
    "pairs_range": "pairs of overlapping shapes, besides the one the description names",
    "near_range": "decoys that differ from the described shape in colour or kind only",
    "tilt_range": "largest turn of a shape, degrees",
    "scale_range": "side of a square of a small shape's area, share of the puzzle's shorter side",
    "clutter_range": "background texture strength, 0 (plain) to 1 (full texture)",
}, levels={
    1: {"count_range": (4, 5), "size_word_range": (0.0, 0.0), "relation_range": (0.0, 0.0),
        "overlaps_range": (0.0, 0.0), "containers_range": (0, 0), "pairs_range": (0, 0), "near_range": (1, 1),
        "tilt_range": (0, 0), "scale_range": (0.095, 0.1), "clutter_range": (0.0, 0.1)},
    2: {"count_range": (5, 6), "size_word_range": (0.5, 0.5), "relation_range": (0.25, 0.25),
        "overlaps_range": (0.0, 0.0), "containers_range": (0, 1), "pairs_range": (0, 0), "near_range": (1, 2),
        "tilt_range": (0, 10), "scale_range": (0.09, 0.095), "clutter_range": (0.1, 0.2)},
    3: {"count_range": (7, 8), "size_word_range": (0.5, 0.5), "relation_range": (0.6, 0.6),
        "overlaps_range": (0.3, 0.3), "containers_range": (0, 1), "pairs_range": (0, 1), "near_range": (1, 2),
        "tilt_range": (0, 20), "scale_range": (0.086, 0.09), "clutter_range": (0.2, 0.35)},
    4: {"count_range": (8, 10), "size_word_range": (0.6, 0.6), "relation_range": (0.8, 0.8),
        "overlaps_range": (0.5, 0.5), "containers_range": (1, 1), "pairs_range": (1, 1), "near_range": (2, 2),
        "tilt_range": (0, 30), "scale_range": (0.083, 0.086), "clutter_range": (0.35, 0.5)},
    5: {"count_range": (10, 12), "size_word_range": (0.7, 0.7), "relation_range": (1.0, 1.0),
        "overlaps_range": (0.5, 0.5), "containers_range": (1, 1), "pairs_range": (1, 2), "near_range": (2, 3),
        "tilt_range": (0, 45), "scale_range": (0.08, 0.083), "clutter_range": (0.5, 0.6)},
})


@dataclass(frozen=True)
class Params:
    size: tuple[int, int]
    target: str                 # the description in English words, e.g. "small red triangle inside blue circle"
    colour: str                 # what the description names: colour, kind, size word ("" / "small" / "large") ...
    kind: str
    size_word: str
    relation: str               # ... relation ("" / "inside" / "overlaps") and the other shape's colour and kind
    rel_colour: str
    rel_kind: str
    scale: float                # side of a square of a small shape's area, px
    # (role, kind, colour name, area px, turn degrees clockwise, centre x, centre y) in z-order
    shapes: tuple[tuple[str, str, str, float, float, float, float], ...]
    clutter: float
    bg_seed: int
    knobs: dict


# ---------------------------------------------------------------- sampling

def _area(rng: np.random.Generator, cls: str, scale: float) -> float:
    lo, hi = AREA[cls]
    return float(rng.uniform(lo, hi)) * scale ** 2


def _box_group(rng, container: list, inner: list, tilt: float) -> tuple[list, float]:
    """A container with one or two shapes in a row (along x or y) inside it: member offsets and the group's
    bounding radius. The container's centre falls between the two (or beside the one), never on a shape."""
    radii = [geom.radius(s[1], s[3]) for s in inner]
    axis = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(4))]
    if len(inner) == 1:
        pos = [-(radii[0] + INNER_GAP / 2)]
    else:
        pos = [-(INNER_GAP / 2 + radii[0]), INNER_GAP / 2 + radii[1]]
    need = max(abs(p) + r for p, r in zip(pos, radii)) + INNER_GAP
    area = (need / geom.inradius(container[1], 1.0)) ** 2
    container[3] = area
    most = min(tilt, SQUARE_TILT) if container[1] == "square" else tilt
    container[4] = float(rng.uniform(-most, most))
    offsets = [(0.0, 0.0)] + [(p * axis[0], p * axis[1]) for p in pos]
    return offsets, geom.radius(container[1], area)


def _pair_group(rng, under: list, over: list) -> tuple[list, float]:
    """`over` across the outline of `under`, about along an axis, far enough that its box leaves the under
    shape's centre free."""
    phi = 90.0 * int(rng.integers(4)) + float(rng.uniform(-15, 15))
    r_over = geom.radius(over[1], over[3])
    reach = geom.reach(under[1], under[3], under[4], phi)
    d = max(reach + 0.1 * r_over, (r_over + 3) / np.cos(np.deg2rad(abs((phi + 45) % 90 - 45))))
    off = (d * np.cos(np.deg2rad(phi)), d * np.sin(np.deg2rad(phi)))
    return [(0.0, 0.0), off], max(geom.radius(under[1], under[3]), d + r_over)


def _place(rng, w: int, h: int, radii: list[float], gap: float, tries: int = 400) -> list[tuple[float, float]] | None:
    """Centres of discs of `radii` inside (w, h), every two at least `gap` apart; None when there is no room."""
    placed = np.zeros((0, 3))
    for r in radii:
        if 2 * r + 6 > min(w, h):
            return None
        xy = np.stack([rng.uniform(r + 3, w - r - 3, tries), rng.uniform(r + 3, h - r - 3, tries)], 1)
        d = np.hypot(xy[:, None, 0] - placed[None, :, 0], xy[:, None, 1] - placed[None, :, 1])
        ok = np.flatnonzero((d >= placed[None, :, 2] + r + gap).all(1))
        if not len(ok):
            return None
        placed = np.vstack([placed, [*xy[ok[0]], r]])
    return [(float(x), float(y)) for x, y, _ in placed]


def _pick(rng: np.random.Generator, seq, avoid=()):
    pool = [x for x in seq if x not in avoid]
    return pool[int(rng.integers(len(pool)))]


class _Scene:
    """The groups of shapes of one puzzle, built round the described shape: its look-alikes that differ in
    exactly one named attribute (size, relation, colour or kind), then unrelated fillers."""

    def __init__(self, rng: np.random.Generator, knobs: dict, scale: float, tilt: float) -> None:
        self.rng, self.scale, self.tilt = rng, scale, tilt
        self.colour, self.kind = _pick(rng, geom.SHAPE_COLOURS), _pick(rng, geom.KINDS)
        self.relation = ""
        if rng.random() < knobs["relation"]:
            self.relation = "overlaps" if rng.random() < knobs["overlaps"] else "inside"
        self.size_word = ""
        if rng.random() < knobs["size_word"]:
            self.size_word = "small" if self.relation == "inside" else ("small", "large")[int(rng.integers(2))]
        self.tsize = self.size_word or ("small" if self.relation == "inside"
                                        else ("small", "large")[int(rng.integers(2))])
        self.rel_kind = _pick(rng, CONTAINERS if self.relation == "inside" else UNDERS,
                              (self.kind,) if self.relation else ())
        self.rel_colour = _pick(rng, geom.SHAPE_COLOURS, (self.colour,))

    def spec(self, role: str, kind: str, colour: str, cls: str) -> list:
        most = min(self.tilt, SQUARE_TILT) if kind == "square" else self.tilt
        return [role, kind, colour, _area(self.rng, cls, self.scale),
                float(self.rng.uniform(-most, most)) if most else 0.0]

    def filler(self, cls: str | None = None) -> list:
        """A shape of another colour or kind than the described one."""
        while True:
            k, c = _pick(self.rng, geom.KINDS), _pick(self.rng, geom.SHAPE_COLOURS)
            if (k, c) != (self.kind, self.colour):
                return self.spec("distractor", k, c, cls or ("small", "large")[int(self.rng.integers(2))])

    def other_holder(self, under: bool) -> tuple[str, str]:
        """(kind, colour) of a container or an under shape that neither the description nor its relation names."""
        while True:
            k, c = _pick(self.rng, UNDERS if under else CONTAINERS), _pick(self.rng, geom.SHAPE_COLOURS)
            if (k, c) != (self.kind, self.colour) and (k, c) != (self.rel_kind, self.rel_colour):
                return k, c

    def related(self, shape: list, holder: tuple[str, str] | None = None) -> tuple[str, list]:
        """A group relating `shape` to a holder (the described relation's, unless given) as the relation says."""
        k, c = holder or (self.rel_kind, self.rel_colour)
        if self.relation == "inside":
            return "box", [self.spec("distractor", k, c, "small"), shape]
        if self.relation == "overlaps":
            return "pair", [self.spec("distractor", k, c, "under"), shape]
        return "single", [shape]

    def groups(self, knobs: dict, level: int) -> list[tuple[str, list]]:
        """("single" | "pair" | "box", members) groups; a box's container and a pair's under shape come first."""
        main = self.related(self.spec("target", self.kind, self.colour, self.tsize))
        out = [main]
        if self.size_word:        # the same shape in the other size, related alike (in the same container)
            twin = self.spec("distractor", self.kind, self.colour, {"small": "large", "large": "small"}[self.tsize])
            if self.relation == "inside":
                main[1].append(twin)
            else:
                out.append(self.related(twin))
        if self.relation:         # the same shape, related otherwise (or not at all)
            twin = self.spec("distractor", self.kind, self.colour, self.tsize)
            if level >= 4 and self.rng.random() < 0.5:
                out.append(self.related(twin, self.other_holder(self.relation == "overlaps")))
            else:
                out.append(("single", [twin]))
        for _ in range(knobs["near"]):     # the same but for colour or kind, related alike when there is room
            kind, colour = self.kind, self.colour
            if self.rng.random() < 0.5:
                colour = _pick(self.rng, geom.SHAPE_COLOURS, (self.colour,))
            else:
                kind = _pick(self.rng, geom.KINDS, (self.kind,))
            near = self.spec("distractor", kind, colour, self.tsize)
            if self.relation == "inside" and len(main[1]) < 3:
                main[1].append(near)
            elif self.relation == "overlaps" and self.rng.random() < 0.5:
                out.append(self.related(near))
            else:
                out.append(("single", [near]))
        for _ in range(knobs["containers"]):
            k, c = self.other_holder(False)
            out.append(("box", [self.spec("distractor", k, c, "small"), self.filler("small")]))
        for _ in range(knobs["pairs"]):
            k, c = self.other_holder(True)
            out.append(("pair", [self.spec("distractor", k, c, "under"), self.filler()]))
        for _ in range(max(0, knobs["count"] - sum(len(m) for _, m in out))):
            out.append(("single", [self.filler()]))
        return [out[i] for i in self.rng.permutation(len(out))]


def _lay_out(rng: np.random.Generator, groups: list, size: tuple[int, int], tilt: float) -> tuple[list, float]:
    """The shapes (role, kind, colour, area, turn, x, y) of the groups placed apart, and the factor their
    sides were shrunk by to make room."""
    w, h = size
    side = min(w, h)
    shrink = 1.0
    for attempt in range(4):          # no room: shrink every shape alike and try again
        layouts = []
        for g, members in groups:
            if g == "box":
                layouts.append(_box_group(rng, members[0], members[1:], tilt))
            elif g == "pair":
                layouts.append(_pair_group(rng, *members))
            else:
                layouts.append(([(0.0, 0.0)], geom.radius(members[0][1], members[0][3])))
        radii = [r for _, r in layouts]
        big_first = sorted(range(len(groups)), key=lambda i: -radii[i])
        spots = _place(rng, w, h, [radii[i] for i in big_first], GAP * side / 320)
        if spots is not None:
            break
        if attempt == 3:
            raise Reject(f"{NAME}.no_room")
        shrink *= 0.92
        for _, members in groups:
            for m in members:
                m[3] *= 0.92 ** 2
    centres = [None] * len(groups)
    for i, spot in zip(big_first, spots):
        centres[i] = spot
    shapes = []
    for (_, members), (offsets, _), (cx, cy) in zip(groups, layouts, centres):
        for m, (dx, dy) in zip(members, offsets):
            shapes.append((m[0], m[1], m[2], float(m[3]), float(m[4]), float(cx + dx), float(cy + dy)))
    return shapes, shrink


def sample_params(rng: np.random.Generator, level: int, size: tuple[int, int], infeasible: bool = False) -> Params:
    row = TABLE.row(level)
    knobs = {k[:-6]: draw_knob(rng, v, integer=k in ("count_range", "containers_range", "pairs_range", "near_range"))
             for k, v in row.items()}
    tilt = float(row["tilt_range"][1])
    scale = min(size) * knobs["scale"]
    scene = _Scene(rng, knobs, scale, tilt)
    shapes, shrink = _lay_out(rng, scene.groups(knobs, level), size, tilt)
    knobs["shapes"] = float(len(shapes))
    relation = scene.relation
    words = " ".join(x for x in (scene.size_word, scene.colour, scene.kind) if x)
    if relation:
        words += f" {relation} {scene.rel_colour} {scene.rel_kind}"
    return Params(size=size, target=words, colour=scene.colour, kind=scene.kind, size_word=scene.size_word,
                  relation=relation, rel_colour=scene.rel_colour if relation else "",
                  rel_kind=scene.rel_kind if relation else "", scale=float(scale * shrink), shapes=tuple(shapes),
                  clutter=knobs["clutter"], bg_seed=int(rng.integers(2**31)), knobs=knobs)


def stat(params: Params) -> float:
    """Difficulty statistic: the number of shapes shown."""
    return float(len(params.shapes))


def render(params: Params) -> Puzzle:
    w, h = params.size
    bg = draw.background(np.random.default_rng(params.bg_seed), w, h, params.clutter)
    canvas = draw.Canvas(draw.gaussian_blur(bg, 2.5 * min(w, h) / 320))
    off = max(1, round(min(w, h) / 160))
    meta = {}
    for i, (role, kind, colour, area, turn, cx, cy) in enumerate(params.shapes, start=1):
        spr = geom.shape_sprite(kind, area, turn, geom.rgb_of(colour))
        shadow = np.zeros_like(spr)
        shadow[..., 3] = draw.gaussian_blur(spr[..., 3], 1.5)
        x, y = round(cx - spr.shape[1] / 2), round(cy - spr.shape[0] / 2)
        canvas.paste(shadow, x + off, y + off, 0, opacity=0.3, hides=False)
        canvas.paste(spr, x, y, i)
        meta[i] = {"role": role, "label": f"{colour} {kind}", "kind": kind, "colour": colour}
    canvas.full_area.pop(0, None)
    return Puzzle(canvas.rgb, canvas.instances, canvas.full_area, meta)


# ---------------------------------------------------------------- verification

class Shape:
    """What the picture shows of one shape: colour name, kind and size class (None where unclear), read on
    demand (a shape whose colour rules it out is never classified)."""

    def __init__(self, params: Params, puzzle: Puzzle, obj: dict) -> None:
        self.id, self.mask, self.box = obj["id"], obj["_mask"], obj["bbox"]
        self.meta, self.full = puzzle.meta[obj["id"]], puzzle.full_area[obj["id"]]
        self.vis = obj["visible_fraction"]
        self.hidden = self.full - np.count_nonzero(self.mask)
        erode = max(2, round(np.sqrt(self.full) / 24) + 1)           # inside the darker outline
        self.colour = geom.colour_name(geom.mean_rgb(puzzle.rgb, self.mask, erode), geom.SHAPE_COLOURS)
        if self.colour is not None and self.colour != self.meta["colour"]:
            raise Reject(f"{NAME}.colour_mismatch")
        ratio = self.full / params.scale ** 2
        self._size = "small" if ratio <= SMALL_MAX else "large" if ratio >= LARGE_MIN else None
        self._filled = self._kind = None

    @property
    def filled(self) -> np.ndarray:
        """The mask with its holes (shapes inside it) filled."""
        if self._filled is None:
            self._filled = self.mask if self.vis >= 0.999 else geom.fill_holes(self.mask)
        return self._filled

    @property
    def whole(self) -> bool:
        """Its outline all in view (shapes inside it aside)."""
        return self.vis >= 0.985 or np.count_nonzero(self.filled) >= 0.985 * self.full

    @property
    def kind(self) -> str | None:
        if self._kind is None:
            whole = self.whole
            if whole and geom.classify_shape(self.filled) != self.meta["kind"]:
                raise Reject(f"{NAME}.kind_unclear")
            self._kind = self.meta["kind"] if whole or self.vis >= KNOWN else ""
        return self._kind or None

    @property
    def size(self) -> str | None:
        return self._size if self.vis >= SIZE_KNOWN or self.whole else None


def _is(measured, wanted) -> float:
    """1 when a measured attribute is the wanted one, 0 when it is another, 0.5 when it could not be read."""
    return 0.5 if measured is None else float(measured == wanted)


def _fits(f: Shape, colour: str, kind: str, size: str = "") -> float:
    c = _is(f.colour, colour)
    if not c:
        return 0.0
    return min(c, _is(f.kind, kind), _is(f.size, size) if size else 1.0)


def _near(a, b, pad: float) -> bool:
    return a[0] - pad < b[2] and b[0] - pad < a[2] and a[1] - pad < b[3] and b[1] - pad < a[3]


def inside(fi: Shape, fj: Shape) -> float:
    """Whether shape i lies within shape j's outline: 1, 0, or 0.5 when borderline."""
    if not _near(fi.box, fj.box, 0):
        return 0.0
    m = fi.mask
    share = np.count_nonzero(m & fj.filled) / max(1, np.count_nonzero(m))
    return 1.0 if share >= INSIDE else 0.0 if share <= OUTSIDE else 0.5


def overlaps(fi: Shape, fj: Shape) -> float:
    """Whether shapes i and j overlap (one hides part of the other, neither lies inside the other):
    1, 0, or 0.5 when borderline (touching only, or one inside the other)."""
    if not _near(fi.box, fj.box, 6):
        return 0.0
    if inside(fi, fj) or inside(fj, fi):
        return 0.5
    x0 = int(max(0, min(fi.box[0], fj.box[0]) - 6))
    y0 = int(max(0, min(fi.box[1], fj.box[1]) - 6))
    x1, y1 = int(max(fi.box[2], fj.box[2]) + 6), int(max(fi.box[3], fj.box[3]) + 6)
    mi, mj = fi.mask[y0:y1, x0:x1].view(np.uint8), fj.mask[y0:y1, x0:x1]
    k = np.ones((3, 3), np.uint8)
    contact = np.count_nonzero(cv2.dilate(mi, k, iterations=2).view(bool) & mj)
    near = np.count_nonzero(cv2.dilate(mi, k, iterations=5).view(bool) & mj)
    if near == 0:
        return 0.0
    return 1.0 if contact >= TOUCH and fi.hidden + fj.hidden >= 20 else 0.5


def solve(params: Params, puzzle: Puzzle) -> Task:
    objects = geom.objects_of(puzzle)
    if len(objects) != len(puzzle.meta):
        raise Reject(f"{NAME}.shape_hidden")
    facts = {o["id"]: Shape(params, puzzle, o) for o in objects}
    ids = sorted(facts)
    rel = {"inside": inside, "overlaps": overlaps}.get(params.relation)
    score = {}
    for i in ids:
        s = _fits(facts[i], params.colour, params.kind, params.size_word)
        if s and rel is not None:
            best = 0.0
            for j in ids:
                if j != i:
                    other = _fits(facts[j], params.rel_colour, params.rel_kind)
                    if other:
                        best = max(best, min(other, rel(facts[i], facts[j])))
            s = min(s, best)
        score[i] = s
    fits = [i for i in ids if score[i] == 1.0]
    unsure = [i for i in ids if score[i] == 0.5]
    if unsure:
        raise Reject(f"{NAME}.ambiguous_shape")
    if len(fits) != 1:
        raise Reject(f"{NAME}.not_unique")
    t = fits[0]
    if puzzle.meta[t]["role"] != "target":
        raise Reject(f"{NAME}.role_mismatch")
    target = next(o for o in objects if o["id"] == t)
    if target["visible_fraction"] < 0.97:
        raise Reject(f"{NAME}.target_hidden")
    if not geom.boxes_clear(objects, [target["bbox"]]):
        raise Reject(f"{NAME}.box_covers_another")
    checks = {"shapes": float(len(ids)), "target_visible": target["visible_fraction"],
              "min_visible": min(o["visible_fraction"] for o in objects)}
    return Task(rule="click_set", answer={"count": 1}, objects=objects, target_ids=[t],
                target_boxes=[target["bbox"]], points=[draw.inner_point(target["_mask"])], partial_credit=False,
                checks=checks)


def instruction(params: Params, lang: str) -> str:
    if lang == "zh":
        rel = ""
        if params.relation:
            other = geom.colour_zh(params.rel_colour) + geom.KINDS_ZH[params.rel_kind]
            rel = f"{other}里的" if params.relation == "inside" else f"与{other}重叠的"
        size = {"small": "小", "large": "大"}.get(params.size_word, "")
        return f"请点击{rel}{geom.colour_zh(params.colour)}{size}{geom.KINDS_ZH[params.kind]}"
    words = " ".join(x for x in (params.size_word, params.colour, params.kind) if x)
    if params.relation == "inside":
        words += f" inside the {params.rel_colour} {params.rel_kind}"
    elif params.relation == "overlaps":
        words += f" that overlaps the {params.rel_colour} {params.rel_kind}"
    return f"Click the {words}."
