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
# quiet when it works; the compiler's messages when it does not
if ! log=$(meson compile -C "$dir" 2>&1); then
  printf '%s\n' "$log" >&2
  exit 1
fi
