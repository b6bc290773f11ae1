#!/usr/bin/env bash
# Builds both trees of the C++ core:
#   build/native (g++, Release): masklab CLI, masklab_tests, masklab_bench
#   build/wasm   (em++, Release): web/generated/masklab_{core,chat,doctor,train}.{mjs,wasm}
#   tokenizers   (node):          web/public/tokenizers/ from the set-up cache (scripts/chat/)
#   content      (node):          web/generated/content/ from content/exercises/*.yaml
# Incremental: re-running only rebuilds what changed. Does not install anything (see setup.sh).
# The native tree builds beside the wasm tree (its output is shown when it ends).
# --tests (scripts/test.sh): natively only what the tests run: the CLI, masklab_tests and
# masklab_bench (tests/node/limits.test.mjs takes its limit cases from it); not the fuzz replay,
# which test.sh runs from its sanitizer tree.
set -euo pipefail
cd "$(dirname "$0")/.."

native_targets=(all)
if [ "${1:-}" = "--tests" ]; then native_targets=(masklab masklab_tests masklab_bench); fi
source scripts/lib/phase-time.sh

EMSCRIPTEN_TOOLCHAIN=/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake

# The native and the wasm trees build side by side: each is a -j2 build, but each has stretches
# where one core waits (the last unity batch, the links, emcc's single-threaded binaryen passes),
# which the other tree fills (issue 11). The native build's output goes to a file, shown in one
# piece when it ends, so the two builds' lines do not interleave.
native_log=$(mktemp)
native_pid=
cleanup_native() {
  # Its own process group (setsid), so a failed wasm build or Ctrl-C ends all of it.
  [ -z "$native_pid" ] || kill -- -"$native_pid" 2>/dev/null || true
  rm -f "$native_log" "$native_log.cpu"
}
trap cleanup_native EXIT
setsid bash -c 'set -euo pipefail; source scripts/lib/phase-time.sh
  cpu_file=$1
  shift
  trap "phase_record_cpu \"\$cpu_file\"" EXIT
  phase "build native"
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j2 --target "$@"
  phase_end' native "$native_log.cpu" "${native_targets[@]}" >"$native_log" 2>&1 &
native_pid=$!
phase_background "$native_pid" "$native_log.cpu"

phase "build wasm"
echo "build: wasm -> web/generated/masklab_{core,chat,doctor,train}.{mjs,wasm} (native -> build/native beside it)"
cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE="$EMSCRIPTEN_TOOLCHAIN" >/dev/null
cmake --build build/wasm -j2

# The chat page's tokenizer files, from the set-up cache into web/public/ (copied to dist/ by Vite).
phase "build tokenizer files"
echo "build: tokenizer files -> web/public/tokenizers/"
node scripts/chat/stage-tokenizers.mjs

# Content last: the compiler checks every exercise's claims against the wasm core just built,
# so a content file and the core cannot disagree without the build saying where.
phase "build content"
echo "build: content -> web/generated/content/"
node scripts/content/build-content.mjs
phase_end

# Its own "time:" line (in its log) has its wall and CPU time (not counted again in the phase
# above that it ended during).
native_status=0
wait "$native_pid" || native_status=$?
native_pid=
echo "build: native -> build/native"
cat "$native_log"
if [ "$native_status" != 0 ]; then
  echo "build: the native build failed (build/native, exit status $native_status)" >&2
  exit 1
fi
