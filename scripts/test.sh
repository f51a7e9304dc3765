#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (unit and integration).
# With --sanitize the build and the run use AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --tests
dir=build
opts=()
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  opts=(-Db_sanitize=address,undefined -Db_lundef=false)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fi
bash scripts/build.sh "$dir" "${opts[@]}"
status=0
meson test -C "$dir" --print-errorlogs --num-processes 2 || status=$?
# one closing line that any reader of the log understands
python3 - "$dir/meson-logs/testlog.json" <<'PY'
import json, sys
results = [json.loads(line)["result"] for line in open(sys.argv[1]) if line.strip()]
passed = sum(r == "OK" for r in results)
skipped = sum(r == "SKIP" for r in results)
print(f"{passed} passed, {len(results) - passed - skipped} failed, {skipped} skipped")
PY
exit $status
