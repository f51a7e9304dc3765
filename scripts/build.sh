#!/usr/bin/env bash
# Configures (once) and builds into DIR (default build), warnings as errors.
# Usage: scripts/build.sh [DIR] [meson options...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
if [ -f "$dir/build.ninja" ]; then
  meson setup --reconfigure "$dir" -Dwerror=true "$@" >/dev/null
else
  meson setup "$dir" -Dwerror=true "$@" >/dev/null
fi
meson compile -C "$dir" >/dev/null
