"""verl: the parquet layout verl's multimodal RL examples read (as its geo3k preprocessing writes it).

    out/train.parquet   data_source "synth/<kind>", prompt [{"role": "system"}, {"role": "user", "content":
                        "<image>…"}], images [{"bytes", "path"}], ability "gui", reward_model {"style": "rule",
                        "ground_truth": the label of the record's first query as JSON}, extra_info {"split",
                        "index", "key"}
    out/images/…

Rewards: synth.rl.verl_score as verl's custom reward function; it reads answers on the 0–999 grid, so the
export takes the default --coords ui-venus. Written with pyarrow (a dependency of Hugging Face datasets)."""
import json
from pathlib import Path

from synth.export.conversation import dialogues, messages, turn

KINDS = ("captcha", "grounding")
DESCRIPTION = "verl RL parquet (prompt, images, reward_model.ground_truth, extra_info) for synth.rl.verl_score"


class Writer:
    def __init__(self, out: Path, options):
        try:
            import pyarrow  # noqa: F401  (checked before anything is written)
        except ImportError as e:
            raise ValueError("--format verl writes parquet with pyarrow: pip install pyarrow (or datasets)") from e
        if options.coords != "ui-venus":
            raise ValueError("--format verl scores answers on the 0-999 grid: use --coords ui-venus")
        self.out, self.options, self.rows = out, options, []

    def add(self, label: dict, image_name: str) -> None:
        image = (self.out / image_name).read_bytes()
        for _, views in dialogues(label, self.options):
            prompt = messages([turn(views[0], self.options)])[:2]      # system and the first question
            self.rows.append({
                "data_source": f"synth/{label['kind']}", "prompt": prompt,
                "images": [{"bytes": image, "path": image_name}], "ability": "gui",
                "reward_model": {"style": "rule", "ground_truth": json.dumps(views[0], ensure_ascii=False,
                                                                             sort_keys=True)},
                "extra_info": {"split": "train", "index": len(self.rows), "key": views[0]["key"]}})

    def close(self) -> dict:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(self.rows), self.out / "train.parquet")
        return {"records": len(self.rows), "file": "train.parquet"}
