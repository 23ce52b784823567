"""The dataset card: a README.md with Hugging Face front matter, written next to manifest.json by every run.

It is rendered from the manifest alone (config, version, totals, and the per-shard label counts the run
records), so the same run gives the same bytes and a resumed run rewrites it exactly."""
import json
import os
import shlex
from pathlib import Path

from synth.engine.shards import TMP_SUFFIX
from synth.families import NAMES

CARD = "README.md"
COUNTED = {"family": "family", "difficulty": "level", "lang": "language", "platform": "platform"}
SIZES = [(10**3, "n<1K"), (10**4, "1K<n<10K"), (10**5, "10K<n<100K"), (10**6, "100K<n<1M"), (10**7, "1M<n<10M"),
         (10**8, "10M<n<100M"), (10**9, "100M<n<1B"), (10**10, "1B<n<10B"), (10**11, "10B<n<100B"),
         (10**12, "100B<n<1T")]
TASKS = {"captcha": ["image-text-to-text"], "grounding": ["image-text-to-text", "object-detection"],
         "episode": ["image-text-to-text", "reinforcement-learning"]}
SUMMARY = {
    "captcha": "Verified CAPTCHA instances (counting, rotation, sliders, grids, text and more) placed into web, "
               "phone-app and desktop screens rendered by Chromium, each with a reference solution and an "
               "acceptance rule that scores any proposed action sequence.",
    "grounding": "Screens of web pages, phone apps and desktop windows rendered by Chromium, each with several "
                 "queries that describe an element in words (or, for refusals, a control the screen lacks), with "
                 "its exact box taken from the rendered DOM, and every visible element listed.",
    "episode": "Expert trajectories through interactive CAPTCHAs (rotating with buttons, paging options, tiles "
               "that are replaced, multi-piece jigsaws, animated puzzles) in rendered screens: one sample per step "
               "with the screenshot before the action, the action taken, its reward and the state's ground truth; "
               "a share of episodes take a wrong action and recover.",
}


def size_category(n: int) -> str:
    """The Hugging Face size bucket of a dataset of `n` samples."""
    return next((name for limit, name in SIZES if n < limit), "n>1T")


def command(config: dict) -> str:
    """The `synth` command line that makes this run (without --out, workers or executor: they do not
    change the bytes)."""
    level = str(config["difficulty"]) + (f"-{config['difficulty_max']}" if config.get("difficulty_max") else "")
    parts = ["synth", config["kind"], "--difficulty", level, "--n", str(config["n"]), "--seed", str(config["seed"])]
    if (config["kind"] == "captcha" and tuple(config["families"]) != NAMES) or config["kind"] == "episode":
        for family in config["families"]:
            parts += ["--family", family]
    parts += ["--lang", config["lang"], "--platform", config["platform"], "--shard-size", str(config["shard_size"]),
              "--image-format", config["image_format"]]
    if config["kind"] == "captcha":
        parts += ["--infeasible", str(config["infeasible"])]
    elif config["kind"] == "episode":
        parts += ["--mistakes", str(config["mistakes"])]
    else:
        parts += ["--queries", str(config["queries"]), "--refusal", str(config["refusal"])]
    if config.get("pages"):
        parts += ["--pages", config["pages"]]
    if config.get("focus"):
        parts += ["--focus", "REPORT.json"]
    return shlex.join(parts)


def _yaml_list(name: str, items: list[str]) -> list[str]:
    return [f"{name}:"] + [f"- {json.dumps(item)}" for item in items]


def front_matter(manifest: dict) -> str:
    """The YAML metadata block Hugging Face reads (values written as JSON strings, which YAML parses)."""
    config, totals = manifest["config"], manifest["totals"]
    languages = sorted(totals["counts"]["lang"])
    lines = ["---", "license: mit", f"pretty_name: {json.dumps(title(config))}",
             *_yaml_list("task_categories", TASKS[config["kind"]]),
             *_yaml_list("language", languages),
             f"multilinguality: {'multilingual' if len(languages) > 1 else 'monolingual'}",
             *_yaml_list("size_categories", [size_category(totals["samples"])]),
             *_yaml_list("annotations_creators", ["machine-generated"]),
             *_yaml_list("language_creators", ["machine-generated"]),
             *_yaml_list("source_datasets", ["original"]),
             *_yaml_list("tags", ["synthetic", "gui-agent", config["kind"], "screenshots", "webdataset"]),
             "configs:", "- config_name: default", "  data_files:", "  - split: train",
             f"    path: {json.dumps(config['kind'] + '-*.tar')}", "---"]
    return "\n".join(lines) + "\n"


def title(config: dict) -> str:
    return f"synth {config['kind']}, difficulty {config['difficulty']}"


def table(header: str, counts: dict[str, int], unit: str = "samples") -> str:
    """A Markdown table of counts, largest first."""
    rows = [f"| {header} | {unit} |", "|---|---:|"]
    rows += [f"| {name} | {n} |" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    return "\n".join(rows)


def _intro(manifest: dict) -> str:
    config = manifest["config"]
    return f"""
# {title(config)}

{SUMMARY[config["kind"]]}

Machine-generated by synth {manifest["version"]}. Every sample was verified before it was written: its answer
recomputed from what was rendered, ambiguous instances redrawn.
"""


def _made(config: dict) -> str:
    return f"""
## How it was made

```sh
{command(config)}
```

with `--out` naming this folder. The same command and synth version give byte-identical shards whatever the
number of workers or the executor; rerunning it here keeps the finished shards and regenerates the rest.
{_focus(config)}"""


def _focus(config: dict) -> str:
    """The focus weights of a --focus run (each sample's family and level were drawn from them), as tables."""
    if not config.get("focus"):
        return ""
    by_family: dict[str, float] = {}
    for family, level, weight in config["focus"]:
        by_family[f"{family} (level {level})"] = weight
    total = sum(by_family.values())
    shares = {k: round(w / total, 4) for k, w in by_family.items()}
    kinds = config.get("focus_kinds") or []
    kind_total = sum(w for _, w in kinds) or 1.0
    kind_shares = {k: round(w / kind_total, 4) for k, w in kinds}
    kind_table = ("\n\nInstruction kinds drawn with these weights (among those a page offers):\n\n"
                  + table("instruction kind", kind_shares, "weight")) if kinds else ""
    return f"""
Made with `--focus`: each sample's family and level were drawn with these weights, computed from a
`synth score --json` report of a model's failures (README, "Closing the loop"):

{table("family and level", shares, "weight")}{kind_table}
"""


def _contents(totals: dict, glob: str, ext: str) -> str:
    rejections = totals["rejections"]
    counts = "\n\n".join(table(header, totals["counts"][field]) for field, header in COUNTED.items())
    rejected = table("rejection reason", rejections, "instances") if rejections else "No instance was rejected."
    return f"""
## Contents

{totals["samples"]} samples in {totals["shards"]} shards (`{glob}`, plain tar), each `<key>.{ext}` (the
screenshot) and `<key>.json` (the label). `manifest.json` lists every shard with its sample count, bytes,
sha256 and rejections; `synth verify` re-checks them.

{counts}

Instances rejected by verification and redrawn: {sum(rejections.values())}.

{rejected}
"""


LABELS = """
## Labels

All coordinates are pixels of the stored image, origin top-left, x right, y down, as floats; boxes are
`[x0, y0, x1, y1]`, points `[x, y]`. Every field keeps one JSON type in every sample.

- `schema`, `key`, `kind`, `family`, `difficulty` (1-5), `seed`: provenance of the sample
- `platform` (web, mobile, desktop), `lang` (en, zh), `template`: the screen it was placed in
- `image`: `{"width", "height"}` of the stored image
- `instruction`: the task as the agent is told it, in `lang`
- `answer`: the canonical answer (count, angle, text, slider offset, cells, sequence, feasible)
- `actions`: a reference solution (`click`, `drag`, `type`, `long_press`); it scores 1.0
- `accept`: the rule that scores any action sequence: per step a region, a text or a drag tolerance
- `widget`: box of the CAPTCHA widget (`null` for grounding); `objects`: labelled boxes (targets,
  distractors, buttons) with their visible fraction
- `params`, `checks`: the resolved generator settings and the verification measurements
- grounding only: `queries`, every query on the screenshot (`instruction`, `kind`, `style`, `target`
  element id, `feasible`, `accept`, `actions`; the top-level fields are the first query's; a refusal has
  `feasible: false` and no steps or actions), and `elements`, every visible element (`id`, `role`,
  `name`, `bbox`)
- episodes only: `episode` (`id`, `step`, `steps`, `done`, `time` of the action in seconds, `return`),
  `taken` (the action taken at this step; it differs from the reference `actions` on a mistake step),
  `reward` (what the taken action earned), `mistake`, `state` (the task's latent state as JSON text) and
  `frames` (animated runs: `<key>.frame000.<ext>` … with their times, the same count in every sample)

`synth.labels.reward.score(label, actions)` turns a proposed action sequence into a reward in [0, 1]; a
grounding query `i` is scored as `synth.labels.reward.score(synth.labels.spec.query_label(label, i), actions)`.
"""


def _loading(glob: str, ext: str) -> str:
    return f"""
## Loading

With webdataset:

```python
import glob
import webdataset as wds

shards = sorted(glob.glob("{glob}"))      # in this folder
for image, label in wds.WebDataset(shards, shardshuffle=False).decode("pil").to_tuple("{ext}", "json"):
    print(label["instruction"], label["actions"])
```

With Hugging Face `datasets`:

```python
import datasets

ds = datasets.load_dataset("webdataset", data_files={{"train": "{glob}"}}, split="train")
print(ds[0]["json"]["instruction"])
```

or `datasets.load_dataset("path/to/this/folder", split="train")`, which reads this card's `configs`.

With Ray Data (name the shards: the folder also holds this card and the manifest):

```python
import glob
import ray

ds = ray.data.read_webdataset(sorted(glob.glob("{glob}")))
print(ds.take(1)[0]["json"]["instruction"])
```
"""


LICENCE = """
## Licence

MIT, like synth; the data is machine-generated. The images contain Noto Color Emoji (Apache 2.0) and text
set in Noto Sans CJK, DejaVu and Liberation fonts.
"""


def body(manifest: dict) -> str:
    """The Markdown part: provenance, contents, label conventions and how to load the shards."""
    config, totals = manifest["config"], manifest["totals"]
    glob, ext = f"{config['kind']}-*.tar", config["image_format"]
    return "".join([_intro(manifest), _made(config), _contents(totals, glob, ext), LABELS, _loading(glob, ext),
                    LICENCE])


def render(manifest: dict) -> str:
    """The whole card: front matter, then the Markdown body."""
    return front_matter(manifest) + body(manifest)


def write_card(out: Path, manifest: dict) -> None:
    """Atomically write the card of the run in `out` (temp file + rename)."""
    tmp = out / (CARD + TMP_SUFFIX)
    tmp.write_text(render(manifest), encoding="utf-8")
    os.replace(tmp, out / CARD)
