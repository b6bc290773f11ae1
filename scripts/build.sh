#!/usr/bin/env bash
# Builds both trees of the C++ core:
#   build/native (g++, Release): masklab CLI, masklab_tests, masklab_bench
#   build/wasm   (em++, Release): web/generated/masklab_{core,chat,doctor,train}.{mjs,wasm}
#   tokenizers   (node):          web/public/tokenizers/ from the set-up cache (scripts/chat/)
#   content      (node):          web/generated/content/ from content/exercises/*.yaml
# Incremental: re-running only rebuilds what changed. Does not install anything (see setup.sh).
# --tests (scripts/test.sh): natively only what the tests run: the CLI, masklab_tests and
# masklab_bench (tests/node/limits.test.mjs takes its limit cases from it); not the fuzz replay,
# which test.sh runs from its sanitizer tree.
set -euo pipefail
cd "$(dirname "$0")/.."

native_targets=(all)
if [ "${1:-}" = "--tests" ]; then native_targets=(masklab masklab_tests masklab_bench); fi
source scripts/lib/phase-time.sh

EMSCRIPTEN_TOOLCHAIN=/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake

echo "build: native -> build/native"
phase "build native"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j2 --target "${native_targets[@]}"

echo "build: wasm -> web/generated/masklab_{core,chat,doctor,train}.{mjs,wasm}"
phase "build wasm"
cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_TOOLCHAIN_FILE="$EMSCRIPTEN_TOOLCHAIN" >/dev/null
cmake --build build/wasm -j2

# The chat page's tokenizer files, from the set-up cache into web/public/ (copied to dist/ by Vite).
echo "build: tokenizer files -> web/public/tokenizers/"
phase "build tokenizer files"
node scripts/chat/stage-tokenizers.mjs

# Content last: the compiler checks every exercise's claims against the wasm core just built,
# so a content file and the core cannot disagree without the build saying where.
echo "build: content -> web/generated/content/"
phase "build content"
node scripts/content/build-content.mjs
phase_end
