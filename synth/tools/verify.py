"""`synth verify`: re-check a dataset against its manifest and the label contract."""
import hashlib
import io
from pathlib import Path

from PIL import Image

from synth.engine.manifest import read_manifest
from synth.engine.shards import TMP_SUFFIX, file_digest
from synth.tools.consistency import EpisodeTally, label_disagreements
from synth.tools.dataset import contract_errors, iter_samples, parse_label, shard_paths


def verify_dataset(dataset: Path, max_problems: int = 50) -> tuple[int, list[str]]:
    """(samples checked, problems found): shard sha256 and counts against the manifest, then every label: its
    contract, its image (decoded, at the label's size) and what it says twice (synth.tools.consistency)."""
    dataset = Path(dataset)
    manifest = read_manifest(dataset)
    problems: list[str] = []
    listed = {s["name"]: s for s in manifest.get("shards", [])}
    on_disk = {p.name for p in shard_paths(dataset)}
    problems += [f"{name}: listed in the manifest but missing" for name in sorted(set(listed) - on_disk)]
    problems += [f"{name}: not listed in the manifest" for name in sorted(on_disk - set(listed))]
    problems += [f"{p.name}: leftover temporary file" for p in dataset.glob("*" + TMP_SUFFIX)]
    for name in sorted(set(listed) & on_disk):
        digest = file_digest(dataset / name)
        if digest["sha256"] != listed[name]["sha256"] or digest["bytes"] != listed[name]["bytes"]:
            problems.append(f"{name}: sha256/bytes differ from the manifest")
    keys: set[str] = set()
    images: dict[str, str] = {}     # image sha256 -> the episode (or sample) that showed it
    frame_counts: set[int] = set()
    episodes = EpisodeTally()
    fmt = manifest.get("config", {}).get("image_format", "jpg")
    n = 0
    for key, members in iter_samples(dataset):
        n += 1
        if len(problems) >= max_problems:
            break
        if key in keys:
            problems.append(f"{key}: duplicate key")
        keys.add(key)
        if not {fmt, "json"} <= set(members):
            problems.append(f"{key}: members {sorted(members)}, expected {sorted({fmt, 'json'})}")
            continue
        try:
            label = parse_label(key, members["json"])
        except ValueError as e:
            problems.append(str(e))
            continue
        frames = {f["member"] for f in label.get("frames", [])}
        if set(members) != {fmt, "json"} | frames:
            problems.append(f"{key}: members {sorted(members)}, expected {sorted({fmt, 'json'} | frames)}")
            continue
        frame_counts.add(len(frames))
        errors = contract_errors(label)
        if errors:
            problems.append(f"{key}: {errors[0]}")
            continue
        if label["key"] != key:
            problems.append(f"{key}: label key {label['key']!r}")
        size = decoded_size(members[fmt])
        if size is None:
            problems.append(f"{key}: image does not decode")
            continue
        if size != (label["image"]["width"], label["image"]["height"]):
            problems.append(f"{key}: image is {size[0]}x{size[1]}, label says {label['image']}")
        try:
            disagreements = label_disagreements(label)
            if label["kind"] == "episode":
                disagreements += episodes.add(label)
        except (AttributeError, TypeError, KeyError, IndexError, ValueError):   # a shape the contract leaves open
            disagreements = ["a field has an unexpected shape"]
        problems += [f"{key}: {d}" for d in disagreements]
        # an episode may come back to a screen it showed (a mistake undone); across episodes it may not
        digest, episode = hashlib.sha256(members[fmt]).hexdigest(), label.get("episode", {}).get("id", key)
        if images.setdefault(digest, episode) != episode:
            problems.append(f"{key}: duplicate image")
    problems += episodes.problems()
    if len(frame_counts) > 1:
        problems.append(f"samples hold different numbers of frames: {sorted(frame_counts)}")
    total = sum(s["samples"] for s in listed.values())
    if len(problems) < max_problems and n != total:
        problems.append(f"dataset holds {n} samples, the manifest says {total}")
    return n, problems


def decoded_size(image: bytes) -> tuple[int, int] | None:
    """The (width, height) of an image that decodes to its end, or None. A JPEG is decoded at 1/8 scale
    (its DCT blocks are all read, so a cut or corrupt stream still fails, at a fraction of the cost)."""
    try:
        with Image.open(io.BytesIO(image)) as im:
            size = im.size
            im.draft("RGB", (max(1, size[0] // 8), max(1, size[1] // 8)))
            im.load()
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    return size
