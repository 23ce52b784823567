"""Shards from elsewhere: every tool that reads a dataset refuses a member that is not a plain regular file
(links, devices, folders, absolute or `..` names) with one line naming shard and member, exit 1, and writes
nothing."""
import io
import json
import shutil
import subprocess
import sys
import tarfile

import pytest

from synth.engine.shards import file_digest
from synth.tools.dataset import iter_samples


def synth(*args):
    return subprocess.run([sys.executable, "-m", "synth", *args], capture_output=True, text=True)


def _member(name: str, kind: bytes = tarfile.REGTYPE, data: bytes = b"{}", link: str = "") -> tuple:
    return name, kind, data, link


HOSTILE = {
    "symlink": _member("zzz-1.json", tarfile.SYMTYPE, link="/etc/passwd"),
    "hardlink": _member("zzz-1.json", tarfile.LNKTYPE, link="etc/passwd"),
    "dotdot": _member("../../../../x.json"),
    "absolute": _member("/tmp/x.json"),
    "folder_name": _member("sub/zzz-1.json"),
    "device": _member("zzz-1.json", tarfile.CHRTYPE),
    "fifo": _member("zzz-1.json", tarfile.FIFOTYPE),
    "directory": _member("zzz-1", tarfile.DIRTYPE),
}


def _hostile_copy(dataset, folder, member) -> tuple:
    """A copy of `dataset` whose first shard ends with `member`, the manifest re-hashed to match."""
    shutil.copytree(dataset, folder)
    shard = sorted(folder.glob("*.tar"))[0]
    name, kind, data, link = member
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    with tarfile.open(shard, "a") as tar:
        tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
    manifest = json.loads((folder / "manifest.json").read_text())
    for s in manifest["shards"]:
        if s["name"] == shard.name:
            s.update(file_digest(shard))
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return shard.name, name


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_reader_refuses_a_member_that_is_not_a_plain_file(dataset, tmp_path, case):
    shard, name = _hostile_copy(dataset, tmp_path / "ds", HOSTILE[case])
    with pytest.raises(ValueError, match=f"unsafe shard {shard}: member {name!r}"):
        for _ in iter_samples(tmp_path / "ds"):
            pass


@pytest.mark.parametrize("case", ["symlink", "dotdot"])
def test_every_tool_gives_one_line_and_writes_nothing(dataset, tmp_path, case):
    bad = tmp_path / "ds"
    shard, name = _hostile_copy(dataset, bad, HOSTILE[case])
    before = sorted(p.name for p in bad.iterdir())
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"key": "x", "output": "Click(box=(1,1))"}) + "\n")
    runs = {"verify": ["verify", str(bad)], "stats": ["stats", str(bad), "--charts", str(tmp_path / "charts")],
            "gallery": ["gallery", str(bad), "--out", str(tmp_path / "gallery")],
            "export": ["export", str(bad), "--out", str(tmp_path / "export"), "--format", "trl"],
            "score": ["score", str(bad), str(preds)]}
    for tool, args in runs.items():
        r = synth(*args)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 1 and len(lines) == 1, (tool, r.stdout, r.stderr)
        assert shard in lines[0] and repr(name) in lines[0] and "Traceback" not in r.stderr, (tool, lines)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds", "p.jsonl"]
    assert sorted(p.name for p in bad.iterdir()) == before


def test_a_folder_named_like_a_shard_is_refused(dataset, tmp_path):
    bad = tmp_path / "ds"
    shutil.copytree(dataset, bad)
    (bad / "zz-000009.tar").mkdir()
    r = synth("stats", str(bad))
    assert r.returncode == 1 and "zz-000009.tar is not a regular file" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_deeply_nested_label_is_not_json_not_a_traceback(dataset, tmp_path):
    deep = b"[" * 100_000 + b"]" * 100_000
    _hostile_copy(dataset, tmp_path / "ds", _member("zzz-1.json", data=deep))
    for args in (["stats", str(tmp_path / "ds"), "--charts", str(tmp_path / "c")], ["verify", str(tmp_path / "ds")]):
        r = synth(*args)
        assert r.returncode == 1 and "zzz-1" in r.stdout + r.stderr and "Traceback" not in r.stderr, r.stderr
