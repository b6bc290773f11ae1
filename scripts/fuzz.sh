#!/usr/bin/env bash
# npm run fuzz [SECONDS]: runs every libFuzzer target (tests/fuzz/) for SECONDS each (default 60),
# under AddressSanitizer + UndefinedBehaviorSanitizer, and prints what each one did.
#
# Targets: fuzz_<command> for every run_command command (MASKLAB_FUZZ_COMMANDS in CMakeLists.txt),
# fuzz_tensors for the typed-array path, and any masklab_fuzz_function() target. Each starts from
# the seed corpus (tests/fuzz/corpus/<command>, shared/, and every saved finding in
# tests/fuzz/regressions/) copied into build/fuzz/corpus/<target>, which keeps what it learns
# between runs; tests/fuzz/masklab.dict gives it the field names. An input that takes over
# 60 s is a finding too: every command must refuse oversized work before doing it. (Instrumented
# code runs ~100x slower than a release build: the largest answer a 100-byte request may ask for,
# collate padded to max_length 1,000,000, takes ~0.3 s natively and ~30 s here.)
#
# A finding is saved as build/fuzz/findings/<target>/crash-… (or timeout-…, oom-…); the script
# exits 1. Turn each into a regression: copy it to tests/fuzz/regressions/<what-it-was>, fix it,
# and add a doctest named after it. npm test replays tests/fuzz/ under the sanitizers.
#
# Needs clang-14 and its sanitizer/libFuzzer runtime: scripts/setup.sh --fuzz installs them.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: npm run fuzz [SECONDS per target, default 60]" >&2
  exit 2
fi

bash scripts/setup.sh --fuzz
echo "fuzz: building build/fuzz (clang-14, libFuzzer, ASan + UBSan)"
cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMASKLAB_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 >/dev/null
targets=$(cmake --build build/fuzz --target help | sed -n 's/^\.\.\. \(fuzz_[a-z_]*\)$/\1/p' | sort)
# shellcheck disable=SC2086
cmake --build build/fuzz -j2 --target $targets >/dev/null

commands=$(sed -n 's/^ *set(MASKLAB_FUZZ_COMMANDS \(.*\))$/\1/p' CMakeLists.txt)
printf '\nfuzz: %s s per target\n%-18s %12s %10s %8s %8s  %s\n' "$seconds" target runs "runs/s" cov corpus result
found=0
for target in $targets; do
  name=${target#fuzz_}
  corpus=build/fuzz/corpus/$name
  findings=build/fuzz/findings/$name
  mkdir -p "$corpus" "$findings"
  seeds=(tests/fuzz/corpus/shared tests/fuzz/regressions)
  [[ " $commands " == *" $name "* ]] && seeds+=("tests/fuzz/corpus/$name")
  for dir in "${seeds[@]}"; do [ -d "$dir" ] && cp -n "$dir"/* "$corpus"/ 2>/dev/null || true; done
  log=build/fuzz/$name.log
  status=0
  ASAN_OPTIONS=detect_leaks=1 "build/fuzz/$target" "$corpus" -dict=tests/fuzz/masklab.dict \
    -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -max_len=16384 \
    -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$( (grep -o 'cov: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
  size=$(find "$corpus" -type f | wc -l)
  if [ "$status" -eq 0 ]; then
    result=ok
  else
    result="FINDING (exit $status): $(ls -t "$findings" | head -1), log $log"
    found=1
  fi
  printf '%-18s %12s %10s %8s %8s  %s\n' "$target" "${runs:-?}" "${speed:-?}" "${cov:-?}" "$size" "$result"
done
[ "$found" -eq 0 ] || { echo "fuzz: findings above; see scripts/fuzz.sh for what to do with them" >&2; exit 1; }
