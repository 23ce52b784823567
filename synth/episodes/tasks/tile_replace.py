"""Dynamic tiles (reCAPTCHA "select all images with a bus ... click verify once there are none left"): a
3x3 or 4x4 grid of small pictures, each a photo crop with at most one object on it. Clicking a picture of
the target replaces it with the next picture of a queue fixed when the puzzle is made (which may show the
target again); clicking any other picture ticks it (a blue check mark: a mistake the grid shows), and
clicking a ticked picture unticks it. Done when no target is left and nothing is ticked; then Verify.

The queue holds as many pictures as there will be target clicks, ordered so that some target shows until
the queue is used up: the last click of a target brings the last picture, and no target remains."""
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from synth.core.errors import Reject
from synth.core.geometry import centre, inside
from synth.core.levels import LevelTable, draw_knob
from synth.episodes.base import VERIFY, click
from synth.families import photo_grid
from synth.families.base import Puzzle
from synth.families.counting import similar_kinds
from synth.families.kit import draw as sprites
from synth.families.kit import grammar, photos, ui
from synth.families.kit.kinds import emoji_kinds, kind_by_key

NAME = "tile_replace"
DESCRIPTION = ("reCAPTCHA-style dynamic tiles: click every picture of the target; each is replaced by a new "
               "one, maybe the target again; Verify once none is left")
COVERS = ("reCAPTCHA:dynamic_tiles", "reCAPTCHA:image_grid", "hCaptcha:image_grid")
ANSWERS = ("click",)
NEEDS_VERIFY, ANIMATED, STEP_SECONDS = True, False, 0.0
SLACK = 4                       # steps beyond the expert's
TRIES = 12                      # photo crops tried per picture for one its object stands out on
HEADER = (26, 115, 232)         # the vendor's blue band, and its check marks
INK, GROUND = (255, 255, 255), (255, 255, 255)
TICKED = 0.82                   # a ticked picture shrinks to this share of its tile, as selected tiles do
OBJECT = photo_grid.OBJECT      # instance id of a picture's object in the map the contrast check reads
TARGETS = photo_grid.TARGETS    # kinds a person would look for in a street or field photo

TABLE = LevelTable(NAME, knobs={
    "grid_range": "tiles per side",
    "targets_range": "pictures of the target shown at the start",
    "refills_range": "pictures of the target among the replacements",
    "similar_range": "probability that another picture's object is of the target's category (a car beside a bus)",
    "empty_range": "probability that another picture shows no object, only the photo",
    "size_range": "object size (side of its sprite) as a share of the tile side",
}, levels={
    1: {"grid_range": (3, 3), "targets_range": (2, 3), "refills_range": (1, 1), "similar_range": (0.0, 0.0),
        "empty_range": (0.3, 0.3), "size_range": (0.66, 0.76)},
    2: {"grid_range": (3, 3), "targets_range": (2, 4), "refills_range": (1, 2), "similar_range": (0.2, 0.2),
        "empty_range": (0.2, 0.2), "size_range": (0.6, 0.7)},
    3: {"grid_range": (3, 3), "targets_range": (3, 4), "refills_range": (2, 3), "similar_range": (0.45, 0.45),
        "empty_range": (0.1, 0.1), "size_range": (0.54, 0.66)},
    4: {"grid_range": (4, 4), "targets_range": (3, 5), "refills_range": (2, 4), "similar_range": (0.65, 0.65),
        "empty_range": (0.1, 0.1), "size_range": (0.56, 0.68)},
    5: {"grid_range": (4, 4), "targets_range": (4, 6), "refills_range": (3, 5), "similar_range": (0.85, 0.85),
        "empty_range": (0.0, 0.0), "size_range": (0.5, 0.62)},
})


@dataclass
class Picture:
    """One tile picture: its pixels, what it shows ("" for a bare photo) and the object's box in the tile."""
    rgb: np.ndarray
    kind: str
    target: bool
    box: list[float]            # the object's drawn box, tile pixels ([0, 0, 0, 0] for a bare photo)
    ticked: np.ndarray          # the picture as shown when ticked


@dataclass
class State:
    size: tuple[int, int]
    target: str                 # kind key sought
    grid: int
    tiles: list[tuple[int, int, int, int]]
    base: np.ndarray            # header band and white ground, without pictures
    pictures: list[Picture]     # every picture: the first grid^2 start on the tiles, the rest is the queue
    shown: list[int]            # picture index on every tile
    ticked: list[bool]
    queue: int                  # index of the next replacement picture
    ticks: int = 0              # ticks made (mistakes)


# ---------------------------------------------------------------- layout and pictures

def header_height(size: tuple[int, int]) -> int:
    return round(size[1] * 0.2)


def layout(size: tuple[int, int], n: int) -> list[tuple[int, int, int, int]]:
    """Tile boxes (x0, y0, x1, y1), row-major: a square grid below the header, centred, white gaps between."""
    w, h = size
    top = header_height(size)
    m, gap = max(3, round(h * 0.012)), max(2, round(h * 0.012))
    side = min(w - 2 * m, h - top - 2 * m)
    t = (side - (n - 1) * gap) // n
    ox, oy = (w - (n * t + (n - 1) * gap)) // 2, top + m
    return [(ox + c * (t + gap), oy + r * (t + gap), ox + c * (t + gap) + t, oy + r * (t + gap) + t)
            for r in range(n) for c in range(n)]


def header_lines(target: str, lang: str) -> tuple[str, str, str]:
    """The header's three lines: the request, the target in bold, the rule for ending."""
    kind = kind_by_key(target)
    if lang == "zh":
        return "请选择包含以下内容的所有图片：", kind.zh, "如果没有新图片可以点击，请点击“验证”"
    return ("Select all images with", grammar.article(grammar.singular(kind.en)),
            "Click verify once there are none left.")


def base_image(size: tuple[int, int], target: str, lang: str) -> np.ndarray:
    """The puzzle without pictures: the blue header naming the target over a white ground."""
    w, h = size
    top = header_height(size)
    p = ui.Painter(size, GROUND)
    m = max(3, round(h * 0.012))
    p.rect([m, m, w - m, top], fill=HEADER)
    ask, name, rule = header_lines(target, lang)
    x = m + round(w * 0.035)
    band = top - m
    p.text((x, m + band * 0.2), ask, max(9, round(h * 0.038)), INK)
    p.text((x, m + band * 0.5), name, max(12, round(h * 0.066)), INK, bold=True)
    p.text((x, m + band * 0.8), rule, max(8, round(h * 0.033)), INK)
    return p.finish()[0]


@lru_cache(maxsize=8)
def check_mark(d: int) -> np.ndarray:
    """RGBA blue disc of diameter d with a white tick, drawn at 4x and shrunk (cached)."""
    q = 4
    s = d * q
    rgb = np.full((s, s, 3), HEADER, np.uint8)        # colour everywhere: the shrunk rim keeps no dark fringe
    tick = np.int32([[s * 0.27, s * 0.52], [s * 0.44, s * 0.69], [s * 0.74, s * 0.35]])
    cv2.polylines(rgb, [tick], False, INK, max(q, round(s * 0.12)), cv2.LINE_AA)
    alpha = np.zeros((s, s), np.uint8)
    cv2.circle(alpha, (s // 2, s // 2), s // 2 - q, 255, -1, cv2.LINE_AA)
    return cv2.resize(cv2.merge([*cv2.split(rgb), alpha]), (d, d), interpolation=cv2.INTER_AREA)


def ticked_image(rgb: np.ndarray) -> np.ndarray:
    """A picture as shown ticked: shrunk inside a white frame, a blue check mark over its top-left corner."""
    t = rgb.shape[0]
    s = round(t * TICKED)
    o = (t - s) // 2          # as shown_box places it
    out = np.full_like(rgb, 255)
    out[o:o + s, o:o + s] = cv2.resize(rgb, (s, s), interpolation=cv2.INTER_AREA)
    mark = check_mark(max(12, round(t * 0.3)))
    d = mark.shape[0]
    region = out[:d, :d]
    region[:] = sprites.blend(region, np.ascontiguousarray(mark[..., :3]), np.ascontiguousarray(mark[..., 3]))
    return out


def shown_box(box: list[float], t: int, ticked: bool, x0: int, y0: int) -> list[float]:
    """An object's box (tile pixels) as shown on the tile at (x0, y0): shrunk with its picture when ticked."""
    s = round(t * TICKED) if ticked else t
    o = (t - s) // 2
    return [x0 + o + v * s / t if k % 2 == 0 else y0 + o + v * s / t for k, v in enumerate(box)]


def picture(rng: np.random.Generator, kind: str, target: bool, t: int, share: float) -> Picture:
    """A t x t photo crop with the object of `kind` on it ("" for none), its object standing out from the
    photo round it (photo_grid's contrast check); Reject when no crop of TRIES gives that."""
    keys = photos.choices(None, photo_grid.DENY)
    for _ in range(TRIES):
        view = photos.sample_view(rng, keys)
        ox, oy = (int(v) for v in rng.integers(0, t + 1, 2))
        rgb = photos.image(view, 2 * t, 2 * t)[oy:oy + t, ox:ox + t].copy()   # a piece of the photo, as tiles are
        if not kind:
            return Picture(rgb, "", False, [0.0, 0.0, 0.0, 0.0], ticked_image(rgb))
        s = max(24, round(share * t / 4) * 4)           # multiples of 4 px reuse cached sprites
        spr = sprites.sprite(kind, s)
        bx, by, bw, bh = cv2.boundingRect((spr[..., 3] >= sprites.ALPHA_ON).view(np.uint8))
        m = max(2, t // 20)
        x = int(rng.integers(m - bx, max(m - bx, t - m - bx - bw) + 1))
        y = int(rng.integers(m - by, max(m - by, t - m - by - bh) + 1))
        canvas = sprites.Canvas(rgb)
        shadow = np.zeros_like(spr)                    # a soft contact shadow grounds the object in the photo
        shadow[..., 3] = sprites.gaussian_blur(spr[..., 3], max(1.5, s / 40))
        off = max(1, s // 40)
        canvas.paste(shadow, x + off, y + 2 * off, 0, opacity=0.35, hides=False)
        canvas.paste(spr, x, y, OBJECT)
        inst = canvas.instances
        inst[inst == 0] = 1                            # the photo round the object
        box = [float(x + bx), float(y + by), float(x + bx + bw), float(y + by + bh)]
        if photo_grid.contrast(Puzzle(canvas.rgb, inst, {}, {}), OBJECT, box) >= photo_grid.MIN_CONTRAST:
            return Picture(canvas.rgb, kind, target, box, ticked_image(canvas.rgb))
    raise Reject(f"{NAME}.object_blends_in")


def queue_order(rng: np.random.Generator, first: int, refills: int) -> list[bool]:
    """Whether each replacement shows the target: `refills` targets and `first` others (one per target on the
    grid at the start), in an order that keeps a target on the grid until the last one is clicked (after
    click k, first - k + the targets among the first k replacements stay >= 1 while pictures remain)."""
    order, targets, others = [], refills, first
    on_grid = first
    while targets + others:
        forced = on_grid == 1 and targets + others > 1      # the only target left: its replacement must be one
        pick = forced or (targets and rng.random() < targets / (targets + others))
        order.append(bool(pick))
        targets, others = targets - pick, others - (not pick)
        on_grid += pick - 1
    return order


# ---------------------------------------------------------------- the Task protocol

def new(rng: np.random.Generator, level: int, size: tuple[int, int], lang: str) -> State:
    row = TABLE.row(level)
    n = draw_knob(rng, row["grid_range"], integer=True)
    first = draw_knob(rng, row["targets_range"], integer=True)
    refills = draw_knob(rng, row["refills_range"], integer=True)
    similar, empty = draw_knob(rng, row["similar_range"]), draw_knob(rng, row["empty_range"])
    pool = emoji_kinds()
    sought = [k for k in pool if k.en in TARGETS]
    target = sought[int(rng.integers(len(sought)))]
    alike = similar_kinds(target, pool)
    unlike = [k for k in pool if k != target and k not in alike]

    def other() -> str:
        if rng.random() < empty:
            return ""
        src = alike if alike and rng.random() < similar else unlike
        return src[int(rng.integers(len(src)))].key

    tiles = layout(size, n)
    t = tiles[0][2] - tiles[0][0]
    on = set(rng.permutation(n * n)[:first].tolist())
    plan = [i in on for i in range(n * n)] + queue_order(rng, first, refills)
    pictures = [picture(rng, target.key if hit else other(), hit, t, draw_knob(rng, row["size_range"]))
                for hit in plan]
    return State(size, target.key, n, tiles, base_image(size, target.key, lang), pictures,
                 list(range(n * n)), [False] * (n * n), n * n)


def draw(state: State) -> np.ndarray:
    rgb = state.base.copy()
    for (x0, y0, x1, y1), i, ticked in zip(state.tiles, state.shown, state.ticked):
        pic = state.pictures[i]
        rgb[y0:y1, x0:x1] = pic.ticked if ticked else pic.rgb
    return rgb


def instruction(state: State, lang: str) -> str:
    kind = kind_by_key(state.target)
    if lang == "zh":
        return f"点击所有含有{kind.zh}的图片，直到没有为止，然后点击验证"
    return f"Click every tile with {grammar.article(grammar.singular(kind.en))} until none is left, then Verify."


def act(state: State, action: dict) -> None:
    if action["type"] != "click":
        return
    for t, box in enumerate(state.tiles):
        if not inside(box, action["point"]):
            continue
        if state.ticked[t]:
            state.ticked[t] = False
        elif state.pictures[state.shown[t]].target:
            state.shown[t] = state.queue
            state.queue += 1
        else:
            state.ticked[t] = True
            state.ticks += 1


def tick(state: State, seconds: float) -> None:
    pass


def _targets_shown(state: State) -> list[int]:
    return [t for t, i in enumerate(state.shown) if state.pictures[i].target]


def done(state: State) -> bool:
    return not _targets_shown(state) and not any(state.ticked)


def failed(state: State) -> bool:
    return False


def _clicks(state: State) -> int:
    """Target clicks the puzzle takes: one per picture in the queue."""
    return len(state.pictures) - state.grid ** 2


def progress(state: State) -> float:
    """Replacements made over those the puzzle takes, each tick left counting as one more to make."""
    return (state.queue - state.grid ** 2) / (_clicks(state) + sum(state.ticked))


def budget(state: State) -> int:
    return _clicks(state) + 1 + SLACK


def expert(state: State) -> dict:
    """Untick a ticked picture first, then click a target, then Verify."""
    todo = [t for t, on in enumerate(state.ticked) if on] + _targets_shown(state)
    return click(*centre(state.tiles[todo[0]])) if todo else VERIFY


def mistake(rng: np.random.Generator, state: State) -> dict | None:
    """A click on a picture without the target: it is ticked."""
    wrong = [t for t, i in enumerate(state.shown) if not state.pictures[i].target and not state.ticked[t]]
    if not wrong:
        return None
    return click(*centre(state.tiles[wrong[int(rng.integers(len(wrong)))]]))


def truth(state: State) -> dict:
    objects, shown = [], []
    for (x0, y0, x1, y1), i in zip(state.tiles, state.shown):
        pic = state.pictures[i]
        label = kind_by_key(pic.kind).en if pic.kind else "photo"
        shown.append(label)
        objects.append({"role": "target" if pic.target else "tile", "label": label,
                        "bbox": [float(x0), float(y0), float(x1), float(y1)]})
    for (x0, y0, x1, _), i, ticked in zip(state.tiles, state.shown, state.ticked):
        pic = state.pictures[i]
        if pic.kind:
            objects.append({"role": "object", "label": kind_by_key(pic.kind).en,
                            "bbox": shown_box(pic.box, x1 - x0, ticked, x0, y0)})
    return {"objects": objects,
            "state": {"target": kind_by_key(state.target).en, "grid": state.grid, "shown": shown,
                      "ticked": list(state.ticked), "replaced": state.queue - state.grid ** 2,
                      "targets_left": len(state.pictures) - state.queue, "ticks": state.ticks}}
