"""Grounding samples: targets taken from the rendered DOM, described in English or Chinese, verified."""
