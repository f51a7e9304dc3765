#!/usr/bin/env python3
"""The mutation catalogue still applies: each line of tests/mutations.tsv names a file that
exists, text that occurs in it exactly once (as scripts/mutate.sh needs, which takes the fields
as they are written), a change to it, and tests the build defines. A line whose text was edited
away would stop `mutate.sh --all` at it, and a test renamed would make meson refuse to run and
the mutant look caught.

Usage: check_catalogue.py SOURCE_ROOT BUILD_ROOT"""
import json
import os
import sys


def problems(source, build):
    names = {t["name"] for t in json.load(open(os.path.join(build, "meson-info",
                                                           "intro-tests.json")))}
    texts = {}
    found = []
    with open(os.path.join(source, "tests", "mutations.tsv")) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 4:
                found.append(f"line {number}: {len(fields)} fields, not 4")
                continue
            path, old, new, tests = fields
            if path not in texts:
                try:
                    with open(os.path.join(source, path)) as src:
                        texts[path] = src.read()
                except OSError as e:
                    found.append(f"line {number}: {path}: {e.strerror}")
                    texts[path] = None
            if texts[path] is None:
                continue
            count = texts[path].count(old)
            if count != 1:
                found.append(f"line {number}: {path}: the text occurs {count} times: {old.strip()}")
            if old == new:
                found.append(f"line {number}: no change")
            wanted = tests.split()
            if not wanted:
                found.append(f"line {number}: no test named")
            found += [f"line {number}: no test '{t}' in the build" for t in wanted
                      if t not in names]
    return found


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[-1])
    found = problems(sys.argv[1], sys.argv[2])
    for p in found:
        print(p)
    print(f"{len(found)} problems" if found else "every line applies")
    sys.exit(1 if found else 0)
