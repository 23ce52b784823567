"""`synth verify`: re-check a dataset against its manifest and the label contract."""
import hashlib
import io
from pathlib import Path

from PIL import Image

from synth.engine.manifest import read_manifest
from synth.engine.shards import TMP_SUFFIX, file_digest
from synth.labels import reward
from synth.tools.dataset import contract_errors, iter_samples, parse_label, shard_paths


def verify_dataset(dataset: Path, max_problems: int = 50) -> tuple[int, list[str]]:
    """(samples checked, problems found): shard sha256 and counts against the manifest, then every label."""
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
        try:
            size = Image.open(io.BytesIO(members[fmt])).size
        except OSError:
            problems.append(f"{key}: image does not decode")
            continue
        if size != (label["image"]["width"], label["image"]["height"]):
            problems.append(f"{key}: image is {size}, label says {label['image']}")
        if reward.score(label, label["actions"]) != 1.0:
            problems.append(f"{key}: reference actions do not score 1.0")
        # an episode may come back to a screen it showed (a mistake undone); across episodes it may not
        digest, episode = hashlib.sha256(members[fmt]).hexdigest(), label.get("episode", {}).get("id", key)
        if images.setdefault(digest, episode) != episode:
            problems.append(f"{key}: duplicate image")
    if len(frame_counts) > 1:
        problems.append(f"samples hold different numbers of frames: {sorted(frame_counts)}")
    total = sum(s["samples"] for s in listed.values())
    if len(problems) < max_problems and n != total:
        problems.append(f"dataset holds {n} samples, the manifest says {total}")
    return n, problems
