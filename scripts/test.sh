#!/usr/bin/env bash
# The whole test suite, in the order a failure is cheapest to read; stops at the first failure.
#   C++ doctest -> node tests of the wasm module, CLI and content -> the same C++ suite, the CLI
#   tests and a replay of the fuzz corpus under AddressSanitizer + UndefinedBehaviorSanitizer
#   -> site build -> headless Chromium.
# Ends with one plain line "masklab: N passed, 0 failed" summing the three runners' counts.
#
# Time (issue 11: about 10 minutes from a fresh clone on a 2-core machine). Each phase prints one
# "time:" line: wall time, CPU time (user+sys) and the load average, so a slow run says where.
# - Everything under the sanitizers needs nothing from scripts/build.sh, so the sanitizer tree
#   (build/sanitize) is compiled, and its doctest suite and fuzz replay run, in the background
#   from the start, at low priority: they take the cores the other steps leave idle (test runs
#   and Chromium mostly wait). The doctest suite runs there as two processes, each on its own
#   half of the test files (printed, and checked to add up to the whole suite), so it can use
#   both cores once the rest is done. Their output is shown only if they fail. Only the CLI's
#   node tests under the sanitizers wait for it, after the browser tests.
# - The native tree and the doctest files are compiled in unity batches (CMakeLists.txt).
# - scripts/build.sh --tests builds only the native targets the tests run (not the fuzz replay).
# - Each doctest suite runs once (ctest used to run the native one a second time); node and
#   browser test files run two at a time (--test-concurrency=2; each file has its own temp dirs,
#   server port and Chromium), since they mostly wait on a child process or on Chromium; the
#   Train page's file, which measures main-thread CPU per task, runs alone after them, when the
#   background work is over.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/phase-time.sh

counts=$(mktemp -d)
sanitize_pid=
cleanup() {
  # The background sanitizer build is its own process group (setsid): end all of it.
  [ -z "$sanitize_pid" ] || kill -- -"$sanitize_pid" 2>/dev/null || true
  rm -rf "$counts"
}
trap cleanup EXIT

phase setup
bash scripts/setup.sh

# The sanitizer build (g++, -O1, not Release): every target instrumented, asserts on.
phase "sanitize (start)"
cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DMASKLAB_SANITIZE=ON "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" >/dev/null
sanitize_shard='*/tests/cpp/test_training.cpp'
# The background's "time:" lines are printed when it is waited for: its CPU time is also counted
# in whichever phase below it ends during (the shell collects it then).
# The doctest shards split the suite by source file (-sf / -sfe on the same pattern), so each
# test case is in exactly one shard. The first is the file that trains models, about half of the
# suite's time under the sanitizers (the limits tests are most of the other half).
setsid nice -n 10 bash -c 'set -euo pipefail; source scripts/lib/phase-time.sh
  export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
  phase "sanitize build (background)"
  cmake --build build/sanitize -j2 --target masklab_tests masklab masklab_fuzz_replay
  phase "sanitize doctest (background)"
  shard=$1
  build/sanitize/masklab_tests --no-version=true -sf="$shard" >"$2/doctest-sanitize-1.txt" 2>&1 &
  first=$!
  build/sanitize/masklab_tests --no-version=true -sfe="$shard" >"$2/doctest-sanitize-2.txt" 2>&1 || { wait $first || true; exit 1; }
  wait $first
  phase "sanitize fuzz replay (background)"
  build/sanitize/masklab_fuzz_replay tests/fuzz/corpus tests/fuzz/regressions
  phase_end' sanitize "$sanitize_shard" "$counts" >"$counts/sanitize.log" 2>&1 &
sanitize_pid=$!

phase build
bash scripts/build.sh --tests

echo "test: C++ core (doctest)"
phase "doctest"
build/native/masklab_tests --no-version=true | tee "$counts/doctest.txt" | tail -n 3

# spec on the screen, TAP into a file for the counts.
node_tests() {
  local name=$1
  shift
  node --test --test-concurrency=2 --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$counts/$name.tap" "$@"
}

echo "test: wasm module, CLI and content (node --test tests/node/)"
phase "node tests"
node_tests node tests/node/

echo "test: site build (vite build -> dist/)"
phase "vite build"
npx vite build

echo "test: pages in headless Chromium (node --test tests/browser/)"
phase "browser tests"
# Two files at a time, except those that measure the main thread's CPU per task (the Train
# page's "no long task" check): beside another Chromium on two cores their figures are the
# neighbour's, so they run alone, after the rest.
measuring=(tests/browser/train.test.mjs)
shared=()
for file in tests/browser/*.test.mjs; do
  [[ " ${measuring[*]} " == *" $file "* ]] || shared+=("$file")
done
node_tests browser "${shared[@]}"

# The sanitizer build (g++, -O1): the doctest suite, a replay of every seed and saved finding of
# the fuzzers (tests/fuzz/) through each command (both run in the background, above), and the
# CLI's node tests against this CLI. Any report aborts the run (-fno-sanitize-recover); leaks are
# reported too.
echo "test: C++ core and CLI under AddressSanitizer + UndefinedBehaviorSanitizer (build/sanitize)"
phase "sanitize (wait)"
if ! wait "$sanitize_pid"; then
  sanitize_pid=
  cat "$counts/sanitize.log" "$counts"/doctest-sanitize-*.txt 2>/dev/null
  echo "test: the sanitizer build or one of its runs failed (build/sanitize)" >&2
  exit 1
fi
sanitize_pid=
grep '^time:' "$counts/sanitize.log"
# Each test case ran in exactly one of the two shards: their counts add up to the whole suite's.
doctest_cases() { sed -n 's/.*test cases: *\([0-9]*\) *|.*/\1/p' "$@"; }
sanitize_all=$(build/sanitize/masklab_tests --count --no-version=true | sed -n 's/.*passing the current filters: *//p')
sanitize_1=$(doctest_cases "$counts/doctest-sanitize-1.txt")
sanitize_2=$(doctest_cases "$counts/doctest-sanitize-2.txt")
tail -n 2 "$counts"/doctest-sanitize-*.txt
echo "test: sanitized doctest: $sanitize_1 + $sanitize_2 of $sanitize_all test cases"
if [ "$((sanitize_1 + sanitize_2))" != "$sanitize_all" ]; then
  echo "test: the sanitized doctest shards ran $((sanitize_1 + sanitize_2)) test cases, not $sanitize_all" >&2
  exit 1
fi
phase "sanitize CLI node tests"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 MASKLAB_CLI=build/sanitize/masklab \
  node_tests sanitize-cli tests/node/cli.test.mjs tests/node/readme.test.mjs tests/node/parity.test.mjs

phase "browser tests (alone)"
node --test --test-concurrency=1 --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$counts/browser-alone.tap" "${measuring[@]}"
phase_total

cpp=$(cat "$counts"/doctest*.txt | sed -n 's/.*test cases: *[0-9]* *| *\([0-9]*\) passed.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
node_pass=$(cat "$counts"/*.tap | awk '/^# pass [0-9]+$/ { s += $3 } END { print s + 0 }')
node_fail=$(cat "$counts"/*.tap | awk '/^# fail [0-9]+$/ { s += $3 } END { print s + 0 }')
echo "masklab: $((cpp + node_pass)) passed, ${node_fail} failed"
