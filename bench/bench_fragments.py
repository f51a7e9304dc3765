#!/usr/bin/env python3
"""The CPU --check-fragments adds (issue: link checker): the same crawl of a documentation-like
site with and without it, alternated, crawl's own CPU time (user + system, from wait4) compared
as a ratio of medians. The site: PAGES pages, each with LINKS ids (a heading and a paragraph
each) and LINKS links to fragments of other pages (2 in 100 of them broken), served from a
threaded Python server on loopback (its CPU is not crawl's, and is not counted).
Usage: bench/bench_fragments.py CRAWL [PAGES] [ROUNDS] [LINKS]"""
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "integration"))
import harness  # noqa: E402

crawl = os.path.abspath(sys.argv[1])
pages = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
per_page = int(sys.argv[4]) if len(sys.argv) > 4 else 40


def page(i):
    ids = "".join(f'<h2 id="sec-{k}">Section {k}</h2><p>{"text " * 40}</p>' for k in range(per_page))
    links = "".join(f'<a href="/p{(i * 7 + k) % pages}#sec-{k if (i + k) % 50 else 99}">l</a>'
                    for k in range(per_page))
    return f"<html><body>{ids}{links}<a href=\"/p{(i + 1) % pages}\">next</a></body></html>"


bodies = {f"/p{i}": page(i) for i in range(pages)}
site = harness.Site(["docs.test"], lambda host, path, headers:
                    (200, {}, bodies[path]) if path in bodies else None)
cpu = {"without": [], "with": []}
try:
    for _ in range(rounds):
        for name, extra in (("without", []), ("with", ["--check-fragments"])):
            with tempfile.TemporaryFile() as out:
                proc = subprocess.Popen([crawl, "--no-progress", *site.resolve(), "-w", "0",
                                         "-d", "inf", *extra, site.url("docs.test", "/p0")],
                                        stdout=out, stderr=subprocess.DEVNULL)
                _, status, usage = os.wait4(proc.pid, 0)
            cpu[name].append(usage.ru_utime + usage.ru_stime)
finally:
    site.stop()
without, with_ = statistics.median(cpu["without"]), statistics.median(cpu["with"])
print(f"{pages} pages of {per_page} ids and fragment links, {rounds} rounds: CPU without {without:.3f} s, with --check-fragments "
      f"{with_:.3f} s (median): x{with_ / without:.3f}")
