"""`python -m synth` runs the command line."""
from synth.cli import entry

entry()
