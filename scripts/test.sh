#!/usr/bin/env bash
# The whole test suite, in the order a failure is cheapest to read; stops at the first failure.
#   C++ doctest -> node tests of the wasm module, CLI and content -> site build -> headless Chromium.
# Ends with one plain line "masklab: N passed, 0 failed" summing the three runners' counts.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/build.sh

counts=$(mktemp -d)
trap 'rm -rf "$counts"' EXIT

echo "test: C++ core (doctest, through ctest)"
ctest --test-dir build/native --output-on-failure
build/native/masklab_tests --no-version=true | tee "$counts/doctest.txt" | tail -n 3

# spec on the screen, TAP into a file for the counts.
node_tests() {
  node --test --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$counts/$1.tap" "$2"
}

echo "test: wasm module, CLI and content (node --test tests/node/)"
node_tests node tests/node/

echo "test: site build (vite build -> dist/)"
npx vite build

echo "test: pages in headless Chromium (node --test tests/browser/)"
node_tests browser tests/browser/

cpp=$(sed -n 's/.*test cases: *[0-9]* *| *\([0-9]*\) passed.*/\1/p' "$counts/doctest.txt")
node_pass=$(cat "$counts"/*.tap | awk '/^# pass [0-9]+$/ { s += $3 } END { print s + 0 }')
node_fail=$(cat "$counts"/*.tap | awk '/^# fail [0-9]+$/ { s += $3 } END { print s + 0 }')
echo "masklab: $((cpp + node_pass)) passed, ${node_fail} failed"
