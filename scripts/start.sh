#!/usr/bin/env bash
# Builds everything and serves the built site (dist/) on http://localhost:8000.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash scripts/build.sh
npx vite build

echo
echo "masklab is served at http://localhost:8000/ (Ctrl+C to stop)"
echo
exec npx vite preview --port 8000 --strictPort --host 127.0.0.1
