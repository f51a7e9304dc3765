#!/usr/bin/env bash
# Installs the benchmark peers (wget2, wrk, time), builds, and runs the crawl benchmarks.
# Usage: bench/run.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --bench
bash scripts/build.sh build
python3 bench/bench_crawl.py build/cli/crawl build/tests/testweb "$@"
echo
if [ "${1:-}" = "--quick" ]; then
  build/bench/bench_seen 1000000
else
  build/bench/bench_seen 10000000
fi
