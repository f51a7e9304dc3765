#!/usr/bin/env python3
"""Peers on one real server: crawl, wget2, spider-rs and Scrapy crawl the same static web.

The web is the test web's, written out as files (`testweb export`: 20 hosts x 500 pages of about
8 KB and 30 links, robots.txt on every host) and served by Debian's nginx on a loopback port
chosen at run time. Every crawler reaches every host by its name, as its users' crawlers reach
the internet: the names are in an /etc/hosts bind-mounted inside a private mount namespace
(`unshare -m`), which nothing outside the run sees; no proxy, one connection per host as each
crawler chooses. Same scope (the web's domain), robots.txt obeyed, no delay.

Rounds interleave the crawlers (crawl, wget2, spider-rs, Scrapy, then again), and the table gives
each one's medians: wall time, HTML pages per second, CPU ms per page, peak RSS, requests, and
recall (the ground truth's HTML pages that the crawler received). Beside them, in the same run,
the server's own rate (wrk), the floor the HTML parser sets (libxml2's bare push parser on the
same pages, bench_floor), and the floor the transfers set (libcurl making the requests crawl
makes and nothing else, bench_fetch): the two together are the least a crawler built on libcurl
and libxml2 could spend per page.

Usage: bench_peers.py CRAWL TESTWEB BENCH_FLOOR [--quick] [--rounds N] [--only NAME,...]
                      [--page-bytes N] [--links N]
(--page-bytes and --links change the web: larger pages cost the crawlers more per request and
nginx hardly more, so the web's server is further from being the bottleneck)
                      [--spider DIR]
(bench_fetch, libcurl making crawl's requests alone, is taken from BENCH_FLOOR's folder)
(run as root: unshare -m and mount need it; bench/run.sh installs the peers, spider-rs with npm
into DIR, by default build/peers; a peer that is not installed is reported as such)
"""
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DOMAIN = "web.test"
PAGE = re.compile(r"^/(p/\d+\.html)?$")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    """The exported web, its ground truth, and nginx serving it (started anew for each run)."""

    def __init__(self, tmp, testweb, hosts, pages, links, page_bytes):
        self.tmp, self.hosts = tmp, hosts
        self.port = free_port()
        self.root = os.path.join(tmp, "web")
        args = ["--hosts", str(hosts), "--pages", str(pages), "--links", str(links),
                "--port", str(self.port)]
        subprocess.run([testweb, "export", *args, "--page-bytes", str(page_bytes), self.root],
                       check=True)
        truth = subprocess.run([testweb, "truth", *args, self.seed()], check=True,
                               capture_output=True, text=True).stdout
        self.truth_pages = set()
        for line in truth.splitlines():
            url, fate, _ = line.split()
            host, path = url[len("http://"):].split("/", 1)
            if fate == "fetched" and PAGE.match("/" + path):
                self.truth_pages.add((host.split(":")[0], "/" + path))
        names = [f"s{i}.{DOMAIN}" for i in range(hosts)] + [f"x{i}.elsewhere.test" for i in range(3)]
        self.hosts_file = os.path.join(tmp, "hosts")
        with open(self.hosts_file, "w") as f:
            # every name the web links to is here and on loopback: no lookup leaves the machine
            f.write("127.0.0.1 localhost\n::1 localhost\n127.0.0.1 " + " ".join(names) + "\n")
        self.proc = None

    def seed(self):
        return f"http://s0.{DOMAIN}:{self.port}/"

    def origins(self):
        return [f"http://s{i}.{DOMAIN}:{self.port}" for i in range(1, self.hosts)]

    def start(self):
        self.log = os.path.join(self.tmp, "access.log")
        if os.path.exists(self.log):
            os.unlink(self.log)
        conf = os.path.join(self.tmp, "nginx.conf")
        t = self.tmp
        with open(conf, "w") as f:
            f.write(f"""daemon off;
worker_processes 1;
pid {t}/nginx.pid;
error_log {t}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  log_format bench '$msec $request_time $host $request_uri $status $request_method';
  access_log {self.log} bench buffer=256k flush=1s;
  client_body_temp_path {t}/body; proxy_temp_path {t}/proxy; fastcgi_temp_path {t}/fastcgi;
  uwsgi_temp_path {t}/uwsgi; scgi_temp_path {t}/scgi;
  sendfile on;
  keepalive_requests 1000000;
  server {{
    listen 127.0.0.1:{self.port} backlog=4096;
    root {self.root}/$host;
    location ~ ^/r/0$ {{ return 301 /; }}
    location ~ ^/r/(\\d+)$ {{ return 301 /p/$1.html; }}
  }}
}}
""")
        self.proc = subprocess.Popen(["nginx", "-c", conf, "-p", t], stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start")

    def stop(self):
        """Stops nginx; returns its log as (start, end, host, path, status). self.cpu is then the
        CPU seconds nginx spent, its worker's included."""
        self.proc.send_signal(signal.SIGQUIT)  # graceful: the log buffer is written out
        _, _, usage = os.wait4(self.proc.pid, 0)  # the master's figures hold the reaped worker's
        self.proc.returncode = 0
        self.cpu = usage.ru_utime + usage.ru_stime
        rows = []
        with open(self.log) as f:
            for line in f:
                end, took, host, path, status, _method = line.split()
                rows.append((float(end) - float(took), float(end), host, path, int(status)))
        return rows


def timed(site, cmd, cwd, env=None):
    """Runs cmd with the site's names in /etc/hosts (a private mount namespace), under
    /usr/bin/time: (wall s, CPU s, peak RSS KiB, exit status)."""
    fmt = "BENCH %e %U %S %M"
    inner = ["/usr/bin/time", "-f", fmt, *cmd]
    wrapped = ["unshare", "-m", "--propagation", "private", "sh", "-c",
               'mount --bind "$0" /etc/hosts && exec "$@"', site.hosts_file, *inner]
    started = time.monotonic()
    p = subprocess.run(wrapped, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - started
    m = re.search(r"BENCH (\S+) (\S+) (\S+) (\d+)", p.stderr)
    if not m:
        raise RuntimeError(f"{cmd[0]} gave no figures: {p.stderr[-500:]}")
    return wall, float(m.group(2)) + float(m.group(3)), int(m.group(4)), p.returncode


def installed(name, cmd, env):
    if name == "spider-rs":
        return os.path.isdir(os.path.join(env["NODE_PATH"], "@spider-rs", "spider-rs"))
    return shutil.which(cmd[0]) is not None


def crawlers(site, crawl, spider_dir):
    seed = site.seed()
    runs = {
        "crawl -j 1": ([crawl, "-q", "-j", "1", "-w", "0", "-d", "1000", "-D", DOMAIN, seed], None),
        "crawl -j 2": ([crawl, "-q", "-j", "2", "-w", "0", "-d", "1000", "-D", DOMAIN, seed], None),
        "wget2": (["wget2", "-q", "-r", "--delete-after", "--max-threads", "16", "-H", "-D",
                   DOMAIN, "-e", "robots=on", "-l", "inf", seed], None),
        "spider-rs": (["node", os.path.join(HERE, "peers", "spider.js"), seed, *site.origins()],
                      dict(os.environ, NODE_PATH=os.path.join(spider_dir, "node_modules"))),
        "scrapy": (["/usr/bin/scrapy", "runspider", os.path.join(HERE, "peers", "scrapy_spider.py"),
                    "-a", f"start={seed}", "-a", f"domain={DOMAIN}"], None),
    }
    return runs


def server_rate(site):
    site.start()
    out = subprocess.run(["wrk", "-t1", "-c32", "-d3s", "-H", f"Host: s3.{DOMAIN}",
                          f"http://127.0.0.1:{site.port}/p/7.html"],
                         capture_output=True, text=True).stdout
    site.stop()
    m = re.search(r"Requests/sec:\s+(\S+)", out)
    return float(m.group(1)) if m else float("nan")


def floor(site, bench_floor):
    names = [os.path.join(site.root, host, "index.html" if path == "/" else path[1:])
             for host, path in sorted(site.truth_pages)]
    out = subprocess.run([bench_floor], input="\n".join(names) + "\n", capture_output=True,
                         text=True, check=True).stdout
    return dict((k, float(v)) for k, v in (line.split() for line in out.splitlines()))


def transfers_floor(site, crawl, bench_fetch, rounds):
    """libcurl alone making the requests crawl makes (bench_fetch): CPU ms per page, median."""
    work = tempfile.mkdtemp(dir=site.tmp)
    site.start()
    timed(site, crawlers(site, crawl, "")["crawl -j 1"][0], work)
    log = site.stop()
    shutil.rmtree(work, ignore_errors=True)
    urls = "".join(f"http://{h}:{site.port}{p}\n" for _, _, h, p, _ in log)
    cpus = []
    for _ in range(rounds):
        site.start()
        out = subprocess.run([bench_fetch, "127.0.0.1"], input=urls, capture_output=True,
                             text=True, check=True).stdout
        site.stop()
        got = dict(line.split() for line in out.splitlines())
        cpus.append(float(got["cpu_s"]) * 1000 / len(site.truth_pages))
    return statistics.median(cpus), len(log)


def main():
    args = sys.argv[1:]
    crawl, testweb, bench_floor = (os.path.abspath(a) for a in args[:3])
    quick = "--quick" in args
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else (1 if quick else 3)
    only = args[args.index("--only") + 1].split(",") if "--only" in args else None
    spider_dir = os.path.abspath(args[args.index("--spider") + 1] if "--spider" in args
                                 else os.path.join(HERE, "..", "build", "peers"))
    hosts, pages = (20, 100) if quick else (20, 500)
    page_bytes = int(args[args.index("--page-bytes") + 1]) if "--page-bytes" in args else 8192
    links = int(args[args.index("--links") + 1]) if "--links" in args else 30
    tmp = tempfile.mkdtemp(prefix="crawl-peers-")
    os.chmod(tmp, 0o755)  # nginx's workers run as www-data
    try:
        site = Site(tmp, testweb, hosts, pages, links=links, page_bytes=page_bytes)
        runs = crawlers(site, crawl, spider_dir)
        names = [n for n in runs if (not only or n in only) and installed(n, *runs[n])]
        missing = [n for n in runs if (not only or n in only) and n not in names]
        rate = server_rate(site) if shutil.which("wrk") else float("nan")
        fl = floor(site, bench_floor)
        bench_fetch = os.path.join(os.path.dirname(bench_floor), "bench_fetch")
        fetch_ms, fetch_requests = transfers_floor(site, crawl, bench_fetch, rounds)
        results = {n: [] for n in names}
        for r in range(rounds):
            for name in names:
                cmd, env = runs[name]
                work = tempfile.mkdtemp(dir=tmp)
                site.start()
                wall, cpu, rss, rc = timed(site, cmd, work, env)
                log = site.stop()
                shutil.rmtree(work, ignore_errors=True)
                got = {(h, p) for _, _, h, p, st in log if st == 200 and (h, p) in site.truth_pages}
                n = len(got)
                results[name].append(dict(wall=wall, pps=n / wall, cpu_ms=cpu * 1000 / max(n, 1),
                                          rss=rss / 1024, requests=len(log),
                                          server=site.cpu / wall,
                                          recall=n / len(site.truth_pages), rc=rc))
                print(f"round {r + 1} {name}: {n} pages, {wall:.2f} s, CPU {cpu:.2f} s, "
                      f"{rss / 1024:.1f} MiB, {len(log)} requests, exit {rc}", file=sys.stderr)
        print(f"web: {hosts} hosts x {pages} pages of about {page_bytes // 1024} KB and {links} "
              f"links, served by nginx "
              f"(1 worker); {len(site.truth_pages):,} HTML pages in the ground truth")
        print(f"nginx alone (wrk, 32 keep-alive connections): {rate:,.0f} requests/s")
        print(f"floor, libxml2's bare push parser: {fl['floor_ms']:.3f} ms CPU per page; "
              f"crawl's link extraction on the same pages: {fl['parse_html_ms']:.3f} ms")
        print(f"transfers alone, libcurl making crawl's {fetch_requests:,} requests (bench_fetch): "
              f"{fetch_ms:.3f} ms CPU per page; with the parser's floor {fl['floor_ms'] + fetch_ms:.3f}"
              f" ms ({(fl['floor_ms'] + fetch_ms) / fl['floor_ms']:.1f} x the floor)")
        print(f"medians of {rounds} interleaved round(s)"
              + (f"; not installed: {', '.join(missing)}" if missing else "") + "\n")
        print("| crawler | wall s | pages/s | CPU ms per page | CPU / floor | peak RSS MiB "
              "| requests | recall | nginx busy |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name in names:
            rs = results[name]
            med = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
            print(f"| {name} | {med['wall']:.2f} | {med['pps']:,.0f} | {med['cpu_ms']:.3f} "
                  f"| {med['cpu_ms'] / fl['floor_ms']:.1f} | {med['rss']:.1f} "
                  f"| {med['requests']:,.0f} | {med['recall']:.3f} | {med['server']:.0%} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
