"""The local worker processes: output in order, a dead worker's task run again, errors raised in the caller."""
import os
from pathlib import Path

import pytest

from synth.engine.workers import run_tasks


def _setup(marker: str):
    """A task that streams two pieces; the first worker to reach task 2 dies in the middle of it."""
    def task(item: int, emit) -> int:
        emit(b"%d-a" % item)
        if item == 2 and not os.path.exists(marker):
            Path(marker).touch()
            os._exit(9)
        if item == 4:
            raise ValueError("task 4 is bad")
        emit(b"%d-b" % item)
        return item * 10
    return task


def test_results_come_in_order_and_a_dead_workers_task_runs_again(tmp_path):
    pieces = []
    out = list(run_tasks(2, _setup, (str(tmp_path / "died"),), [0, 1, 2, 3, 5, 6], pieces.append))
    assert (tmp_path / "died").exists(), "no worker died"
    assert out == [([b"%d-a" % i, b"%d-b" % i], i * 10) for i in [0, 1, 2, 3, 5, 6]]
    assert sum(pieces) == 12          # the dead worker's piece was counted, then taken back


def test_an_exception_in_a_task_is_raised_in_the_caller(tmp_path):
    (tmp_path / "died").touch()
    with pytest.raises(ValueError, match="task 4 is bad"):
        list(run_tasks(2, _setup, (str(tmp_path / "died"),), [0, 4, 1]))


def test_the_workers_server_fills_the_shared_caches():
    """worker_imports runs pipeline.warm_up and ignores a failure there (the workers would meet it again and
    report it), so a broken warm-up would only show as memory: run it here, where it must not fail."""
    from synth.captcha import compose
    from synth.captcha.recipe import warm_up
    from synth.families.kit import draw

    warm_up()
    assert draw._textures.cache_info().currsize == 1
    assert compose.font.cache_info().currsize >= len(compose.font_sizes(1)) + len(compose.font_sizes(2))


def test_the_workers_server_warms_the_runs_level_and_families_alone(monkeypatch):
    """A run names its level and families to the server (workers.start_early): warm_up draws those alone,
    and passes over names that are not CAPTCHA families (episode tasks)."""
    from synth.captcha import recipe

    drawn = []
    monkeypatch.setattr(recipe, "degrade_puzzle",
                        lambda family, puzzle, level, seed: drawn.append(level) or (puzzle.rgb, puzzle.instances, []))
    recipe.warm_up(levels=(2,), families=["counting", "dice", "paged_select"])
    assert drawn and set(drawn) == {2} and len(drawn) <= 2 * 2     # two families, two puzzle sizes
    drawn.clear()
    recipe.warm_up(levels=(4,), families=[])
    assert drawn == []
