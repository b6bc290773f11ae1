#!/usr/bin/env bash
# The whole test suite, in the order a failure is cheapest to read; stops at the first failure.
#   C++ doctest (ctest) -> node tests of the wasm module and CLI -> site build -> headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/build.sh

echo "test: C++ core (ctest)"
ctest --test-dir build/native --output-on-failure

echo "test: wasm module and CLI (node --test tests/node/)"
node --test --test-reporter=spec tests/node/

echo "test: site build (vite build -> dist/)"
npx vite build

echo "test: pages in headless Chromium (node --test tests/browser/)"
node --test --test-reporter=spec tests/browser/

echo "test: all passed"
