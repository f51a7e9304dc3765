#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for SECONDS (default 30),
# starting from its seed corpus in tests/fuzz/corpus/. A finding fails the run and leaves the
# crashing input in build-fuzz/findings/.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(url url_fast robots html css js sitemap seenfile)
bash scripts/install-deps.sh
command -v clang >/dev/null || apt-get install -y -qq clang >/dev/null
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang meson setup build-fuzz -Dfuzz=true -Dtests=false -Dwerror=true \
    -Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link >/dev/null
fi
meson compile -C build-fuzz >/dev/null
mkdir -p build-fuzz/findings
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  cp tests/fuzz/corpus/"$t"/* "$work"/
  echo "== fuzz_$t for ${seconds}s"
  status=0
  build-fuzz/tests/fuzz/fuzz_"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=build-fuzz/findings/"$t"- -print_final_stats=1 "$work" \
    >build-fuzz/fuzz_"$t".log 2>&1 || status=$?
  grep -E "^(stat::number_of_executed_units|stat::average_exec_per_sec|==[0-9]+==ERROR|SUMMARY|not a fixed point|printed form|differ|as a base|result codes|links differ|a link of)|Test unit written" \
    build-fuzz/fuzz_"$t".log || true
  rm -rf "$work"
  if [ "$status" -ne 0 ]; then
    echo "fuzz_$t found a problem (exit $status): see build-fuzz/findings/" >&2
    exit 1
  fi
done
