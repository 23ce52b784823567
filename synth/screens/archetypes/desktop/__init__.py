"""Page archetypes, one module each (see synth.screens)."""
