#!/usr/bin/env bash
# A release build guided by a profile (gcc's -fprofile-generate, then -fprofile-use): crawl is
# built instrumented, crawls three webs of the loopback test web (plain HTML pages with 30 links;
# the same links in the markup of a documentation site, --rich-markup; and the test web of
# redirects, 404s, style sheets and robots.txt), and is built again from what those crawls
# counted. The compiler then lays out and inlines for the paths a crawl takes; the bundled
# libxml2's tokenizer gains most. It links with -flto as well, so that libxml2's tokenizer and its
# dictionary (two files) are optimized as one: 5-8% less CPU a page again (measured on the html
# web and the Python manual). README, Install, has the figures.
# Usage: scripts/build-pgo.sh DIR [meson options...]   (then: meson install -C DIR)
# The options apply to the final build; the instrumented one builds the test web too, whatever
# -Dtests says.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/build-pgo.sh DIR [meson options...]}
shift
if ! "${CC:-cc}" --version 2>/dev/null | grep -qi -e gcc -e 'free software foundation'; then
  echo "scripts/build-pgo.sh: needs gcc (CC=${CC:-cc} is not); a build without a profile:" \
    "meson setup $dir --buildtype=release" >&2
  exit 1
fi
quiet() { # the command's messages only when it fails
  local log
  if ! log=$("$@" 2>&1); then
    printf '%s\n' "$log" >&2
    exit 1
  fi
}
if [ -f "$dir/build.ninja" ]; then
  # meson configure, not setup --reconfigure: meson 1.0 (Debian 12's) keeps the b_pgo of the last
  # build on a reconfigure, so a second run of this script built without a profile, silently
  quiet meson configure "$dir" --buildtype=release -Dwerror=true -Db_pgo=generate -Db_lto=true \
    "$@" -Dtests=true
  # and setup --reconfigure, so that the targets -Dtests=true adds are known before they are built
  quiet meson setup --reconfigure "$dir"
else
  quiet meson setup "$dir" --buildtype=release -Dwerror=true -Db_pgo=generate -Db_lto=true "$@" \
    -Dtests=true
fi
find "$dir" -name '*.gcda' -delete # counts of an earlier build would not match this one
quiet meson compile -C "$dir" cli/crawl:executable tests/testweb:executable

tmp=$(mktemp -d)
web=
trap 'if [ -n "$web" ]; then kill "$web" 2>/dev/null; wait "$web" 2>/dev/null; fi; rm -rf "$tmp"' EXIT
train() { # train WEB_OPTIONS...: serves that web, crawls it whole at -j 2, stops it
  : >"$tmp/ports" # before the web starts: its child opens the file when it runs, maybe later
  "$dir/tests/testweb" serve "$@" --max-seconds 120 >"$tmp/ports" 2>/dev/null &
  web=$!
  while [ "$(wc -l <"$tmp/ports")" -lt 2 ]; do # its ports, once it listens; however long
    kill -0 "$web" 2>/dev/null || { echo "build-pgo: the test web ended before it listened" >&2; exit 1; }
    sleep 0.05
  done
  local http dns
  http=$(awk '$1=="http"{print $2}' "$tmp/ports")
  dns=$(awk '$1=="dns"{print $2}' "$tmp/ports")
  "$dir/cli/crawl" -q -j 2 -w 0 -d 1000 -D web.test --dns-server "127.0.0.1:$dns" \
    "http://s0.web.test:$http/" >/dev/null
  kill "$web"
  wait "$web" 2>/dev/null || true
  web=
}
train --hosts 20 --pages 200 --links 30 --html-only
train --hosts 20 --pages 100 --links 30 --html-only --rich-markup --page-bytes 32768
train --hosts 20 --pages 200 --links 8
if [ ! -f "$dir/cli/crawl.p/main.c.gcda" ]; then
  echo "scripts/build-pgo.sh: the training crawls wrote no profile in $dir" >&2
  exit 1
fi

# a file the training never ran has no profile: it is built as before, not an error
quiet meson configure "$dir" -Db_pgo=use "$@"
quiet meson compile -C "$dir"
