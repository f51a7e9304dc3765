#!/usr/bin/env bash
# The main job: installs what is missing, builds, serves the bundled demo web on loopback
# and crawls it, printing every URL found. Extra arguments go to crawl.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh build
tmp=$(mktemp -d)
trap 'kill "$web" 2>/dev/null; wait "$web" 2>/dev/null; rm -rf "$tmp"' EXIT
# the file exists before the web starts: the shell opens a background command's output in the
# child, which may run after the loop below first reads it
: >"$tmp/ports"
# the demo web: 5 hosts of 40 pages under demo.test, with robots.txt, redirects and 404s
build/tests/testweb serve --hosts 5 --pages 40 --links 6 --domain demo.test \
  --max-seconds 300 >"$tmp/ports" 2>/dev/null &
web=$!
# its two ports are written once it listens: wait for them, however slow the machine, as long as
# the web runs (it stops itself after --max-seconds)
while [ "$(wc -l <"$tmp/ports")" -lt 2 ]; do
  kill -0 "$web" 2>/dev/null || { echo "demo: the test web ended before it listened" >&2; exit 1; }
  sleep 0.05
done
http=$(awk '$1=="http"{print $2}' "$tmp/ports")
dns=$(awk '$1=="dns"{print $2}' "$tmp/ports")
build/cli/crawl --dns-server "127.0.0.1:$dns" --delay 0.05 --depth 10 "$@" "http://s0.demo.test:$http/"
