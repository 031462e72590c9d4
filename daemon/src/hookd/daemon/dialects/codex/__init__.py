"""Codex CLI (0.171.0): ``dialect`` (its hook files, events, matchers and its strict
reading of hook output) and ``integration`` (adopt, relay entries, its hook trust)."""
