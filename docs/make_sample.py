"""Write docs/sample.jpg: one generated level-3 web sample with its label drawn on it (for the README)."""
import io
import json
from pathlib import Path

from PIL import Image

from synth.engine.config import RunConfig
from synth.engine.generator import Generator
from synth.labels.overlay import draw_label

OUT = Path(__file__).parent / "sample.jpg"


def main() -> None:
    gen = Generator(RunConfig(difficulty=3, n=1, seed=3, platform="web", lang="en", families=("counting",)))
    try:
        _, members, _ = gen.sample(0)
        image = draw_label(Image.open(io.BytesIO(members["jpg"])), json.loads(members["json"]))
        image.save(OUT, quality=85)
    finally:
        gen.close()


if __name__ == "__main__":
    main()
