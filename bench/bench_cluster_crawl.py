#!/usr/bin/env python3
"""A whole crawl through Redis (--cluster) against the same crawl in one process.

The loopback test web (20 hosts x 500 pages by default), a redis-server of its own on a free
loopback port, and three interleaved rounds of:
  - one process, -j 2 (no Redis);
  - one process through Redis (--nodes 1, -j 2): what the hand-over through Redis costs;
  - two processes through Redis (--nodes 2, -j 1 each): the same two cores' worth of shards,
    one per process.
Printed per setup (medians): wall from the first start to the last end, CPU of all processes
together, and the URLs they printed (which must be the same for every setup).

Usage: bench_cluster_crawl.py CRAWL TESTWEB [--quick]
"""
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

CRAWL, TESTWEB = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
QUICK = "--quick" in sys.argv
HOSTS, PAGES = (10, 200) if QUICK else (20, 500)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_web(tmp):
    proc = subprocess.Popen([TESTWEB, "serve", "--hosts", str(HOSTS), "--pages", str(PAGES),
                             "--links", "30", "--log", os.path.join(tmp, "web.log"),
                             "--max-seconds", "900"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ports = dict(proc.stdout.readline().split() for _ in range(2))
    return proc, int(ports["http"]), int(ports["dns"])


def start_redis(tmp):
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save",
                             "", "--appendonly", "no", "--dir", tmp],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            time.sleep(0.01)
    proc.kill()
    sys.exit("redis-server did not start (scripts/install-deps.sh installs it)")


def run(tmp, cmds):
    """Runs the commands at once under /usr/bin/time: (wall s, CPU s of all, URLs printed)."""
    procs, outs = [], []
    started = time.monotonic()
    for i, cmd in enumerate(cmds):
        out = open(os.path.join(tmp, f"out{i}"), "w+")
        outs.append(out)
        procs.append(subprocess.Popen(["/usr/bin/time", "-f", "BENCH %U %S", *cmd], stdout=out,
                                      stderr=subprocess.PIPE, text=True))
    cpu, urls = 0.0, 0
    for proc, out in zip(procs, outs):
        _, err = proc.communicate(timeout=600)
        if proc.returncode != 0:
            sys.exit(f"{' '.join(proc.args)} exited {proc.returncode}: {err[-300:]}")
        m = re.search(r"BENCH (\S+) (\S+)", err)
        cpu += float(m.group(1)) + float(m.group(2))
        out.seek(0)
        urls += sum(1 for _ in out)
        out.close()
    return time.monotonic() - started, cpu, urls


def main():
    with tempfile.TemporaryDirectory() as tmp:
        web, port, dns = start_web(tmp)
        redis, redis_port = start_redis(tmp)
        base = [CRAWL, "-q", "-w", "0", "-d", "1000", "--dns-server", f"127.0.0.1:{dns}"]
        seed = f"http://s0.web.test:{port}/"
        jobs = 0

        def cluster(nodes, threads):
            nonlocal jobs
            jobs += 1
            job = f"redis://127.0.0.1:{redis_port}/bench{jobs}"
            return [[*base, "-j", str(threads), "--cluster", job, "--nodes", str(nodes),
                     "--node", str(i), seed] for i in range(nodes)]

        setups = {
            "one process, -j 2": lambda: [[*base, "-j", "2", seed]],
            "one process through Redis, -j 2": lambda: cluster(1, 2),
            "two processes through Redis, -j 1 each": lambda: cluster(2, 1),
        }
        results = {name: [] for name in setups}
        try:
            for _ in range(3):
                for name, cmds in setups.items():
                    results[name].append(run(tmp, cmds()))
        finally:
            redis.kill()
            redis.wait()
            web.send_signal(signal.SIGTERM)
            web.wait(timeout=30)
    print(f"A whole crawl through Redis: test web {HOSTS} hosts x {PAGES} pages of 30 links, "
          "-w 0 -d 1000, three interleaved rounds, medians")
    print(f"{'setup':42} {'wall s':>7} {'CPU s':>7} {'URLs':>8} {'wall / one process':>19}")
    alone = statistics.median(r[0] for r in results["one process, -j 2"])
    printed = set()
    for name, rows in results.items():
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        urls = {r[2] for r in rows}
        printed |= urls
        print(f"{name:42} {wall:7.3f} {cpu:7.3f} {'/'.join(map(str, sorted(urls))):>8} "
              f"{wall / alone:18.2f}x")
    if len(printed) != 1:
        sys.exit(f"the setups printed different numbers of URLs: {sorted(printed)}")


if __name__ == "__main__":
    main()
