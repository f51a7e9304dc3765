#!/usr/bin/env python3
"""Two or more builds of crawl in turn on the broad test web, for a change's before and after.

Each round starts a fresh test web (`testweb serve --hosts 100000 --pages 10 --links 10
--html-only`, every name answered by its DNS server) for each crawl in turn and crawls it with
`-w 1 -d 1000000 -D web.test` and ARGS, until the crawl ends or SECONDS pass (then SIGINT). Per
crawl: the requests the test web logged a second, crawl's CPU a request (from wait4), the share
of it in the kernel, peak RSS, and the test web's CPU; medians over the rounds at the end. Builds
are compared within one run, in turn (each round starting with the next), so that a busy
machine and the order of the runs weigh on all alike.

Usage: bench_ab.py TESTWEB SECONDS ROUNDS 'ARGS' CRAWL...
  e.g. bench_ab.py build/tests/testweb 240 3 '' old/cli/crawl new/cli/crawl  (whole web: ~110 s)
A CRAWL may be written 'PATH|WEB ARGS|CRAWL ARGS': the test web of its runs also gets WEB ARGS
(--addresses 1024, say), its crawls CRAWL ARGS after ARGS; the same build may then be compared
with itself on two webs or at two settings.
"""
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def one_run(testweb, variant, seconds, args):
    crawl, web_args, more_args = (variant.split("|") + ["", ""])[:3]
    args = [*args, *more_args.split()]
    tmp = tempfile.mkdtemp(prefix="bench-ab-")
    log = os.path.join(tmp, "log")
    web = subprocess.Popen([testweb, "serve", "--hosts", "100000", "--pages", "10", "--links", "10",
                            "--html-only", "--log", log, "--max-seconds", "900",
                            *web_args.split()],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ports = dict(web.stdout.readline().split() for _ in range(2))
    cmd = [crawl, "-q", "--dns-server", f"127.0.0.1:{ports['dns']}", "-w", "1", "-d", "1000000",
           "-D", "web.test", *args, f"http://s0.web.test:{ports['http']}/"]
    start = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    timer = threading.Timer(seconds, lambda: proc.send_signal(signal.SIGINT))
    timer.start()
    _, _, usage = os.wait4(proc.pid, 0)  # the crawl's own CPU and peak RSS
    proc.returncode = 0
    timer.cancel()
    wall = time.time() - start
    web.send_signal(signal.SIGTERM)
    _, _, web_usage = os.wait4(web.pid, 0)
    web.returncode = 0
    with open(log) as f:
        requests = sum(1 for _ in f)
    cpu = usage.ru_utime + usage.ru_stime
    return {"req/s": requests / wall, "ms CPU/req": cpu / max(requests, 1) * 1000,
            "sys": usage.ru_stime / max(cpu, 1e-9), "MiB": usage.ru_maxrss / 1024,
            "web CPU s": web_usage.ru_utime + web_usage.ru_stime, "requests": requests,
            "wall s": wall}


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    testweb = os.path.abspath(sys.argv[1])
    seconds, rounds, args = float(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split()
    crawls = sys.argv[5:]
    results = {crawl: [] for crawl in crawls}
    for r in range(rounds):
        # each round starts with the next build, so that none always runs first
        for crawl in crawls[r % len(crawls):] + crawls[:r % len(crawls)]:
            got = one_run(testweb, crawl, seconds, args)
            results[crawl].append(got)
            print(f"round {r} {crawl}: {got['requests']} requests in {got['wall s']:.1f} s, "
                  f"{got['req/s']:.0f}/s, {got['ms CPU/req']:.4f} ms CPU a request "
                  f"(kernel {got['sys']:.0%}), {got['MiB']:.1f} MiB, "
                  f"test web {got['web CPU s']:.1f} s CPU", flush=True)
    for crawl in crawls:
        med = {k: statistics.median(x[k] for x in results[crawl])
               for k in ("req/s", "ms CPU/req", "sys", "MiB", "wall s")}
        print(f"median {crawl}: {med['wall s']:.1f} s, {med['req/s']:.0f} req/s, "
              f"{med['ms CPU/req']:.4f} ms CPU a request (kernel {med['sys']:.0%}), "
              f"{med['MiB']:.1f} MiB")


if __name__ == "__main__":
    main()
