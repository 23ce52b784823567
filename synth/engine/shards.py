"""Deterministic, crash-safe tar shards: fixed member metadata, temp file + fsync + rename."""
import hashlib
import os
import tarfile
from pathlib import Path

TMP_SUFFIX = ".tmp"


def _info(name: str, size: int) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = size, 0, 0o644
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def tar_sample(key: str, members: dict[str, bytes]) -> bytes:
    """One sample as tar bytes: its members keyed by extension, in sorted order and adjacent, each a header,
    the data and padding to the next block."""
    parts = []
    for ext in sorted(members):
        data = members[ext]
        parts += [_info(f"{key}.{ext}", len(data)).tobuf(tarfile.USTAR_FORMAT, "utf-8", "surrogateescape"), data,
                  tarfile.NUL * (-len(data) % tarfile.BLOCKSIZE)]
    return b"".join(parts)


class ShardWriter:
    """Writes one shard to `<path>.tmp` (a USTAR archive, as tarfile writes it, hashed on the way);
    `commit()` fsyncs and renames it to `path`. Leaving the `with` block without commit removes the temp file."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.tmp = self.path.with_name(self.path.name + TMP_SUFFIX)
        self._file = open(self.tmp, "wb")
        self._sha256 = hashlib.sha256()
        self._size = 0
        self.samples = 0

    def _put(self, data: bytes) -> None:
        self._file.write(data)
        self._sha256.update(data)
        self._size += len(data)

    def add(self, sample: bytes) -> None:
        """Add one sample's tar bytes (from tar_sample)."""
        self._put(sample)
        self.samples += 1

    def commit(self) -> dict:
        """Finish the shard; returns {"name", "samples", "bytes", "sha256"}."""
        self._put(tarfile.NUL * (2 * tarfile.BLOCKSIZE))                 # end-of-archive marker
        self._put(tarfile.NUL * (-self._size % tarfile.RECORDSIZE))      # tarfile pads to whole records
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        os.replace(self.tmp, self.path)
        return {"name": self.path.name, "samples": self.samples, "bytes": self._size,
                "sha256": self._sha256.hexdigest()}

    def __enter__(self) -> "ShardWriter":
        return self

    def __exit__(self, *exc) -> None:
        try:
            if not self._file.closed:   # not committed: drop the partial shard, even if closing fails
                try:
                    self._file.close()
                except OSError:
                    pass
        finally:
            self.tmp.unlink(missing_ok=True)


def file_digest(path: Path) -> dict:
    """{"bytes", "sha256"} of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return {"bytes": Path(path).stat().st_size, "sha256": h.hexdigest()}
