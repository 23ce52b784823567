"""Per-sample seeds: every random draw traces back to (run seed, sample index, attempt)."""
import numpy as np

# Every fixed number mixed into a seed, in one place, so that no two draws share a stream by accident. The
# values are part of the output: changing one changes the bytes of every run that uses it.
PAGE_SALT = 0x9A6E       # page_seed's last key: keeps the page pools' draws apart from the samples' seeds
PAGE_STREAM = 0x5C4EE7   # page_seed's first key for the run's page stream (synth.engine.pools.stream_page), then:
STREAM_ORDER = 0         #   the order of the platforms within a block of pages
STREAM_ROUNDS = 1        #   the shuffled rounds of a platform's templates (1 + the platform's index: 1, 2, 3)
STREAM_PAGE = 9          #   a page's language and widget placement
STREAM_VARIANT = 10      #   a page's variant, the seed of its theme and content
FOLDER_ROUNDS = 0xF01D  # page_seed's first key for a --pages run's rounds (synth.screens.views.schedule), then
                         #   the round: the order its pages are shown in
FOLDER_HOSTS = 0xF02D   # page_seed's first key for a --pages CAPTCHA run's host pages, then the slot: its widget's
                         #   theme
THEME = 7                # with a page's variant: its theme, content, layout and icon set (screens.pages, .render)
DESIGN_SYSTEM = 11       # with a page's variant: the design system an archetype page is drawn in
PICTURES = 13            # with a page's variant: the photographs of an archetype page
WIDGET_CHROME = 17       # with a page's variant: the chrome of its CAPTCHA widget
EPISODE_PAGES = 0xE9     # first key of an environment's screens (synth.episodes.pages): platform, language, slot


def sample_seed(run_seed: int, index: int, attempt: int) -> int:
    """A 63-bit seed for one attempt at one sample; independent of workers and shards."""
    state = np.random.SeedSequence([run_seed, index, attempt]).generate_state(2, np.uint32)
    return int((int(state[0]) << 31) ^ int(state[1]))


def page_seed(run_seed: int, *keys: int) -> int:
    """Seed of one draw of the page pools, named by `keys` (integers ≥ 0), e.g. (pool, slot)."""
    return int(np.random.SeedSequence([run_seed, *keys, PAGE_SALT]).generate_state(1, np.uint32)[0])
FOCUS_DRAW = 0xF0C5      # page_seed key of the offset of a run's low-discrepancy draw of family and level


def draw_offset(run_seed: int) -> int:
    """A 64-bit offset of the sequence `synth.core.focus` draws each sample's family and level from."""
    state = np.random.SeedSequence([run_seed, FOCUS_DRAW, PAGE_SALT]).generate_state(2, np.uint32)
    return (int(state[0]) << 32) | int(state[1])
