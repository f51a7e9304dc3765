#!/usr/bin/env bash
# Branch coverage, file by file, of the unit and integration suites together (tests/README.md,
# Coverage). Builds build-cov/ with gcov counters, runs every test, prints gcovr's table of the
# project's C sources (not tests/, bench/ or subprojects/) and the files under 85%.
# Usage: scripts/coverage.sh [--report]   (--report: the table of the last run, run nothing)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gcovr >/dev/null || { apt-get update -qq && apt-get install -y -qq gcovr >/dev/null; }
dir=build-cov
[ -f "$dir/build.ninja" ] || meson setup "$dir" -Db_coverage=true >/dev/null
meson compile -C "$dir" >/dev/null
if [ "${1:-}" != "--report" ]; then
  find "$dir" -name '*.gcda' -delete # counts of this run alone
  meson test -C "$dir" --num-processes 2 >/dev/null ||
    echo "coverage: some tests failed ($dir/meson-logs/testlog.txt); the counts are of what ran" >&2
fi
filter=()
for module in core url seen parse fetch frontier crawl warc cluster cli; do
  filter+=(--filter "$module/")
done
gcovr -r . --object-directory "$dir" "${filter[@]}" --branches --exclude-unreachable-branches \
  --exclude-throw-branches --sort-percentage --json "$dir/coverage.json" --txt -
python3 - "$dir/coverage.json" <<'PY'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
low = []
for f in files:
    branches = [b for line in f["lines"] for b in line["branches"]]
    if branches:
        taken = sum(1 for b in branches if b["count"] > 0)
        if taken / len(branches) < 0.85:
            low.append((taken / len(branches), f["file"], taken, len(branches)))
for share, name, taken, total in sorted(low):
    print(f"under 85%: {name}: {taken} of {total} branches ({share:.0%})")
PY
