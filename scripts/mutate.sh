#!/usr/bin/env bash
# A mutation check: changes one piece of code by hand, builds, runs tests, and says whether any
# of them failed, as one should. The source file is put back however the run ends.
# Usage: scripts/mutate.sh FILE 'OLD TEXT' 'NEW TEXT' [TEST...]
#        scripts/mutate.sh --all [CATALOGUE]   every line of tests/mutations.tsv (or CATALOGUE)
#        scripts/mutate.sh --sample N [--seed S] [--out FILE] [FILES...]
#                                              N random mutants (scripts/mutants.py)
#   OLD TEXT must occur exactly once in FILE. TEST names are meson test names (url/url,
#   max_redirs-j1, ...); with none, the whole suite runs. Exit 0 when a test caught the mutant
#   (it failed), 1 when every test passed (the mutant survived: write a test), 2 on a usage error
#   or a mutant that does not build.
# Builds in build-mutant/, beside the usual build.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--sample" ]; then
  shift
  exec python3 scripts/mutants.py sample "$@"
fi
if [ "${1:-}" = "--all" ]; then
  catalogue=${2:-tests/mutations.tsv}
  caught=0 survived=0
  while IFS=$'\t' read -r file old new tests; do
    case "$file" in '#'* | '') continue ;; esac
    # shellcheck disable=SC2086
    "$0" "$file" "$old" "$new" $tests
    case $? in 0) caught=$((caught + 1)) ;; 1) survived=$((survived + 1)) ;; *) exit 2 ;; esac
  done <"$catalogue"
  echo "$caught caught, $survived survived"
  [ "$survived" -eq 0 ]
  exit
fi
[ $# -ge 3 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
file=$1 old=$2 new=$3
shift 3
backup=$(mktemp)
cp -p "$file" "$backup" || exit 2
# put back with a new mtime: with the old one (older than the mutant's object in build-mutant/),
# ninja would keep the mutant's object, and every later run would test that mutant as well
trap 'cp "$backup" "$file"; touch "$file"; rm -f "$backup"' EXIT
python3 - "$file" "$old" "$new" <<'PY' || exit 2
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f"mutate: '{old}' occurs {text.count(old)} times in {path}, not once")
open(path, "w").write(text.replace(old, new))
PY
[ -f build-mutant/build.ninja ] || meson setup build-mutant >/dev/null || exit 2
if ! meson compile -C build-mutant >/dev/null 2>&1; then
  echo "mutate: the mutant does not build" >&2
  exit 2
fi
if meson test -C build-mutant --num-processes 2 "$@" >/dev/null 2>&1; then
  echo "SURVIVED: $file: '$old' -> '$new'"
  exit 1
fi
failed=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["result"] not in ("OK", "SKIP"):
        print(r["name"].split(" / ")[-1], end=" ")
' build-mutant/meson-logs/testlog.json)
echo "caught: $file: '$old' -> '$new' by $failed"
