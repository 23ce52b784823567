"""Thin entry point: `python cli.py ...` is the same as the installed `synth` command."""
import sys

from synth.cli import main

if __name__ == "__main__":
    sys.exit(main())
