#!/usr/bin/env bash
# Install the pinned real agents (tests/agents/versions.json, the one place that names
# their versions) into $HOOKD_AGENTS_DIR (default ~/.cache/hookd-agents), from the npm
# registry. Idempotent: an agent already installed at its pinned version is left alone.
#   claude-code  @anthropic-ai/claude-code  (its postinstall copies the native binary in)
#   cline-sdk    cline@3.x                   (the SDK runner; Bun-built binary)
#   cline        cline@2.x                   (the original runner, the extension core)
#   auggie       @augmentcode/auggie
#   codex        @openai/codex               (npm brings the platform package, an alias:
#                @openai/codex-linux-x64 = @openai/codex@<version>-linux-x64, which holds
#                the native musl binary vendor/<target>/bin/codex; no install scripts)
#   gemini       @google/gemini-cli         (a Node bundle, bundle/gemini.js; no install
#                scripts needed)
#   copilot      @github/copilot             (a small Node launcher; the agent is the
#                platform package @github/copilot-linux-x64, a Node single-executable
#                application, installed by name at the same version; its first run
#                unpacks ~235 MB into pkgcache/ beside it, done here once)
#   droid        @factory/cli-linux-x64      (Factory Droid: the platform package itself, a
#                Bun-compiled binary bin/droid; the registry's @factory/cli 0.225.1 names
#                a platform package 0.225.1 that does not exist, so it is installed by name)
#   qwen         @qwen-code/qwen-code        (a Node bundle, cli.js; no install scripts
#                needed; npm says EBADENGINE on Node 20, and it runs there)
set -euo pipefail
cd "$(dirname "$0")"
DIR="${HOOKD_AGENTS_DIR:-$HOME/.cache/hookd-agents}"
version() { python3 -c "import json,sys;print(json.load(open('versions.json'))[sys.argv[1]])" "$1"; }

# install KEY PACKAGE NPM_FLAGS...: into $DIR/KEY-VERSION unless its marker file exists.
install() {
  local key="$1" package="$2"; shift 2
  local ver; ver="$(version "$key")"
  local dest="$DIR/$key-$ver"
  if [ ! -f "$dest/.installed" ]; then
    echo "== installing $package@$ver into $dest"
    rm -rf "$dest"; mkdir -p "$dest"
    (cd "$dest" && npm install --no-audit --no-fund --loglevel=error "$@" "$package@$ver")
    touch "$dest/.installed"
  fi
  echo "== $key $ver: $dest"
}

install claude-code @anthropic-ai/claude-code
BIN="$DIR/claude-code-$(version claude-code)/node_modules/@anthropic-ai/claude-code/bin/claude.exe"
if [ ! -x "$BIN" ] || [ "$(stat -c %s "$BIN")" -lt 1000000 ]; then
  echo "$BIN is a placeholder, not Claude Code's native binary (was the postinstall skipped?)" >&2
  rm -f "$DIR/claude-code-$(version claude-code)/.installed"
  exit 1
fi
install cline-sdk cline --ignore-scripts
install cline cline --ignore-scripts
install auggie @augmentcode/auggie --ignore-scripts
install codex @openai/codex --ignore-scripts
# The main package is a small Node launcher; the agent is the native binary of the
# platform package, an optional dependency npm skips without a word when it cannot have it.
case "$(uname -m)" in
  aarch64|arm64) platform=linux-arm64 target=aarch64-unknown-linux-musl ;;
  *) platform=linux-x64 target=x86_64-unknown-linux-musl ;;
esac
CODEX="$DIR/codex-$(version codex)/node_modules/@openai/codex-$platform/vendor/$target/bin/codex"
if [ ! -x "$CODEX" ] || [ "$(stat -c %s "$CODEX")" -lt 1000000 ]; then
  echo "$CODEX is missing: npm did not install Codex's platform package" \
    "(@openai/codex-$platform = @openai/codex@$(version codex)-$platform; optional dependencies off?)" >&2
  rm -f "$DIR/codex-$(version codex)/.installed"
  exit 1
fi
install gemini @google/gemini-cli --ignore-scripts
GEMINI="$DIR/gemini-$(version gemini)/node_modules/@google/gemini-cli/bundle/gemini.js"
if [ ! -f "$GEMINI" ]; then
  echo "$GEMINI is missing: npm did not install Gemini CLI's bundle" >&2
  rm -f "$DIR/gemini-$(version gemini)/.installed"
  exit 1
fi
case "$(uname -m)" in
  aarch64|arm64) copilot_platform=linux-arm64 ;;
  *) copilot_platform=linux-x64 ;;
esac
install copilot @github/copilot --ignore-scripts "@github/copilot-$copilot_platform@$(version copilot)"
COPILOT_DIR="$DIR/copilot-$(version copilot)"
COPILOT="$COPILOT_DIR/node_modules/@github/copilot-$copilot_platform/copilot"
if [ ! -x "$COPILOT" ] || [ "$(stat -c %s "$COPILOT")" -lt 1000000 ]; then
  echo "$COPILOT is missing: npm did not install Copilot's platform package" \
    "(@github/copilot-$copilot_platform@$(version copilot))" >&2
  rm -f "$COPILOT_DIR/.installed"
  exit 1
fi
env -i PATH=/usr/bin:/bin HOME=/nonexistent COPILOT_PKG_CACHE_HOME="$COPILOT_DIR/pkgcache" \
  "$COPILOT" --version >/dev/null
case "$(uname -m)" in
  aarch64|arm64) droid_platform=linux-arm64 ;;
  *) droid_platform=linux-x64 ;;
esac
install droid "@factory/cli-$droid_platform" --ignore-scripts
DROID="$DIR/droid-$(version droid)/node_modules/@factory/cli-$droid_platform/bin/droid"
if [ ! -x "$DROID" ] || [ "$(stat -c %s "$DROID")" -lt 1000000 ]; then
  echo "$DROID is missing: npm did not install @factory/cli-$droid_platform@$(version droid)" >&2
  rm -f "$DIR/droid-$(version droid)/.installed"
  exit 1
fi
install qwen @qwen-code/qwen-code --ignore-scripts
QWEN="$DIR/qwen-$(version qwen)/node_modules/@qwen-code/qwen-code/cli.js"
if [ ! -f "$QWEN" ]; then
  echo "$QWEN is missing: npm did not install Qwen Code's bundle" >&2
  rm -f "$DIR/qwen-$(version qwen)/.installed"
  exit 1
fi
