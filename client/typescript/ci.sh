#!/usr/bin/env bash
# CI for the TypeScript client: install the locked npm packages, build with tsc --strict,
# check the generated wire types against the OpenRPC document, type-check the README's
# examples, then run the tests against real `hookd serve` daemons.
# Assumes the repository's virtualenv is active (hookd on PATH, hookd.client importable).
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v hookd >/dev/null 2>&1; then
  echo "hookd is not on PATH: activate the repository's virtualenv first (. .venv/bin/activate)" >&2
  exit 1
fi
echo "== node $(node --version), npm $(npm --version 2>/dev/null)"

echo "== npm ci"
npm ci --no-audit --no-fund --loglevel=error

echo "== tsc --strict (src, scripts, tests, bench)"
rm -rf dist build
npx --no-install tsc -p .

echo "== generated types match protocol/src/hookd/protocol/openrpc.json"
node dist/scripts/gen-protocol.js --check

echo "== README examples compile (vscode-extension.ts against @types/vscode, node-agent.ts)"
node dist/scripts/readme-examples.js
npx --no-install tsc -p tsconfig.examples.json

echo "== tests (real daemons)"
node --test --test-reporter=spec --test-timeout=120000 dist/test/*.test.js

echo "== TypeScript client CI passed"
