#!/usr/bin/env bash
# Installs the benchmark peers (wget2, wrk, time), builds, and runs the crawl benchmarks.
# Usage: bench/run.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --bench
bash scripts/build.sh build
python3 bench/bench_crawl.py build/cli/crawl build/tests/testweb "$@"
