#!/usr/bin/env python3
"""Peers on one real server: crawl, wget2, spider-rs and Scrapy crawl the same static webs.

Four webs, one after the other in one run, each served by Debian's nginx on a loopback port
chosen at run time:
- test: the test web written out as files (`testweb export`: 20 hosts x 500 pages of about 8 KB
  and 30 links, robots.txt on every host), whose pages also link PDFs, images, redirects and
  missing pages: 1.4 other requests a page;
- html: the same shape with links to pages alone (`testweb export --html-only`): ordinary HTML,
  one request a page;
- big: the html web grown to 20 hosts x 5,000 pages (100,000 pages), or with --large to 20 x
  50,000 (1,000,000 pages, some 12 GB of files): the lead must hold as the crawl grows;
- python: a real site, the Python manual of Debian's python3-doc, served under four host names
  (docs0.python.test ...), one seed each; its ground truth is every page reachable from the
  index by links (Python's html.parser reads them). Every crawler reaches every host by its name, as its users' crawlers reach
the internet: the names are in an /etc/hosts bind-mounted inside a private mount namespace
(`unshare -m`), which nothing outside the run sees; no proxy, one connection per host as each
crawler chooses. Same scope (the web's domain), robots.txt obeyed, no delay.

Rounds interleave the crawlers (crawl, wget2, spider-rs, Scrapy, then again), and the table gives
each one's medians: wall time, HTML pages per second, CPU ms per page, peak RSS, requests, and
recall (the ground truth's HTML pages that the crawler received). Beside them, in the same run,
the server's own rate (wrk), the floor the HTML parser sets (libxml2's bare parser on the
same pages, bench_floor), and the floor the transfers set (libcurl making the requests crawl
makes and nothing else, bench_fetch): the two together are the least a crawler built on libcurl
and libxml2 could spend per page.

Usage: bench_peers.py CRAWL TESTWEB BENCH_FLOOR [--quick] [--rounds N] [--only NAME,...]
                      [--webs test,html,big,python] [--slow] [--large] [--page-bytes N]
                      [--links N] [--pages N] [--other-share PCT]
(--slow adds Scrapy, which takes minutes a web; --pages sets the pages per host of test and html)
(--page-bytes, --links and --other-share change the web's shape: larger pages cost the crawlers
more per request and nginx hardly more, so the web's server is further from being the
bottleneck; --other-share is the percent of html's and big's links that lead to other hosts)
                      [--spider DIR] [--baseline CRAWL]
(--baseline adds a row "baseline -j 2": another build of crawl, run in the same rounds, so that a
change is measured against what it replaces in one sitting)
(bench_fetch, libcurl making crawl's requests alone, is taken from BENCH_FLOOR's folder)
(run as root: unshare -m and mount need it; bench/run.sh installs the peers, spider-rs with npm
into DIR, by default build/peers; a peer that is not installed is reported as such)
"""
import html.parser
import os
import posixpath
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = re.compile(r"^/(p/\d+\.html)?$")
PYTHON_DOC = "/usr/share/doc/python3.11/html"  # Debian 12's python3-doc
PYTHON_HOSTS = 4


class Links(html.parser.HTMLParser):
    """The hrefs of a page's a, area, link, frame and iframe elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = []

    def handle_starttag(self, tag, attrs):
        want = {"a": "href", "area": "href", "link": "href", "frame": "src", "iframe": "src"}
        if tag in want:
            self.found += [v for k, v in attrs if k == want[tag] and v]


def manual_truth(root):
    """The manual's pages reachable from its index by links: their paths ("/" for the index)."""
    seen, todo = {"/"}, ["/"]
    while todo:
        path = todo.pop()
        name = os.path.join(root, "index.html" if path.endswith("/") else path[1:])
        if path.endswith("/") and path != "/":
            name = os.path.join(root, path[1:], "index.html")
        try:
            with open(name, encoding="utf-8", errors="replace") as f:
                parser = Links()
                parser.feed(f.read())
        except OSError:
            continue
        for href in parser.found:
            target = urllib.parse.urlsplit(urllib.parse.urljoin("http://h" + path, href))
            if target.scheme != "http" or target.netloc != "h":
                continue
            p = posixpath.normpath(target.path) + ("/" if target.path.endswith("/") else "")
            p = p.replace("//", "/")
            if not (p.endswith(".html") or p.endswith("/")) or p in seen:
                continue
            file = os.path.join(root, p[1:], "index.html") if p.endswith("/") else \
                os.path.join(root, p[1:])
            if os.path.isfile(file):
                seen.add(p)
                todo.append(p)
    return seen


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    """One web, its ground truth, and nginx serving it (started anew for each run)."""

    def __init__(self, tmp, web, testweb, hosts, pages, links, page_bytes, other_share=22):
        self.tmp, self.web = tmp, web
        self.port = free_port()
        self.root = os.path.join(tmp, "web")
        self.truth_pages = set()
        if web == "python":
            self.domain = "python.test"
            self.names = [f"docs{i}.{self.domain}" for i in range(PYTHON_HOSTS)]
            os.makedirs(self.root)
            for name in self.names:  # each name serves the same manual
                os.symlink(PYTHON_DOC, os.path.join(self.root, name))
            paths = manual_truth(PYTHON_DOC)
            self.truth_pages = {(name, p) for name in self.names for p in paths}
            self.sample = "/library/os.html"
            self.describe = (f"the Python manual (python3-doc, {len(paths)} pages reachable from "
                             f"its index) under {PYTHON_HOSTS} host names, one seed each")
        else:
            self.domain = "web.test"
            self.names = [f"s{i}.{self.domain}" for i in range(hosts)]
            only = ["--html-only", "--other-share", str(other_share)] if web in ("html", "big") \
                else []
            args = ["--hosts", str(hosts), "--pages", str(pages), "--links", str(links),
                    "--port", str(self.port), *only]
            subprocess.run([testweb, "export", *args, "--page-bytes", str(page_bytes), self.root],
                           check=True)
            truth = subprocess.run([testweb, "truth", *args, self.seeds()[0]], check=True,
                                   capture_output=True, text=True).stdout
            for line in truth.splitlines():
                url, fate, _ = line.split()
                host, path = url[len("http://"):].split("/", 1)
                if fate == "fetched" and PAGE.match("/" + path):
                    self.truth_pages.add((host.split(":")[0], "/" + path))
            self.sample = "/p/7.html"
            what = (f"links to pages alone, {other_share}% to the other hosts"
                    if web in ("html", "big") else
                    "PDFs, images, redirects and missing pages among the links")
            self.describe = (f"{hosts} hosts x {pages} pages of about {page_bytes // 1024} KB and "
                             f"{links} links, {what}")
        elsewhere = [f"x{i}.elsewhere.test" for i in range(3)]
        self.hosts_file = os.path.join(tmp, "hosts")
        with open(self.hosts_file, "w") as f:
            # every name the web links to is here and on loopback: no lookup leaves the machine
            f.write("127.0.0.1 localhost\n::1 localhost\n127.0.0.1 " +
                    " ".join(self.names + elsewhere) + "\n")
        self.resolv_file = os.path.join(tmp, "resolv.conf")
        with open(self.resolv_file, "w") as f:
            f.write("nameserver 127.0.0.1\n")  # nothing listens there: a refusal, at once
        self.nsswitch_file = os.path.join(tmp, "nsswitch.conf")
        with open(self.nsswitch_file, "w") as f:
            f.write("hosts: files\n")
        self.proc = None

    def seeds(self):
        """The seeds: the first host's root, or every host's for a web whose hosts do not link
        one another."""
        names = self.names if self.web == "python" else self.names[:1]
        return [f"http://{name}:{self.port}/" for name in names]

    def origins(self):
        return [f"http://{name}:{self.port}" for name in self.names[1:]]

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
    # names are looked up in that /etc/hosts alone: a crawler that asks for a name the web does
    # not serve (wget2 resolves the hosts of out-of-scope links) gets no answer at once, and no
    # query leaves the machine
    wrapped = ["unshare", "-m", "--propagation", "private", "sh", "-c",
               'mount --bind "$0" /etc/hosts && mount --bind "$1" /etc/resolv.conf && '
               'mount --bind "$2" /etc/nsswitch.conf && shift 2 && exec "$@"',
               site.hosts_file, site.resolv_file, site.nsswitch_file, *inner]
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


def crawlers(site, crawl, spider_dir, baseline=None):
    seeds, domain = site.seeds(), site.domain
    runs = {
        "crawl -j 1": ([crawl, "-q", "-j", "1", "-w", "0", "-d", "1000", "-D", domain, *seeds],
                       None),
        "crawl -j 2": ([crawl, "-q", "-j", "2", "-w", "0", "-d", "1000", "-D", domain, *seeds],
                       None),
        # on a web whose hosts are all seeds wget2 needs no -H: with -H -D, 1.99.1 looks up the
        # names of the Python manual's out-of-scope links and then never ends
        "wget2": (["wget2", "-q", "-r", "--delete-after", "--max-threads", "16",
                   *([] if len(seeds) > 1 else ["-H", "-D", domain]), "-e", "robots=on", "-l",
                   "inf", *seeds], None),
        "spider-rs": (["node", os.path.join(HERE, "peers", "spider.js"), ",".join(seeds),
                       *site.origins()],
                      dict(os.environ, NODE_PATH=os.path.join(spider_dir, "node_modules"))),
        "scrapy": (["/usr/bin/scrapy", "runspider", os.path.join(HERE, "peers", "scrapy_spider.py"),
                    "-a", f"start={','.join(seeds)}", "-a", f"domain={domain}"], None),
    }
    if baseline:
        runs["baseline -j 2"] = ([baseline, *runs["crawl -j 2"][0][1:]], None)
    return runs


def server_rate(site):
    site.start()
    out = subprocess.run(["wrk", "-t1", "-c32", "-d3s", "-H", f"Host: {site.names[-1]}",
                          f"http://127.0.0.1:{site.port}{site.sample}"],
                         capture_output=True, text=True).stdout
    site.stop()
    m = re.search(r"Requests/sec:\s+(\S+)", out)
    return float(m.group(1)) if m else float("nan")


FLOOR_SAMPLE = 20000  # pages bench_floor parses at most: it holds them all in memory


def floor(site, bench_floor):
    """The parser's CPU per page, on every page of the web or, past FLOOR_SAMPLE, on every k-th:
    the million-page web whole would take 8 GB and a quarter of an hour."""
    names = [os.path.join(site.root, host, path[1:] + "index.html" if path.endswith("/")
                          else path[1:]) for host, path in sorted(site.truth_pages)]
    names = names[::max(1, -(-len(names) // FLOOR_SAMPLE))]
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


def run_web(site, crawl, bench_floor, spider_dir, rounds, only, slow, baseline):
    """Every crawler on one web, in interleaved rounds; prints the web's table."""
    runs = crawlers(site, crawl, spider_dir, baseline)
    wanted = [n for n in runs if (not only or n in only) and (slow or n != "scrapy" or only)]
    names = [n for n in wanted if installed(n, *runs[n])]
    missing = [n for n in wanted if n not in names]
    rate = server_rate(site) if shutil.which("wrk") else float("nan")
    fl = floor(site, bench_floor)
    bench_fetch = os.path.join(os.path.dirname(bench_floor), "bench_fetch")
    fetch_ms, fetch_requests = transfers_floor(site, crawl, bench_fetch, rounds)
    results = {n: [] for n in names}
    for r in range(rounds):
        for name in names:
            cmd, env = runs[name]
            work = tempfile.mkdtemp(dir=site.tmp)
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
            print(f"{site.web} round {r + 1} {name}: {n} pages, {wall:.2f} s, CPU {cpu:.2f} s, "
                  f"{rss / 1024:.1f} MiB, {len(log)} requests, exit {rc}", file=sys.stderr)
    print(f"## web '{site.web}': {site.describe}; served by nginx (1 worker); "
          f"{len(site.truth_pages):,} HTML pages in the ground truth\n")
    print(f"nginx alone (wrk, 32 keep-alive connections): {rate:,.0f} requests/s")
    print(f"floor, libxml2's bare parser: {fl['floor_ms']:.3f} ms CPU per page; "
          f"crawl's link extraction on the same pages: {fl['parse_html_ms']:.3f} ms")
    print(f"transfers alone, libcurl making crawl's {fetch_requests:,} requests (bench_fetch): "
          f"{fetch_ms:.3f} ms CPU per page; with the parser's floor {fl['floor_ms'] + fetch_ms:.3f}"
          f" ms ({(fl['floor_ms'] + fetch_ms) / fl['floor_ms']:.1f} x the floor)")
    print(f"medians of {rounds} interleaved round(s)"
          + (f"; not installed: {', '.join(missing)}" if missing else "")
          + ("" if slow or only else "; Scrapy with --slow") + "\n")
    print("| crawler | wall s | pages/s | CPU ms per page | CPU / floor | peak RSS MiB "
          "| requests | recall | nginx busy |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        rs = results[name]
        med = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
        print(f"| {name} | {med['wall']:.2f} | {med['pps']:,.0f} | {med['cpu_ms']:.3f} "
              f"| {med['cpu_ms'] / fl['floor_ms']:.1f} | {med['rss']:.1f} "
              f"| {med['requests']:,.0f} | {med['recall']:.3f} | {med['server']:.0%} |")
    print(flush=True)


def main():
    args = sys.argv[1:]
    crawl, testweb, bench_floor = (os.path.abspath(a) for a in args[:3])
    quick = "--quick" in args
    slow = "--slow" in args
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else (1 if quick else 3)
    only = args[args.index("--only") + 1].split(",") if "--only" in args else None
    webs = args[args.index("--webs") + 1].split(",") if "--webs" in args else \
        ["test", "html", "big", "python"]
    spider_dir = os.path.abspath(args[args.index("--spider") + 1] if "--spider" in args
                                 else os.path.join(HERE, "..", "build", "peers"))
    hosts = 20
    pages = int(args[args.index("--pages") + 1]) if "--pages" in args else (100 if quick else 500)
    big_pages = 50000 if "--large" in args else 500 if quick else 5000
    page_bytes = int(args[args.index("--page-bytes") + 1]) if "--page-bytes" in args else 8192
    links = int(args[args.index("--links") + 1]) if "--links" in args else 30
    other_share = int(args[args.index("--other-share") + 1]) if "--other-share" in args else 22
    baseline = os.path.abspath(args[args.index("--baseline") + 1]) if "--baseline" in args \
        else None
    for web in webs:
        if web not in ("test", "html", "big", "python"):
            sys.exit(f"bench_peers: no web '{web}' (test, html, big, python)")
        if web == "python" and not os.path.isdir(PYTHON_DOC):
            print(f"## web 'python': skipped, {PYTHON_DOC} is missing (apt-get install "
                  "python3-doc; bench/run.sh does)\n", flush=True)
            continue
        tmp = tempfile.mkdtemp(prefix="crawl-peers-")
        os.chmod(tmp, 0o755)  # nginx's workers run as www-data
        try:
            site = Site(tmp, web, testweb, hosts, big_pages if web == "big" else pages, links=links,
                        page_bytes=page_bytes, other_share=other_share)
            run_web(site, crawl, bench_floor, spider_dir, rounds, only, slow, baseline)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
