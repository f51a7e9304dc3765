#!/usr/bin/env python3
"""The CPU --check-fragments adds (issue: link checker): the same crawl of a documentation-like
site with and without it, alternated, crawl's own CPU time (user + system, from wait4) compared
as a ratio of medians. The site: PAGES pages, each with LINKS ids (a heading and a paragraph
each) and LINKS links to fragments of other pages (2 in 100 of them broken), served from a
threaded Python server on loopback (its CPU is not crawl's, and is not counted).
With --instructions, each run goes under valgrind's callgrind instead and the instructions crawl
executed are compared: the same count run after run whatever else the machine does (seconds on
a shared machine vary by a tenth). They leave out the kernel's time, which the option does not
add to, so their ratio is at least the ratio of CPU time.
Usage: bench/bench_fragments.py [--instructions] CRAWL [PAGES] [ROUNDS] [LINKS]"""
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "integration"))
import harness  # noqa: E402

args = sys.argv[1:]
instructions = bool(args) and args[0] == "--instructions"
if instructions:
    args = args[1:]
crawl = os.path.abspath(args[0])
pages = int(args[1]) if len(args) > 1 else 2000
rounds = int(args[2]) if len(args) > 2 else 5
per_page = int(args[3]) if len(args) > 3 else 40


def page(i):
    ids = "".join(f'<h2 id="sec-{k}">Section {k}</h2><p>{"text " * 40}</p>' for k in range(per_page))
    links = "".join(f'<a href="/p{(i * 7 + k) % pages}#sec-{k if (i + k) % 50 else 99}">l</a>'
                    for k in range(per_page))
    return f"<html><body>{ids}{links}<a href=\"/p{(i + 1) % pages}\">next</a></body></html>"


bodies = {f"/p{i}": page(i) for i in range(pages)}
site = harness.Site(["docs.test"], lambda host, path, headers:
                    (200, {}, bodies[path]) if path in bodies else None)


def callgrind_total(profile):
    with open(profile) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise SystemExit(f"no total in {profile}")


cost = {"without": [], "with": []}
try:
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(rounds):
            for name, extra in (("without", []), ("with", ["--check-fragments"])):
                command = [crawl, "--no-progress", *site.resolve(), "-w", "0", "-d", "inf", *extra,
                           site.url("docs.test", "/p0")]
                profile = os.path.join(tmp, "callgrind.out")
                if instructions:
                    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}",
                               *command]
                with tempfile.TemporaryFile() as out:
                    proc = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
                    _, status, usage = os.wait4(proc.pid, 0)
                if status != (8 << 8 if extra else 0):  # exit 8: the broken fragments found
                    raise SystemExit(f"{' '.join(command)}: wait status {status}")
                cost[name].append(callgrind_total(profile) if instructions
                                  else usage.ru_utime + usage.ru_stime)
finally:
    site.stop()
without, with_ = statistics.median(cost["without"]), statistics.median(cost["with"])
what, unit = ("instructions", "") if instructions else ("CPU", " s")
show = (lambda v: f"{v:,.0f}") if instructions else (lambda v: f"{v:.3f}")
print(f"{pages} pages of {per_page} ids and fragment links, {rounds} rounds: {what} without "
      f"{show(without)}{unit}, with --check-fragments {show(with_)}{unit} (median): "
      f"x{with_ / without:.3f}")
