"""Grounding difficulty: screen resolution, target size, look-alike count and instruction kinds per level."""
from synth.core.levels import LevelTable

# (viewport in CSS px, device scale factor) per platform and level; where a level has several screens,
# sample i of a platform takes them in turn (`screen`). Level 5 on the web and the desktop is 1440p or 4K
# at 1x, where targets cover well under 0.1 % of the screen, as on ScreenSpot-Pro's professional screens.
SCREENS = {
    "web": {1: [((1280, 800), 1)], 2: [((1440, 900), 1)], 3: [((1920, 1080), 1)], 4: [((2560, 1440), 1)],
            5: [((2560, 1440), 1), ((3840, 2160), 1)]},
    "mobile": {1: [((390, 844), 2)], 2: [((390, 844), 2)], 3: [((390, 844), 3)], 4: [((412, 915), 3)],
               5: [((430, 932), 3)]},
    "desktop": {1: [((1920, 1080), 1)], 2: [((1920, 1080), 1)], 3: [((1920, 1200), 1)], 4: [((2560, 1440), 1)],
                5: [((2560, 1600), 1), ((3840, 2160), 1)]},
}


def screen(platform: str, level: int, turn: int = 0) -> tuple[tuple[int, int], int]:
    """The (viewport, device scale factor) of a platform's screen at `level`, the `turn`-th of its options."""
    options = SCREENS[platform][level]
    return options[turn % len(options)]


TABLE = LevelTable("element", knobs={
    "target_area_range": "target box area, per mille of the screen",
    "look_alikes_range": "at least this many other elements with the target's role on screen",
    "kinds": "instruction kinds drawn from: text, role_text, field, icon, relation, between, ordinal, row, column, "
             "function",
}, levels={
    1: {"target_area_range": (1.5, 1000.0), "look_alikes_range": (0, 0), "kinds": ("text",)},
    2: {"target_area_range": (0.8, 1000.0), "look_alikes_range": (1, 1), "kinds": ("text", "role_text", "field")},
    3: {"target_area_range": (0.3, 40.0), "look_alikes_range": (2, 2),
        "kinds": ("role_text", "field", "icon", "relation", "ordinal")},
    4: {"target_area_range": (0.1, 8.0), "look_alikes_range": (3, 3),
        "kinds": ("icon", "relation", "between", "ordinal", "row", "column", "function")},
    5: {"target_area_range": (0.0, 2.0), "look_alikes_range": (4, 4), "kinds": ("function", "icon")},
})
MIN_SIDE_CSS = 8          # smallest target side, CSS px
