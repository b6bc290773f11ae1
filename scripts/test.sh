#!/usr/bin/env bash
# The whole test suite; fails on the first failure of a stage (a stage's parallel parts all run
# to the end and each one's output is shown):
#   C++ doctest + node tests of the wasm module, CLI and content, beside the site build + headless
#   Chromium -> the same C++ suite, a replay of the fuzz corpus and the CLI's node tests under
#   AddressSanitizer + UndefinedBehaviorSanitizer (in the background from the start) -> the
#   Train page's browser tests, alone.
# Ends with one plain line "masklab: N passed, 0 failed" summing the three runners' counts.
#
# Time (issue 11: about 10 minutes from a fresh clone on a 2-core machine). Each phase prints one
# "time:" line: wall time, CPU time (user+sys) and the load average, so a slow run says where.
# Two cores stay busy only if something is always ready to run, so the work runs side by side
# wherever it does not depend on each other:
# - Everything under the sanitizers needs nothing from scripts/build.sh (but the wasm modules,
#   for the CLI's parity tests), so the sanitizer tree (build/sanitize) is compiled, and its
#   doctest suite, fuzz replay and CLI node tests run, in the background from the start, at low
#   priority: they take the cores the other steps leave idle (test runs and Chromium mostly
#   wait). The doctest suite runs there as two processes, each on its own half of the test files
#   (printed, and checked to add up to the whole suite). Its output is shown when it is waited
#   for (all of it if it failed).
# - scripts/build.sh builds the native and the wasm trees side by side; natively the core and the
#   doctest files are compiled in unity batches (CMakeLists.txt), and only the targets the tests
#   run (not the fuzz replay).
# - The doctest suite and the node tests run beside the site build and the browser tests; node
#   and browser test files run two at a time each (--test-concurrency=2; each file has its own
#   temp dirs, server port and Chromium), since they mostly wait on a child process or on
#   Chromium; the Train page's file, which measures main-thread CPU per task, runs alone after
#   them, when the background work is over.
# - Each doctest suite runs once (ctest used to run the native one a second time).
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
# The background's "time:" lines are printed when it is waited for; its CPU time is not counted
# again in the phase below that it ends during (phase_background), only in the total.
# The doctest shards split the suite by source file (-sf / -sfe on the same pattern), so each
# test case is in exactly one shard. The first is the file that trains models, about half of the
# suite's time under the sanitizers (the limits tests are most of the other half); it runs in a
# lane of its own, while the other lane runs the second shard, the fuzz replay and then, once
# scripts/build.sh has built the wasm modules ($counts/built: parity.test.mjs compares the CLI
# with them), the CLI's node tests against the sanitized CLI.
setsid nice -n 10 bash -c 'set -euo pipefail; source scripts/lib/phase-time.sh
  export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
  shard=$1 counts=$2
  trap "phase_record_cpu \"\$counts/sanitize.cpu\"" EXIT
  # The doctest suite first: its first shard, the longest run, starts while the CLI and the
  # fuzz replay driver are compiled.
  phase "sanitize build (background)"
  cmake --build build/sanitize -j2 --target masklab_tests
  phase_end
  (
    source scripts/lib/phase-time.sh
    trap "phase_record_cpu \"\$counts/sanitize-1.cpu\"" EXIT
    phase "sanitize doctest 1/2 (background)"
    build/sanitize/masklab_tests --no-version=true -sf="$shard" >"$counts/doctest-sanitize-1.txt" 2>&1
    phase_end
  ) &
  first=$!
  phase_background $first "$counts/sanitize-1.cpu"
  fail() { wait $first || true; exit 1; }
  phase "sanitize build CLI, fuzz replay (background)"
  cmake --build build/sanitize -j2 --target masklab masklab_fuzz_replay || fail
  phase "sanitize doctest 2/2 (background)"
  build/sanitize/masklab_tests --no-version=true -sfe="$shard" >"$counts/doctest-sanitize-2.txt" 2>&1 || fail
  phase "sanitize fuzz replay (background)"
  build/sanitize/masklab_fuzz_replay tests/fuzz/corpus tests/fuzz/regressions || fail
  phase "sanitize CLI tests (background)"
  until [ -e "$counts/built" ]; do sleep 1; done
  MASKLAB_CLI=build/sanitize/masklab node --test --test-concurrency=2 \
    --test-reporter=spec --test-reporter-destination="$counts/sanitize-cli.txt" \
    --test-reporter=tap --test-reporter-destination="$counts/sanitize-cli.tap" \
    tests/node/cli.test.mjs tests/node/readme.test.mjs tests/node/parity.test.mjs || fail
  phase_end
  wait $first' sanitize "$sanitize_shard" "$counts" >"$counts/sanitize.log" 2>&1 &
sanitize_pid=$!
phase_background "$sanitize_pid" "$counts/sanitize.cpu"

phase build
bash scripts/build.sh --tests
touch "$counts/built"

# spec on the screen, TAP into a file for the counts.
node_tests() {
  local name=$1
  shift
  node --test --test-concurrency=2 --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$counts/$name.tap" "$@"
}

# The two kinds of test run side by side (issue 11): the C++ suite and the node tests (which
# need the native tree) beside the site build and the browser tests (which need the wasm
# modules and content). Each side mostly waits on its children (a CLI run, Chromium), so
# together they keep both cores busy. Each side prints its own "time:" lines; the browser side
# streams its output, the node side's is shown in one piece after it. Both always run to the
# end, and a failure in either fails the run.
# Two browser files at a time, except those that measure the main thread's CPU per task (the
# Train page's "no long task" check): beside another Chromium on two cores their figures are
# the neighbour's, so they run alone, at the end.
measuring=(tests/browser/train.test.mjs)
shared=()
for file in tests/browser/*.test.mjs; do
  [[ " ${measuring[*]} " == *" $file "* ]] || shared+=("$file")
done
phase "node + browser tests (together)"
(
  source scripts/lib/phase-time.sh
  phase "doctest"
  echo "test: C++ core (doctest)"
  build/native/masklab_tests --no-version=true | tee "$counts/doctest.txt" | tail -n 3
  phase "node tests"
  echo "test: wasm module, CLI and content (node --test tests/node/)"
  node_tests node tests/node/
  phase_end
) >"$counts/node-side.txt" 2>&1 &
node_side=$!
(
  source scripts/lib/phase-time.sh
  phase "vite build"
  echo "test: site build (vite build -> dist/)"
  npx vite build
  phase "browser tests"
  echo "test: pages in headless Chromium (node --test tests/browser/)"
  node_tests browser "${shared[@]}"
  phase_end
) &
browser_side=$!
browser_status=0
wait "$browser_side" || browser_status=$?
node_status=0
wait "$node_side" || node_status=$?
phase_end
echo "test: (ran beside the browser tests)"
cat "$counts/node-side.txt"
[ "$node_status" = 0 ] || echo "test: the C++ suite or a node test failed (above)" >&2
[ "$browser_status" = 0 ] || echo "test: the site build or a browser test failed (further above)" >&2
[ "$node_status" = 0 ] && [ "$browser_status" = 0 ] || exit 1

# The sanitizer build (g++, -O1): the doctest suite, a replay of every seed and saved finding of
# the fuzzers (tests/fuzz/), and the CLI's node tests against this CLI, all run in the
# background (above). Any report aborts the run (-fno-sanitize-recover); leaks are reported too.
phase "sanitize (wait)"
echo "test: C++ core and CLI under AddressSanitizer + UndefinedBehaviorSanitizer (build/sanitize)"
if ! wait "$sanitize_pid"; then
  sanitize_pid=
  cat "$counts/sanitize.log" "$counts"/doctest-sanitize-*.txt "$counts/sanitize-cli.txt" 2>/dev/null
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
echo "test: the CLI's node tests against the sanitized CLI (MASKLAB_CLI=build/sanitize/masklab)"
cat "$counts/sanitize-cli.txt"

phase "browser tests (alone)"
node --test --test-concurrency=1 --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$counts/browser-alone.tap" "${measuring[@]}"
phase_total

cpp=$(cat "$counts"/doctest*.txt | sed -n 's/.*test cases: *[0-9]* *| *\([0-9]*\) passed.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
node_pass=$(cat "$counts"/*.tap | awk '/^# pass [0-9]+$/ { s += $3 } END { print s + 0 }')
node_fail=$(cat "$counts"/*.tap | awk '/^# fail [0-9]+$/ { s += $3 } END { print s + 0 }')
echo "masklab: $((cpp + node_pass)) passed, ${node_fail} failed"
