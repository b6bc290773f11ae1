#!/usr/bin/env bash
# Prints size and speed figures: for the core, wasm/JS sizes and native vs wasm ms per iteration
# (bench/bench.mjs); then for the site's pages in headless Chromium, bytes transferred, time to
# interactive and the token grid's toggle latency (bench/pages.mjs, which builds dist/ if stale);
# then the Train page's training speed natively, in wasm and in Chromium (bench/train.mjs).
# Figures only, no pass/fail. Builds first (incremental, so usually instant); the build's output
# is shown only if it fails.
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { bash scripts/setup.sh && bash scripts/build.sh; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "bench: build failed" >&2
  exit 1
fi
# --speed [ITERATIONS]: only the core's sizes and collate + loss speed (bench.mjs sections 1-2).
if [ "${1:-}" = "--speed" ]; then exec node scripts/bench/bench.mjs "$@"; fi
node scripts/bench/bench.mjs "$@"
node scripts/bench/pages.mjs
node scripts/bench/chat.mjs
node scripts/bench/train.mjs
