#!/usr/bin/env bash
# Install the pinned real agents (tests/agents/versions.json) into $HOOKD_AGENTS_DIR
# (default ~/.cache/hookd-agents), from the npm registry. Idempotent; checks that Claude
# Code's native binary is the real one (the postinstall copies it; with --ignore-scripts
# it would be a 500-byte placeholder).
set -euo pipefail
cd "$(dirname "$0")"
DIR="${HOOKD_AGENTS_DIR:-$HOME/.cache/hookd-agents}"
CLAUDE_VERSION="$(python3 -c 'import json;print(json.load(open("versions.json"))["claude-code"])')"
CLAUDE_DIR="$DIR/claude-code-$CLAUDE_VERSION"
BIN="$CLAUDE_DIR/node_modules/@anthropic-ai/claude-code/bin/claude.exe"
if [ ! -x "$BIN" ] || [ "$(stat -c %s "$BIN")" -lt 1000000 ]; then
  echo "== installing @anthropic-ai/claude-code@$CLAUDE_VERSION into $CLAUDE_DIR"
  mkdir -p "$CLAUDE_DIR"
  (cd "$CLAUDE_DIR" && npm install --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/claude-code@$CLAUDE_VERSION")
fi
if [ "$(stat -c %s "$BIN")" -lt 1000000 ]; then
  echo "$BIN is a placeholder, not Claude Code's native binary (was the postinstall skipped?)" >&2
  exit 1
fi
echo "== claude-code $CLAUDE_VERSION: $BIN"
