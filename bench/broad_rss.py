#!/usr/bin/env python3
"""When a broad crawl's memory grows: VmRSS and the records written, once a second, through one
whole crawl of the broad test web (the run of bench_crawl.py --broad-whole: -w 1 -D web.test
--jsonl at the defaults, to its end).

A peak RSS alone says how much, not when; this says which part of the crawl makes it (a level
bringing many new hosts, the last level's replay) so that a change can aim at it.

Usage: broad_rss.py CRAWL TESTWEB [HOSTS [PAGES [EVERY]]]
  e.g. broad_rss.py build/cli/crawl build/tests/testweb 100000 10 1
Prints one line a sample (seconds, MiB, records) and the peak with the second it came at.
"""
import os
import subprocess
import sys
import tempfile
import time


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class LineCounter:
    """The lines of a file that grows, counted as they come: each sample reads only what was
    written since the last (a whole crawl writes some 200 MB of records)."""

    def __init__(self, path):
        self.file, self.lines = open(path, "rb"), 0

    def count(self):
        for chunk in iter(lambda: self.file.read(1 << 20), b""):
            self.lines += chunk.count(b"\n")
        return self.lines


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    crawl, testweb = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    hosts = sys.argv[3] if len(sys.argv) > 3 else "100000"
    pages = sys.argv[4] if len(sys.argv) > 4 else "10"
    every = float(sys.argv[5]) if len(sys.argv) > 5 else 1.0
    tmp = tempfile.mkdtemp(prefix="broad-rss-")
    web = subprocess.Popen([testweb, "serve", "--hosts", hosts, "--pages", pages, "--links", "10",
                            "--html-only", "--max-seconds", "1800"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ports = dict(web.stdout.readline().split() for _ in range(2))
    records = os.path.join(tmp, "records.jsonl")
    with open(records, "wb") as out:
        proc = subprocess.Popen([crawl, "-q", "--jsonl", "--dns-server",
                                 f"127.0.0.1:{ports['dns']}", "-w", "1", "-d", "1000000", "-D",
                                 "web.test", f"http://s0.web.test:{ports['http']}/"],
                                stdout=out, stderr=subprocess.DEVNULL)
        counter = LineCounter(records)
        start, peak, peak_at = time.time(), 0, 0.0
        while proc.poll() is None:
            time.sleep(every)
            kib = rss_kib(proc.pid)
            if kib is None:
                break
            at = time.time() - start
            if kib > peak:
                peak, peak_at = kib, at
            print(f"{at:7.1f} s {kib / 1024:8.1f} MiB {counter.count():9d} records",
                  flush=True)
        proc.wait()
    web.terminate()
    web.wait()
    print(f"exit {proc.returncode}, {time.time() - start:.1f} s; sampled peak {peak / 1024:.1f} "
          f"MiB at {peak_at:.0f} s; {counter.count()} records")
    counter.file.close()
    os.remove(records)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
