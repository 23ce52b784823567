"""Reading a generated dataset back: shards listed by its manifest, samples streamed from the tars."""
import json
import tarfile
from collections.abc import Iterator
from pathlib import Path


def shard_paths(dataset: Path) -> list[Path]:
    """The dataset's shards in order; FileNotFoundError with a clear message if there are none."""
    dataset = Path(dataset)
    if not dataset.is_dir():
        raise FileNotFoundError(f"dataset folder {dataset} does not exist")
    shards = sorted(dataset.glob("*.tar"))
    if not shards:
        raise FileNotFoundError(f"no .tar shards in {dataset}")
    return shards


def iter_samples(dataset: Path) -> Iterator[tuple[str, dict[str, bytes]]]:
    """(key, {ext: bytes}) for every sample, shard by shard; ValueError naming a corrupt shard."""
    for shard in shard_paths(dataset):
        try:
            with tarfile.open(shard) as tar:
                key, members = None, {}
                for m in tar:
                    k, ext = m.name.split(".", 1)
                    if key is not None and k != key:
                        yield key, members
                        members = {}
                    key = k
                    members[ext] = tar.extractfile(m).read()
                if key is not None:
                    yield key, members
        except (tarfile.TarError, EOFError, OSError, ValueError) as e:
            raise ValueError(f"corrupt shard {shard.name}: {e}") from e


def iter_labels(dataset: Path) -> Iterator[dict]:
    """Every label of the dataset, parsed."""
    for key, members in iter_samples(dataset):
        try:
            yield json.loads(members["json"])
        except (KeyError, json.JSONDecodeError) as e:
            raise ValueError(f"sample {key} has no readable label ({e})") from e
