#!/usr/bin/env bash
# Installs the Debian 12 packages crawl needs to build, test and benchmark; skips what is there.
set -euo pipefail
# what crawl needs to build and run, and the demo with it (its test web is built with the tests'
# cmocka); --tests adds what only the tests use, --bench what the benchmarks use
packages=(meson ninja-build gcc pkg-config python3
  libcurl4-openssl-dev libc-ares-dev libpsl-dev libidn2-dev libxxhash-dev libcmocka-dev zlib1g-dev
  libssl-dev libhiredis-dev)
tests=(redis-server clang-format tmux openssl nghttp2-server brotli zstd nodejs tinyproxy-bin microsocks
  iproute2 util-linux nginx faketime)
case "${1:-}" in
  --tests) packages+=("${tests[@]}") ;;
  --bench) packages+=("${tests[@]}" wget2 time wrk python3-scrapy python3-doc) ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ "${1:-}" = "" ] && exit 0
# Debian's nodejs comes without npm (its npm is a package of its own); other builds bring it along.
# The tests read --warc files with webrecorder's warcio, an npm package.
if ! command -v npm >/dev/null; then
  apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
# With --tests: warcio goes beside the sources (.deps/, ignored by git), so the tests themselves
# need no registry; tests/integration/harness.py reads it from there. Its version is the
# tests'.
warcio_version=2.4.11
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "--tests" ] && [ ! -f "$root/.deps/npm-warcio/node_modules/warcio/package.json" ]; then
  npm install --no-audit --no-fund --silent --prefix "$root/.deps/npm-warcio" \
    "warcio@$warcio_version" >/dev/null
fi
