#!/usr/bin/env python3
"""crawl's own benchmarks on the loopback test web (the peers are in bench_peers.py, on nginx).

1. polite: 50 hosts with a 0.2 s per-host delay, and 1,000 hosts with 0.5 s and -c 1000, each with
   one shard and with four: elapsed time against the ideal (the busiest host's requests back to
   back at exactly the delay) and against the discovery bound (no crawler can contact a host
   before a response links it: testweb discovery), and delay violations seen by the server.
2. queue memory: one host of many pages, the queue all in memory and mostly in the spill file.
3. concurrency: 1,000 hosts, every one a seed, -c 10, 100 and 1,000: CPU per page, so a cost
   per event that grew with the transfers in flight would show.
4. scale: 50 hosts x 100,000 pages, -n 100,000: peak RSS and CPU per page of a big crawl.
2 to 4 measure the cost per page, so they run one shard (-j 1).
5. broad (--broad [SECONDS], alone; with --large 1,000,000 hosts x 2 pages): 100,000 hosts x 10
   plain HTML pages, crawled from one host
   at -w 1 -D web.test for SECONDS (40) at the defaults, -j 1 -c 64 and -c 1000, and in the same
   rounds (three, interleaved; medians) 20 hosts x 500 pages of the same HTML crawled whole at
   -w 0: pages/s and CPU per page of each, and the broad runs' against the site crawl's. Scrapy,
   when /usr/bin/scrapy is there, crawls the broad web for as long in the same rounds, set up as
   its "Broad Crawls" page says at the same politeness (bench/peers/scrapy_broad.py); its pages
   are those the test web's log shows it asked for in the window, and its CPU a page is its
   whole run's over the pages of its whole run. wget2, when /usr/bin/wget2 is there, the same way
   but not polite per host (its wait is global: it runs without), its names from the system's
   resolver pointed at the test web's DNS (served then at 127.77.0.53:53) by a resolv.conf in a
   private mount namespace: run as root.
6. broad, whole (--broad-whole [HOSTS [PAGES]] [--rounds N] [--addresses K], alone): the broad
   web (HOSTS hosts, 100,000 by default, x PAGES pages, 10 by default; the issue's large web is
   1000000 2) crawled to its end at the defaults and -w 1 with --jsonl, once or N times: wall time
   against the discovery bound (the least any crawler polite at 1 s could take: testweb
   discovery), pages/s, CPU per page, peak RSS, the pages fetched in the crawl's last quarter
   against its second, and what a polite crawl must hold: gaps under the delay, robots.txt asked
   more than once, pages asked twice, recall, records whose fate or depth is not the truth's, and
   the summary against the records. With --rounds, the site web of --broad (20 hosts x 500
   pages, -w 0) is crawled whole in each round too, and the medians of the broad crawl's pages/s
   and CPU a page are given against the site crawl's (the issue's ratios, over whole crawls).
   --addresses K serves the broad web's hosts over K loopback addresses (testweb serve
   --addresses), as real hosts are met; by default all are at 127.0.0.1 and one port.
7. a blocklist in /etc/hosts (--blocklist [LINES], alone, as root): the broad web crawled for 20 s
   at the defaults and -w 1 under the machine's /etc/hosts and under the same file with LINES
   (100,000) lines of a blocklist after it ("0.0.0.0 adN.blocked.example"), each crawl in a mount
   namespace of its own (unshare -m) where that file is /etc/hosts; three interleaved rounds,
   medians: the cost of the file is the lookups'.

Usage: bench_crawl.py CRAWL TESTWEB [--quick] [--polite (1. alone)] [--broad [SECONDS] [--large]]
                      [--broad-whole [HOSTS [PAGES]] [--rounds N] [--addresses K]]
                      [--blocklist [LINES]]
With CRAWL_BENCH_KEEP=1 in the environment the working directory (records, the test webs' logs)
is kept, and named on standard error.
"""
import os
import re
import signal
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

from broad_rss import PEERS, scrapy_broad_command

CRAWL, TESTWEB = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
QUICK = "--quick" in sys.argv
POLITE_ONLY = "--polite" in sys.argv  # the polite webs alone
BROAD = "--broad" in sys.argv
BROAD_WHOLE = "--broad-whole" in sys.argv
BLOCKLIST = "--blocklist" in sys.argv
LARGE = "--large" in sys.argv  # with --broad: 1,000,000 hosts x 2 pages


class Web:
    def __init__(self, tmp, name, hosts, pages, links=8, seed=None, html_only=False, dns_at=None,
                 addresses=1):
        """dns_at: "127.A.B.C:53", its DNS where a system resolver can be pointed at it;
        addresses: the loopback addresses its hosts are spread over (testweb serve --addresses)."""
        self.args = ["--hosts", str(hosts), "--pages", str(pages), "--links", str(links)]
        self.args += ["--seed", str(seed)] if seed is not None else []
        self.args += ["--html-only"] if html_only else []
        self.serve_args = ["--addresses", str(addresses)] if addresses > 1 else []
        self.log_path = os.path.join(tmp, name + ".log")
        self.proc = subprocess.Popen([TESTWEB, "serve", *self.args, *self.serve_args,
                                      "--log", self.log_path,
                                      "--max-seconds", "900",
                                      *(["--dns-at", dns_at] if dns_at else [])],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        ports = dict(self.proc.stdout.readline().split() for _ in range(2))
        self.port, self.dns = int(ports["http"]), int(ports["dns"])
        self.dns_addr = dns_at.split(":")[0] if dns_at else "127.0.0.1"
        self.dns_server = f"{self.dns_addr}:{self.dns}"

    def seed(self):
        return f"http://s0.web.test:{self.port}/"

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=30)
        log = []
        with open(self.log_path) as f:
            for line in f:
                start, end, host, path, status, _method = line.split()
                log.append((float(start), float(end), host, path, int(status)))
        return log


def timed(cmd, cwd=None):
    """Runs cmd under /usr/bin/time; returns (wall s, cpu s, peak RSS KiB, exit status)."""
    fmt = "BENCH %e %U %S %M"
    started = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", fmt, *cmd], cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - started
    m = re.search(r"BENCH (\S+) (\S+) (\S+) (\d+)", p.stderr)
    return wall, float(m.group(2)) + float(m.group(3)), int(m.group(4)), p.returncode


def gaps_by_host(log):
    """For each host, the gaps between the end of one request and the start of the next."""
    by_host = defaultdict(list)
    for start, end, host, path, status in log:
        by_host[host].append((start, end))
    gaps = {}
    for host, reqs in by_host.items():
        reqs.sort()
        gaps[host] = [s2 - e1 for (s1, e1), (s2, e2) in zip(reqs, reqs[1:])]
    return gaps


def polite_summary(gaps, delay):
    """The ideal (the busiest host's requests back to back at the delay) and the gaps under it."""
    return (max(len(g) for g in gaps.values()) * delay,
            sum(g < delay for host_gaps in gaps.values() for g in host_gaps))


def discovery_bound(web, delay, gaps):
    """No polite crawler can end before this: a host's requests cannot begin before the host is
    first linked by a response (testweb discovery: the earliest moment, over every order of
    fetching), and then take (requests - 1) x delay at the least."""
    out = subprocess.run([TESTWEB, "discovery", *web.args, "--delay", str(delay)], check=True,
                         capture_output=True, text=True).stdout
    found = dict((host, float(t)) for host, t in (line.split() for line in out.splitlines()))
    return max(found[host] + len(g) * delay for host, g in gaps.items() if host in found)


def level_bound(web, delay, depth):
    """The least time a crawl that finishes each depth before the next can take (-d DEPTH): at
    every depth the host with the most requests there (robots.txt counted where a host begins)
    needs them back to back at the delay."""
    out = subprocess.run([TESTWEB, "truth", *web.args, "--port", str(web.port), "--depth",
                          str(depth), web.seed()], check=True, capture_output=True,
                         text=True).stdout
    per_level = defaultdict(lambda: defaultdict(int))
    began = set()
    for line in out.splitlines():
        url, fate, d = line.split()
        if fate not in ("fetched", "failed"):
            continue
        host = url.split("/")[2].split(":")[0].lower()
        per_level[int(d)][host] += 1 if host in began else 2  # robots.txt first
        began.add(host)
    return sum((max(hosts.values()) - 1) * delay for hosts in per_level.values())


def polite(tmp):
    """Three webs: 50 hosts with a 0.2 s delay, and 1,000 hosts with a 0.5 s delay and -c 1000,
    at 6 links a page and at 30 (where fetching ahead needs the most of its budget)."""
    webs = [(50, 10 if QUICK else 30, 0.2, [], 6, None)]
    if not QUICK:
        webs.append((1000, 30, 0.5, ["-c", "1000"], 6, None))
        webs.append((1000, 30, 0.5, ["-c", "1000"], 30, 3))
    rows = []
    for (hosts, pages, delay, extra, links, seed), threads in ((w, j) for w in webs
                                                              for j in ("1", "4")):
        web = Web(tmp, "polite", hosts, pages, links=links, seed=seed)
        work = tempfile.mkdtemp(dir=tmp)
        extra = ["-j", threads, *extra]
        cmd = [CRAWL, "-q", "--dns-server", f"127.0.0.1:{web.dns}", "-w", str(delay), "-d",
               "1000000", *extra, web.seed()]
        wall, cpu, rss, rc = timed(cmd, cwd=work)
        log = web.stop()
        shutil.rmtree(work, ignore_errors=True)
        gaps = gaps_by_host(log)
        ideal, bad = polite_summary(gaps, delay)
        min_gap = min(g for host_gaps in gaps.values() for g in host_gaps)
        bound = discovery_bound(web, delay, gaps)
        name = f"{hosts:,} hosts x {pages} pages x {links} links, -w {delay} {' '.join(extra)}"
        rows.append((name.strip(), len(log), wall, ideal, wall / ideal, bound, wall / bound, bad,
                     min_gap, rss / 1024))
    shallow = []
    for hosts, pages, delay, extra, links, seed in webs:  # -d 3: against finishing depths first
        web = Web(tmp, "polite", hosts, pages, links=links, seed=seed)
        cmd = [CRAWL, "-q", "--dns-server", f"127.0.0.1:{web.dns}", "-w", str(delay), "-d", "3",
               "-j", "1", *extra, web.seed()]
        wall, cpu, rss, rc = timed(cmd, cwd=tmp)
        log = web.stop()
        ideal, bad = polite_summary(gaps_by_host(log), delay)
        levels = level_bound(web, delay, 3)
        name = f"{hosts:,} hosts x {pages} pages x {links} links, -w {delay} -d 3 -j 1 {' '.join(extra)}".strip()
        shallow.append((name, len(log), wall, ideal, levels, wall / levels, bad))
    return rows, shallow


def queue_memory(tmp):
    """One host, so the queue grows long: the same crawl with the queue all in memory and with
    at most 1,000 URLs in memory, the rest in the spill file."""
    pages = 20000 if QUICK else 200000
    rows = []
    for limit in ("10000000", "1000"):
        web = Web(tmp, "queue", 1, pages)
        out = os.path.join(tmp, "queue.out")
        wall, cpu, rss, rc = timed([CRAWL, "-q", "-j", "1", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0",
                                    "-d", "1000000", "--queue-memory", limit, "-o", out,
                                    web.seed()], cwd=tmp)
        web.stop()
        with open(out) as f:
            printed = sum(1 for _ in f)
        rows.append((limit, printed, wall, cpu, rss / 1024))
    return pages, rows


def html_pages(log):
    """Distinct HTML pages of the web received."""
    page = re.compile(r"^/(p/\d+\.html)?$")
    return len({(r[2], r[3]) for r in log if r[4] == 200 and page.match(r[3])})


def concurrency(tmp):
    hosts, pages = (200, 10) if QUICK else (1000, 30)
    rows = []
    for c in (10, 100, 1000):
        web = Web(tmp, "many", hosts, pages, links=6)
        seeds = os.path.join(tmp, "seeds.txt")
        with open(seeds, "w") as f:
            f.write("\n".join(f"http://s{i}.web.test:{web.port}/" for i in range(hosts)) + "\n")
        wall, cpu, rss, rc = timed([CRAWL, "-q", "-j", "1", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0",
                                    "-d", "1000000", "-c", str(c), "-i", seeds], cwd=tmp)
        n = html_pages(web.stop())
        rows.append((c, n, wall, cpu * 1000 / max(n, 1), rss / 1024))
    return hosts, pages, rows


def scale(tmp):
    hosts, pages, limit = (50, 10000, 10000) if QUICK else (50, 100000, 100000)
    web = Web(tmp, "scale", hosts, pages)
    out = os.path.join(tmp, "scale.out")
    wall, cpu, rss, rc = timed([CRAWL, "-q", "-j", "1", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0",
                                "-d", "1000000", "-n", str(limit), "-o", out, web.seed()], cwd=tmp)
    n = html_pages(web.stop())
    with open(out) as f:
        printed = sum(1 for _ in f)
    return hosts, pages, limit, (n, printed, wall, cpu * 1000 / max(n, 1), rss / 1024)


def crawl_for(args, seconds=None, prefix=()):
    """Runs crawl (its URLs thrown away), stopped by SIGINT after seconds (None: to its end);
    returns (pages fetched as its summary counts them, wall s, CPU s, peak RSS MiB). prefix: a
    command that ends by executing crawl in its own process (unshare, sh's exec)."""
    started = time.monotonic()
    proc = subprocess.Popen([*prefix, CRAWL, "--no-progress", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    if seconds is not None:
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGINT)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - started
    m = re.search(r"(\d+) pages fetched", err)
    if not m:
        raise SystemExit(f"crawl {' '.join(args)}: no summary: {err[-300:]}")
    return int(m.group(1)), wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def log_counts(path, since):
    """The test web's log from byte since on: (its requests, its pages, the pages whose request
    began before the monotonic time until, where until is given by calling it with a time), read
    line by line: a list of the lines would grow this process, and a child's peak RSS counts
    what it shares of its parent's until exec."""
    def counts(until=float("inf")):
        requests = pages = early = 0
        with open(path) as f:
            f.seek(since)
            for line in f:
                started, _, _, page = line.split(" ", 4)[:4]
                requests += 1
                if page != "/robots.txt":
                    pages += 1
                    early += float(started) < until
        return requests, pages, early
    return counts


def peer_for(cmd, seconds, log_path, env=None, cwd=None):
    """Runs a peer on the broad web, stopped by SIGINT after seconds (a second one 30 s later,
    should its shutdown hang); returns (pages asked for in the window, requests a page over its
    whole run, CPU s, peak RSS MiB, the pages of its whole run), counted in the test web's log
    (its clock is CLOCK_MONOTONIC, as time.monotonic's)."""
    counts = log_counts(log_path, os.path.getsize(log_path))
    started = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                            cwd=cwd)
    usage = None
    for signals, wait in ((0, seconds), (1, 30), (2, None)):
        if signals:
            proc.send_signal(signal.SIGINT)
        deadline = None if wait is None else time.monotonic() + wait
        while usage is None and (deadline is None or time.monotonic() < deadline):
            pid, _, usage = os.wait4(proc.pid, os.WNOHANG)  # reaped here: its rusage
            usage = usage if pid else None
            time.sleep(0 if usage else 0.1)
        if usage is not None:
            break
    requests, pages, window = counts(started + seconds)
    return (window, requests / max(pages, 1), usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss / 1024, pages)


SCRAPY = "/usr/bin/scrapy"
WGET2 = "/usr/bin/wget2"
# where the broad web's DNS answers when wget2 runs: it asks the system's resolver, and
# resolv.conf names no port (127.0.0.53 is systemd-resolved's, so another)
BROAD_DNS_AT = "127.77.0.53:53"


def wget2_broad(tmp, wide):
    """wget2 on the broad web as its users run it (bench_peers.py's flags, -H -D for the other
    hosts), not polite per host: its --wait is one gap for all hosts, so it runs without. Its names
    come from the system's resolver, pointed at the test web's DNS by a resolv.conf bind-mounted in
    a private mount namespace (unshare -m), which nothing outside the run sees."""
    resolv, nsswitch = os.path.join(tmp, "resolv.conf"), os.path.join(tmp, "nsswitch.conf")
    with open(resolv, "w") as f:
        f.write(f"nameserver {wide.dns_addr}\n")
    with open(nsswitch, "w") as f:
        f.write("hosts: files dns\n")
    wrap = ["unshare", "-m", "--propagation", "private", "sh", "-c",
            'mount --bind "$0" /etc/resolv.conf && mount --bind "$1" /etc/nsswitch.conf && '
            'shift && exec "$@"', resolv, nsswitch]
    return [*wrap, WGET2, "-q", "-r", "--delete-after", "--max-threads", "16", "-H", "-D",
            "web.test", "-e", "robots=on", "-l", "inf", wide.seed()]


def site_web(tmp):
    """The site web the broad crawls are compared with: 20 hosts x 500 plain HTML pages."""
    return Web(tmp, "site", 20, 500, links=10, html_only=True)


def site_args(site):
    """crawl's arguments for the site web: the whole of it, without a delay."""
    return ["-w", "0", "-d", "1000000", "--dns-server", f"127.0.0.1:{site.dns}", site.seed()]


def broad(tmp, seconds):
    """The broad web against the site web, interleaved rounds; medians. Scrapy, when installed,
    crawls the broad web in the same rounds at the same politeness (bench/peers/scrapy_broad.py);
    wget2, when installed, without it (wget2_broad)."""
    import statistics
    site = site_web(tmp)
    with_wget2 = os.path.exists(WGET2)
    hosts, pages = (1000000, 2) if LARGE else (100000, 10)
    wide = Web(tmp, "broad", hosts, pages, links=10, html_only=True,
               dns_at=BROAD_DNS_AT if with_wget2 else None)
    runs = {"site": site_args(site)}
    for name, extra in (("defaults", []), ("-j 1 -c 64", ["-j", "1", "-c", "64"]),
                        ("-c 1000", ["-c", "1000"])):
        runs[name] = [*extra, "-w", "1", "-d", "1000000", "-D", "web.test", "--dns-server",
                      wide.dns_server, wide.seed()]
    peers_dir = PEERS
    if os.path.exists(SCRAPY):
        runs["Scrapy"] = scrapy_broad_command(SCRAPY, wide.seed(), wide.dns_server)
    if with_wget2:
        runs["wget2, not polite per host"] = wget2_broad(tmp, wide)
        wget2_dir = os.path.join(tmp, "wget2")
        os.makedirs(wget2_dir, exist_ok=True)
    got = defaultdict(list)
    try:
        for _ in range(1 if QUICK else 3):
            for name, args in runs.items():
                if name == "Scrapy" or name.startswith("wget2"):
                    scrapy = name == "Scrapy"
                    env = dict(os.environ, PYTHONPATH=peers_dir) if scrapy else None
                    window, per_page, cpu, rss, whole = peer_for(
                        args, seconds, wide.log_path, env, peers_dir if scrapy else wget2_dir)
                    got[name].append((window, seconds, cpu * window / max(whole, 1), rss,
                                      per_page))
                    continue
                counts = log_counts(wide.log_path, os.path.getsize(wide.log_path))
                n, wall, cpu, rss = crawl_for(args, None if name == "site" else seconds)
                per_page = float("nan")
                if name != "site":
                    requests, pages, _ = counts()
                    per_page = requests / max(pages, 1)
                got[name].append((n, wall, cpu, rss, per_page))
    finally:
        site.stop()
        wide.proc.send_signal(signal.SIGTERM)
        wide.proc.wait(timeout=60)
    rows = []
    for name, results in got.items():
        rate = statistics.median(n / wall for n, wall, _, _, _ in results)
        cpu_ms = statistics.median(cpu * 1000 / max(n, 1) for n, _, cpu, _, _ in results)
        rss = statistics.median(r[3] for r in results)
        pages = statistics.median(r[0] for r in results)
        per_page = statistics.median(r[4] for r in results)
        rows.append((name, pages, rate, cpu_ms, rss, per_page))
    return rows


def blocklist(tmp, lines, seconds=20.0):
    """The broad web for seconds under the machine's /etc/hosts and under the same file with a
    blocklist of lines after it, interleaved rounds; medians of (pages, pages/s, CPU ms a page)."""
    import statistics
    wide = Web(tmp, "broad", 100000, 10, links=10, html_only=True)
    with open("/etc/hosts") as f:
        own = f.read()
    files = {}
    for name, extra in (("the machine's /etc/hosts", 0), (f"with {lines:,} lines more", lines)):
        files[name] = os.path.join(tmp, f"hosts-{extra}")
        with open(files[name], "w") as f:
            f.write(own if own.endswith("\n") or not own else own + "\n")
            f.writelines(f"0.0.0.0 ad{i}.blocked.example\n" for i in range(extra))
    args = ["-w", "1", "-d", "1000000", "-D", "web.test", "--dns-server",
            f"127.0.0.1:{wide.dns}", wide.seed()]
    got = defaultdict(list)
    try:
        for _ in range(1 if QUICK else 3):
            for name, path in files.items():
                wrap = ["unshare", "-m", "sh", "-c", f'mount --bind {path} /etc/hosts && exec "$@"',
                        "sh"]
                got[name].append(crawl_for(args, seconds, prefix=wrap))
    finally:
        wide.proc.send_signal(signal.SIGTERM)
        wide.proc.wait(timeout=60)
    return [(name, statistics.median(n for n, _, _, _ in runs),
             statistics.median(n / wall for n, wall, _, _ in runs),
             statistics.median(cpu * 1000 / max(n, 1) for n, _, cpu, _ in runs))
            for name, runs in got.items()]


def broad_whole(tmp, hosts, pages_a_host=10, addresses=1):
    """One crawl of the broad web to its end, checked against the truth."""
    import json
    wide = Web(tmp, "broad", hosts, pages_a_host, links=10, html_only=True, addresses=addresses)
    out = os.path.join(tmp, "records.jsonl")
    started = time.monotonic()
    proc = subprocess.Popen([CRAWL, "--no-progress", "-w", "1", "-d", "1000000", "-D", "web.test",
                             "--dns-server", f"127.0.0.1:{wide.dns}", "--jsonl", "-o", out,
                             wide.seed()], stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - started
    log = wide.stop()
    truth = {}
    listing = subprocess.run([TESTWEB, "truth", *wide.args, "--port", str(wide.port), wide.seed()],
                             check=True, capture_output=True, text=True).stdout
    for line in listing.splitlines():
        url, fate, depth = line.split()
        truth[url] = (fate, int(depth))
    fates, off, urls = defaultdict(int), 0, set()
    with open(out) as f:
        for line in f:
            r = json.loads(line)
            if r["fate"] == "outside":
                continue
            urls.add(r["url"])
            fates[r["fate"]] += 1
            off += truth.get(r["url"]) != (r["fate"], r["depth"])
    pages = [e for e in log if e[3] != "/robots.txt"]
    t0, t1 = min(e[0] for e in log), max(e[1] for e in log)
    quarters = [0] * 4
    for e in pages:
        quarters[min(3, int((e[1] - t0) / (t1 - t0) * 4))] += 1
    robots = defaultdict(int)
    for e in log:
        if e[3] == "/robots.txt":
            robots[e[2]] += 1
    asked = defaultdict(int)
    for e in pages:
        asked[(e[2], e[3])] += 1
    gaps = gaps_by_host(log)
    close = sum(g < 1.0 for host_gaps in gaps.values() for g in host_gaps)
    bound = discovery_bound(wide, 1.0, gaps)
    fetched_truth = sum(1 for fate, _ in truth.values() if fate == "fetched")
    m = re.search(r"(\d+) fetched, (\d+) failed", err)
    summary_ok = bool(m) and int(m.group(1)) == fates["fetched"] and \
        int(m.group(2)) == fates["failed"]
    cpu = usage.ru_utime + usage.ru_stime
    n = fates["fetched"]
    return dict(hosts=hosts, exit=os.waitstatus_to_exitcode(status), wall=wall, pages=n,
                rate=n / wall, cpu_ms=cpu * 1000 / max(n, 1), rss=usage.ru_maxrss / 1024,
                quarters=quarters, close=close, robots_twice=sum(v > 1 for v in robots.values()),
                asked_twice=sum(v > 1 for v in asked.values()),
                recall=len(urls & set(truth)) / len(truth), off=off,
                fetched_truth=fetched_truth, summary_ok=summary_ok, bound=bound)


def option_value(name, default):
    """The value after an option of the command line, or default."""
    if name not in sys.argv:
        return default
    at = sys.argv.index(name)
    if at + 1 >= len(sys.argv) or not sys.argv[at + 1].isdigit():
        raise SystemExit(f"{name} takes a whole number")
    return sys.argv[at + 1]


def in_fresh_process(fn, *args):
    """fn(*args) in a process forked for it, which ends with it. A crawl's peak RSS is its
    rusage's, and Linux counts in it the memory of the process it was forked from, up to its
    exec: after a round has checked a million records against the truth, this process holds
    some 900 MB, and the next round's crawl, forked from it, would report that as its peak."""
    import concurrent.futures
    import multiprocessing
    with concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("fork")) as pool:
        return pool.submit(fn, *args).result()


def site_whole(tmp):
    """The site web of broad() crawled whole once: (pages, wall s, CPU s)."""
    site = site_web(tmp)
    try:
        n, wall, cpu, _ = crawl_for(site_args(site))
    finally:
        site.stop()
    return n, wall, cpu


def main():
    tmp = tempfile.mkdtemp(prefix="crawl-bench-")
    try:
        if BLOCKLIST:
            at = sys.argv.index("--blocklist")
            given = sys.argv[at + 1:at + 2]
            lines = int(given[0]) if given and given[0].isdigit() else 100000
            print("blocklist: the broad web, 100,000 hosts x 10 pages, -w 1 -D web.test, 20 s each")
            print("| /etc/hosts | pages fetched | pages/s | CPU ms per page |")
            print("|---|---|---|---|")
            for name, pages, rate, cpu_ms in blocklist(tmp, lines):
                print(f"| {name} | {pages:,.0f} | {rate:,.0f} | {cpu_ms:.3f} |")
            return
        if BROAD_WHOLE:
            at = sys.argv.index("--broad-whole")
            sizes = []
            for a in sys.argv[at + 1:at + 3]:  # the numbers right after it, not an option's
                if not a.isdigit():
                    break
                sizes.append(int(a))
            hosts, pages_a_host = (sizes + [100000, 10][len(sizes):])[:2]
            rounds = int(option_value("--rounds", "0"))
            addresses = int(option_value("--addresses", "1"))
            results, sites = [], []
            for _ in range(max(rounds, 1)):
                results.append(in_fresh_process(broad_whole, tmp, hosts, pages_a_host, addresses))
                if rounds:
                    sites.append(site_whole(tmp))
            where = f", over {addresses:,} addresses" if addresses > 1 else ""
            print(f"broad, whole: {hosts:,} hosts x {pages_a_host} pages{where}, -w 1 -D web.test "
                  "--jsonl, to its end")
            print("| exit | wall s | discovery bound s | wall / bound | pages | pages/s "
                  "| CPU ms per page | peak RSS MiB "
                  "| last quarter / second | gaps < 1 s | robots.txt twice | pages asked twice "
                  "| recall | fate or depth off | summary = records |")
            print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
            for r in results:
                q = r["quarters"]
                print(f"| {r['exit']} | {r['wall']:.1f} | {r['bound']:.1f} "
                      f"| {r['wall'] / r['bound']:.2f} "
                      f"| {r['pages']:,} (truth {r['fetched_truth']:,}) "
                      f"| {r['rate']:,.0f} | {r['cpu_ms']:.3f} | {r['rss']:.1f} "
                      f"| {q[3] / max(q[1], 1):.2f} ({q[1]:,}, {q[3]:,}) | {r['close']} "
                      f"| {r['robots_twice']} | {r['asked_twice']} | {r['recall']:.4f} "
                      f"| {r['off']} | {'yes' if r['summary_ok'] else 'no'} |")
            if rounds:
                import statistics
                rate = statistics.median(r["rate"] for r in results)
                cpu_ms = statistics.median(r["cpu_ms"] for r in results)
                site_rate = statistics.median(n / wall for n, wall, _ in sites)
                site_cpu = statistics.median(cpu * 1000 / n for n, _, cpu in sites)
                print(f"\nmedians of {rounds}: broad {rate:,.0f} pages/s at {cpu_ms:.3f} ms of CPU "
                      f"a page; site (20 hosts x 500 pages, -w 0, whole, in the same rounds) "
                      f"{site_rate:,.0f} pages/s at {site_cpu:.3f} ms: broad / site "
                      f"{rate / site_rate:.2f} x the pages/s, {cpu_ms / site_cpu:.2f} x the CPU "
                      "a page")
            return
        if BROAD:
            at = sys.argv.index("--broad")
            given = sys.argv[at + 1:at + 2]
            seconds = float(given[0]) if given and given[0].replace(".", "").isdigit() else 40.0
            rows = broad(tmp, seconds)
            site_rate, site_cpu = rows[0][2], rows[0][3]
            size = "1,000,000 hosts x 2 pages" if LARGE else "100,000 hosts x 10 pages"
            print(f"broad: {size}, -w 1 -D web.test, {seconds:g} s each; "
                  "site: 20 hosts x 500 pages, -w 0, whole")
            print("| run | pages fetched | pages/s | x site's | CPU ms per page | x site's "
                  "| peak RSS MiB | requests a page |")
            print("|---|---|---|---|---|---|---|---|")
            for name, pages, rate, cpu_ms, rss, per_page in rows:
                print(f"| {name} | {pages:,.0f} | {rate:,.0f} | {rate / site_rate:.2f} "
                      f"| {cpu_ms:.3f} | {cpu_ms / site_cpu:.2f} | {rss:.1f} | {per_page:.3f} |")
            crawl_rows = {r[0]: r for r in rows}
            if "Scrapy" in crawl_rows:
                sc = crawl_rows["Scrapy"]
                d = crawl_rows["defaults"]
                print(f"\ncrawl at its defaults against Scrapy: {d[2] / max(sc[2], 1e-9):.1f} x "
                      f"its pages/s, {d[4] / sc[4]:.2f} x its peak RSS")
            return
        rows, shallow = polite(tmp)
        print("polite: crawl -w DELAY -d 1000000 over the test web")
        print("| web | requests | wall s | ideal s | wall / ideal | discovery bound s | wall / bound "
              "| delay violations | smallest gap s | peak RSS MiB |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for name, reqs, wall, ideal, ratio, bound, bratio, bad, gap, rss in rows:
            print(f"| {name} | {reqs:,} | {wall:.2f} | {ideal:.2f} | {ratio:.2f} | {bound:.2f} "
                  f"| {bratio:.2f} | {bad:,} | {gap:.3f} | {rss:.1f} |")
        print("\npolite, -d 3: against the least a crawl finishing each depth first could take")
        print("| web | requests | wall s | ideal s | depth by depth, at least s | wall / that "
              "| delay violations |")
        print("|---|---|---|---|---|---|---|")
        for name, reqs, wall, ideal, levels, ratio, bad in shallow:
            print(f"| {name} | {reqs:,} | {wall:.2f} | {ideal:.2f} | {levels:.2f} | {ratio:.2f} "
                  f"| {bad:,} |")
        if POLITE_ONLY:
            return
        pages, rows = queue_memory(tmp)
        print(f"\nqueue memory: one host of {pages:,} pages, --delay 0")
        print("| --queue-memory | URLs printed | wall s | CPU s | peak RSS MiB |")
        print("|---|---|---|---|---|")
        for limit, printed, wall, cpu, rss in rows:
            print(f"| {int(limit):,} | {printed:,} | {wall:.2f} | {cpu:.2f} | {rss:.1f} |")
        hosts, pages, rows = concurrency(tmp)
        print(f"\nconcurrency: {hosts:,} hosts x {pages} pages, each host a seed, --delay 0")
        print("| -c | HTML pages | wall s | CPU ms per page | peak RSS MiB |")
        print("|---|---|---|---|---|")
        for c, n, wall, cpu_ms, rss in rows:
            print(f"| {c:,} | {n:,} | {wall:.2f} | {cpu_ms:.3f} | {rss:.1f} |")
        hosts, pages, limit, (n, printed, wall, cpu_ms, rss) = scale(tmp)
        print(f"\nscale: {hosts} hosts x {pages:,} pages, -n {limit:,}, --delay 0")
        print("| HTML pages | URLs printed | wall s | CPU ms per page | peak RSS MiB |")
        print("|---|---|---|---|---|")
        print(f"| {n:,} | {printed:,} | {wall:.2f} | {cpu_ms:.3f} | {rss:.1f} |")
    finally:
        if os.environ.get("CRAWL_BENCH_KEEP"):  # the records and logs, to look into a figure
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
