#!/usr/bin/env bash
# Installs the benchmark peers (nginx, wget2, Scrapy, spider-rs, wrk, time), builds, and runs the
# benchmarks: crawl against its peers on nginx, crawl's polite and queue-memory runs, the seen
# filters, links through one Redis, and a whole crawl through Redis. Run as root (the peer
# benchmark gives each crawler its own /etc/hosts).
# Usage: bench/run.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --bench
# crawl as the README's Install builds it (release, guided by a profile), the test web and the
# floors with it
bash scripts/build-pgo.sh build-release
b=build-release
# spider-rs ships its engine as a prebuilt native module in a second npm package
spider=build/peers
if [ ! -d "$spider/node_modules/@spider-rs/spider-rs-linux-x64-gnu" ]; then
  mkdir -p "$spider"
  npm install --prefix "$spider" --no-audit --no-fund --silent \
    @spider-rs/spider-rs@0.0.157 @spider-rs/spider-rs-linux-x64-gnu@0.0.157 >/dev/null
fi
python3 bench/bench_peers.py $b/cli/crawl $b/tests/testweb $b/bench/bench_floor \
  --spider "$spider" "$@"
echo
python3 bench/bench_crawl.py $b/cli/crawl $b/tests/testweb "$@"
echo
if [ "${1:-}" = "--quick" ]; then
  $b/bench/bench_seen 1000000
  echo
  $b/bench/bench_cluster 200000
else
  $b/bench/bench_seen 10000000
  echo
  $b/bench/bench_cluster 1000000
fi
echo
python3 bench/bench_cluster_crawl.py $b/cli/crawl $b/tests/testweb "$@"
