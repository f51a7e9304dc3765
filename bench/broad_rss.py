#!/usr/bin/env python3
"""When a broad crawl's memory grows: VmRSS and the records written, once a second, through one
whole crawl of the broad test web (the run of bench_crawl.py --broad-whole: -w 1 -D web.test
--jsonl at the defaults, to its end).

A peak RSS alone says how much, not when; this says which part of the crawl makes it (a level
bringing many new hosts, the last level's replay) so that a change can aim at it.

With --scrapy SECONDS, Scrapy then crawls a fresh copy of the same web as bench_crawl.py --broad
runs it (bench/peers/scrapy_broad.py: the same politeness, robots.txt obeyed) for SECONDS, its
VmRSS sampled the same way, and is stopped by SIGINT. Scrapy needs hours for the whole web, so
its peak over the whole crawl is not measured; its highest sample is a floor of that peak, and
crawl's peak over its whole crawl divided by that sample bounds crawl's share of Scrapy's peak
from above.

Usage: broad_rss.py CRAWL TESTWEB [HOSTS [PAGES [EVERY]]] [--scrapy SECONDS]
  e.g. broad_rss.py build/cli/crawl build/tests/testweb 100000 10 1 --scrapy 600
Prints one line a sample (seconds, MiB, records or pages) and the peak with the second it came at.
"""
import os
import shutil
import signal
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
    written since the last (a whole crawl writes some 200 MB of records). With skip, a line
    holding those bytes is not counted (it may hold them once at most)."""

    def __init__(self, path, skip=None):
        self.file, self.lines, self.skip, self.tail = open(path, "rb"), 0, skip, b""

    def count(self):
        for chunk in iter(lambda: self.file.read(1 << 20), b""):
            text = self.tail + chunk
            cut = text.rfind(b"\n") + 1  # whole lines only: a skip is never cut in two
            done, self.tail = text[:cut], text[cut:]
            self.lines += done.count(b"\n") - (done.count(self.skip) if self.skip else 0)
        return self.lines


PEERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers")


def scrapy_broad_command(scrapy, seed, dns_server):
    """Scrapy's command on the broad web (bench/peers/scrapy_broad.py), as bench_crawl.py --broad
    and this script run it, with PYTHONPATH=PEERS in its environment."""
    return [scrapy, "runspider", os.path.join(PEERS, "scrapy_broad.py"), "-a", f"start={seed}",
            "-a", "domain=web.test", "-s", "DNS_RESOLVER=scrapy_broad.TestWebResolver",
            "-s", f"TESTWEB_DNS={dns_server}"]


def pages_begun(log):
    """A counter of the requests in the test web's log other than robots.txt: the pages a
    crawler began (a line: start end host path status method)."""
    return LineCounter(log, skip=b" /robots.txt ")


def serve(testweb, hosts, pages, log):
    """The broad web, served until stopped; (its process, its ports)."""
    web = subprocess.Popen([testweb, "serve", "--hosts", hosts, "--pages", pages, "--links", "10",
                            "--html-only", "--max-seconds", "7200", "--log", log],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return web, dict(web.stdout.readline().split() for _ in range(2))


def follow(proc, every, count, seconds=None):
    """Samples proc's VmRSS every EVERY s until it ends (or SIGINT after SECONDS), printing each
    sample with count(); (peak KiB, the second it came at, the wall time)."""
    start, peak, peak_at = time.time(), 0, 0.0
    while proc.poll() is None:
        time.sleep(every)
        kib = rss_kib(proc.pid)
        if kib is None:
            break
        at = time.time() - start
        if kib > peak:
            peak, peak_at = kib, at
        print(f"{at:7.1f} s {kib / 1024:8.1f} MiB {count():9d}", flush=True)
        if seconds is not None and at >= seconds:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
            break
    proc.wait()
    return peak, peak_at, time.time() - start


def scrapy_for(testweb, hosts, pages, every, seconds, tmp):
    """Scrapy on a fresh copy of the broad web for SECONDS; (highest sample KiB, its second,
    pages begun, wall s)."""
    log = os.path.join(tmp, "scrapy-web.log")
    web, ports = serve(testweb, hosts, pages, log)
    begun = pages_begun(log)
    proc = subprocess.Popen(scrapy_broad_command("scrapy", f"http://s0.web.test:{ports['http']}/",
                                                 f"127.0.0.1:{ports['dns']}"),
                            cwd=tmp, env=dict(os.environ, PYTHONPATH=PEERS),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print("Scrapy (seconds, MiB, pages begun):")
    peak, peak_at, wall = follow(proc, every, begun.count, seconds)
    web.terminate()
    web.wait()
    n = begun.count()
    begun.file.close()
    os.remove(log)
    return peak, peak_at, n, wall


def main():
    args = sys.argv[1:]
    scrapy_seconds = None
    if "--scrapy" in args:
        at = args.index("--scrapy")
        try:
            scrapy_seconds = float(args[at + 1])
        except (IndexError, ValueError):
            sys.exit("broad_rss.py: --scrapy takes the seconds Scrapy runs, e.g. --scrapy 1800")
        del args[at:at + 2]
        if not shutil.which("scrapy"):
            sys.exit("broad_rss.py: --scrapy needs Scrapy (Debian's python3-scrapy)")
    if len(args) < 2:
        sys.exit(__doc__)
    crawl, testweb = os.path.abspath(args[0]), os.path.abspath(args[1])
    hosts = args[2] if len(args) > 2 else "100000"
    pages = args[3] if len(args) > 3 else "10"
    every = float(args[4]) if len(args) > 4 else 1.0
    tmp = tempfile.mkdtemp(prefix="broad-rss-")
    web_log = os.path.join(tmp, "web.log")
    web, ports = serve(testweb, hosts, pages, web_log)
    records = os.path.join(tmp, "records.jsonl")
    with open(records, "wb") as out:
        proc = subprocess.Popen([crawl, "-q", "--jsonl", "--dns-server",
                                 f"127.0.0.1:{ports['dns']}", "-w", "1", "-d", "1000000", "-D",
                                 "web.test", f"http://s0.web.test:{ports['http']}/"],
                                stdout=out, stderr=subprocess.DEVNULL)
        counter = LineCounter(records)
        print("crawl (seconds, MiB, records):")
        peak, peak_at, wall = follow(proc, every, counter.count)
    web.terminate()
    web.wait()
    begun = pages_begun(web_log)
    crawl_pages = begun.count()
    begun.file.close()
    print(f"exit {proc.returncode}, {wall:.1f} s; sampled peak {peak / 1024:.1f} MiB at "
          f"{peak_at:.0f} s; {counter.count()} records; {crawl_pages} pages begun, "
          f"{crawl_pages / wall:.0f} a second")
    counter.file.close()
    os.remove(records)
    os.remove(web_log)
    if scrapy_seconds is not None:
        s_peak, s_at, s_pages, s_wall = scrapy_for(testweb, hosts, pages, every, scrapy_seconds,
                                                  tmp)
        print(f"Scrapy: {s_wall:.1f} s (stopped); highest sample {s_peak / 1024:.1f} MiB at "
              f"{s_at:.0f} s; {s_pages} pages begun, {s_pages / s_wall:.0f} a second")
        print(f"crawl's whole-crawl peak / Scrapy's highest sample: {peak / max(s_peak, 1):.3f} "
              f"(at most that share of Scrapy's peak); pages a second, crawl / Scrapy: "
              f"{(crawl_pages / wall) / max(s_pages / s_wall, 1e-9):.1f}")
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
