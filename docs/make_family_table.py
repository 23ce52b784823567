"""Write the README's table of CAPTCHA families (between its `<!-- families -->` markers) from
`synth families --json` (synth.families.catalogue): name, answer kinds, what it asks, what it covers.

Run after adding or changing a family: `.venv/bin/python docs/make_family_table.py`."""
import re
from pathlib import Path

from synth.families import catalogue

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- families -->", "<!-- /families -->"


def table() -> str:
    rows = catalogue()
    lines = [START, "", "| family | answer | what it asks | covers |", "|---|---|---|---|"]
    for r in rows:
        covers = ", ".join(c.replace("_", "\\_") for c in r["covers"])
        lines.append(f"| `{r['name']}` | {', '.join(r['answers'])} | {r['description']} | {covers} |")
    return "\n".join(lines + ["", END])


def main() -> None:
    text = README.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{README} has no {START} ... {END} section")
    README.write_text(re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _: table(), text, flags=re.S),
                      encoding="utf-8")


if __name__ == "__main__":
    main()
