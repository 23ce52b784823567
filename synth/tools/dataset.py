"""Reading a generated dataset back, safely: shards listed by its manifest, samples streamed from the tars.

Every tool that reads a dataset (verify, stats, score, gallery, export) goes through `shard_members`, which
accepts only what the generator writes: regular files named `<key>.<ext>` in plain characters. A link, a
device, a folder, an absolute name or one with `..` or `/` raises UnsafeShard naming the shard and member,
before anything is read from it or written anywhere."""
import json
import re
import tarfile
from collections.abc import Iterator
from pathlib import Path

from synth.labels import spec

# a member name the generator writes: a key and one or more extensions, letters, digits, '_' and '-' only
PLAIN_MEMBER = re.compile(r"[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)+")
_KINDS = ((tarfile.SYMTYPE, "a symbolic link"), (tarfile.LNKTYPE, "a hard link"), (tarfile.DIRTYPE, "a folder"),
          (tarfile.CHRTYPE, "a character device"), (tarfile.BLKTYPE, "a block device"), (tarfile.FIFOTYPE, "a FIFO"))


class UnsafeShard(ValueError):
    """A shard holds a member that is not a plain regular file."""


def shard_paths(dataset: Path) -> list[Path]:
    """The dataset's shards in order; FileNotFoundError with a clear message if there are none, UnsafeShard
    for a `.tar` that is not a regular file (a folder or a FIFO, say)."""
    dataset = Path(dataset)
    if not dataset.is_dir():
        raise FileNotFoundError(f"dataset folder {dataset} does not exist")
    shards = sorted(dataset.glob("*.tar"))
    if not shards:
        raise FileNotFoundError(f"no .tar shards in {dataset}")
    for shard in shards:
        if not shard.is_file():
            raise UnsafeShard(f"shard {shard.name} is not a regular file")
    return shards


def member_problem(member: tarfile.TarInfo) -> str | None:
    """Why `member` is not a plain regular file of a shard, or None if it is one."""
    kind = dict(_KINDS).get(member.type)
    if kind is None and member.type not in (tarfile.REGTYPE, tarfile.AREGTYPE):
        kind = f"of tar type {member.type!r}, not a regular file"
    if kind is not None:
        target = f" to {member.linkname!r}" if member.islnk() or member.issym() else ""
        return f"is {kind}{target}"
    if not PLAIN_MEMBER.fullmatch(member.name):
        return "has a name that is not <key>.<ext> in plain characters (no folders, '..' or absolute paths)"
    return None


def open_shard(shard: Path) -> tarfile.TarFile:
    """The shard opened for reading; ValueError naming it if it is not a tar archive."""
    try:
        return tarfile.open(shard, "r:")
    except (tarfile.TarError, EOFError, OSError) as e:
        raise ValueError(f"corrupt shard {shard.name}: {e}") from None


def shard_members(shard: Path, tar: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    """The members of an open shard, in stored order, each checked (UnsafeShard names the first bad one);
    only headers are read. ValueError naming the shard if it is corrupt."""
    try:
        for member in tar:
            if problem := member_problem(member):
                raise UnsafeShard(f"unsafe shard {shard.name}: member {member.name!r} {problem}")
            yield member
    except (tarfile.TarError, EOFError, OSError) as e:
        raise ValueError(f"corrupt shard {shard.name}: {e}") from None


def read_member(shard: Path, tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    """The bytes of a checked member; ValueError naming shard and member if it is cut short."""
    try:
        data = tar.extractfile(member).read()
    except (tarfile.TarError, EOFError, OSError) as e:
        raise ValueError(f"corrupt shard {shard.name}: cannot read {member.name} ({e})") from None
    if len(data) != member.size:
        raise ValueError(f"corrupt shard {shard.name}: member {member.name} is truncated")
    return data


def iter_samples(dataset: Path) -> Iterator[tuple[str, dict[str, bytes]]]:
    """(key, {ext: bytes}) for every sample, shard by shard; ValueError naming a corrupt or unsafe shard."""
    for shard in shard_paths(dataset):
        with open_shard(shard) as tar:
            key, members = None, {}
            for m in shard_members(shard, tar):
                k, ext = m.name.split(".", 1)
                if key is not None and k != key:
                    yield key, members
                    members = {}
                key = k
                members[ext] = read_member(shard, tar, m)
            if key is not None:
                yield key, members


def parse_label(key: str, data: bytes | None) -> dict:
    """A sample's label, parsed; ValueError naming the sample if it is missing, not JSON (nested too deeply
    included) or not an object."""
    try:
        label = json.loads(data) if data is not None else None
    except (ValueError, RecursionError) as e:
        raise ValueError(f"sample {key}: the label is not JSON ({type(e).__name__})") from None
    if not isinstance(label, dict):
        raise ValueError(f"sample {key} has no readable label (no .json member, or not a JSON object)")
    return label


def contract_errors(label: dict) -> list[str]:
    """synth.labels.spec.validate, also for a label whose fields have shapes it does not expect."""
    try:
        return spec.validate(label)
    except (AttributeError, TypeError, KeyError, IndexError, ValueError):
        return ["a field has an unexpected shape"]


def checked_label(key: str, data: bytes | None) -> dict:
    """A sample's label, parsed and held to the label contract (synth.labels.spec.validate), so that a tool may
    read its fields; ValueError naming the sample and the first broken field otherwise."""
    label = parse_label(key, data)
    if errors := contract_errors(label):
        raise ValueError(f"sample {key}: the label breaks the contract: {errors[0]}")
    return label


def iter_labels(dataset: Path) -> Iterator[dict]:
    """Every label of the dataset, parsed and held to the label contract (checked_label)."""
    for key, members in iter_samples(dataset):
        yield checked_label(key, members.get("json"))
