"""Per-sample seeds: every random draw traces back to (run seed, sample index, attempt)."""
import numpy as np


def sample_seed(run_seed: int, index: int, attempt: int) -> int:
    """A 63-bit seed for one attempt at one sample; independent of workers and shards."""
    state = np.random.SeedSequence([run_seed, index, attempt]).generate_state(2, np.uint32)
    return int((int(state[0]) << 31) ^ int(state[1]))


def page_seed(run_seed: int, *keys: int) -> int:
    """Seed of one draw of the page pools, named by `keys` (integers ≥ 0), e.g. (pool, slot)."""
    return int(np.random.SeedSequence([run_seed, *keys, 0x9A6E]).generate_state(1, np.uint32)[0])
