#!/usr/bin/env python3
"""The floor a polite broad crawl stands on, beside crawl, in the same rounds.

A polite crawl of many hosts makes a connection for almost every request (a host's next request
comes a gap later, thousands of other hosts in between). This bench measures what that costs
libcurl alone and sets crawl beside it. Each round, in turn (the order reversed every other
round, so that a busy machine weighs on all alike):

- fresh: `bench_fetch --flat 64 --fresh` on 50,000 of the broad web's page URLs (`testweb
  serve --hosts 100000 --pages 10 --links 10 --html-only`), each on a connection of its own;
- kept: `bench_fetch` on the html web's 10,000 pages (20 hosts x 500), connections kept;
- crawl site: crawl on the html web whole, `-j 1 -w 0`;
- crawl broad: crawl on the broad web for SECONDS at the defaults, `-w 1 -D web.test`, ended by
  SIGINT; its requests are the test web's log lines.

It prints CPU ms a request (libcurl) or a page (crawl's site), and for the broad crawl both,
and the medians at the end. Both webs are started here, on loopback, and stopped at the end.

Usage: bench_broad_floor.py BUILD ROUNDS [SECONDS]   (BUILD: a build directory, release)
"""
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def serve(testweb, args, log=None):
    cmd = [testweb, "serve", *args, "--max-seconds", "3600"] + (["--log", log] if log else [])
    web = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return web, dict(web.stdout.readline().split() for _ in range(2))


def page_urls(testweb, args, port, first, count):
    out = subprocess.run([testweb, "truth", *args, "--port", port,
                          f"http://s0.web.test:{port}/"], capture_output=True, text=True,
                         check=True).stdout
    urls = [line.split()[0] for line in out.splitlines() if line.split()[1] == "fetched"]
    return "\n".join(urls[first:first + count]) + "\n"


def floor(bench_fetch, args, urls):
    out = subprocess.run([bench_fetch, *args, "127.0.0.1"], input=urls, capture_output=True,
                         text=True, check=True).stdout
    requests = int(re.search(r"requests (\d+)", out).group(1))
    return float(re.search(r"cpu_s ([\d.]+)", out).group(1)) / requests * 1000


def crawl(binary, args, seconds=None):
    """CPU ms a page fetched, and the pages."""
    proc = subprocess.Popen([binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    if seconds:
        time.sleep(seconds)
        proc.send_signal(signal.SIGINT)
    err = proc.stderr.read()
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    pages = int(re.search(r"([\d,]+) pages fetched", err).group(1).replace(",", ""))
    return (usage.ru_utime + usage.ru_stime) / max(pages, 1) * 1000, pages, usage


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    build, rounds = os.path.abspath(sys.argv[1]), int(sys.argv[2])
    seconds = float(sys.argv[3]) if len(sys.argv) == 4 else 30.0
    testweb, crawl_bin = f"{build}/tests/testweb", f"{build}/cli/crawl"
    bench_fetch = f"{build}/bench/bench_fetch"
    broad_args = ["--hosts", "100000", "--pages", "10", "--links", "10", "--html-only"]
    site_args = ["--hosts", "20", "--pages", "500", "--links", "10", "--html-only"]
    tmp = tempfile.mkdtemp(prefix="bench-floor-")
    log = os.path.join(tmp, "log")
    broad, bp = serve(testweb, broad_args, log)
    site, sp = serve(testweb, site_args)
    try:
        broad_urls = page_urls(testweb, broad_args, bp["http"], 100000, 50000)
        site_urls = page_urls(testweb, site_args, sp["http"], 0, 10000)
        got = {k: [] for k in ("fresh", "kept", "crawl site", "crawl broad a page",
                               "crawl broad a request")}
        for r in range(rounds):
            steps = ["fresh", "kept", "crawl site", "crawl broad"]
            for step in steps if r % 2 == 0 else steps[::-1]:
                if step == "fresh":
                    got[step].append(floor(bench_fetch, ["--flat", "64", "--fresh"], broad_urls))
                elif step == "kept":
                    got[step].append(floor(bench_fetch, [], site_urls))
                elif step == "crawl site":
                    got[step].append(crawl(crawl_bin, [
                        "-j", "1", "-w", "0", "-d", "1000000", "--dns-server",
                        f"127.0.0.1:{sp['dns']}", f"http://s0.web.test:{sp['http']}/"])[0])
                else:
                    with open(log) as f:
                        before = sum(1 for _ in f)
                    per_page, _, usage = crawl(crawl_bin, [
                        "-w", "1", "-d", "1000000", "-D", "web.test", "--dns-server",
                        f"127.0.0.1:{bp['dns']}", f"http://s0.web.test:{bp['http']}/"], seconds)
                    with open(log) as f:
                        requests = sum(1 for _ in f) - before
                    got["crawl broad a page"].append(per_page)
                    got["crawl broad a request"].append(
                        (usage.ru_utime + usage.ru_stime) / max(requests, 1) * 1000)
            print(f"round {r}: " + ", ".join(f"{k} {v[-1]:.4f}" for k, v in got.items()),
                  flush=True)
        print("medians (CPU ms a request; crawl site and crawl broad a page: a page): " +
              ", ".join(f"{k} {statistics.median(v):.4f}" for k, v in got.items()))
    finally:
        for web in (broad, site):
            web.send_signal(signal.SIGTERM)
            web.wait()


if __name__ == "__main__":
    main()
