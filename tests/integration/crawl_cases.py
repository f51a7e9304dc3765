#!/usr/bin/env python3
"""Integration tests: crawl the loopback test web and compare with its ground truth.

Each case starts its own testweb (HTTP and DNS on ports the kernel picks), runs crawl with a
command line, and checks what a user relies on: the printed set, the fates, what the server saw.
Usage: crawl_cases.py CRAWL TESTWEB CASE
With CRAWL_TEST_THREADS=N in the environment, every crawl the case runs gets -j N first: the
suite runs each case with -j 1 and with -j 4, and each must give the same results.
"""
import contextlib
import datetime
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

CRAWL, TESTWEB = (sys.argv + ["", ""])[1:3]
KEEP = os.environ.get("CRAWL_TEST_KEEP")  # keep each case's directory to look into
BUILT_CRAWL = CRAWL  # the binary itself, even when CRAWL is the -j wrapper


class Web:
    """A running testweb; its request log is read after it stops."""

    def __init__(self, tmp, hosts=4, pages=60, links=6, seed=1):
        self.args = ["--hosts", str(hosts), "--pages", str(pages), "--links", str(links),
                     "--seed", str(seed)]
        self.log_path = os.path.join(tmp, "server.log")
        self.proc = subprocess.Popen([TESTWEB, "serve", *self.args, "--log", self.log_path,
                                      "--max-seconds", "120"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        ports = dict(self.proc.stdout.readline().split() for _ in range(2))
        self.port, self.dns = int(ports["http"]), int(ports["dns"])
        self.log = None

    def url(self, host="s0", path="/"):
        return f"http://{host}.web.test:{self.port}{path}"

    def truth(self, *seeds, depth=None, scope="domain", robots=True, sitemaps=False,
              no_parent=False, outside=False, **filters):
        """What a crawl from seeds prints, {url: (fate, depth)}; filters are crawl's options of
        the same names (domains, exclude_domains, match, exclude, max_url_length), one each."""
        cmd = [TESTWEB, "truth", *self.args, "--port", str(self.port), "--scope", scope]
        for name, value in filters.items():
            cmd += ["--" + name.replace("_", "-"), str(value)]
        if sitemaps:
            cmd.append("--sitemaps")
        if no_parent:
            cmd.append("--no-parent")
        if outside:  # links out of scope, with the fate outside
            cmd.append("--outside")
        if depth is not None:
            cmd += ["--depth", str(depth)]
        if not robots:
            cmd.append("--no-robots")
        out = subprocess.run(cmd + list(seeds), check=True, capture_output=True, text=True).stdout
        return {u: (fate, int(d)) for u, fate, d in (line.split() for line in out.splitlines())}

    def stop(self):
        """The requests the server answered, as (start, end, host, path, status); the HEAD ones
        are in self.heads as (host, path) too."""
        if self.log is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=10)
            self.log, self.heads = [], []
            with open(self.log_path) as f:
                for line in f:
                    start, end, host, path, status, method = line.split()
                    self.log.append((float(start), float(end), host, path, int(status)))
                    if method == "HEAD":
                        self.heads.append((host, path))
        return self.log


def crawl(web, *args, dns=True, timeout=60, check=True):
    cmd = [CRAWL, "--no-progress"] + (["--dns-server", f"127.0.0.1:{web.dns}"] if dns else [])
    cmd += list(args)
    started = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    p.elapsed = time.monotonic() - started
    if check and p.returncode != 0:
        raise AssertionError(f"crawl exited {p.returncode}: {p.stderr}")
    return p


def lines(p):
    return p.stdout.splitlines()


def records(p, outside=False):
    """A crawl's --jsonl records; those of links out of scope only when asked (most cases check
    the crawl of the scope; outside_links checks them against the truth)."""
    return inside([json.loads(line) for line in p.stdout.splitlines()], outside)


def inside(recs, outside=False):
    return recs if outside else [r for r in recs if r["fate"] != "outside"]


def expect(cond, message):
    if not cond:
        raise AssertionError(message)


def expect_same_set(got, want, what):
    got, want = set(got), set(want)
    missing, extra = sorted(want - got), sorted(got - want)
    expect(not missing and not extra,
           f"{what}: {len(missing)} missing {missing[:5]}, {len(extra)} extra {extra[:5]}")


def expect_unique(items, what):
    seen, dup = set(), []
    for i in items:
        if i in seen:
            dup.append(i)
        seen.add(i)
    expect(not dup, f"{what} printed twice: {dup[:5]}")


def warc_records(path):
    """The records of a WARC file as webrecorder's warcio (npm) reads them, each with whether its
    digests hold (tests/integration/warc_check.mjs); scripts/install-deps.sh --tests installs it into
    .deps/ beside the sources, so the tests need no registry."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    where = os.path.join(root, ".deps", "npm-warcio")
    expect(os.path.exists(os.path.join(where, "node_modules", "warcio", "package.json")),
           f"warcio is not installed in {where}: run scripts/install-deps.sh --tests")
    expect(shutil.which("node"), "node is needed (nodejs): run scripts/install-deps.sh")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "warc_check.mjs")
    p = subprocess.run(["node", script, where, path], capture_output=True, text=True, timeout=120)
    expect(p.returncode == 0, f"warcio could not read {path}: {p.stderr[-800:]}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def expect_whole_warc(recs, what):
    """Every digest holds, every request points at a response of the same URI."""
    expect(recs and recs[0]["type"] == "warcinfo", f"{what}: the first record is not warcinfo")
    bad = [r["uri"] for r in recs if r["blockOk"] is False or r.get("payloadOk") is False]
    expect(not bad, f"{what}: digests that do not hold: {bad[:5]}")
    responses = {r["id"]: r for r in recs if r["type"] == "response"}
    requests = [r for r in recs if r["type"] == "request"]
    expect(len(requests) == len(responses), f"{what}: {len(requests)} requests, "
           f"{len(responses)} responses")
    orphans = [r["uri"] for r in requests
               if r["concurrentTo"] not in responses or responses[r["concurrentTo"]]["uri"] != r["uri"]]
    expect(not orphans, f"{what}: requests without their response: {orphans[:5]}")
    return list(responses.values())


# ---- cases ----

def case_full_crawl(tmp):
    """The printed set is the ground truth; robots.txt first and obeyed; nothing out of scope."""
    web = Web(tmp, hosts=6, pages=80)
    p = crawl(web, "-w", "0", "-d", "1000", web.url())
    log = web.stop()
    got = lines(p)
    expect_unique(got, "URL")
    expect_same_set(got, web.truth(web.url()), "printed set")
    expect(not [r for r in log if r[3].startswith("/private/")], "a robots-disallowed path was requested")
    expect(not [r for r in log if "elsewhere" in r[2]], "an out-of-scope host was requested")
    first = {}
    for r in sorted(log):
        first.setdefault(r[2], r[3])
    expect(all(path == "/robots.txt" for path in first.values()), f"robots.txt not first: {first}")
    requested = [(r[2], r[3]) for r in log]
    expect_unique(requested, "request")
    expect("pages fetched" in p.stderr, "no summary on standard error")


def case_queue_spills(tmp):
    """--queue-memory 1: the queue spills to a temporary file and still gives every URL, with its
    fate, each page requested once and robots.txt first; the file is gone at the end."""
    web = Web(tmp, hosts=4, pages=400)
    spill_dir = os.path.join(tmp, "spill")
    os.mkdir(spill_dir)
    env = dict(os.environ, TMPDIR=spill_dir)
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "1000",
           "--queue-memory", "1", "--jsonl", web.url()]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    log = web.stop()
    expect(p.returncode == 0, f"crawl exited {p.returncode}: {p.stderr}")
    recs = records(p)
    expect_unique([r["url"] for r in recs], "record")
    truth = web.truth(web.url())
    expect_same_set([r["url"] for r in recs], truth, "records")
    for r in recs:
        expect(r["fate"] == truth[r["url"]][0], f"{r['url']}: fate {r['fate']}")
    expect_unique([(r[2], r[3]) for r in log], "request")
    expect(os.listdir(spill_dir) == [], f"left behind: {os.listdir(spill_dir)}")
    expect("waited on disk" in p.stderr, f"nothing spilled: {p.stderr}")
    # no temporary file to be had: the queue stays in memory, nothing is lost, and it says so
    web = Web(tmp, hosts=4, pages=400)
    env = dict(os.environ, TMPDIR=os.path.join(tmp, "missing"))
    cmd[3] = f"127.0.0.1:{web.dns}"
    cmd[-1] = web.url()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    web.stop()
    expect(p.returncode == 0, f"no spill file: exit {p.returncode}: {p.stderr}")
    expect_same_set([r["url"] for r in records(p)], web.truth(web.url()), "no spill file")
    expect(re.search(r"\d+ queued URLs stayed in memory past --queue-memory: the temporary file "
                     r"in \S+missing could not take them \(No such file or directory\)", p.stderr),
           f"no spill file: {p.stderr}")
    # and at once, while the crawl runs: before the summary, once
    warned = [n for n, line in enumerate(p.stderr.splitlines())
              if "spill file in" in line and "missing cannot be written (No such file or "
              "directory): queued URLs stay in memory past --queue-memory" in line]
    summary = [n for n, line in enumerate(p.stderr.splitlines()) if "pages fetched" in line]
    expect(len(warned) == 1 and summary and warned[0] < summary[0],
           f"no spill file, said at once: {p.stderr}")


def case_queue_disk_budget(tmp):
    """--queue-disk: a spill file budget small enough to be reached. The URLs found once the file
    is full are printed but not queued, fate limit with the option in error, and counted in the
    summary; the crawl ends by itself, every record once, every fetched one a request, and the
    rest as the ground truth has them."""
    web = Web(tmp, hosts=2, pages=400)
    spill_dir = os.path.join(tmp, "spill")
    os.mkdir(spill_dir)
    env = dict(os.environ, TMPDIR=spill_dir)
    shards = int(os.environ.get("CRAWL_TEST_THREADS") or 1)
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "1000",
           "-j", str(shards), "--queue-memory", "1", "--queue-disk", "6k", "--jsonl", web.url()]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    # the spill files, unlinked, are still open: their sizes through /proc, as the crawl runs
    most = 0
    import threading
    out = {}
    reader = threading.Thread(target=lambda: out.update(zip(("out", "err"), proc.communicate())))
    reader.start()
    while proc.poll() is None:
        try:
            for fd in os.listdir(f"/proc/{proc.pid}/fd"):
                path = f"/proc/{proc.pid}/fd/{fd}"
                if "crawl-queue-" in os.readlink(path):
                    most = max(most, os.stat(path).st_size)
        except OSError:
            pass  # a descriptor closed meanwhile, or the process gone
        time.sleep(0.002)
    reader.join(timeout=60)
    log = web.stop()
    p = subprocess.CompletedProcess(cmd, proc.returncode, out.get("out", ""), out.get("err", ""))
    expect(p.returncode == 0, f"crawl exited {p.returncode}: {p.stderr}")
    expect(6144 // shards // 2 < most <= 6144 // shards,
           f"a spill file of {most} bytes, for a budget of {6144 // shards} a shard")
    recs = records(p)
    expect_unique([r["url"] for r in recs], "record")
    full = [r for r in recs if r["fate"] == "limit"]
    expect(full and all(r.get("error", "").startswith("--queue-disk") for r in full),
           f"limit records {full[:3]}")
    expect(f"{len(full)} URLs not queued" in p.stderr and "waited on disk" in p.stderr,
           f"summary: {p.stderr}")
    requested = {f"http://{h}:{web.port}{path}" for _, _, h, path, _ in log if path != "/robots.txt"}
    expect_same_set({r["url"] for r in recs if r["fate"] in ("fetched", "failed")}, requested,
                    "fetched and failed records against the requests")
    truth = web.truth(web.url())
    odd = [(r["url"], r["fate"], truth.get(r["url"])) for r in recs if r["url"] not in truth
           or (r["fate"] != "limit" and truth[r["url"]][0] != r["fate"])]
    expect(not odd, f"records off the truth: {odd[:5]}")
    expect(os.listdir(spill_dir) == [], f"left behind: {os.listdir(spill_dir)}")


def case_jsonl_fates(tmp):
    """--jsonl: one record per printed URL, with the fate the ground truth gives it."""
    web = Web(tmp, hosts=3, pages=60)
    p = crawl(web, "-w", "0", "-d", "1000", "--jsonl", web.url())
    web.stop()
    recs = records(p)
    expect_unique([r["url"] for r in recs], "record")
    truth = web.truth(web.url())
    expect_same_set([r["url"] for r in recs], truth, "records")
    for r in recs:
        fate = truth[r["url"]][0]
        expect(r["fate"] == fate, f"{r['url']}: fate {r['fate']}, want {fate}")
        if r["fate"] == "fetched":
            expect(r["status"] in (200, 301) and r["bytes"] >= 0 and r["ms"] >= 0 and "type" in r,
                   f"fetched record lacks fields: {r}")
        if r["fate"] == "failed":
            expect(r["status"] == 404 and "error" in r, f"failed record: {r}")
        m = re.search(r"/r/(\d+)$", r["url"])
        if m:  # a redirect's record names its target
            target = r["url"][:m.start()] + ("/" if m.group(1) == "0" else f"/p/{m.group(1)}.html")
            expect(r.get("location") == target, f"redirect record: {r}")
        else:
            expect("location" not in r, f"location in a record that is no redirect: {r}")
        expect(r["from"] is None if r["url"] == web.url() else isinstance(r["from"], str),
               f"from: {r}")


def case_delay_respected(tmp):
    """No two requests to one host closer than --delay; hosts are crawled side by side."""
    web = Web(tmp, hosts=3, pages=20, links=4)
    delay = 0.05
    p = crawl(web, "-w", str(delay), "-d", "1000", web.url("s0"), web.url("s1"), web.url("s2"))
    log = web.stop()
    by_host = defaultdict(list)
    for start, end, host, path, status in log:
        by_host[host].append((start, end))
    for host, reqs in by_host.items():
        reqs.sort()
        for (s1, e1), (s2, e2) in zip(reqs, reqs[1:]):
            expect(s2 - e1 >= delay, f"{host}: gap {s2 - e1:.4f}s below {delay}s")
    sequential = sum(len(r) - 1 for r in by_host.values()) * delay
    expect(p.elapsed < 0.7 * sequential, f"took {p.elapsed:.2f}s, hosts not crawled side by side "
                                         f"(sequential would be {sequential:.2f}s)")


def case_ip_delay_across_hosts(tmp):
    """--ip-delay: every host of the test web is on 127.0.0.1, so all requests (robots.txt too)
    take turns, one at a time with the gap between, whichever shard owns each host; and every
    page is still fetched."""
    web = Web(tmp, hosts=6, pages=12, links=4, seed=5)
    gap = 0.03
    p = crawl(web, "-w", "0", "--ip-delay", str(gap), "-d", "1000", "--jsonl", web.url())
    log = sorted(web.stop())
    truth = web.truth(web.url())
    got = {r["url"]: r["fate"] for r in records(p)}
    expect(got == {u: fate for u, (fate, _) in truth.items()}, "fates differ from the truth")
    close = [(a, b) for a, b in zip(log, log[1:]) if b[0] - a[1] < gap - 0.001]
    expect(not close, f"{len(close)} of {len(log)} requests closer than {gap}s to the one "
                      f"before, e.g. {close[:2]}")


def answer(handler, body, ctype):
    """A whole 200 answer from a BaseHTTPRequestHandler, kept alive (HTTP/1.1)."""
    handler.send_response(200)
    handler.send_header("Content-Type", ctype)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def serve_threaded(handler_class, bind="127.0.0.1"):
    """A threaded HTTP server of the case's own on a loopback port: (server, port)."""
    import threading
    from http.server import ThreadingHTTPServer
    server = ThreadingHTTPServer((bind, 0), handler_class)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def case_concurrency_is_total(tmp):
    """-c N: at most N requests in flight in all, whatever the shards. A threaded server that
    takes 20 ms per answer counts the requests it holds at once: with -c 1 never two, with
    -c 4 more than one (so the count can see them); and the crawl still fetches every page."""
    import threading
    from http.server import BaseHTTPRequestHandler
    hosts = [f"h{i}.conc.test" for i in range(6)]
    state = {"now": 0, "most": 0, "pages": 0}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            with lock:
                state["now"] += 1
                state["most"] = max(state["most"], state["now"])
                state["pages"] += self.path != "/robots.txt"
            time.sleep(0.02)
            if self.path == "/robots.txt":
                body, ctype = b"User-agent: *\nDisallow:\n", "text/plain"
            else:
                links = "".join(f'<a href="http://{h}:{port}/p{k}">x</a>'
                                for h in hosts for k in range(2))
                body, ctype = f"<html><body>{links}</body></html>".encode(), "text/html"
            with lock:  # before the answer leaves: the client cannot have it yet
                state["now"] -= 1
            answer(self, body, ctype)

        def log_message(self, *args):
            pass

    server, port = serve_threaded(Handler)
    try:
        resolve = [a for h in hosts for a in ("--resolve", f"{h}:{port}:127.0.0.1")]
        for limit, want in (("1", lambda m: m == 1), ("4", lambda m: m > 1)):
            state.update(now=0, most=0, pages=0)
            cmd = [CRAWL, "--no-progress", "-q", "-w", "0", "-c", limit, "-D", "conc.test",
                   *resolve, f"http://h0.conc.test:{port}/"]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            expect(p.returncode == 0, f"-c {limit}: exit {p.returncode}: {p.stderr[-300:]}")
            expect(state["pages"] == 1 + 6 * 2, f"-c {limit}: {state['pages']} pages fetched")
            expect(want(state["most"]), f"-c {limit}: {state['most']} requests at once")
    finally:
        server.shutdown()


def case_idle_connections_closed(tmp):
    """A server that closes kept-alive connections after 50 ms idle, as many do (nginx's
    keepalive_timeout, shorter): with -w 0.25 every connection is closed while crawl waits for the
    host's next turn. Every page is still fetched, each on a new connection, and the wait costs no
    CPU: a closed idle connection must not wake the event loop again and again (crawl keeps idle
    sockets in its epoll set between requests)."""
    import resource
    import threading
    from http.server import BaseHTTPRequestHandler
    pages = 6
    state = {"connections": 0, "pages": 0}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 0.05  # idle this long, the connection is closed

        def setup(self):
            super().setup()
            with lock:
                state["connections"] += 1

        def do_GET(self):
            if self.path == "/robots.txt":
                body, ctype = b"User-agent: *\nDisallow:\n", "text/plain"
            else:
                with lock:
                    state["pages"] += 1
                k = int(self.path[2:] or 0) if self.path.startswith("/p") else 0
                body = f'<html><body><a href="/p{k + 1}">next</a></body></html>'.encode()
                if k + 1 >= pages:
                    body = b"<html><body>the end</body></html>"
                ctype = "text/html"
            answer(self, body, ctype)

        def log_message(self, *args):
            pass

    server, port = serve_threaded(Handler)
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        p = subprocess.run([CRAWL, "--no-progress", "-q", "-w", "0.25", "-d", "100", "--resolve",
                            f"idle.test:{port}:127.0.0.1", f"http://idle.test:{port}/p0"],
                           capture_output=True, text=True, timeout=60)
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr[-300:]}")
        expect(len(p.stdout.splitlines()) == pages, f"printed {p.stdout!r}")
        expect(state["pages"] == pages, f"{state['pages']} pages fetched")
        expect(state["connections"] >= pages, f"{state['connections']} connections: the server "
               "did not close them while crawl waited, so the case shows nothing")
        expect(cpu < 0.3 * wall, f"{cpu:.2f} s of CPU in {wall:.2f} s: the loop spun while waiting")
    finally:
        server.shutdown()


def case_depth_limit(tmp):
    """--depth N: pages up to N links deep are fetched; links on depth-N pages printed only."""
    web = Web(tmp, hosts=2, pages=200, links=4)
    for depth in (0, 1, 2):
        p = crawl(web, "-w", "0", "-d", str(depth), "--scope", "host", "--jsonl", web.url())
        truth = web.truth(web.url(), depth=depth, scope="host")
        recs = {r["url"]: r for r in records(p)}
        expect_same_set(recs, truth, f"depth {depth} records")
        for url, (fate, d) in truth.items():
            expect(recs[url]["fate"] == fate and recs[url]["depth"] == d,
                   f"depth {depth}: {url} is {recs[url]['fate']}/{recs[url]['depth']}, want {fate}/{d}")
    log = web.stop()
    expect(not [r for r in log if r[2].startswith("s1.")], "--scope host fetched another host")
    # a host whose URLs are all cut by depth is never contacted, not even for its robots.txt
    web = Web(tmp, hosts=4, pages=30)
    p = crawl(web, "-w", "0", "-d", "0", "--jsonl", web.url())
    log = web.stop()
    expect_same_set({r["url"] for r in records(p)}, web.truth(web.url(), depth=0), "-d 0")
    expect({r[2] for r in log} == {"s0.web.test"}, f"-d 0 requested {sorted(set(log))[:6]}")


def case_depth_breadth_first(tmp):
    """--depth across hosts whose delays interleave their pages: every URL gets its smallest
    depth, so the cut falls where a breadth-first crawl puts it (no page reachable in N links is
    left out, none deeper is fetched), for several webs. These webs have no redirect target that
    a link of the redirect's own level reaches too: which of the two comes first is a matter of
    timing, and the crawler keeps the first (see doc/behaviour.md, Depth)."""
    for seed in (7, 11, 14):
        web = Web(tmp, hosts=8, pages=80, seed=seed)
        p = crawl(web, "-w", "0.02", "-d", "3", "--jsonl", web.url())
        truth = web.truth(web.url(), depth=3)
        web.stop()
        recs = {r["url"]: r for r in records(p)}
        expect_same_set(recs, truth, f"web {seed}: records")
        wrong = [(u, recs[u]["fate"], recs[u]["depth"], fate, d) for u, (fate, d) in truth.items()
                 if (recs[u]["fate"], recs[u]["depth"]) != (fate, d)]
        expect(not wrong, f"web {seed}: fate/depth differ (got, want): {wrong[:3]}")


def expect_breadth_first(recs, log, truth, what):
    """Each URL one record, with the truth's fate and breadth-first depth; no page fetched twice
    (log: the server's)."""
    expect_unique([r["url"] for r in recs], f"{what}: record")
    got = {r["url"]: (r["fate"], r["depth"]) for r in recs}
    wrong = [(u, got.get(u), t) for u, t in truth.items() if got.get(u) != t]
    expect(not wrong and len(got) == len(truth),
           f"{what}: {len(wrong)} of {len(truth)} off, e.g. {wrong[:3]}")
    fetched = Counter((host, path) for _, _, host, path, _ in log)
    twice = [k for k, n in fetched.items() if n > 1]
    expect(not twice, f"{what}: fetched twice: {twice[:3]}")


def case_shards_cross_links(tmp):
    """-j 8 over 40 hosts whose pages link across hosts: most links cross from one shard to
    their host's owner. Every URL is printed once with the fate and the breadth-first depth of the
    truth, no page is fetched twice, and one shard prints the same set."""
    printed = {}
    for threads, delay, depth in (("8", "0", 1000), ("8", "0.01", 3), ("1", "0", 1000)):
        web = Web(tmp, hosts=40, pages=60, links=12, seed=31)
        p = crawl(web, "-j", threads, "-w", delay, "-d", str(depth), "--jsonl", web.url())
        log = web.stop()
        recs = records(p)
        what = f"-j {threads} -w {delay} -d {depth}"
        expect_breadth_first(recs, log, web.truth(web.url(), depth=depth), what)
        printed[(threads, depth)] = [r["url"].replace(f":{web.port}/", "/") for r in recs]
    expect_same_set(printed[("8", 1000)], printed[("1", 1000)], "-j 8 against -j 1")


def case_max_pages(tmp):
    """-n N: exactly N page responses (robots.txt not counted); the rest accounted as limit."""
    web = Web(tmp, hosts=4, pages=100)
    p = crawl(web, "-w", "0", "-d", "1000", "-n", "25", "--jsonl", web.url())
    log = web.stop()
    pages = [r for r in log if r[3] != "/robots.txt"]
    expect(len(pages) == 25, f"{len(pages)} page requests, want 25")
    recs = records(p)
    expect_unique([r["url"] for r in recs], "record")
    fates = defaultdict(int)
    for r in recs:
        fates[r["fate"]] += 1
    expect(fates["fetched"] + fates["failed"] == 25, f"fates {dict(fates)}")
    expect(fates["limit"] > 0, f"no limit fates: {dict(fates)}")
    requested = {f"http://{r[2]}:{web.port}{r[3]}" for r in pages}
    expect_same_set({r["url"] for r in recs if r["fate"] in ("fetched", "failed")}, requested,
                    "fetched and failed records against the requests")
    truth = web.truth(web.url())
    odd = [(r["url"], truth.get(r["url"])) for r in recs if r["fate"] == "limit"
           and truth.get(r["url"], ("",))[0] not in ("fetched", "failed")]
    expect(not odd, f"limit fates for URLs the full crawl would not fetch: {odd[:5]}")


def case_max_pages_per_host(tmp):
    """--max-pages-per-host N: every host reached gets exactly N page requests; the records of
    fetched and failed URLs are exactly those requests, and the URLs left over are limit
    fates of hosts that used their N, never requested."""
    web = Web(tmp, hosts=4, pages=100)
    p = crawl(web, "-w", "0", "-d", "1000", "--max-pages-per-host", "3", "--jsonl", web.url())
    log = web.stop()
    per_host = Counter(r[2] for r in log if r[3] != "/robots.txt")
    expect(len(per_host) == 4 and set(per_host.values()) == {3}, f"pages per host {per_host}")
    recs = records(p)
    expect_unique([r["url"] for r in recs], "record")
    requested = {f"http://{r[2]}:{web.port}{r[3]}" for r in log if r[3] != "/robots.txt"}
    settled = {r["url"] for r in recs if r["fate"] in ("fetched", "failed")}
    expect_same_set(settled, requested, "fetched and failed records against the requests")
    limited = [r["url"] for r in recs if r["fate"] == "limit"]
    expect(limited, "no limit fates")
    truth = web.truth(web.url())
    odd = [(u, truth.get(u)) for u in limited
           if u not in truth or truth[u][0] not in ("fetched", "failed")]
    expect(not odd, f"limit fates for URLs the full crawl would not fetch: {odd[:5]}")
    other = Counter(r["fate"] for r in recs if r["fate"] not in ("fetched", "failed", "limit"))
    expect(set(other) <= {"robots", "skipped"}, f"other fates {other}")


def case_accept_ext(tmp):
    """-A pdf: only PDFs printed, but HTML pages are still fetched to find them."""
    web = Web(tmp, hosts=3, pages=60)
    p = crawl(web, "-w", "0", "-d", "1000", "-A", "pdf", web.url())
    log = web.stop()
    want = [u for u in web.truth(web.url()) if u.endswith(".pdf")]
    expect(want, "the test web has no PDFs")
    expect_same_set(lines(p), want, "-A pdf")
    expect(len([r for r in log if r[3].endswith(".html")]) > 50, "HTML pages were not fetched")
    expect(not [r for r in log if r[3].endswith(".pdf")], "a PDF was fetched (it is in --skip-ext)")


def case_reject_ext(tmp):
    """-R png: PNGs are neither printed nor fetched; everything else is as before."""
    web = Web(tmp, hosts=3, pages=60)
    p = crawl(web, "-w", "0", "-d", "1000", "-R", ".PNG", "--skip-ext", "pdf", web.url())
    log = web.stop()
    want = [u for u in web.truth(web.url()) if not u.endswith(".png")]
    expect_same_set(lines(p), want, "-R png")
    expect(not [r for r in log if r[3].endswith(".png")], "a rejected PNG was fetched")


def case_skip_ext(tmp):
    """--skip-ext LIST replaces the default list: with `--skip-ext pdf` the PNGs are fetched
    (their fate fetched, a request each) and the PDFs still printed but never requested."""
    web = Web(tmp, hosts=2, pages=40)
    p = crawl(web, "-w", "0", "-d", "1000", "--skip-ext", "pdf", "--jsonl", web.url())
    log = web.stop()
    truth = web.truth(web.url())
    recs = {r["url"]: r["fate"] for r in records(p)}
    expect_same_set(recs, truth, "--skip-ext pdf")
    pngs = [u for u in truth if u.endswith(".png")]
    pdfs = [u for u in truth if u.endswith(".pdf")]
    expect(pngs and pdfs, "the test web has no PNG or no PDF")
    wrong = [(u, recs[u]) for u in pngs if recs[u] != "fetched"]
    wrong += [(u, recs[u]) for u in pdfs if recs[u] != "skipped"]
    expect(not wrong, f"fates: {wrong[:5]}")
    requested = {f"http://{h}:{web.port}{path}" for _, _, h, path, _ in log}
    expect(set(pngs) <= requested and not set(pdfs) & requested,
           f"requests: {len(set(pngs) - requested)} PNGs missing, "
           f"{len(set(pdfs) & requested)} PDFs fetched")


def case_domains(tmp):
    """-D: only hosts under the listed suffixes are printed and fetched."""
    web = Web(tmp, hosts=6, pages=60)
    allowed = {"s0.web.test", "s2.web.test"}
    p = crawl(web, "-w", "0", "-d", "1000", "-D", ",".join(sorted(allowed)), web.url())
    log = web.stop()
    hosts = {u.split("/")[2].split(":")[0] for u in lines(p)}
    expect(hosts == allowed, f"printed hosts {hosts}")
    expect({r[2] for r in log} == allowed, f"requested hosts {set(r[2] for r in log)}")
    expect_same_set(lines(p), web.truth(web.url(), domains=",".join(sorted(allowed))), "-D")


def case_head_closes_early(tmp):
    """`crawl ... | head -n 3`: three lines, exit status 0, nothing on standard error."""
    web = Web(tmp, hosts=4, pages=200)
    cmd = (f"set -o pipefail; '{CRAWL}' --dns-server 127.0.0.1:{web.dns} -w 0 -d 1000 "
           f"'{web.url()}' 2>'{tmp}/err' | head -n 3")
    started = time.monotonic()
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=30)
    elapsed = time.monotonic() - started
    web.stop()
    expect(p.returncode == 0, f"exit status {p.returncode}")
    expect(len(p.stdout.splitlines()) == 3, f"output {p.stdout!r}")
    with open(f"{tmp}/err") as f:
        err = f.read()
    expect(err == "", f"standard error: {err!r}")
    expect(elapsed < 10, f"took {elapsed:.1f}s to end")


def case_dns_failure(tmp):
    """A host whose lookup fails after the retries: its URLs are failed, the crawl goes on."""
    web = Web(tmp, hosts=2, pages=20)
    bad = f"http://dnsfail.web.test:{web.port}/"
    missing = f"http://nxdomain.web.test:{web.port}/a.html"
    p = crawl(web, "-w", "0", "--retries", "1", "--jsonl", bad, missing, web.url())
    web.stop()
    recs = {r["url"]: r for r in records(p)}
    for url in (bad, missing):
        expect(recs[url]["fate"] == "failed" and "DNS" in recs[url]["error"], f"{url}: {recs[url]}")
    expect(recs[web.url()]["fate"] == "fetched", "the good seed was not fetched")
    expect("2 dns" in p.stderr, f"summary: {p.stderr}")


def case_dns_retried_before_robots(tmp):
    """A lookup that fails at first is retried before anything else of its host: robots.txt is
    fetched once, after the address is known, and curl never resolves a name by itself."""
    web = Web(tmp, hosts=1, pages=5)
    seed = f"http://dnsflaky.web.test:{web.port}/"
    p = crawl(web, "-w", "0", "-v", "--jsonl", seed, check=False)
    expect(p.returncode == 8, f"the seed answered 404: exit {p.returncode}")
    log = web.stop()
    recs = records(p)
    expect(len(recs) == 1 and recs[0].get("status") == 404, f"records {recs}")
    expect([r[3] for r in log] == ["/robots.txt", "/"], f"requests {[r[3] for r in log]}")
    expect("DNS lookup failed" in p.stderr, "the first lookup did not fail")
    expect("resolve host" not in p.stderr, f"curl resolved a name itself: {p.stderr[-400:]}")


def case_retry_after(tmp):
    """503 with Retry-After: 1 is retried after a second and then fetched; robots.txt too."""
    web = Web(tmp, hosts=1, pages=5)
    seed = f"http://flaky.web.test:{web.port}/"
    p = crawl(web, "-w", "0", "-d", "0", "--jsonl", seed)
    log = web.stop()
    recs = {r["url"]: r for r in records(p)}
    expect(recs[seed]["fate"] == "fetched" and recs[seed]["status"] == 200, f"{recs[seed]}")
    tries = sorted(r for r in log if r[3] == "/")
    expect(len(tries) == 2, f"{len(tries)} requests for the seed")
    expect(tries[1][0] - tries[0][1] >= 1.0, "Retry-After was not honoured")
    robots = sorted(r for r in log if r[3] == "/robots.txt")
    expect(len(robots) == 2 and robots[1][0] - robots[0][1] >= 1.0,
           f"robots.txt's Retry-After was not honoured: {robots}")
    expect("1 retries" in p.stderr or "2 retries" in p.stderr, p.stderr)


def case_robots_unavailable(tmp):
    """robots.txt answering 5xx: the host's pages are not fetched (RFC 9309 2.3.1.3), and they
    are failures, not robots exclusions: the error names robots.txt and its status, the summary
    counts them under http, and as no seed could be fetched the exit status is 4."""
    web = Web(tmp, hosts=1, pages=5)
    seed = f"http://robots5xx.web.test:{web.port}/"
    p = crawl(web, "-w", "0", "--retries", "1", "--jsonl", seed, check=False)
    log = web.stop()
    expect(p.returncode == 4, f"exit status {p.returncode}: {p.stderr}")
    recs = [{k: v for k, v in r.items() if k != "time"} for r in records(p)]
    expect(recs == [{"url": seed, "from": None, "via": "seed", "depth": 0, "fate": "failed",
                     "error": "robots.txt: HTTP 503"}], f"{recs}")
    expect([r[3] for r in log] == ["/robots.txt", "/robots.txt"], f"requests {log}")
    expect("1 failed (1 http), 0 robots exclusions" in p.stderr, f"summary: {p.stderr}")


def free_port():
    """A loopback port with nothing listening on it (the kernel's pick, closed again)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def case_unreachable_server(tmp):
    """Nothing listening: the seed is failed (not a robots exclusion) with an error naming
    robots.txt and the connection, counted under connect, exit status 4; the same with
    --no-robots, where the page itself fails. With one good seed beside it the status is 0."""
    web = Web(tmp, hosts=1, pages=5)
    dead = f"http://dead.web.test:{free_port()}/"
    p = crawl(web, "-w", "0", "--retries", "0", "--jsonl", dead, check=False)
    expect(p.returncode == 4, f"exit status {p.returncode}: {p.stderr}")
    recs = records(p)
    expect(len(recs) == 1 and recs[0]["fate"] == "failed"
           and recs[0]["error"].startswith("robots.txt: ") and "status" not in recs[0],
           f"records {recs}")
    expect("1 failed (1 connect), 0 robots exclusions" in p.stderr, f"summary: {p.stderr}")
    expect("no seed could be fetched" in p.stderr, f"summary: {p.stderr}")
    p = crawl(web, "-w", "0", "--retries", "0", "--no-robots", "--jsonl", dead, check=False)
    recs = records(p)
    expect(p.returncode == 4 and recs[0]["fate"] == "failed"
           and "robots.txt" not in recs[0]["error"], f"--no-robots: {p.returncode} {recs}")
    p = crawl(web, "-w", "0", "--retries", "0", "-d", "0", dead, web.url(), check=False)
    web.stop()
    expect(p.returncode == 0, f"one good seed: exit status {p.returncode}")


def case_no_robots(tmp):
    web = Web(tmp, hosts=2, pages=40)
    p = crawl(web, "-w", "0", "-d", "1000", "--no-robots", web.url())
    log = web.stop()
    expect_same_set(lines(p), web.truth(web.url(), robots=False), "--no-robots")
    expect([r for r in log if r[3].startswith("/private/")], "disallowed paths not fetched")
    expect(not [r for r in log if r[3] == "/robots.txt"], "robots.txt fetched with --no-robots")


def case_resolve_without_dns(tmp):
    """--resolve gives the address: no DNS server is needed."""
    web = Web(tmp, hosts=2, pages=30)
    p = crawl(web, "-w", "0", "-d", "1000", "--scope", "host", "--resolve",
              f"s0.web.test:{web.port}:127.0.0.1", web.url(), dns=False)
    web.stop()
    expect_same_set(lines(p), web.truth(web.url(), scope="host"), "--resolve crawl")


def case_output_file_and_input(tmp):
    web = Web(tmp, hosts=2, pages=30)
    seeds = os.path.join(tmp, "seeds.txt")
    with open(seeds, "w") as f:
        f.write(f"# seeds\n\n{web.url()}\n  {web.url('s1')}  \n")
    out = os.path.join(tmp, "out.txt")
    p = crawl(web, "-w", "0", "-d", "1000", "-q", "-i", seeds, "-o", out)
    web.stop()
    expect(p.stdout == "" and p.stderr == "", "-o/-q: something on stdout or stderr")
    with open(out) as f:
        got = f.read().splitlines()
    expect_same_set(got, web.truth(web.url(), web.url("s1")), "-i/-o crawl")


def case_seed_file_bad_lines(tmp):
    """A seed file with lines that are no seed URL (another scheme, a bad port, a space in a
    host): each is skipped with a note naming the file and line, and the crawl goes on from the
    good ones; -q keeps the notes back. A file of bad lines only is a usage error."""
    web = Web(tmp, hosts=2, pages=30)
    seeds = os.path.join(tmp, "seeds.txt")
    with open(seeds, "w") as f:
        f.write(f"# seeds\n{web.url()}\nftp://files.example/\n\nmailto:x@s1.web.test\n"
                f"http://s1.web.test:99999/\n{web.url('s1')}\n")
    p = crawl(web, "-w", "0", "-d", "1000", "-i", seeds)
    expect_same_set(lines(p), web.truth(web.url(), web.url("s1")), "the good seeds")
    notes = [line for line in p.stderr.splitlines() if "not a seed URL, skipped" in line]
    expect([n.split(": not")[0] for n in notes] ==
           [f"crawl: {seeds}:3", f"crawl: {seeds}:5", f"crawl: {seeds}:6"], f"notes {notes}")
    quiet = crawl(web, "-q", "-w", "0", "-d", "0", "-i", seeds)
    expect(quiet.stderr == "", f"-q: {quiet.stderr!r}")
    with open(seeds, "w") as f:
        f.write("ftp://files.example/\nmailto:x@y.example\n")
    p = crawl(web, "-i", seeds, check=False)
    web.stop()
    expect(p.returncode == 2 and "no seed URL given" in p.stderr and p.stderr.count("skipped") == 2,
           f"bad lines only: exit {p.returncode}, {p.stderr!r}")


def case_sigint(tmp):
    """SIGINT: in-flight requests finish, queued URLs are reported pending, exit 130. The
    records are exactly what happened: fetched and failed ones are the requests the server
    answered, pending ones were never requested, and together with the rest they are URLs of the
    ground truth with its depths."""
    web = Web(tmp, hosts=3, pages=200)
    proc = subprocess.Popen([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w",
                             "0.2", "-d", "1000", "--jsonl", web.url()],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    log = web.stop()
    expect(proc.returncode == 130, f"exit status {proc.returncode}: {err}")
    recs = inside([json.loads(line) for line in out.splitlines()])
    expect_unique([r["url"] for r in recs], "record")
    fates = Counter(r["fate"] for r in recs)
    expect(fates["pending"] > 0 and fates["fetched"] > 0, f"fates {dict(fates)}")
    requested = {f"http://{r[2]}:{web.port}{r[3]}" for r in log if r[3] != "/robots.txt"}
    expect_same_set({r["url"] for r in recs if r["fate"] in ("fetched", "failed")}, requested,
                    "fetched and failed records against the requests")
    truth = web.truth(web.url())
    pending = [r for r in recs if r["fate"] == "pending"]
    odd = [(r["url"], r["depth"], truth.get(r["url"])) for r in pending
           if truth.get(r["url"], ("", -1))[0] not in ("fetched", "failed")
           or truth[r["url"]][1] != r["depth"]]
    expect(not odd, f"pending records the full crawl would not fetch at that depth: {odd[:5]}")
    settled = [(r["url"], r["fate"], truth.get(r["url"])) for r in recs if r["fate"] != "pending"
               and (r["url"] not in truth or truth[r["url"]][0] != r["fate"])]
    expect(not settled, f"settled records off the truth: {settled[:5]}")
    expect("pages fetched" in err, "no summary after SIGINT")


def case_seen_across_runs(tmp):
    """--seen: a second run fetches the seeds again but prints only what is new."""
    web = Web(tmp, hosts=3, pages=40)
    seen = os.path.join(tmp, "crawl.seen")
    first = crawl(web, "-w", "0", "-d", "1000", "--seen", seen, web.url())
    expect_same_set(lines(first), web.truth(web.url()), "first run")
    expect(os.path.exists(seen), "no --seen file written")
    between = time.monotonic()  # the server stamps requests with the same clock
    second = crawl(web, "-w", "0", "-d", "1000", "--seen", seen, web.url())
    expect(lines(second) == [], f"second run printed {lines(second)[:5]}")
    # a seed the first run never saw is printed; its links that the first run saw are not
    new_seed = web.url("s0", "/p/1.html?fresh")
    after = time.monotonic()
    third = crawl(web, "-w", "0", "-d", "1", "--seen", seen, new_seed)
    log = web.stop()
    expect(lines(third) == [new_seed], f"third run printed {lines(third)}")
    second_requests = sorted(r[3] for r in log if between < r[0] < after)
    expect(second_requests == ["/", "/robots.txt"], f"second run requested {second_requests}")


def case_seen_counting_forgets_failures(tmp):
    """--dedupe counting or exact: URLs that failed are forgotten before saving, so the next run
    retries them, run after run; with bloom they stay recorded."""
    web = Web(tmp, hosts=1, pages=60)
    seed = None
    for page in range(60):
        url = web.url("s0", "/" if page == 0 else f"/p/{page}.html")
        truth = web.truth(url, depth=1, scope="host")
        failed = sorted(u for u, (fate, d) in truth.items() if fate == "failed" and d == 1)
        if failed:
            seed = url
            break
    expect(seed, "no page links to a missing page")
    for kind, want in (("counting", failed), ("exact", failed), ("bloom", [])):
        seen = os.path.join(tmp, kind + ".seen")
        crawl(web, "-w", "0", "-d", "1", "--scope", "host", "--dedupe", kind, "--seen", seen, seed)
        # the later runs name no --dedupe: the file's own kind decides, forgetting included
        for run in ("second", "third"):
            again = crawl(web, "-w", "0", "-d", "1", "--scope", "host", "--seen", seen, seed)
            expect(sorted(lines(again)) == want,
                   f"{kind}: {run} run printed {lines(again)}, want {want}")
    web.stop()


def case_seen_resumes_leftovers(tmp):
    """--seen with --max-pages: what a run leaves queued, the next run fetches without printing
    it again, for each filter kind. Run after run, the crawl completes: every URL of the web is
    printed exactly once over all runs, and no page is fetched by two runs (but the seed and
    robots.txt, fetched by every run, and with counting or exact the URLs that failed, which are
    forgotten so that a later run tries them again)."""
    for kind in ("bloom", "counting", "exact"):
        web = Web(tmp, hosts=2, pages=50)
        seen = os.path.join(tmp, kind + ".seen")
        printed, runs, windows = [], 0, []
        while True:
            runs += 1
            expect(runs <= 15, f"{kind}: still leaving URLs after 15 runs")
            began = time.monotonic()
            p = crawl(web, "-w", "0", "-d", "1000", "-n", "12", "--dedupe", kind, "--seen", seen,
                      web.url())
            windows.append((began, time.monotonic()))
            printed += lines(p)
            if "left for the next run" not in p.stderr:
                break
        log = web.stop()
        truth = web.truth(web.url())
        retried = {u for u, (fate, _) in truth.items() if fate == "failed" and kind != "bloom"}
        expect(runs >= 4, f"{kind}: the crawl needed only {runs} runs; -n did not cut it short")
        expect_unique([u for u in printed if u not in retried], f"{kind}: URL printed across runs")
        expect_same_set(printed, truth, f"{kind}: all runs together")
        fetched_by = defaultdict(set)
        for start, _, host, path, _ in log:
            for run, (a, b) in enumerate(windows):
                if a <= start <= b:
                    fetched_by[(host, path)].add(run)
        twice = [hp for hp, rs in fetched_by.items()
                 if len(rs) > 1 and hp[1] not in ("/", "/robots.txt")
                 and f"http://{hp[0]}:{web.port}{hp[1]}" not in retried]
        expect(not twice, f"{kind}: fetched by more than one run: {twice[:5]}")


def case_seen_resumes_after_interrupt(tmp):
    """--seen: a crawl stopped by SIGINT leaves its pending URLs in the file; the next run fetches
    them, and the two runs together print the whole web, each URL once."""
    web = Web(tmp, hosts=3, pages=150)
    seen = os.path.join(tmp, "crawl.seen")
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000",
           "--jsonl", "--seen", seen, web.url()]
    proc = subprocess.Popen(cmd + ["-w", "0.2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    expect(proc.returncode == 130, f"exit status {proc.returncode}: {err}")
    first = inside([json.loads(line) for line in out.splitlines()])
    pending = {r["url"] for r in first if r["fate"] == "pending"}
    expect(pending, "nothing was pending at the interrupt")
    between = time.monotonic()
    second = subprocess.run(cmd + ["-w", "0"], capture_output=True, text=True, timeout=60)
    log = web.stop()
    expect(second.returncode == 0, f"second run exited {second.returncode}: {second.stderr}")
    again = inside([json.loads(line) for line in second.stdout.splitlines()])
    expect(f"{len(pending)} URLs the last run left queued" in second.stderr,
           f"second run's summary: {second.stderr}")
    urls = [r["url"] for r in first + again]
    truth = web.truth(web.url())
    expect_unique(urls, "record across the two runs")
    expect_same_set(urls, truth, "the two runs together")
    fetched_later = {f"http://{host}:{web.port}{path}" for start, _, host, path, _ in log
                     if start > between}
    # a URL queued before its host's robots.txt came may turn out to be excluded: not fetched
    missed = sorted(u for u in pending if u not in fetched_later and truth[u][0] != "robots")
    expect(not missed, f"pending URLs the second run did not fetch: {missed[:5]}")


def case_seen_bad_file_refused(tmp):
    """A corrupt or foreign --seen file is refused with one line; it is never overwritten."""
    web = Web(tmp, hosts=1, pages=10)
    seen = os.path.join(tmp, "bad.seen")
    for content in (b"", b"not a seen file at all\n", b"CRWLSEEN\x01\x00\x00\x00"):
        with open(seen, "wb") as f:
            f.write(content)
        p = crawl(web, "-w", "0", "--seen", seen, web.url(), check=False)
        expect(p.returncode == 1, f"exit {p.returncode} for {content!r}")
        err = p.stderr.strip().splitlines()
        expect(len(err) == 1 and "bad.seen" in err[0], f"stderr {p.stderr!r}")
        expect(p.stdout == "", "crawled despite a bad --seen file")
        with open(seen, "rb") as f:
            expect(f.read() == content, "the refused file was changed")
    web.stop()


def case_sitemaps(tmp):
    """--sitemaps: robots.txt Sitemap lines and /sitemap.xml, indexes followed, gzip read; their
    entries are seeds; sitemaps out of scope are not fetched."""
    web = Web(tmp, hosts=3, pages=30)
    p = crawl(web, "-w", "0", "-d", "1000", "--sitemaps", web.url())
    log = web.stop()
    got = lines(p)
    expect_unique(got, "URL")
    expect_same_set(got, web.truth(web.url(), sitemaps=True), "--sitemaps")
    expect(len([u for u in got if "/orphan/" in u]) == 30, "orphan pages missing")
    expect(not [r for r in log if "elsewhere" in r[2]], "an out-of-scope sitemap was fetched")
    expect(not [u for u in got if "sitemap" in u], "a sitemap URL was printed")
    fetched = [r[3] for r in log if r[2] == "s0.web.test"]
    expect(fetched.index("/robots.txt") < fetched.index("/sitemaps/index.xml"),
           "a sitemap was fetched before robots.txt")


def case_sitemaps_without_robots(tmp):
    web = Web(tmp, hosts=2, pages=20)
    p = crawl(web, "-w", "0", "-d", "1000", "--sitemaps", "--no-robots", web.url())
    web.stop()
    expect_same_set(lines(p), web.truth(web.url(), sitemaps=True, robots=False),
                    "--sitemaps --no-robots")


def case_page_directives(tmp):
    """nofollow (meta robots, X-Robots-Tag): links printed, not followed; meta refresh is a link;
    video posters are links; links after </html> are found."""
    web = Web(tmp, hosts=1, pages=20)
    seeds = [web.url("s0", "/directives/nofollow.html"), web.url("s0", "/directives/xrobots.html"),
             web.url("s0", "/directives/refresh.html"), web.url("s0", "/directives/video.html"),
             web.url("s0", "/directives/late.html")]
    p = crawl(web, "-w", "0", "-d", "1", "--scope", "host", "--jsonl", *seeds)
    log = web.stop()
    recs = {r["url"]: r for r in records(p)}
    for n in (1, 2, 3):
        r = recs.get(web.url("s0", f"/p/{n}.html"))
        expect(r and r["fate"] == "robots", f"/p/{n}.html: {r}")
    r = recs.get(web.url("s0", "/p/4.html"))
    expect(r and r["fate"] == "fetched" and r["from"] == seeds[2], f"refresh target: {r}")
    for path in ("/media/clip.mp4", "/media/poster.jpg"):  # video src and poster
        r = recs.get(web.url("s0", path))
        expect(r and r["fate"] == "skipped" and r["from"] == seeds[3], f"{path}: {r}")
    for path in ("/late.js", "/p/5.html"):  # after </html>, as a browser reads it
        r = recs.get(web.url("s0", path))
        expect(r and r["from"] == seeds[4], f"{path}: {r}")
    requested = {r[3] for r in log}
    expect(not requested & {"/p/1.html", "/p/2.html", "/p/3.html"}, f"followed nofollow: {requested}")


def case_css_links(tmp):
    """Links in CSS: a style sheet is fetched (css is not in the default --skip-ext) and its
    url() and @import links are found, resolved against the sheet's own URL; so are those of a
    <style> element and a style attribute, against the page; a url() in a comment is none."""
    web = Web(tmp, hosts=1, pages=20)
    page = web.url("s0", "/css/page.html")
    p = crawl(web, "-w", "0", "-d", "3", "--scope", "host", "--jsonl", page)
    log = web.stop()
    recs = {r["url"]: r for r in records(p)}
    site, more = web.url("s0", "/css/site.css"), web.url("s0", "/css/more.css")
    want = {site: (page, "fetched", 1), more: (site, "fetched", 2),
            web.url("s0", "/img/7.png"): (page, "skipped", 1),
            web.url("s0", "/img/8.png"): (page, "skipped", 1),
            web.url("s0", "/img/9.png"): (site, "skipped", 2),
            web.url("s0", "/img/10.png"): (more, "skipped", 3),
            web.url("s0", "/css/fonts/f.woff2"): (more, "skipped", 3)}
    for url, (origin, fate, depth) in want.items():
        r = recs.get(url)
        expect(r and (r["from"], r["fate"], r["depth"]) == (origin, fate, depth), f"{url}: {r}")
    expect(web.url("s0", "/img/99.png") not in recs, "a url() in a comment was taken")
    requested = {r[3] for r in log}
    expect({"/css/site.css", "/css/more.css"} <= requested, f"requested {sorted(requested)}")


def case_legacy_charsets(tmp):
    """Pages in legacy encodings: the query is encoded in the page's charset, the path in UTF-8."""
    web = Web(tmp, hosts=1, pages=10)
    seeds = [web.url("s0", "/charset/header.html"), web.url("s0", "/charset/meta.html")]
    p = crawl(web, "-w", "0", "-d", "0", "--scope", "host", *seeds)
    web.stop()
    want = seeds + [web.url("s0", "/p/1.html?q=caf%E9"), web.url("s0", "/caf%C3%A9.html"),
                    web.url("s0", "/p/2.html?price=%80")]
    # and nothing misencoded beside them (the query in UTF-8, the path in Latin-1, ...)
    expect_same_set(lines(p), want, "legacy charsets")


def case_unfetchable_urls(tmp):
    """Port 0 and a host of punctuation are URLs to the Standard: printed, never requested."""
    web = Web(tmp, hosts=1, pages=5)
    zero = "http://s0.web.test:0/zero.html"
    odd = "http://a!b(c).web.test/odd.html"
    p = crawl(web, "-w", "0", "-d", "0", "--jsonl", zero, odd, web.url())
    plain = crawl(web, "-w", "0", "-d", "0", zero, odd, check=False)
    log = web.stop()
    expect(plain.returncode == 4, f"no seed can be fetched, exit status {plain.returncode}")
    recs = {r["url"]: r for r in records(p)}
    for url in (zero, odd):
        r = recs.get(url)
        expect(r and r["fate"] == "failed" and "no request" in r["error"], f"{url}: {r}")
    expect(recs[web.url()]["fate"] == "fetched", "the good seed was not fetched")
    expect(set(lines(plain)) == {zero, odd}, f"printed: {lines(plain)}")
    requested = {r[3] for r in log}
    expect(not requested & {"/zero.html", "/odd.html"}, f"requested: {requested}")


def case_usage_errors(tmp):
    for args, word in [(["--bogus"], "--bogus"), (["-d", "x", "a.test"], "--depth"),
                       (["-w", "-1", "a.test"], "--delay"), (["-U", "", "a.test"], "--user-agent"),
                       (["--scope", "planet", "a.test"], "--scope"), ([], "seed"),
                       (["ftp://a.test/"], "ftp://a.test/"), (["--max-size", "10Q", "a.test"], "--max-size"),
                       (["--resolve", "bad", "a.test"], "--resolve"), (["--match", "(", "a.test"], "--match"),
                       (["-c", "0", "a.test"], "--concurrency"), (["--timeout"], "--timeout"),
                       (["-d", "infinite", "a.test"], "--depth"),
                       (["-A", "*.p?f", "a.test"], "--accept-ext"),
                       (["-R", "tar.gz", "a.test"], "--reject-ext"),
                       (["--queue-disk", "5X", "a.test"], "--queue-disk"),
                       (["--max-path-repeat", "-1", "a.test"], "--max-path-repeat"),
                       (["--max-path-segments", "x", "a.test"], "--max-path-segments"),
                       (["--max-query-variants", "1.5", "a.test"], "--max-query-variants"),
                       (["--fp-rate", "1e-300", "a.test"], "--fp-rate"),
                       (["--dns-server", "nonsense", "a.test"], "--dns-server"),
                       (["-U", "bot\r\nX-Injected: 1", "a.test"], "--user-agent"),
                       (["mailto:x@a.test"], "mailto:x@a.test")]:
        p = subprocess.run([CRAWL, *args], capture_output=True, text=True, timeout=10)
        expect(p.returncode == 2, f"{args}: exit {p.returncode}")
        err = p.stderr.splitlines()
        expect(len(err) == 2 and word in err[0] and "--help" in err[1], f"{args}: {p.stderr!r}")
        expect(p.stdout == "", f"{args}: stdout {p.stdout!r}")
    for flag in ("--help", "--version"):
        p = subprocess.run([CRAWL, flag], capture_output=True, text=True, timeout=10)
        expect(p.returncode == 0 and p.stdout and not p.stderr, f"{flag}: {p.returncode}")


def case_output_errors(tmp):
    """Only a closed pipe is a quiet end: a full disk (/dev/full as standard output or as -o)
    is fatal with one line naming the output and the error, exit status 1; --seen is not saved
    (no line was written, so no URL counts as settled) and says so. A --seen file that cannot
    be written is refused before the first request."""
    web = Web(tmp, hosts=2, pages=30)
    seen = os.path.join(tmp, "full.seen")
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "1000"]
    with open("/dev/full", "w") as full:
        p = subprocess.run(cmd + ["--seen", seen, web.url()], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=60)
    err = p.stderr.splitlines()
    expect(p.returncode == 1, f"exit status {p.returncode}: {p.stderr}")
    expect(len(err) == 2 and "standard output" in err[1] and "No space left on device" in err[1]
           and err[0] == "crawl: --seen not saved: standard output could not be written",
           f"standard error: {p.stderr!r}")
    expect(not os.path.exists(seen), "--seen was saved though no URL was written")
    again = crawl(web, "-w", "0", "-d", "0", "--seen", seen, web.url())
    expect(again.returncode == 0 and web.url() in lines(again),
           f"the next run does not print the seed again: {again.stdout!r}")
    p = crawl(web, "-w", "0", "-d", "1000", "-o", "/dev/full", web.url(), check=False)
    err = p.stderr.splitlines()
    expect(p.returncode == 1 and len(err) == 1 and "/dev/full" in err[0]
           and "No space left on device" in err[0], f"-o /dev/full: {p.returncode} {p.stderr!r}")
    before = time.monotonic()
    p = crawl(web, "-w", "0", "--seen", "/proc/nope/crawl.seen", web.url(), check=False)
    log = web.stop()
    err = p.stderr.splitlines()
    expect(p.returncode == 1 and len(err) == 1 and "/proc/nope/crawl.seen" in err[0],
           f"unwritable --seen: {p.returncode} {p.stderr!r}")
    expect(not [r for r in log if r[0] >= before], "requests made with an unwritable --seen")


def case_head_stops_at_once(tmp):
    """`crawl -A epub ... | head -n 1`: the one epub URL (a seed) is printed, head goes away, and
    crawl notices from its event loop although it has nothing more to write: it ends within a
    second, quietly, with status 0, and starts no request after head has gone."""
    web = Web(tmp, hosts=4, pages=200)
    book = web.url("s0", "/book.epub")
    proc = subprocess.Popen([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}",
                             "-w", "0.05", "-d", "1000", "-A", "epub", book, web.url()],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = subprocess.Popen(["head", "-n", "1"], stdin=proc.stdout, stdout=subprocess.PIPE)
    proc.stdout.close()  # head holds the only read end
    got = head.stdout.read().decode()
    head.wait(timeout=30)
    gone = time.monotonic()
    try:
        err = proc.communicate(timeout=30)[1].decode()
    finally:
        proc.kill()
    ended = time.monotonic()
    log = web.stop()
    expect(got == book + "\n", f"head read {got!r}")
    expect(proc.returncode == 0 and err == "", f"exit status {proc.returncode}, stderr {err!r}")
    expect(ended - gone < 1.0, f"crawl ended {ended - gone:.2f}s after head")
    late = [r for r in log if r[0] > gone + 0.05]
    expect(not late, f"{len(late)} requests started after head had gone: {late[:3]}")


def case_clean_terminal(tmp):
    """Standard output and standard error on one terminal (tmux): the status line is cleared
    before URLs are written and drawn again after, so every URL is a whole line of the screen."""
    expect(shutil.which("tmux"), "tmux is not installed (scripts/install-deps.sh installs it)")
    web = Web(tmp, hosts=3, pages=60)
    sock, done = os.path.join(tmp, "tmux.sock"), os.path.join(tmp, "done")
    run = (f"'{CRAWL}' --progress --dns-server 127.0.0.1:{web.dns} -w 0.03 -d 1000 "
           f"'{web.url()}'; echo $? > '{done}'; sleep 60")
    tmux = ["tmux", "-S", sock, "-f", "/dev/null"]
    subprocess.run(tmux + ["new-session", "-d", "-x", "250", "-y", "50", "-s", "crawl",
                           "bash", "--norc", "--noprofile", "-c", run], check=True, timeout=10)
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(done) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.2)
        screen = subprocess.run(tmux + ["capture-pane", "-p", "-J", "-S", "-", "-t", "crawl"],
                                capture_output=True, text=True, check=True).stdout
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)
        web.stop()
    expect(os.path.exists(done), "the crawl did not end under tmux")
    rows = [row.rstrip() for row in screen.splitlines() if row.strip()]
    mixed = [row for row in rows if "http://" in row and not re.fullmatch(r"http://\S+", row)
             and not row.startswith("crawl:")]
    expect(not mixed, f"lines mixing the status line and URLs: {mixed[:3]}")
    printed = [row for row in rows if row.startswith("http://")]
    expect_same_set(printed, web.truth(web.url()), "URLs on the screen")
    # the time first, then the counts, singular for one
    def status_row(row):
        return re.match(r"\d+:\d\d \d+ pages?, ", row)
    expect([row for row in rows if status_row(row)], f"no status line: {rows[-5:]}")
    ones = [row for row in rows if status_row(row) and re.search(r"\b1 (pages|hosts|errors)\b", row)]
    expect(not ones, f"plural for one: {ones[:3]}")


def case_status_line_places(tmp):
    """The status line never garbles output (tmux): with `crawl ... | grep ...` on a terminal it
    is not drawn unless --progress asks; in a 40-column pane it is cut to the width, so a redraw
    never wraps and leaves rows behind."""
    expect(shutil.which("tmux"), "tmux is not installed (scripts/install-deps.sh installs it)")
    web = Web(tmp, hosts=3, pages=60)
    status = re.compile(r"\d+:\d\d \d+ pages?")

    def screen_of(command, width):
        sock, done = os.path.join(tmp, f"tmux{width}.sock"), os.path.join(tmp, f"done{width}")
        tmux = ["tmux", "-S", sock, "-f", "/dev/null"]
        subprocess.run(tmux + ["new-session", "-d", "-x", str(width), "-y", "50", "-s", "crawl",
                               "bash", "--norc", "--noprofile", "-c",
                               f"{command}; echo $? > '{done}'; sleep 60"], check=True, timeout=10)
        try:
            deadline = time.monotonic() + 60
            while not os.path.exists(done) and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(0.2)
            return subprocess.run(tmux + ["capture-pane", "-p", "-J", "-S", "-", "-t", "crawl"],
                                  capture_output=True, text=True, check=True).stdout
        finally:
            subprocess.run(tmux + ["kill-server"], capture_output=True)

    base = f"'{CRAWL}' --dns-server 127.0.0.1:{web.dns} -w 0.03 -d 1000 '{web.url()}'"
    piped = screen_of(f"{base} | grep s1.web.test", 250)
    rows = [row.rstrip() for row in piped.splitlines() if row.strip()]
    expect(any(row.startswith("http://s1.") for row in rows), f"grep printed nothing: {rows[:5]}")
    expect(not [row for row in rows if status.search(row)],
           f"a status line beside a pipe: {[row for row in rows if status.search(row)][:3]}")
    narrow = screen_of(f"{base} --progress -o '{os.path.join(tmp, 'out.txt')}'", 40)
    web.stop()
    rows = [row.rstrip() for row in narrow.splitlines() if row.strip()]
    drawn = [row for row in rows if status.match(row)]
    expect(drawn and all(len(row) <= 39 for row in drawn), f"status rows: {drawn[-3:]}")


def case_crawl_delay_from_first_request(tmp):
    """robots.txt's Crawl-delay (0.5 s, above -w 0.05) holds from the request right after it."""
    web = Web(tmp, hosts=1, pages=5)
    seed = f"http://crawldelay.web.test:{web.port}/"
    crawl(web, "-w", "0.05", "-d", "1", seed)
    log = sorted(web.stop())
    expect([r[3] for r in log][:2] == ["/robots.txt", "/"] and len(log) == 5, f"requests {log}")
    gaps = [b[0] - a[1] for a, b in zip(log, log[1:])]
    expect(min(gaps) >= 0.5, f"gaps {[round(g, 3) for g in gaps]} (the first follows robots.txt)")
    # --max-delay caps it: 0.2 s between requests, not 0.5
    web = Web(tmp, hosts=1, pages=5)
    seed = f"http://crawldelay.web.test:{web.port}/"
    crawl(web, "-w", "0.05", "-d", "1", "--max-delay", "0.2", seed)
    log = sorted(web.stop())
    gaps = sorted(b[0] - a[1] for a, b in zip(log, log[1:]))
    expect(len(log) == 5 and gaps[0] >= 0.2 and gaps[len(gaps) // 2] < 0.4,
           f"--max-delay 0.2: gaps {[round(g, 3) for g in gaps]}")


def case_no_parent(tmp):
    """--no-parent: only URLs at or below the seed's directory on its host are printed and
    fetched, as the ground truth of such a crawl gives them."""
    web = Web(tmp, hosts=2, pages=60)
    seed = web.url("s0", "/p/3.html")
    p = crawl(web, "-w", "0", "-d", "1000", "--no-parent", seed)
    log = web.stop()
    truth = web.truth(seed, no_parent=True)
    expect(len(truth) > 20, f"the truth is too small: {len(truth)}")
    expect_same_set(lines(p), truth, "--no-parent")
    outside = [r for r in log if r[3] != "/robots.txt"
               and (r[2] != "s0.web.test" or not r[3].startswith("/p/"))]
    expect(not outside, f"requests outside the seed's directory: {outside[:3]}")


def case_wget_habits(tmp):
    """-d inf crawls everything; -A takes pdf, .pdf and *.pdf alike; --help shows the default
    --skip-ext list."""
    web = Web(tmp, hosts=2, pages=40)
    p = crawl(web, "-w", "0", "-d", "inf", web.url())
    expect_same_set(lines(p), web.truth(web.url()), "-d inf")
    pdfs = [u for u in web.truth(web.url()) if u.endswith(".pdf")]
    for form in ("pdf", ".pdf", "*.pdf", "*.PDF"):
        p = crawl(web, "-w", "0", "-d", "inf", "-A", form, web.url())
        expect_same_set(lines(p), pdfs, f"-A {form}")
    web.stop()
    help_text = subprocess.run([CRAWL, "--help"], capture_output=True, text=True).stdout
    words = " ".join(help_text.split())
    for run in ("tar gz tgz zip Z rpm deb", "docx xlsx pptx odt apk msi"):
        expect(run in words, f"--help lacks the default --skip-ext list ({run})")


def case_check_skipped(tmp):
    """--check-skipped: URLs in --skip-ext get a HEAD request, politely, and a fate with its
    status, so a missing image or PDF is a failure and a broken link; without it they are
    skipped and never requested."""
    web = Web(tmp, hosts=1, pages=10)
    seed = web.url("s0", "/checker/index.html")
    want = {"/img/1.png": 200, "/img/broken.png": 404, "/f/2.pdf": 200, "/f/gone.pdf": 404}
    p = crawl(web, "-w", "0.1", "-d", "0", "--check-skipped", "--jsonl", seed, check=False)
    expect(p.returncode == 8, f"broken checked links: exit {p.returncode}")  # wget's
    between = time.monotonic()
    plain = crawl(web, "-w", "0", "-d", "0", "--jsonl", seed)
    log = web.stop()
    recs = {r["url"]: r for r in records(p)}
    for path, status in want.items():
        r = recs.get(web.url("s0", path))
        fate = "fetched" if status == 200 else "failed"
        expect(r and r["fate"] == fate and r["status"] == status, f"{path}: {r}")
    expect(sorted(web.heads) == sorted(("s0.web.test", path) for path in want),
           f"HEAD requests {web.heads}")
    checked = sorted(r for r in log if r[3] in want)
    expect(len(checked) == 4 and all(r[0] < between for r in checked),
           f"requests for the skipped URLs {checked}")
    first = sorted(r for r in log if r[0] < between)
    gaps = [b[0] - a[1] for a, b in zip(first, first[1:])]
    expect(min(gaps) >= 0.1, f"HEAD requests closer than --delay: {gaps}")
    expect("2 broken links:" in p.stderr, f"summary: {p.stderr}")
    plain_recs = {r["url"]: r for r in records(plain)}
    expect(all(plain_recs[web.url("s0", path)]["fate"] == "skipped" for path in want),
           f"without --check-skipped: {plain_recs}")


def case_summary_tells_the_story(tmp):
    """The summary counts every fate in words, as the ground truth has them, and lists the
    first 10 broken links with the page linking each; -v names every one. (Web 3 has no
    redirect target that a link of the redirect's own level reaches too: see doc/behaviour.md, Depth.)"""
    web = Web(tmp, hosts=3, pages=80, seed=3)
    p = crawl(web, "-w", "0", "-d", "2", web.url())
    verbose = crawl(web, "-w", "0", "-d", "1000", "-v", web.url())
    web.stop()
    truth = web.truth(web.url(), depth=2)
    n = Counter(fate for fate, _ in truth.values())
    want = (f"{n['fetched']} fetched, {n['failed']} failed (" if n["failed"] else "")
    expect(n["failed"] and n["depth"] and n["skipped"] and n["robots"], f"truth's fates {n}")
    expect(want in p.stderr, f"want '{want}' in the summary: {p.stderr}")
    want = (f"{n['robots']} robots exclusions, {n['depth']} cut by depth, {n['skipped']} skipped, "
            f"0 over a limit, 0 pending")
    expect(want in p.stderr, f"want '{want}' in the summary: {p.stderr}")
    broken = sorted(u for u, (fate, _) in web.truth(web.url()).items() if fate == "failed")
    expect(len(broken) > 10, f"only {len(broken)} broken links in the test web")
    expect(f"crawl: {len(broken)} broken links:" in verbose.stderr, f"summary: {verbose.stderr}")
    listed = [row for row in verbose.stderr.splitlines() if row.startswith("crawl:   http")]
    expect(len(listed) == 10 and all("(HTTP 404), linked from http://" in row for row in listed),
           f"listed {listed}")
    expect(f"and {len(broken) - 10} more" in verbose.stderr, "the rest are not counted")
    named = re.findall(r"broken link: (\S+) \(HTTP 404\), linked from http", verbose.stderr)
    expect(sorted(named) == broken, f"-v named {len(named)} of {len(broken)} broken links")


def case_many_connections(tmp):
    """-c 300 over 300 hosts under a soft limit of 256 descriptors (the usual one is 1,024):
    crawl raises its own soft limit as far as the hard one allows, so no transfer fails for
    want of a socket and the printed set is the ground truth."""
    web = Web(tmp, hosts=300, pages=4, links=3)
    seeds = [web.url(f"s{i}") for i in range(300)]
    cmd = (f"ulimit -Sn 256 && exec '{CRAWL}' --no-progress --dns-server 127.0.0.1:{web.dns} "
           f"-w 0 -d 1000 -c 300 --jsonl " + " ".join(seeds))
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
    web.stop()
    expect(p.returncode == 0, f"exit status {p.returncode}: {p.stderr[-500:]}")
    recs = records(p)
    broken = [r for r in recs if r["fate"] == "failed" and "status" not in r]
    expect(not broken, f"{len(broken)} transfers failed without a response: {broken[:2]}")
    expect_same_set([r["url"] for r in recs], web.truth(*seeds), "records")


def make_pki(tmp, host):
    """A CA made with openssl at test time and a certificate it signs for host: the directory
    holding ca.pem, host.pem and host.key."""
    openssl = shutil.which("openssl")
    expect(openssl, "openssl is not installed")
    pki = os.path.join(tmp, "pki")
    os.mkdir(pki)

    def ssl(*args):
        subprocess.run([openssl, *args], cwd=pki, check=True, capture_output=True, timeout=60)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-days", "2", "-subj", "/CN=crawl test CA")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "host.key", "-out", "host.csr",
        "-subj", f"/CN={host}")
    with open(os.path.join(pki, "ext"), "w") as f:
        f.write(f"subjectAltName=DNS:{host}\nbasicConstraints=CA:FALSE\n")
    ssl("x509", "-req", "-in", "host.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "host.pem", "-days", "2", "-extfile", "ext")
    return pki


def wait_for_port(port):
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port}")


def case_tls_verification(tmp):
    """https for real: a CA made with openssl at test time signs the test host's certificate,
    served by openssl s_server. With --cacert the crawl verifies and fetches; against the
    system's CAs it fails with the cause tls (also for robots.txt, counted under tls, exit 4);
    -k skips the check."""
    openssl = shutil.which("openssl")
    pki = make_pki(tmp, "tls.web.test")
    www = os.path.join(tmp, "www")
    os.mkdir(www)
    with open(os.path.join(www, "index.html"), "w") as f:
        f.write('<html><body><a href="next.html">next</a></body></html>\n')
    with open(os.path.join(www, "next.html"), "w") as f:
        f.write("<html><body>end</body></html>\n")
    with open(os.path.join(www, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")
    port = free_port()
    server = subprocess.Popen([openssl, "s_server", "-accept", f"127.0.0.1:{port}", "-WWW",
                               "-quiet", "-cert", os.path.join(pki, "host.pem"),
                               "-key", os.path.join(pki, "host.key")],
                              cwd=www, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        seed = f"https://tls.web.test:{port}/index.html"
        base = [CRAWL, "--no-progress", "--resolve", f"tls.web.test:{port}:127.0.0.1", "-w", "0",
                "--retries", "0", "--jsonl"]

        def run(*extra):
            return subprocess.run(base + list(extra) + [seed], capture_output=True, text=True,
                                  timeout=60)

        p = run("--cacert", os.path.join(pki, "ca.pem"))
        recs = {r["url"]: r for r in records(p)}
        expect(p.returncode == 0 and [recs[u]["fate"] for u in sorted(recs)] == ["fetched"] * 2,
               f"--cacert: exit {p.returncode}, {recs} {p.stderr[-300:]}")
        p = run()
        recs = records(p)
        expect(p.returncode == 4 and len(recs) == 1 and recs[0]["fate"] == "failed"
               and recs[0]["error"].startswith("robots.txt: ") and "1 failed (1 tls)" in p.stderr,
               f"system CAs: exit {p.returncode}, {recs} {p.stderr[-300:]}")
        p = run("-k")
        recs = records(p)
        expect(p.returncode == 0 and len(recs) == 2 and all(r["fate"] == "fetched" for r in recs),
               f"-k: exit {p.returncode}, {recs}")
    finally:
        server.kill()
        server.wait(timeout=10)


def case_install_kit(tmp):
    """The kit a wget user expects: `meson install` puts crawl, its man page and its bash
    completion under the prefix; both name every option --help names; the completion completes
    an option and a --scope value; --version names the libraries in use."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(BUILT_CRAWL)))
    dest = os.path.join(tmp, "dest")
    p = subprocess.run(["meson", "install", "-C", build, "--destdir", dest, "--no-rebuild",
                        "--quiet"], capture_output=True, text=True, timeout=120)
    expect(p.returncode == 0, f"meson install failed: {p.stdout[-300:]} {p.stderr[-300:]}")
    found = {}
    for root, _, files in os.walk(dest):
        for f in files:
            found[os.path.relpath(os.path.join(root, f), dest)] = os.path.join(root, f)
    want = {"bin/crawl", "share/man/man1/crawl.1", "share/bash-completion/completions/crawl"}
    paths = {w: next((full for rel, full in found.items() if rel.endswith(w)), None) for w in want}
    expect(all(paths.values()), f"installed: {sorted(found)}")
    help_text = subprocess.run([CRAWL, "--help"], capture_output=True, text=True).stdout
    options = set(re.findall(r"--[a-z][a-z-]+", help_text))
    with open(paths["share/man/man1/crawl.1"]) as f:
        man = f.read().replace("\\-", "-")
    with open(paths["share/bash-completion/completions/crawl"]) as f:
        completion = f.read()
    expect(not [o for o in options if o not in man], f"man page lacks {[o for o in options if o not in man]}")
    expect(not [o for o in options if o not in completion],
           f"completion lacks {[o for o in options if o not in completion]}")
    # the man page's RECORDS names every field a --jsonl record can hold, and --help lists them
    records_part = man.split(".SH RECORDS", 1)[-1].split(".SH ", 1)[0] if ".SH RECORDS" in man else ""
    fields = ("url", "from", "via", "depth", "fate", "status", "type", "bytes", "ms", "location",
              "error", "time")
    expect(not [f for f in fields if f"\\fB{f}\\fR" not in records_part
                and f".B {f}" not in records_part],
           f"man page RECORDS lacks {[f for f in fields if f not in records_part]}")
    jsonl_help = help_text.split("      --jsonl ")[1][:400]
    expect(not [f for f in fields if not re.search(rf"\b{f}\b", jsonl_help)],
           f"--help does not list the record fields: {jsonl_help!r}")
    script = (f"source '{paths['share/bash-completion/completions/crawl']}'; "
              "COMP_WORDS=(crawl --no-pa); COMP_CWORD=1; _crawl; echo \"${COMPREPLY[*]}\"; "
              "COMP_WORDS=(crawl --scope do); COMP_CWORD=2; _crawl; echo \"${COMPREPLY[*]}\"")
    out = subprocess.run(["bash", "--norc", "-c", script], capture_output=True, text=True).stdout
    expect(out.split("\n")[:2] == ["--no-parent", "domain"], f"completion gave {out!r}")
    version = subprocess.run([CRAWL, "--version"], capture_output=True, text=True).stdout
    for lib in ("libcurl", "c-ares", "libxml2", "libpsl"):
        expect(re.search(lib + r" \d+\.\d+", version), f"--version lacks {lib}: {version!r}")


def state_cmd(web, state, *args, interval=0.3, delay="0.02"):
    return [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000",
            "-w", delay, "--checkpoint", str(interval), "--state", state, *args, web.url()]


def case_state_survives_kill(tmp):
    """--state: a polite crawl killed with kill -9 at random moments, continued each time with
    nothing but `crawl --state DIR` (with shards, each time with another -j), until it ends. The runs together print every URL of the
    ground truth and fetch every page of it; pages fetched twice are no more than the requests
    the server answered in one checkpoint interval before each kill."""
    import random
    seed = int(os.environ.get("CRAWL_TEST_SEED", "0")) or random.randrange(1 << 30)
    rng = random.Random(seed)
    web = Web(tmp, hosts=3, pages=200)
    state, interval = os.path.join(tmp, "state"), 0.3
    warc = os.path.join(tmp, "crawl.warc.gz")
    printed, kills, runs = [], [], 0
    while True:
        runs += 1
        expect(runs <= 20, f"(seed {seed}) the crawl did not end in 20 runs")
        # with shards, each run continues with another number of them than the run before
        threads = ["-j", "4132"[runs % 4]] if os.environ.get("CRAWL_TEST_THREADS") else []
        cmd = (state_cmd(web, state, "--warc", warc, interval=interval) if runs == 1
               else [CRAWL, *threads, "--state", state])
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if len(kills) < 5:
            try:
                proc.wait(timeout=rng.uniform(0.5, 1.5))
            except subprocess.TimeoutExpired:
                kills.append(time.monotonic())
                proc.kill()
        out, err = proc.communicate(timeout=60)
        printed += out.splitlines()
        if proc.returncode == 0:
            break
        expect(proc.returncode == -signal.SIGKILL, f"(seed {seed}) run {runs}: {err}")
    log = web.stop()
    truth = web.truth(web.url())
    expect(len(kills) >= 3, f"(seed {seed}) the crawl ended before 3 kills: {len(kills)}")
    expect_same_set(printed, truth, f"(seed {seed}) all runs together")
    fetched = Counter(f"http://{host}:{web.port}{path}" for _, _, host, path, _ in log
                      if path != "/robots.txt")
    unfetched = sorted(u for u, (fate, _) in truth.items() if fate == "fetched" and not fetched[u])
    expect(not unfetched, f"(seed {seed}) pages no run fetched: {unfetched[:5]}")
    twice = sum(n - 1 for n in fetched.values())
    # a page settled after the last checkpoint is fetched again, and so is one in flight
    bound = sum(sum(1 for start, *_ in log if k - interval - 0.1 <= start <= k) + 3 for k in kills)
    print(f"seed {seed}: {runs} runs, {len(kills)} kills, {len(fetched)} pages, "
          f"{twice} fetched twice (bound {bound})")
    expect(twice <= bound, f"(seed {seed}) {twice} pages fetched twice, more than {bound}")
    # the WARC, appended to by every run and cut back to its checkpoint by the next, reads whole
    # and holds every page
    archived = Counter(r["uri"] for r in expect_whole_warc(warc_records(warc), "--warc"))
    infos = sum(1 for r in warc_records(warc) if r["type"] == "warcinfo")
    expect(1 <= infos <= runs, f"(seed {seed}) {infos} warcinfo records for {runs} runs")
    missing = sorted(u for u, (fate, _) in truth.items() if fate == "fetched" and not archived[u])
    expect(not missing, f"(seed {seed}) pages not in the WARC: {missing[:5]}")
    expect(sum(archived.values()) <= len(log), f"(seed {seed}) more records than requests")


def case_seen_survives_kill(tmp):
    """--seen keeps the queue in its periodic saves: a crawl killed with kill -9 after a save,
    run again with the same file, fetches what the first run had queued; together the two runs
    print the whole web."""
    web = Web(tmp, hosts=3, pages=150)
    seen = os.path.join(tmp, "crawl.seen")
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000",
           "--checkpoint", "0.3", "--seen", seen, web.url()]
    proc = subprocess.Popen(cmd + ["-w", "0.05"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    proc.kill()
    out, _ = proc.communicate(timeout=20)
    second = subprocess.run(cmd + ["-w", "0"], capture_output=True, text=True, timeout=60)
    expect(second.returncode == 0, f"second run exited {second.returncode}: {second.stderr}")
    expect("URLs the last run left queued were queued again" in second.stderr,
           f"second run's summary: {second.stderr}")
    log = web.stop()
    truth = web.truth(web.url())
    expect_same_set(out.splitlines() + lines(second), truth, "the two runs together")
    fetched = {f"http://{h}:{web.port}{p}" for _, _, h, p, _ in log}
    unfetched = sorted(u for u, (fate, _) in truth.items() if fate == "fetched" and u not in fetched)
    expect(not unfetched, f"pages neither run fetched: {unfetched[:5]}")


def expect_records_of_one_crawl(web, recs):
    """The --jsonl records of the runs of one crawl: one per URL of the ground truth, with its
    fate and depth. The truth, for more checks."""
    expect_unique([r["url"] for r in recs], "record across the runs")
    truth = web.truth(web.url())
    expect_same_set([r["url"] for r in recs], truth, "the runs together")
    wrong = [(r["url"], r["fate"], r["depth"], truth[r["url"]]) for r in recs
             if (r["fate"], r["depth"]) != truth[r["url"]]]
    expect(not wrong, f"fate or depth off: {wrong[:5]}")
    return truth


def expect_runs_are_one_crawl(web, recs, log):
    """The same for runs paused and continued, which fetch no page twice (robots.txt is fetched
    again by each run)."""
    expect_records_of_one_crawl(web, recs)
    twice = [k for k, n in Counter((h, p) for _, _, h, p, _ in log if p != "/robots.txt").items()
             if n > 1]
    expect(not twice, f"fetched twice: {twice[:5]}")


def case_full_disk_output(tmp):
    """-o on a disk that fills up (a 64 KiB tmpfs, in a mount namespace of the case's own): the
    --state crawl stops with an error naming the file, and no checkpoint counts a URL as settled
    whose line was not written. `crawl --state DIR` once the disk has room cuts the file back to
    its last checkpoint and goes on: over the runs every URL of the ground truth has one record,
    whole, with its fate and depth."""
    web = Web(tmp, hosts=3, pages=300)
    disk, state = os.path.join(tmp, "disk"), os.path.join(tmp, "state")
    os.mkdir(disk)
    out = os.path.join(disk, "out.jsonl")
    script = """
mount -t tmpfs -o size=64k tmpfs "$D" || exit 90
"$@" 2> "$T/err1"; echo $? > "$T/rc1"
mount -o remount,size=64m "$D" || exit 91
"$C" --no-progress --state "$S" 2> "$T/err2"; echo $? > "$T/rc2"
cp "$D/out.jsonl" "$T/out.jsonl"
rm "$D/out.jsonl" && mount -o remount,size=32k "$D" || exit 92
"$C" --no-progress $SEEN -o "$D/seen1.txt" 2> "$T/err3"; echo $? > "$T/rc3"
cp "$D/seen1.txt" "$T/seen1.txt"
mount -o remount,size=64m "$D" || exit 93
"$C" --no-progress $SEEN -o "$D/seen2.txt" 2> "$T/err4"; echo $? > "$T/rc4"
cp "$D/seen2.txt" "$T/seen2.txt"
"""
    first = state_cmd(web, state, "--jsonl", "-o", out, interval=0.1, delay="0")
    seen = ["--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000", "-w", "0", "--checkpoint",
            "0.1", "--seen", os.path.join(tmp, "seen"), web.url()]
    env = dict(os.environ, D=disk, T=tmp, S=state, C=CRAWL, SEEN=" ".join(seen))
    p = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", *first], env=env,
                       capture_output=True, text=True, timeout=120)
    log = web.stop()
    expect(p.returncode == 0, f"the namespace's script failed ({p.returncode}): {p.stderr}")
    read = lambda name: open(os.path.join(tmp, name)).read()
    expect(read("rc1").strip() == "1" and "No space left on device" in read("err1"),
           f"first run: exit {read('rc1').strip()}: {read('err1')[-800:]}")
    expect(read("rc2").strip() == "0", f"second run: exit {read('rc2').strip()}: {read('err2')}")
    recs = []
    with open(os.path.join(tmp, "out.jsonl")) as f:
        for n, line in enumerate(f, 1):
            try:
                recs.append(json.loads(line))
            except ValueError:
                raise AssertionError(f"line {n} of -o is not whole: {line[:300]!r}")
    truth = expect_records_of_one_crawl(web, inside(recs))  # pages after the checkpoint come twice
    expect(len(log) > len(truth) / 2, "the server saw too little: was the crawl run at all?")
    # --seen: the file is not saved past a line that was not written, so the next run prints
    # again what the full disk lost (a run may print a URL twice, never lose one)
    expect(read("rc3").strip() == "1" and "No space left on device" in read("err3"),
           f"--seen on a full disk: exit {read('rc3').strip()}: {read('err3')[-800:]}")
    expect(read("rc4").strip() == "0", f"--seen, room again: exit {read('rc4').strip()}")
    whole = [line for line in read("seen1.txt").split("\n")[:-1]] + read("seen2.txt").split()
    missing = set(truth) - set(whole)
    expect(not missing, f"--seen: {len(missing)} URLs lost, e.g. {sorted(missing)[:3]}")


def case_state_pauses_on_sigterm(tmp):
    """--state: SIGTERM ends the crawl after the requests in flight and checkpoints it;
    `crawl --state DIR` continues it, appending to the -o file. Over the two runs each URL has
    one record, with the depth and fate of the ground truth, and no page is fetched twice."""
    web = Web(tmp, hosts=3, pages=120)
    state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
    warc = os.path.join(tmp, "crawl.warc")
    proc = subprocess.Popen(state_cmd(web, state, "--jsonl", "-o", out, "--warc", warc,
                                      interval=30),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    expect(proc.returncode == 143, f"first run exited {proc.returncode}: {err}")
    expect("left for the next run" in err, f"first run's summary: {err}")
    with open(out) as f:
        first = inside([json.loads(line) for line in f])
    expect(first, "the first run wrote nothing")
    again = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=60)
    expect(again.returncode == 0, f"second run exited {again.returncode}: {again.stderr}")
    expect(again.stdout == "", f"the second run wrote to standard output, not -o: {again.stdout}")
    done = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=60)
    expect(done.returncode == 0, f"a run after the end exited {done.returncode}: {done.stderr}")
    log = web.stop()
    with open(out) as f:
        recs = inside([json.loads(line) for line in f])
    expect(len(recs) > len(first), "the second run appended nothing")
    expect_runs_are_one_crawl(web, recs, log)
    # the WARC holds each exchange once, appended to by the runs that continued
    archived = Counter(r["uri"] for r in expect_whole_warc(warc_records(warc), "--warc"))
    expect(archived == Counter(f"http://{h}:{web.port}{p}" for _, _, h, p, _ in log),
           "the WARC's responses are not the server's requests")
    # a new crawl is never started in a directory that holds one
    p = subprocess.run(state_cmd(web, state), capture_output=True, text=True, timeout=20)
    expect(p.returncode == 2 and "holds a crawl already" in p.stderr, f"{p.returncode} {p.stderr}")


def paused_runs(web, state, out, *args, pause=0.5, pauses=4):
    """A --state crawl with args, paused by SIGTERM after pause seconds and continued with
    nothing but `crawl --state DIR`, pauses times, then continued to its end: (its --jsonl
    records, the server's log)."""
    runs = 0
    while True:
        runs += 1
        expect(runs <= pauses + 2, f"{args}: the crawl did not end in {pauses + 2} runs")
        cmd = (state_cmd(web, state, "--jsonl", "-o", out, *args, interval=0.2, delay="0.04")
               if runs == 1 else [CRAWL, "--state", state])
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            proc.wait(timeout=pause if runs <= pauses else 120)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        expect(proc.returncode in (0, 143), f"{args}: run {runs} exited {proc.returncode}: {err}")
        if proc.returncode == 0:
            break
    expect(runs >= 3, f"{args}: the crawl ended after {runs} runs, too soon to show anything")
    with open(out) as f:
        recs = inside([json.loads(line) for line in f])
    return recs, web.stop()


def case_state_with_limits(tmp):
    """--state with -n, --max-pages-per-host and --depth, paused and continued several times:
    the limits hold over all the runs together as in one uninterrupted run. -n 40: 40 page
    requests in all, 40 fetched or failed records, the rest limit; --max-pages-per-host 20: 20
    requests to every host; -d 3: the ground truth's records. No page is fetched twice."""
    for args in (["-n", "40"], ["--max-pages-per-host", "20"], ["-d", "3"]):
        web = Web(tmp, hosts=3, pages=150, seed=4)
        state = os.path.join(tmp, "state" + args[0])
        out = os.path.join(tmp, "out" + args[0])
        recs, log = paused_runs(web, state, out, *args, pause=0.3)
        pages = [(h, path) for _, _, h, path, _ in log if path != "/robots.txt"]
        expect_unique(pages, f"{args}: request")
        expect_unique([r["url"] for r in recs], f"{args}: record")
        settled = {r["url"] for r in recs if r["fate"] in ("fetched", "failed")}
        expect_same_set(settled, {f"http://{h}:{web.port}{path}" for h, path in pages},
                        f"{args}: fetched and failed records against the requests")
        truth = web.truth(web.url())
        if args[0] == "-n":
            expect(len(pages) == 40, f"-n 40: {len(pages)} page requests over the runs")
        elif args[0] == "--max-pages-per-host":
            per_host = Counter(h for h, _ in pages)
            expect(len(per_host) == 3 and set(per_host.values()) == {20},
                   f"--max-pages-per-host 20: {per_host}")
        else:
            truth = web.truth(web.url(), depth=3)
            expect_breadth_first(recs, [e for e in log if e[3] != "/robots.txt"], truth, "-d 3")
        if args[0] != "-d":
            odd = [(r["url"], r["fate"], truth.get(r["url"])) for r in recs
                   if r["fate"] not in ("fetched", "failed", "limit")
                   and truth.get(r["url"], ("",))[0] != r["fate"]
                   or r["fate"] == "limit" and truth.get(r["url"], ("",))[0] not in
                   ("fetched", "failed")]
            expect(not odd, f"{args}: fates off the truth: {odd[:5]}")
            expect(any(r["fate"] == "limit" for r in recs), f"{args}: no limit fates")
            expect(not [r for r in recs if r["fate"] == "pending"], f"{args}: pending records")


def case_state_and_seen_locked(tmp):
    """One crawl per --state directory and per --seen file: a second crawl started while the
    first runs exits 1 at once naming the first's PID, and prints nothing; the first is killed
    with kill -9, and its lock, gone with it, keeps no later run out: continued, the crawl ends."""
    web = Web(tmp, hosts=2, pages=60)
    state = os.path.join(tmp, "state")
    seen = os.path.join(tmp, "crawl.seen")
    base = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.1",
            "-d", "1000"]
    for option, first, second in (
            ("--state", base + ["--state", state, web.url()], [CRAWL, "--state", state]),
            ("--seen", base + ["--seen", seen, web.url()], base + ["--seen", seen, web.url()])):
        proc = subprocess.Popen(first, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            time.sleep(0.7)
            if proc.poll() is not None:  # say how it ended: a failure seen once under load
                out, err = proc.communicate()
                raise AssertionError(f"{option}: the first crawl ended too soon: exit "
                                     f"{proc.returncode}, {len(out.splitlines())} lines, "
                                     f"{err[-300:]!r}")
            started = time.monotonic()
            p = subprocess.run(second, capture_output=True, text=True, timeout=30)
            err = p.stderr.splitlines()
            expect(p.returncode == 1 and len(err) == 1 and
                   f"is in use by process {proc.pid}" in err[0] and not p.stdout,
                   f"{option}, a second crawl: exit {p.returncode}, {p.stderr!r}")
            expect(time.monotonic() - started < 2, f"{option}: the refusal took long")
        finally:
            proc.kill()
            proc.communicate()
        p = subprocess.run(second, capture_output=True, text=True, timeout=60)
        expect(p.returncode == 0, f"{option}, after kill -9: exit {p.returncode}, {p.stderr}")
    web.stop()


def case_state_keeps_absolute_paths(tmp):
    """A --state crawl begun with a relative -o and --warc, paused, and continued from another
    working directory writes on to the same files (not to new ones where it runs): together they
    hold one record per URL of the truth, and the WARC reads whole."""
    web = Web(tmp, hosts=2, pages=80)
    first_dir, other_dir = os.path.join(tmp, "here"), os.path.join(tmp, "elsewhere")
    os.mkdir(first_dir)
    os.mkdir(other_dir)
    crawl_path = os.path.abspath(CRAWL)  # the case runs it from other directories
    cmd = [crawl_path, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.03", "-d",
           "1000", "--checkpoint", "0.2", "--state", "state", "--jsonl", "-o", "out.jsonl",
           "--warc", "crawl.warc", web.url()]
    proc = subprocess.Popen(cmd, cwd=first_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    expect(proc.returncode == 143, f"the first run exited {proc.returncode}: {err}")
    p = subprocess.run([crawl_path, "--state", os.path.join(first_dir, "state")], cwd=other_dir,
                       capture_output=True, text=True, timeout=60)
    log = web.stop()
    expect(p.returncode == 0, f"continued elsewhere: exit {p.returncode}, {p.stderr}")
    expect(os.listdir(other_dir) == [], f"files made where it was continued: "
                                        f"{os.listdir(other_dir)}")
    with open(os.path.join(first_dir, "out.jsonl")) as f:
        recs = inside([json.loads(line) for line in f])
    expect_runs_are_one_crawl(web, recs, log)
    expect_whole_warc(warc_records(os.path.join(first_dir, "crawl.warc")), "--warc")


def case_state_across_thread_counts(tmp):
    """--state and --seen keep one file for every shard, loadable with another number of them: a
    polite crawl with -j 4 paused by SIGTERM after a few checkpoints (each made with every shard
    paused), continued with -j 1, paused again, and ended with -j 3, gives one record per URL with
    the ground truth's fate and depth, and fetches no page twice. A --seen file saved by -j 4 is
    whole for -j 1 and -j 3: nothing new is printed, only the seed is fetched again."""
    web = Web(tmp, hosts=4, pages=120)
    state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
    runs = [state_cmd(web, state, "-j", "4", "--jsonl", "-o", out, interval=0.2),
            [CRAWL, "-j", "1", "--state", state], [CRAWL, "-j", "3", "--state", state]]
    for i, cmd in enumerate(runs):
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if i < 2:
            time.sleep(1.0)
            proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        want = (143, 0) if i < 2 else (0,)  # a pause may come after the end
        expect(proc.returncode in want, f"run {i + 1} exited {proc.returncode}: {err}")
    log = web.stop()
    with open(out) as f:
        recs = inside([json.loads(line) for line in f])
    expect_runs_are_one_crawl(web, recs, log)

    web = Web(tmp, hosts=4, pages=60)
    seen = os.path.join(tmp, "crawl.seen")
    first = crawl(web, "-j", "4", "-w", "0", "-d", "1000", "--seen", seen, web.url())
    expect_same_set(lines(first), web.truth(web.url()), "--seen, first run (-j 4)")
    windows = {}
    for threads in ("1", "3"):
        began = time.monotonic()  # the server stamps requests with the same clock
        again = crawl(web, "-j", threads, "-w", "0", "-d", "1000", "--seen", seen, web.url())
        windows[threads] = (began, time.monotonic())
        expect(lines(again) == [], f"--seen, -j {threads} printed {lines(again)[:5]}")
    log = web.stop()
    for threads, (a, b) in windows.items():
        requests = sorted(r[3] for r in log if a < r[0] < b)
        expect(requests == ["/", "/robots.txt"], f"--seen, -j {threads} requested {requests[:8]}")


def case_state_full_disk(tmp):
    """--state on a disk that fills up: the checkpoint fails with a clear error, the crawl ends
    with exit 1 at its stop, and the checkpoint before stays whole: continued from it (on a disk
    with room), the crawl ends with every URL of the ground truth printed."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        print("skip: needs root for a small tmpfs in a private mount namespace")
        sys.exit(77)
    web = Web(tmp, hosts=2, pages=100)
    small, kept = os.path.join(tmp, "small"), os.path.join(tmp, "kept")
    os.mkdir(small)
    state = os.path.join(small, "state")
    # a filter sized for the web, so that a checkpoint fits the 1 MB disk
    crawl_cmd = " ".join(f"'{a}'" for a in state_cmd(web, state, "--expect", "2000",
                                                     delay="0.05"))
    script = (f"mount -t tmpfs -o size=1m none '{small}' || exit 99; {crawl_cmd} & "
              f"echo $! > '{tmp}/pid'; wait $!; echo $? > '{tmp}/status'; cp -a '{state}' '{kept}'")
    sh = subprocess.Popen(["unshare", "-m", "sh", "-c", script], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    inside = None
    for _ in range(100):
        time.sleep(0.05)
        if os.path.exists(f"{tmp}/pid"):
            with open(f"{tmp}/pid") as f:
                pid = f.read().strip()
            if pid:
                inside = f"/proc/{pid}/root{state}"
                if os.path.exists(f"{inside}/checkpoint"):
                    break
    if not (inside and os.path.exists(f"{inside}/checkpoint")):
        sh.kill()
        raise AssertionError(f"no checkpoint was made: {sh.communicate()}")
    with open(f"{inside}/filler", "wb") as f:  # the disk fills up
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass
    time.sleep(0.4)  # a checkpoint begun before the disk was full has ended
    with open(f"{inside}/checkpoint", "rb") as f:
        before = f.read()
    time.sleep(1.0)  # past a checkpoint or three
    os.kill(int(pid), signal.SIGTERM)
    out, err = sh.communicate(timeout=30)
    with open(f"{tmp}/status") as f:
        status = int(f.read())
    expect(status == 1, f"exit status {status}: {err}")
    expect("No space left on device" in err and "the checkpoint before stays" in err,
           f"no clear error: {err}")
    expect("could not be saved" in err, f"the last checkpoint's failure is not fatal: {err}")
    with open(os.path.join(kept, "checkpoint"), "rb") as f:
        expect(f.read() == before, "the checkpoint changed on a full disk")
    os.remove(os.path.join(kept, "filler"))
    again = subprocess.run([CRAWL, "--state", kept], capture_output=True, text=True, timeout=60)
    expect(again.returncode == 0, f"continued run exited {again.returncode}: {again.stderr}")
    web.stop()
    expect_same_set(out.splitlines() + again.stdout.splitlines(), web.truth(web.url()),
                    "the two runs together")


def case_warc_archive(tmp):
    """--warc: warcinfo first, then for every exchange the server saw (robots.txt and sitemaps
    included) a response and a request record, read back by warcio with every digest holding; the
    payloads are the bytes the test web serves, asked for without content coding; FILE.gz holds
    one gzip member per record."""
    import base64
    import gzip
    import http.client
    import zlib
    web = Web(tmp, hosts=2, pages=40)
    runs = {}
    for name in ("out.warc", "out.warc.gz"):
        path = os.path.join(tmp, name)
        began = time.monotonic()
        crawl(web, "-w", "0", "-d", "1000", "--sitemaps", "--warc", path, web.url())
        runs[name] = (path, began, time.monotonic())
    served, archived = {}, {}
    for name, (path, began, ended) in runs.items():
        recs = warc_records(path)
        responses = expect_whole_warc(recs, name)
        archived[name] = responses
        requests = [r for r in recs if r["type"] == "request"]
        expect(not [r for r in requests if not r["requestLine"].startswith("GET ")],
               f"{name}: a request that is not GET")
        expect(not [r for r in responses if r["encoding"]], f"{name}: a body with a content coding")
        with open(path, "rb") as f:
            raw = f.read()
        if name.endswith(".gz"):
            members, rest = 0, raw
            while rest:  # one gzip member per record
                d = zlib.decompressobj(16 + zlib.MAX_WBITS)
                text = d.decompress(rest)
                expect(text.startswith(b"WARC/1.1\r\n") and text.count(b"\r\nWARC-Type: ") == 1,
                       f"{name}: member {members} is not one record")
                rest = d.unused_data
                members += 1
            expect(members == len(recs), f"{name}: {members} gzip members, {len(recs)} records")
            raw = gzip.decompress(raw)
        else:
            expect(raw.startswith(b"WARC/1.1\r\nWARC-Type: warcinfo\r\n"), f"{name}: {raw[:40]}")
        # identity asked for: no request head names a content coding
        expect(b"\r\nAccept-Encoding:" not in raw, f"{name}: a request asked for a content coding")
        for r in responses:
            if r["status"] == 200:
                served.setdefault(r["uri"], []).append(base64.b64decode(r["payload"]))
    for uri, payloads in sorted(served.items()):
        host, path = re.match(r"http://([^/]+)(/.*)", uri).groups()
        conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
        conn.request("GET", path, headers={"Host": host})
        body = conn.getresponse().read()
        conn.close()
        expect(all(p == body for p in payloads), f"{uri}: the archived payload differs")
    log = web.stop()
    for name, (path, began, ended) in runs.items():
        want = Counter(f"http://{h}:{web.port}{p}" for start, _, h, p, _ in log
                       if began <= start <= ended)
        got = Counter(r["uri"] for r in archived[name])
        expect(got == want, f"{name}: records {sum(got.values())}, server answered "
               f"{sum(want.values())}: {sorted((got - want) + (want - got))[:5]}")
        expect(any("/sitemap" in u for u in got), f"{name}: no sitemap was archived")
        expect(any(u.endswith("/robots.txt") for u in got), f"{name}: no robots.txt archived")


def h2_streams(log_path):
    """From nghttpd -v: requests per connection, and the most streams open at once on one."""
    per_conn, open_now, most = Counter(), set(), 0
    with open(log_path, errors="replace") as f:
        for line in f:
            m = re.match(r"\[id=(\d+)\].*recv HEADERS frame <.*stream_id=(\d+)>", line)
            if m:
                per_conn[m.group(1)] += 1
                open_now.add(m.groups())
                most = max(most, len(open_now))
            m = re.match(r"\[id=(\d+)\].*stream_id=(\d+) closed", line)
            if m:
                open_now.discard(m.groups())
    return per_conn, most


def case_http2_multiplexed(tmp):
    """HTTP/2 for real, against Debian's nghttpd over TLS: used when the server offers it; with
    --per-host 4 the host's pages go as streams of one connection, several at once, and with
    --per-host 1 one at a time. Every page is fetched either way."""
    nghttpd = shutil.which("nghttpd") or "/usr/sbin/nghttpd"
    expect(os.path.exists(nghttpd), "nghttpd is not installed (Debian nghttp2-server)")
    pki = make_pki(tmp, "h2.web.test")
    www = os.path.join(tmp, "www")
    os.makedirs(os.path.join(www, "p"))
    pages = 40
    with open(os.path.join(www, "index.html"), "w") as f:
        f.write("<html><body>" + "".join(f'<a href="p/{i}.html">{i}</a>' for i in range(10)) +
                "</body></html>\n")
    for i in range(pages):
        with open(os.path.join(www, "p", f"{i}.html"), "w") as f:
            f.write("<html><body>" + "".join(f'<a href="{(i * k + 3) % pages}.html">x</a>'
                                             for k in (3, 7, 11)) + "</body></html>\n")
    with open(os.path.join(www, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")
    # a tiny page is answered at once: when the crawler runs slowly (ASan: about one crawl in
    # two), a turn's streams may each be done before the next is sent, so "several at once" gets
    # up to eight crawls to show (a plain build shows it in the first)
    runs = [("4", "several", attempt) for attempt in range(8)] + [("1", "one", 0)]
    shown = False
    for per_host, streams, attempt in runs:
        if shown and streams == "several":
            continue
        port = free_port()
        log_path = os.path.join(tmp, f"nghttpd-{per_host}.log")
        with open(log_path, "w") as log:
            server = subprocess.Popen([nghttpd, "-v", "-d", www, "-a", "127.0.0.1", str(port),
                                       os.path.join(pki, "host.key"),
                                       os.path.join(pki, "host.pem")],
                                      stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_port(port)
            p = subprocess.run([CRAWL, "--no-progress", "--jsonl", "-w", "0", "-d", "1000",
                                "--per-host", per_host, "--retries", "0",
                                "--cacert", os.path.join(pki, "ca.pem"),
                                "--resolve", f"h2.web.test:{port}:127.0.0.1",
                                f"https://h2.web.test:{port}/"],
                               capture_output=True, text=True, timeout=60)
        finally:
            server.terminate()
            server.wait(timeout=10)
        expect(p.returncode == 0, f"--per-host {per_host}: exit {p.returncode}: {p.stderr[-300:]}")
        fetched = [r["url"] for r in records(p) if r["fate"] == "fetched"]
        others = [(r["url"], r["fate"], r.get("error")) for r in records(p) if r["fate"] != "fetched"]
        expect(len(fetched) == pages + 1,
               f"--per-host {per_host}: {len(fetched)} pages fetched; {others[:3]}")
        per_conn, most = h2_streams(log_path)
        expect(sum(per_conn.values()) == pages + 2,  # and robots.txt
               f"--per-host {per_host}: nghttpd saw {sum(per_conn.values())} requests")
        expect(len(per_conn) == 1, f"--per-host {per_host}: requests over {len(per_conn)} "
               "connections, not one")
        if streams == "several":
            shown = most > 1
            expect(shown or attempt < 7,
                   f"--per-host {per_host}: {most} streams open at once in eight crawls, want several")
        else:
            expect(most == 1, f"--per-host {per_host}: {most} streams open at once, want one")


def serve_encoded(tmp, bodies):
    """A loopback HTTP/1.1 server (a thread of this test) answering each path of bodies with its
    (content type, content coding, bytes); 404 for the rest. Returns (server, port)."""
    import http.server
    import threading

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            entry = bodies.get(self.path)
            if not entry:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            ctype, coding, data = entry
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            if coding:
                self.send_header("Content-Encoding", coding)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:
                self.wfile.write(data)
            except OSError:
                pass  # the crawler hung up at --max-size

        def log_message(self, *args):
            pass

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            pass  # a client that hangs up mid-body (--max-size) is expected

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def compress(coding, head, filler_mb, tail):
    """head, filler_mb MiB of spaces, then tail, in the content coding given, made a MiB at a
    time (gzip by zlib, br and zstd by Debian's brotli and zstd tools)."""
    import zlib
    mib = b" " * (1 << 20)
    if coding == "gzip":
        z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        out = [z.compress(head)] + [z.compress(mib) for _ in range(filler_mb)]
        return b"".join(out + [z.compress(tail), z.flush()])
    tool = {"br": ["brotli", "-c", "-q", "5"], "zstd": ["zstd", "-c", "-q", "-3"]}[coding]
    expect(shutil.which(tool[0]), f"{tool[0]} is not installed")
    proc = subprocess.Popen(tool, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    import threading
    out = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read()))
    reader.start()
    proc.stdin.write(head)
    for _ in range(filler_mb):
        proc.stdin.write(mib)
    proc.stdin.write(tail)
    proc.stdin.close()
    reader.join()
    proc.wait()
    return out[0]


def case_compression_bombs(tmp):
    """gzip, brotli and zstd bodies are decoded (a link at the start of each is found) and
    --max-size holds against a bomb in each: 256 MiB of HTML in a few hundred KB stops at 1 MiB
    decoded, its later link is never seen, and the crawl's peak memory stays within 40 MB of
    what a crawl of one small page takes."""
    bodies = {"/": ("text/html", None, b"<html><body>" + b"".join(
        f'<a href="/{c}.html">{c}</a>'.encode() for c in ("gzip", "br", "zstd")) +
        b"</body></html>\n")}
    for coding in ("gzip", "br", "zstd"):
        head = f'<html><body><a href="/found-{coding}.html">early</a>'.encode()
        tail = f'<a href="/never-{coding}.html">late</a></body></html>'.encode()
        data = compress(coding, head, 256, tail)
        expect(len(data) < 2 << 20, f"{coding}: the bomb is {len(data)} bytes")
        bodies[f"/{coding}.html"] = ("text/html", coding, data)
        bodies[f"/found-{coding}.html"] = ("text/html", None, b"<html>found</html>\n")
    server, port = serve_encoded(tmp, bodies)
    try:
        def run(seed):
            with open(os.path.join(tmp, "out"), "w+") as out, \
                    open(os.path.join(tmp, "err"), "w+") as err:
                proc = subprocess.Popen([CRAWL, "--no-progress", "--jsonl", "-w", "0", "-d", "3",
                                         "--max-size", "1M", seed], stdout=out, stderr=err)
                _, status, usage = os.wait4(proc.pid, 0)  # its own peak memory, no other child's
                out.seek(0)
                err.seek(0)
                return os.waitstatus_to_exitcode(status), out.read(), err.read(), usage

        # the same crawl of one small page: what the program needs without any bomb
        _, _, _, small = run(f"http://127.0.0.1:{port}/found-gzip.html")
        returncode, out, err, usage = run(f"http://127.0.0.1:{port}/")
    finally:
        server.shutdown()
    expect(returncode == 0, f"exit {returncode}: {err[-300:]}")
    recs = {r["url"].split("/", 3)[3]: r for r in inside([json.loads(x) for x in out.splitlines()])}
    for coding in ("gzip", "br", "zstd"):
        bomb = recs.get(f"{coding}.html")
        expect(bomb and bomb["fate"] == "fetched" and bomb["bytes"] == 1 << 20,
               f"{coding}: {bomb}")
        expect(f"found-{coding}.html" in recs, f"{coding}: the link at its start was not found")
        expect(f"never-{coding}.html" not in recs, f"{coding}: read past --max-size")
    peak_mb, base_mb = usage.ru_maxrss / 1024, small.ru_maxrss / 1024
    print(f"crawl's peak RSS: {peak_mb:.0f} MB for 3 x 256 MiB of decoded bombs, "
          f"{base_mb:.0f} MB for one small page")
    expect(peak_mb < base_mb + 40, f"crawl's peak RSS {peak_mb:.0f} MB, {base_mb:.0f} MB without "
           "the bombs")


def case_speculative_fetches(tmp):
    """A polite crawl fetches pages ahead of their level before their depth is known, so hosts do
    not wait for the slowest one at every depth; still every URL's fate and depth are the
    breadth-first truth's, with -d and without, no page is fetched twice and none that the truth
    does not fetch, and no request comes closer than the delay. Also with a --queue-memory so
    small that fetching ahead keeps reaching its budget (half of it in speculative pages, their
    links within twice it), stops, and starts again once confirmations free it."""
    for depth, budget in ((None, []), (3, []), (None, ["--queue-memory", "200"])):
        web = Web(tmp, hosts=12, pages=40, links=6, seed=7)
        args = ["-w", "0.02", "--jsonl", *budget] + (["-d", str(depth)] if depth else ["-d", "1000"])
        p = crawl(web, *args, web.url())
        log = web.stop()
        truth = web.truth(web.url(), depth=depth) if depth else web.truth(web.url())
        recs = records(p)
        expect_unique([r["url"] for r in recs], f"-d {depth}: record")
        wrong = [(r["url"], r["fate"], r["depth"], truth.get(r["url"])) for r in recs
                 if (r["fate"], r["depth"]) != truth.get(r["url"])]
        expect(not wrong, f"-d {depth}: fate or depth off: {wrong[:5]}")
        expect_same_set([r["url"] for r in recs], truth, f"-d {depth}")
        m = re.search(r"(\d+) pages fetched ahead of their level", p.stderr)
        expect(m and int(m.group(1)) > 0, f"-d {depth}: nothing was fetched ahead: {p.stderr}")
        fetched = Counter(f"http://{h}:{web.port}{path}" for _, _, h, path, _ in log
                          if path != "/robots.txt")
        twice = [u for u, n in fetched.items() if n > 1]
        expect(not twice, f"-d {depth}: fetched twice: {twice[:5]}")
        fetched_fates = {"fetched", "failed"}
        extra = [u for u in fetched if truth.get(u, ("none", 0))[0] not in fetched_fates]
        expect(not extra, f"-d {depth}: fetched, though the truth does not: {extra[:5]}")
        close = [g for host_gaps in gaps(log).values() for g in host_gaps if g < 0.02]
        expect(not close, f"-d {depth}: {len(close)} gaps under the delay")


def case_redirect_at_the_depth_limit(tmp):
    """A redirect of the last level (-d) whose target was found first as a link one level deeper,
    beyond the limit: the target keeps the redirect's depth and is fetched, and its own links are
    printed, as breadth first does (doc/behaviour.md, Depth). With and without fetching ahead."""
    for delay in ("0", "0.002"):
        for links in (4, 6, 9):
            web = Web(tmp, hosts=10, pages=50, links=links, seed=26)
            p = crawl(web, "-w", delay, "-d", "2", "--jsonl", web.url())
            web.stop()
            truth = web.truth(web.url(), depth=2)
            got = {r["url"]: (r["fate"], r["depth"]) for r in records(p)}
            wrong = [(u, got.get(u), t) for u, t in truth.items() if got.get(u) != t]
            expect(not wrong and len(got) == len(truth),
                   f"-w {delay}, {links} links: {len(wrong)} off, e.g. {wrong[:3]}")


def case_redirect_targets_in_long_queues(tmp):
    """A redirect whose target is queued already, found first as a link one level deeper, moves
    the target up to the redirect's depth however far back in its host's long queue it waits:
    on one host of 600 pages and on three of 300, every record has the truth's fate and depth."""
    for hosts, pages, links in ((1, 600, 6), (3, 300, 8)):
        web = Web(tmp, hosts=hosts, pages=pages, links=links)
        p = crawl(web, "-w", "0", "-d", "1000", "--jsonl", web.url())
        web.stop()
        truth = web.truth(web.url())
        lowered = subprocess.run([TESTWEB, "truth", *web.args, "--port", str(web.port),
                                  web.url()], capture_output=True, text=True).stderr
        m = re.search(r"(\d+) redirect targets were found as links one level deeper", lowered)
        expect(m and int(m.group(1)) >= 5, f"{hosts} x {pages}: too few lowered targets to test")
        got = {r["url"]: (r["fate"], r["depth"]) for r in records(p)}
        wrong = [(u, got.get(u), t) for u, t in truth.items() if got.get(u) != t]
        expect(not wrong and len(got) == len(truth),
               f"{hosts} x {pages}: {len(wrong)} off, e.g. {wrong[:3]}")
        # a moved target was found by the redirect: via says so, as from does
        by_url = {r["url"]: r for r in records(p)}
        off = [r for r in records(p) if (r["via"] == "redirect") !=
               (r["from"] is not None and by_url[r["from"]].get("location") == r["url"])]
        expect(not off, f"{hosts} x {pages}: via and from disagree: {off[:3]}")


class Redis:
    """A redis-server of the case's own on a free loopback port: nothing saved to disk, or with
    aof, every write in its append-only file (fsync'd before each answer) that a restart reads."""

    def __init__(self, tmp, aof=False):
        self.port, self.tmp, self.aof = free_port(), tmp, aof
        self.start()

    def start(self):
        persist = ["--appendonly", "yes", "--appendfsync", "always"] if self.aof else [
            "--appendonly", "no"]
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             *persist, "--dir", self.tmp], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        for _ in range(500):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.01)
        self.stop()
        raise AssertionError("redis-server did not start (scripts/install-deps.sh installs it)")

    def url(self, job):
        return f"redis://127.0.0.1:{self.port}/{job}"

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def cluster_run(web, redis, job, per_node, *args):
    """Three processes share one crawl; node i runs with the extra arguments per_node[i] (its
    -j). Returns each node's finished process."""
    return nodes_run([[CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", *extra,
                       "--cluster", redis.url(job), "--nodes", str(len(per_node)), "--node",
                       str(i), *args] for i, extra in enumerate(per_node)])


def nodes_run(cmds, interrupt=None):
    """Runs the commands at once, their output in files (a node blocked on a full pipe would
    hold the others back); interrupt(procs) runs while they do. Each process gets .out, .err."""
    procs, files = [], []
    for i, cmd in enumerate(cmds):
        # kept beside the case's files with CRAWL_TEST_KEEP (see the end of this file)
        out, err = (tempfile.NamedTemporaryFile("w+", prefix=f"node{i}-", suffix=s, delete=not KEEP)
                    for s in (".out", ".err"))
        files.append((out, err))
        procs.append(subprocess.Popen(cmd, stdout=out, stderr=err, text=True))
    if interrupt:
        interrupt(procs)
    for proc, (out, err) in zip(procs, files):
        try:
            proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            raise AssertionError(f"a node did not end in 90 s: {' '.join(proc.args)}")
        out.seek(0)
        err.seek(0)
        proc.out, proc.err = out.read(), err.read()
        out.close()
        err.close()
    return procs


def case_cluster_nodes(tmp):
    """--cluster: three processes over one Redis share a crawl of 30 hosts whose pages link
    across hosts. Each prints the URLs of the hosts it owns: together every URL once, with the
    truth's fate and breadth-first depth (at -d 1000 and at -d 3 with a delay), the same set as
    one process, and no page fetched twice. The processes run 1, 3 and 2 shards of their own."""
    redis = Redis(tmp)
    try:
        for job, delay, depth in (("deep", "0", 1000), ("shallow", "0.01", 3)):
            web = Web(tmp, hosts=30, pages=40, links=10, seed=7)
            procs = cluster_run(web, redis, job, (["-j", "1"], ["-j", "3"], ["-j", "2"]),
                                "-w", delay, "-d", str(depth), "--jsonl", web.url())
            log = web.stop()
            what = f"-w {delay} -d {depth}"
            for i, proc in enumerate(procs):
                expect(proc.returncode == 0, f"{what}: node {i} exited {proc.returncode}: "
                       f"{proc.err[-400:]}")
            recs = inside([json.loads(line) for proc in procs for line in proc.out.splitlines()])
            expect(all(proc.out for proc in procs), f"{what}: a node printed nothing")
            expect_breadth_first(recs, log, web.truth(web.url(), depth=depth),
                                 f"{what} across nodes")
        # the same job again is refused: its state says it has ended
        web = Web(tmp, hosts=2, pages=5)
        p = crawl(web, "--cluster", redis.url("deep"), "--nodes", "3", "--node", "0", web.url(),
                  check=False)
        web.stop()
        expect(p.returncode == 1 and "has ended" in p.stderr and not p.stdout,
               f"a finished job again: exit {p.returncode}, {p.stderr!r}")
    finally:
        redis.stop()


def state_nodes(tmp, web, redis, job):
    """Three processes of one polite crawl, each with its own --state directory: the
    directories and the commands that begin it."""
    dirs = [os.path.join(tmp, f"{job}{i}") for i in range(3)]
    return dirs, [[CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.05",
                   "-d", "1000", "--checkpoint", "1", "--jsonl", "--state", dirs[i], "--cluster",
                   redis.url(job), "--nodes", "3", "--node", str(i), web.url()]
                  for i in range(3)]


def case_cluster_failed_start_keeps_state(tmp):
    """A --state node of a cluster, paused, then continued while Redis is down, and once more
    after its job has been refused another way (other options): each continuation that cannot
    start exits 1 and leaves `checkpoint` and `checkpoint.prev` byte for byte as they were (a
    save made then held one shard's part alone). Continued with Redis back, the crawl ends with
    every URL of the truth, no page fetched twice."""
    redis = Redis(tmp, aof=True)
    web = Web(tmp, hosts=6, pages=120, seed=3)
    state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
    try:
        first = state_cmd(web, state, "-j", "3", "--jsonl", "-o", out, "--cluster",
                          redis.url("keep"), "--nodes", "1", "--node", "0", interval=0.2)
        proc = subprocess.Popen(first, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        expect(proc.returncode == 143, f"the first run exited {proc.returncode}: {err}")

        def files():
            got = {}
            for name in ("checkpoint", "checkpoint.prev"):
                with open(os.path.join(state, name), "rb") as f:
                    got[name] = f.read()
            return got
        before = files()
        redis.stop()
        for threads in ("3", "1"):
            p = subprocess.run([CRAWL, "-j", threads, "--state", state], capture_output=True,
                               text=True, timeout=60)
            expect(p.returncode == 1 and "Redis at" in p.stderr,
                   f"-j {threads}, Redis down: exit {p.returncode}, {p.stderr!r}")
            expect(files() == before, f"-j {threads}, Redis down: the checkpoint files changed")
        redis.start()
        p = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=90)
        expect(p.returncode == 0, f"continued with Redis back: exit {p.returncode}, {p.stderr}")
    finally:
        redis.stop()
    log = web.stop()
    with open(out) as f:
        recs = inside([json.loads(line) for line in f])
    expect_same_set({r["url"] for r in recs}, web.truth(web.url()), "the runs together")
    twice = [k for k, n in Counter((h, path) for _, _, h, path, _ in log
                                   if path != "/robots.txt").items() if n > 1]
    expect(len(twice) <= 12, f"fetched twice: {len(twice)}, e.g. {twice[:3]}")


def expect_truth_records(procs, truth, what):
    """The --jsonl records of all the runs: every URL of the truth, and each record (one printed
    again after a kill says what the first said) with the truth's fate and depth: a link lost on
    its way would show as a URL found later, deeper."""
    recs = inside([json.loads(line) for proc in procs for line in proc.out.splitlines()])
    expect_same_set([r["url"] for r in recs], truth, what)
    wrong = sorted({(r["url"], r["fate"], r["depth"]) for r in recs
                    if (r["fate"], r["depth"]) != truth[r["url"]]})
    expect(not wrong, f"{what}: {len(wrong)} records off the truth, e.g. {wrong[:3]}")
    return recs


def case_cluster_state_survives_kill(tmp):
    """--cluster with --state: three processes share a polite crawl, each checkpointing into its
    own directory; one is killed with kill -9 mid-crawl and continued with nothing but
    `crawl --state DIR`. The others wait for it (its hosts' depths are pending), it takes up again
    what Redis gave it after its last checkpoint (acknowledged only once a checkpoint held it),
    and all runs together print the single-process truth, fetching every page of it."""
    redis = Redis(tmp)
    try:
        web = Web(tmp, hosts=12, pages=80, links=2, seed=5)
        dirs, cmds = state_nodes(tmp, web, redis, "kill")
        again = []

        def kill_and_continue(procs):
            time.sleep(1.5)
            expect(procs[1].poll() is None, "node 1 ended before it could be killed")
            procs[1].kill()
            procs[1].wait()
            time.sleep(0.5)  # the others go on meanwhile, and send node 1 more links
            again.extend(nodes_run([[CRAWL, "--state", dirs[1]]]))

        procs = nodes_run(cmds, kill_and_continue)
        log = web.stop()
        expect(procs[1].returncode == -signal.SIGKILL, f"node 1 exited {procs[1].returncode}")
        for i, proc in ((0, procs[0]), (2, procs[2]), (1, again[0])):
            expect(proc.returncode == 0, f"node {i} exited {proc.returncode}: {proc.err[-400:]}")
        expect(again[0].out, "node 1, continued, printed nothing")
        truth = web.truth(web.url())
        expect_truth_records((*procs, *again), truth, "the nodes' runs together")
        fetched = {f"http://{h}:{web.port}{p}" for _, _, h, p, _ in log}
        unfetched = sorted(u for u, (fate, _) in truth.items()
                           if fate == "fetched" and u not in fetched)
        expect(not unfetched, f"pages no run fetched: {unfetched[:5]}")
    finally:
        redis.stop()


def case_cluster_survives_redis_restart(tmp):
    """--cluster with --state, and Redis started again from its append-only file twice:
    - killed with kill -9 mid-crawl: every process stops with a clear error naming Redis, its
      checkpoint saved;
    - hung (SIGSTOP) while the processes, continued with `crawl --state DIR`, run, then each
      paused with SIGINT and Redis killed: a pause with Redis not answering keeps what it had
      not confirmed (most often the run is between two levels then, waiting for a view, and
      there is nothing: tests/cluster covers the batches kept).
    Continued once more, the runs together print the single-process truth, each URL once with
    the truth's fate and depth, and no page is fetched twice but those a node had in flight when
    Redis was killed: its crawl stops at once then (a fatal error), and what it had not settled
    is fetched again by the run that continues it (at most one page a host, as -w allows one
    request at a time; each answered within two seconds of the kill)."""
    redis = Redis(tmp, aof=True)
    killed_at = []
    try:
        web = Web(tmp, hosts=12, pages=80, links=2, seed=5)
        dirs, cmds = state_nodes(tmp, web, redis, "aof")

        def kill_redis(procs):
            time.sleep(1.5)
            expect(all(p.poll() is None for p in procs), "a node ended before Redis went")
            killed_at.append(time.monotonic())
            redis.stop()

        def hang_redis(procs):
            time.sleep(1)
            redis.proc.send_signal(signal.SIGSTOP)
            time.sleep(1)  # a level's pages end meanwhile, and their links wait for Redis
            for p in procs:
                p.send_signal(signal.SIGINT)
            time.sleep(0.5)
            redis.stop()

        first = nodes_run(cmds, kill_redis)
        for i, proc in enumerate(first):
            expect(proc.returncode == 1 and f"Redis at 127.0.0.1:{redis.port}" in proc.err,
                   f"node {i} with Redis gone: exit {proc.returncode}, {proc.err[-300:]!r}")
        redis.start()
        again = [[CRAWL, "--state", d] for d in dirs]
        second = nodes_run(again, hang_redis)
        for i, proc in enumerate(second):
            # paused, it waits for Redis's answers a while: Redis may go first
            expect(proc.returncode == 130 or (proc.returncode == 1 and "Redis at" in proc.err),
                   f"node {i} paused with Redis hung: exit {proc.returncode}, "
                   f"{proc.err[-300:]!r}")
        redis.start()
        third = nodes_run(again)
        log = web.stop()
        for i, proc in enumerate(third):
            expect(proc.returncode == 0, f"node {i} exited {proc.returncode}: {proc.err[-400:]}")
        recs = expect_truth_records((*first, *second, *third), web.truth(web.url()),
                                    "the nodes' runs together")
        expect_unique([r["url"] for r in recs], "record across the runs of each node")
        fetched = Counter((h, p) for _, _, h, p, _ in log if p != "/robots.txt")
        first_end = {}
        for _, end, h, p, _ in sorted(log):
            first_end.setdefault((h, p), end)
        twice = [k for k, n in fetched.items() if n > 1]
        late = [k for k in twice if not any(abs(first_end[k] - t) < 2.0 for t in killed_at)]
        per_host = Counter(h for h, _ in twice)
        expect(not late and all(fetched[k] == 2 for k in twice) and
               all(n == 1 for n in per_host.values()),
               f"fetched twice, not in flight when Redis was killed: {late[:3]}; all twice: "
               f"{[(k, fetched[k]) for k in twice][:5]}")
    finally:
        redis.stop()


class Proxy:
    """A real proxy on a free loopback port: tinyproxy (HTTP, with a login when given one) or
    microsocks (SOCKS5). It runs in a mount namespace of its own (unshare -m, as root) whose
    /etc/hosts alone maps names to 127.0.0.1: a crawl through it reaches those names only if the
    proxy looks them up. Its log: tinyproxy's requests, or microsocks' connections."""

    def __init__(self, tmp, kind, names, login=None):
        self.port, self.kind = free_port(), kind
        base = os.path.join(tmp, f"{kind}-{self.port}")
        hosts, self.log_path = base + ".hosts", base + ".log"
        with open(hosts, "w") as f:
            f.write("127.0.0.1 localhost " + " ".join(names) + "\n")
        if kind == "http":
            conf = base + ".conf"
            with open(conf, "w") as f:
                f.write(f'Port {self.port}\nListen 127.0.0.1\nTimeout 30\nMaxClients 64\n'
                        f'Allow 127.0.0.1\nLogFile "{self.log_path}"\nLogLevel Connect\n'
                        + (f"BasicAuth {login[0]} {login[1]}\n" if login else ""))
            server, out = f"exec tinyproxy -d -c {conf}", subprocess.DEVNULL
        else:
            server, out = f"exec microsocks -i 127.0.0.1 -p {self.port}", open(self.log_path, "w")
        self.proc = subprocess.Popen(
            ["unshare", "-m", "sh", "-c", f"mount --bind {hosts} /etc/hosts && {server}"],
            stdout=out, stderr=subprocess.STDOUT)
        for _ in range(500):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                expect(self.proc.poll() is None, f"the {kind} proxy did not start (unshare -m "
                       "needs root; scripts/install-deps.sh installs tinyproxy and microsocks)")
                time.sleep(0.01)
        raise AssertionError(f"the {kind} proxy does not listen")

    def log(self):
        time.sleep(0.2)  # its last lines are written
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def case_proxies(tmp):
    """--proxy and the environment's proxies, through real ones (Proxy): the crawler's own name
    server answers nothing, so a crawl through a proxy that looks names up prints the truth only
    if the proxy looked up every host.
    - --proxy http://USER:PASS@: the truth; every page request is in tinyproxy's log, which asked
      for the login; the password is in no output, -v note or summary.
    - http_proxy in the environment: the same. no_proxy naming the web's domain, and --noproxy
      '*' over http_proxy: direct (the web's name server then), the proxy sees nothing new.
    - --proxy socks5h://: the truth, each host reached through microsocks. socks5:// resolves
      locally: with the dead name server the seed fails on DNS.
    - A scheme curl does not take, in --proxy or in https_proxy: a usage error that does not
      quote the value. --ip-delay through a proxy that looks names up: a note says it cannot
      apply. A --state crawl through it keeps its options, password and all, in a file only its
      owner reads (0600)."""
    web = Web(tmp, hosts=3, pages=20, links=4, seed=2)
    names = [f"s{i}.web.test" for i in range(3)]
    dead_dns = f"127.0.0.1:{free_port()}"
    truth = web.truth(web.url())
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    http = Proxy(tmp, "http", names, login=("alice", "s3cret-pw"))
    socks = Proxy(tmp, "socks", names)
    try:
        def run(*args, dns=dead_dns, **extra):
            cmd = [CRAWL, "--no-progress", "--dns-server", dns, "-w", "0", "-d", "1000", *args]
            return subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                                  env={**env, **extra})

        proxy_url = f"http://alice:s3cret-pw@127.0.0.1:{http.port}"
        for how, p in (("--proxy", run("-v", "--ip-delay", "0.001", "--proxy", proxy_url,
                                       web.url())),
                       ("http_proxy", run("-v", web.url(), http_proxy=proxy_url))):
            expect(p.returncode == 0, f"{how}: exit {p.returncode}: {p.stderr[-300:]}")
            expect_same_set(lines(p), truth, f"through the HTTP proxy ({how})")
            expect("s3cret" not in p.stdout + p.stderr, f"{how}: the password was printed")
            expect(("--ip-delay does not apply" in p.stderr) == (how == "--proxy"),
                   f"{how}: the note on --ip-delay through a proxy: {p.stderr[:300]!r}")
        got = http.log()
        asked = {(h, path) for _, _, h, path, _ in web.stop()}
        for h, path in asked:
            expect(f"GET http://{h}:{web.port}{path} " in got,
                   f"GET http://{h}:{web.port}{path} is not in the proxy's log")
        web = Web(tmp, hosts=3, pages=20, links=4, seed=2)  # a fresh log, the same web
        before = got.count("GET ")
        for how, p in (("no_proxy", run(web.url(), dns=f"127.0.0.1:{web.dns}",
                                        http_proxy=proxy_url, no_proxy="other.example,web.test")),
                       ("--noproxy", run("--noproxy", "*", web.url(), dns=f"127.0.0.1:{web.dns}",
                                         http_proxy=proxy_url))):
            expect(p.returncode == 0, f"{how}: exit {p.returncode}: {p.stderr[-300:]}")
            expect_same_set(lines(p), web.truth(web.url()), f"direct ({how})")
        expect(http.log().count("GET ") == before, "a host named by no_proxy went through the proxy")

        p = run("--proxy", f"socks5h://127.0.0.1:{socks.port}", web.url())
        expect(p.returncode == 0, f"socks5h: exit {p.returncode}: {p.stderr[-300:]}")
        expect_same_set(lines(p), web.truth(web.url()), "through the SOCKS5 proxy (socks5h)")
        got = socks.log()
        for name in names:
            expect(f"connected to {name}:{web.port}" in got, f"{name} not reached through socks")
        p = run("--jsonl", "--proxy", f"socks5://127.0.0.1:{socks.port}", web.url())
        recs = records(p)
        expect(p.returncode == 4 and [r["fate"] for r in recs] == ["failed"] and
               "DNS" in recs[0]["error"], f"socks5:// with no name server: exit {p.returncode}, "
               f"{recs}: the name was not looked up here")

        state = os.path.join(tmp, "state")
        p = run("--state", state, "--proxy", proxy_url, web.url())
        expect(p.returncode == 0 and set(lines(p)) == set(web.truth(web.url())),
               f"--state through the proxy: exit {p.returncode}, {p.stderr[-300:]}")
        mode = os.stat(os.path.join(state, "options")).st_mode & 0o777
        expect(mode == 0o600, f"{state}/options, which holds the proxy's password, is {mode:o}")

        p = run("--proxy", "ftp://bob:hunter2@127.0.0.1:1", web.url())
        expect(p.returncode == 2 and "--proxy" in p.stderr and "hunter2" not in p.stderr,
               f"--proxy ftp://: exit {p.returncode}, {p.stderr!r}")
        p = run(web.url(), https_proxy="gopher://bob:hunter2@127.0.0.1:1")
        expect(p.returncode == 2 and "https_proxy" in p.stderr and "hunter2" not in p.stderr,
               f"https_proxy=gopher://: exit {p.returncode}, {p.stderr!r}")
    finally:
        http.stop()
        socks.stop()
        web.stop()


def case_cookies(tmp):
    """A site behind a session cookie: its front page sets `session` for the whole domain
    (Domain=site.test, so six hosts share it, spread over the shards at -j4) and every other page
    answers 403 without it.
    - By default the cookie is kept and sent back: every page of every host is fetched, by one
      jar whatever the -j. --save-cookies writes it (Netscape format, mode 0600).
    - --no-cookies: the pages are 403, no request carries a Cookie.
    - --load-cookies with the saved file, seeded past the front page: the pages open at once.
    - --state: paused after the front page, continued with `crawl --state DIR`: the session
      goes on (DIR/cookies, mode 0600), though the front page is not fetched again."""
    hosts = [f"h{i}.site.test" for i in range(6)]
    chain = [f"/p{i}.html" for i in range(4)]

    def respond(host, path, headers):
        if path == "/":
            links = "".join(f'<a href="http://{h}:{site.port}{chain[0]}">x</a>' for h in hosts)
            return 200, {"Set-Cookie": "session=opensesame; Domain=site.test; Path=/"}, links
        if path in chain:
            if "session=opensesame" not in headers.get("Cookie", ""):
                return 403, {}, "<p>log in first</p>"
            i = chain.index(path)
            return 200, {}, f'<a href="{chain[i + 1]}">next</a>' if i + 1 < len(chain) else "end"
        return None

    site = Site(hosts, respond)
    try:
        jar = os.path.join(tmp, "jar.txt")
        p = site.crawl("-w", "0", "-d", "9", "--jsonl", "--save-cookies", jar, site.url(hosts[0]))
        recs = records(p)
        pages = [r for r in recs if r["url"].endswith(".html")]
        expect(len(pages) == len(hosts) * len(chain) and
               all(r["fate"] == "fetched" and r["status"] == 200 for r in pages),
               f"with cookies: {[(r['url'], r.get('status')) for r in pages if r.get('status') != 200][:5]}"
               f" of {len(pages)}")
        expect(os.stat(jar).st_mode & 0o777 == 0o600, f"--save-cookies made {jar} "
               f"{os.stat(jar).st_mode & 0o777:o}")
        with open(jar) as f:
            saved = f.read()
        expect(saved.startswith("# Netscape HTTP Cookie File") and
               re.search(r"^\S*site\.test\tTRUE\t/\t\S+\t\d+\tsession\topensesame$", saved, re.M),
               f"the saved jar: {saved!r}")

        since = time.monotonic()
        p = site.crawl("-w", "0", "--jsonl", "--no-cookies", site.url(hosts[0]))
        statuses = {r["url"]: r.get("status") for r in records(p) if r["url"].endswith(".html")}
        expect(len(statuses) == len(hosts) and set(statuses.values()) == {403},
               f"--no-cookies: {statuses}")
        with site.lock:
            sent = [r for r in site.log if r[0] >= since and "Cookie" in r[4]]
        expect(not sent, f"--no-cookies sent a Cookie: {sent[:2]}")

        p = site.crawl("-w", "0", "-d", "9", "--jsonl", "--load-cookies", jar,
                       site.url(hosts[3], chain[0]))
        got = [(r["url"], r.get("status")) for r in records(p)]
        expect(len(got) == len(chain) and all(st == 200 for _, st in got),
               f"--load-cookies: {got}")

        state = os.path.join(tmp, "state")
        cmd = [CRAWL, "--no-progress", *site.resolve(), "-w", "0.4", "-d", "9", "--jsonl", "--checkpoint",
               "0.1", "--state", state, site.url(hosts[0])]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)  # the front page, and a few of the pages after it
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        expect(proc.returncode == 130, f"paused: exit {proc.returncode}: {err[-300:]}")
        mode = os.stat(os.path.join(state, "cookies")).st_mode & 0o777
        expect(mode == 0o600, f"{state}/cookies is {mode:o}")
        again = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True,
                               timeout=90)
        expect(again.returncode == 0, f"continued: exit {again.returncode}: {again.stderr[-300:]}")
        recs = inside([json.loads(line) for line in (out + again.stdout).splitlines()])
        pages = {r["url"]: r.get("status") for r in recs if r["url"].endswith(".html")}
        expect(len(pages) == len(hosts) * len(chain) and set(pages.values()) == {200},
               f"across the pause: {sorted(pages.items())[:6]}")
        fronts = [r for r in site.log if r[3] == "/"]
        expect(len(fronts) == 3,
               f"the front page was fetched {len(fronts)} times by the 3 crawls seeded there")
    finally:
        site.stop()


def case_logins(tmp):
    """Credentials go to the seeds' hosts alone, and a password is never printed. The seed's host
    a.site.test answers 401 without alice's login; its pages link to b.site.test (in scope, the
    same site) and redirect there, and b logs what it is sent.
    - --user alice:PW, a seed http://alice:PW@a…/, --netrc-file FILE: every page of a is 200,
      and b never gets an Authorization header.
    - -H 'Authorization: …' and -H 'Cookie: …' go to a alone; another -H header goes to both.
    - PW is in no output line, --jsonl record, -v note or summary; the seed prints without its
      userinfo.
    - --user alice with no terminal to ask the password on: a usage error (exit 2).
    - A --state directory and a --seen file are made mode 0600."""
    import base64
    pw = "pw-Zq9x"
    basic = "Basic " + base64.b64encode(f"alice:{pw}".encode()).decode()

    def respond(host, path, headers):
        if host == "a.site.test":
            if headers.get("Authorization") != basic:
                return 401, {"WWW-Authenticate": 'Basic realm="a"'}, "<p>who are you?</p>"
            if path == "/":
                return 200, {}, ('<a href="/in.html">in</a><a href="/go">go</a>'
                                 f'<a href="http://b.site.test:{site.port}/page.html">b</a>')
            if path == "/go":
                return 302, {"Location": f"http://b.site.test:{site.port}/redir.html"}, ""
            if path == "/in.html":
                return 200, {}, "<p>inside</p>"
        if host == "b.site.test" and path in ("/page.html", "/redir.html"):
            return 200, {}, "<p>b</p>"
        return None

    site = Site(["a.site.test", "b.site.test"], respond)
    try:
        netrc = os.path.join(tmp, "netrc")
        with open(netrc, "w") as f:
            f.write(f"machine a.site.test login alice password {pw}\n")
        seed = site.url("a.site.test")
        with_userinfo = f"http://alice:{pw}@a.site.test:{site.port}/"
        want_a = {site.url("a.site.test", p) for p in ("/", "/in.html", "/go")}
        for how, args in (("--user", ["--user", f"alice:{pw}", seed]),
                          ("userinfo", [with_userinfo]),
                          ("--netrc-file", ["--netrc-file", netrc, seed])):
            since = time.monotonic()
            p = site.crawl("-v", "-w", "0", "--jsonl", *args)
            recs = records(p)
            status = {r["url"]: r.get("status") for r in recs}
            expect(all(status.get(u) in (200, 302) for u in want_a) and
                   status.get(site.url("b.site.test", "/page.html")) == 200 and
                   status.get(site.url("b.site.test", "/redir.html")) == 200,
                   f"{how}: {status}")
            expect(pw not in p.stdout + p.stderr and "alice:" not in p.stdout + p.stderr,
                   f"{how}: the password was printed")
            with site.lock:
                to_b = [r for r in site.log if r[0] >= since and r[2] == "b.site.test"]
            expect(to_b and not [r for r in to_b if "Authorization" in r[4]],
                   f"{how}: b.site.test was sent the login")

        since = time.monotonic()
        p = site.crawl("-w", "0", "-H", f"Authorization: {basic}", "-H", "Cookie: c=1",
                       "-H", "X-Team: crawlers", seed)
        with site.lock:
            sent = [(r[2], r[3], r[4]) for r in site.log
                    if r[0] >= since and r[3] != "/robots.txt"]
        a_got = [h for host, _, h in sent if host == "a.site.test"]
        b_got = [(path, h) for host, path, h in sent if host == "b.site.test"]
        expect(a_got and all(h.get("Authorization") == basic and h.get("Cookie") == "c=1" and
                             h.get("X-Team") == "crawlers" for h in a_got), f"a got {a_got[:1]}")
        # b's pages get the header that is no secret, but for the redirect's target: no -H
        # header follows a redirect to another origin (doc/network.md, Private addresses)
        expect(b_got and all("Authorization" not in h and "Cookie" not in h and
                             (h.get("X-Team") == "crawlers") == (path != "/redir.html")
                             for path, h in b_got), f"b got {b_got[:2]}")

        p = subprocess.run([CRAWL, "--no-progress", *site.resolve(), "--user", "alice", seed],
                           capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL,
                           start_new_session=True)  # no controlling terminal
        expect(p.returncode == 2 and "no terminal" in p.stderr and not p.stdout,
               f"--user without a password nor a terminal: exit {p.returncode}, {p.stderr!r}")

        state, seen = os.path.join(tmp, "state"), os.path.join(tmp, "seen")
        site.crawl("-w", "0", "--user", f"alice:{pw}", "--state", state, seed)
        site.crawl("-w", "0", "--user", f"alice:{pw}", "--seen", seen, seed)
        for path in (state, os.path.join(state, "checkpoint"), os.path.join(state, "options"),
                     seen):
            mode = os.stat(path).st_mode & 0o777
            expect(mode & 0o077 == 0, f"{path} is mode {mode:o}: others may read it")
    finally:
        site.stop()


def case_pacing(tmp):
    """--rate, --random-wait, --max-time and durations with units, timed from the server's side.
    - -w 100ms keeps 0.1 s between the requests to a host; a duration that is none (5x, 0 for
      --max-time) is a usage error.
    - --random-wait with -w 200ms: every gap from 0.1 to 0.3 s (plus scheduling), and not all
      alike.
    - --rate 20 over six hosts at -w 0: no second of the crawl holds more than 20 request
      starts (one more for the server's own timing), and the whole takes at least what the rate
      allows.
    - --max-time 1s on a crawl of some 4 s: it ends in time with exit 0, what it had queued
      `pending`;
      with --state, `crawl --state DIR` again and again (each run 1 s) ends with the truth,
      each URL once."""
    chain = [f"/c{i}.html" for i in range(12)]
    hosts = [f"h{i}.pace.test" for i in range(6)]

    def respond(host, path, headers):
        if path == "/":
            return 200, {}, "".join(f'<a href="{p}">x</a>' for p in chain)
        if path in chain:
            return 200, {}, "<p>page</p>"
        return None

    site = Site(hosts, respond)
    try:
        def starts(host, since):
            with site.lock:
                return sorted(r[0] for r in site.log if r[0] >= since and (host is None or r[2] == host))

        def gaps_of(host, since):
            with site.lock:
                rows = sorted((r[0], r[1]) for r in site.log if r[0] >= since and r[2] == host)
            return [b[0] - a[1] for a, b in zip(rows, rows[1:])]

        since = time.monotonic()
        site.crawl("-w", "100ms", site.url(hosts[0]))
        gaps = gaps_of(hosts[0], since)
        expect(len(gaps) == len(chain) + 1 and min(gaps) >= 0.095, f"-w 100ms: gaps {gaps}")
        for bad, named in ((["-w", "5x"], "--delay"), (["--max-time", "0"], "--max-time"),
                           (["--rate", "0"], "--rate"), (["--timeout", "-1s"], "--timeout")):
            p = site.crawl(*bad, site.url(hosts[0]), check=False)
            expect(p.returncode == 2 and named in p.stderr, f"{bad}: exit {p.returncode}, "
                   f"{p.stderr[:200]!r}")

        since = time.monotonic()
        site.crawl("-w", "200ms", "--random-wait", site.url(hosts[1]))
        gaps = gaps_of(hosts[1], since)
        expect(len(gaps) == len(chain) + 1 and min(gaps) >= 0.095 and max(gaps) <= 0.36 and
               max(gaps) - min(gaps) > 0.05, f"--random-wait: gaps {[round(g, 3) for g in gaps]}")

        since = time.monotonic()
        p = site.crawl("-w", "0", "--rate", "20", "-c", "16", *[site.url(h) for h in hosts])
        got = starts(None, since)
        expect(len(got) == len(hosts) * (len(chain) + 2), f"--rate: {len(got)} requests")
        busiest = max(sum(1 for t in got if a <= t < a + 1.0) for a in got)
        expect(busiest <= 21, f"--rate 20: {busiest} requests started within one second")
        expect(got[-1] - got[0] >= (len(got) - 1) / 20 * 0.9,
               f"--rate 20: {len(got)} requests in {got[-1] - got[0]:.2f} s")
    finally:
        site.stop()

    web = Web(tmp, hosts=1, pages=40, links=4, seed=9)
    truth = web.truth(web.url())
    started = time.monotonic()
    p = crawl(web, "-w", "0.1", "-d", "1000", "--jsonl", "--max-time", "1s", web.url())
    took = time.monotonic() - started
    recs = records(p)
    fates = Counter(r["fate"] for r in recs)
    expect(p.returncode == 0 and took < 3 and fates["pending"] > 0 and "--max-time" in p.stderr,
           f"--max-time 1s: exit {p.returncode} after {took:.1f} s, fates {dict(fates)}")
    expect_unique([r["url"] for r in recs], "--max-time: record")
    expect(all(r["url"] in truth for r in recs), "--max-time: a record off the truth")
    state = os.path.join(tmp, "state")
    out, runs = [], 0
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.1", "-d",
           "1000", "--jsonl", "--max-time", "1s", "--state", state, web.url()]
    while runs < 12:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        runs += 1
        expect(p.returncode == 0, f"--max-time with --state, run {runs}: exit {p.returncode}")
        out += inside([json.loads(line) for line in p.stdout.splitlines()])
        if "--max-time reached" not in p.stderr:
            break
        cmd = [CRAWL, "--state", state]
    web.stop()
    expect(runs > 1, "the crawl did not need --max-time's stop")
    expect_unique([r["url"] for r in out], "record across the runs")
    expect_same_set([r["url"] for r in out], truth, f"{runs} runs of --max-time 1s with --state")
    expect(all(r["fate"] != "pending" for r in out), "a pending record from a --state run")


def case_cluster_fatal_keeps_page_in_flight(tmp):
    """A page whose answer comes in the same turn of the loop as the error that ends a --cluster
    --state crawl (its Redis killed): its links are no longer taken then, so it is not reported
    fetched either. The checkpoint keeps it, and the continued crawl fetches it again and
    reports it and its link. One turn is made by stopping the process (SIGSTOP) while Redis is
    killed and the answer written, then continuing it (SIGCONT) with both waiting."""
    import threading
    asked, release = threading.Event(), threading.Event()

    def respond(host, path, headers):
        if path == "/":
            return 200, {}, '<a href="/held.html">held</a>'
        if path == "/held.html":
            asked.set()
            release.wait(30)
            return 200, {}, '<a href="/child.html">child</a>'
        if path == "/child.html":
            return 200, {}, "<p>the end</p>"
        return None

    redis, site = Redis(tmp, aof=True), Site(["a.test"], respond)
    try:
        state = os.path.join(tmp, "state")
        proc = subprocess.Popen([CRAWL, "--no-progress", *site.resolve(), "--jsonl", "--state",
                                 state, "--cluster", redis.url("turn"), "--nodes", "1", "--node",
                                 "0", site.url("a.test")], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        expect(asked.wait(30), "/held.html was never asked for")
        time.sleep(0.3)  # the process waits in its loop
        proc.send_signal(signal.SIGSTOP)
        redis.stop()  # first: its connections are the first ready
        release.set()
        time.sleep(0.5)  # the answer is written
        proc.send_signal(signal.SIGCONT)
        out, err = proc.communicate(timeout=60)
        expect(proc.returncode == 1 and "Redis at" in err,
               f"with Redis gone: exit {proc.returncode}, {err[-300:]!r}")
        redis.start()
        again = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True,
                               timeout=60)
        expect(again.returncode == 0, f"continued: exit {again.returncode}, {again.stderr[-300:]}")
        recs = inside([json.loads(line) for line in (out + again.stdout).splitlines()])
        urls = Counter(r["url"] for r in recs)
        want = {site.url("a.test", p) for p in ("/", "/held.html", "/child.html")}
        expect(set(urls) == want and max(urls.values()) == 1,
               f"the two runs printed {dict(urls)}, want each of {sorted(want)} once")
        expect(all(r["fate"] == "fetched" for r in recs), f"fates: {recs}")
    finally:
        release.set()
        redis.stop()
        site.stop()


def case_cluster_max_pages(tmp):
    """--cluster with -n N: the limit is the whole run's, leased to the processes from Redis in
    blocks. Three processes over 12 hosts fetch exactly N pages together (robots.txt not counted),
    and the rest is accounted as limit once, across the nodes. With a delay and N = 450, more
    pages than the hosts of any one process hold (at most 387 requests), more than one process
    must fetch: the leases pass between them."""
    redis = Redis(tmp)
    try:
        for job, delay, limit in (("fast", "0", 100), ("polite", "0.005", 450)):
            web = Web(tmp, hosts=12, pages=60, links=6, seed=5)
            procs = cluster_run(web, redis, job, ([], [], []), "-w", delay, "-d", "1000",
                                "-n", str(limit), "--jsonl", web.url())
            log = web.stop()
            what = f"-w {delay} -n {limit}"
            for i, proc in enumerate(procs):
                expect(proc.returncode == 0, f"{what}: node {i} exited {proc.returncode}: "
                       f"{proc.err[-300:]}")
            pages = [r for r in log if r[3] != "/robots.txt"]
            expect(len(pages) == limit, f"{what}: {len(pages)} page requests, want {limit}")
            owners = {r[2] for r in pages}
            recs = inside([json.loads(line) for proc in procs for line in proc.out.splitlines()])
            expect_unique([r["url"] for r in recs], f"{what}: record")
            fates = Counter(r["fate"] for r in recs)
            expect(fates["fetched"] + fates["failed"] == limit, f"{what}: fates {dict(fates)}")
            expect(fates["limit"] > 0, f"{what}: no limit fates: {dict(fates)}")
            fetching = sum(1 for proc in procs
                           if any(json.loads(line)["fate"] == "fetched"
                                  for line in proc.out.splitlines()))
            expect(limit < 450 or (fetching > 1 and len(owners) > 5),
                   f"{what}: {fetching} nodes fetched, over {len(owners)} hosts")
    finally:
        redis.stop()


def case_cluster_stop_and_errors(tmp):
    """--cluster: SIGINT to one process stops all three (each exits 130, reporting what it had
    queued as pending; with --state each pauses, and all continue to the end); a process with
    other options than the job's is refused; no Redis at the address is a clear fatal error; a malformed address, a
    node out of range and --node without --cluster are usage errors."""
    redis = Redis(tmp)
    try:
        web = Web(tmp, hosts=12, pages=60, links=6, seed=5)
        stopped = []

        def interrupt(procs):
            time.sleep(1.5)
            procs[1].send_signal(signal.SIGINT)
            stopped.append(time.monotonic())

        procs = nodes_run([[CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w",
                            "0.3", "-d", "1000", "--jsonl", "--cluster", redis.url("stop"),
                            "--nodes", "3", "--node", str(i), web.url()] for i in range(3)],
                          interrupt)
        took = time.monotonic() - stopped[0]
        web.stop()
        for i, proc in enumerate(procs):
            expect(proc.returncode == 130, f"node {i} exited {proc.returncode}: {proc.err[-300:]}")
        expect(took < 10, f"the nodes took {took:.1f} s to stop")
        recs = inside([json.loads(line) for proc in procs for line in proc.out.splitlines()])
        expect_unique([r["url"] for r in recs], "record across stopped nodes")
        expect(any(r["fate"] == "pending" for r in recs), "nothing was left pending")
        # with --state the same stop pauses the job, and `crawl --state DIR` on every node goes
        # on with it (the stop asked before does not stop it again) to the end
        web = Web(tmp, hosts=12, pages=60, links=6, seed=5)
        dirs = [os.path.join(tmp, f"paused{i}") for i in range(3)]
        procs = nodes_run([[CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w",
                            "0.3", "-d", "1000", "--jsonl", "--state", dirs[i], "--cluster",
                            redis.url("pause"), "--nodes", "3", "--node", str(i), web.url()]
                           for i in range(3)], interrupt)
        for i, proc in enumerate(procs):
            expect(proc.returncode == 130, f"node {i} paused: exit {proc.returncode}: "
                   f"{proc.err[-300:]}")
        continued = nodes_run([[CRAWL, "-w", "0", "--state", d] for d in dirs])
        log = web.stop()
        for i, proc in enumerate(continued):
            expect(proc.returncode == 0, f"node {i} continued: exit {proc.returncode}: "
                   f"{proc.err[-300:]}")
        recs = inside([json.loads(line) for proc in (*procs, *continued) for line in proc.out.splitlines()])
        expect_breadth_first(recs, [e for e in log if e[3] != "/robots.txt"],
                             web.truth(web.url()), "paused and continued nodes")
        # a process with other options than the job's first is refused, naming the difference
        # (the job stopped above, which has not ended)
        web = Web(tmp, hosts=2, pages=5)
        for args, differs in ((["--nodes", "2", "--node", "1"], "'nodes 2' here, 'nodes 3'"),
                              (["--nodes", "3", "--node", "1", "-d", "2"], "'depth 2' here")):
            p = crawl(web, "--cluster", redis.url("stop"), *args, web.url(), check=False)
            expect(p.returncode == 1 and differs in p.stderr and not p.stdout,
                   f"{args} on a job begun otherwise: exit {p.returncode}, {p.stderr!r}")
        web.stop()
    finally:
        redis.stop()
    port = free_port()
    web = Web(tmp, hosts=2, pages=5)
    p = crawl(web, "--cluster", f"redis://127.0.0.1:{port}/j", "--nodes", "2", "--node", "0",
              web.url(), check=False)
    web.stop()
    expect(p.returncode == 1 and f"Redis at 127.0.0.1:{port}: cannot connect" in p.stderr,
           f"no Redis: exit {p.returncode}, {p.stderr!r}")
    for args, word in [(["--cluster", "redis://h/a b", "--nodes", "2", "--node", "0"], "--cluster"),
                       (["--cluster", "http://h/j", "--nodes", "2", "--node", "0"], "--cluster"),
                       (["--cluster", "redis://h/j", "--nodes", "3", "--node", "3"], "--node"),
                       (["--cluster", "redis://h/j", "--nodes", "3"], "--node"),
                       (["--nodes", "3", "--node", "1"], "--cluster"),
                       (["--cluster", "redis://h/j", "--nodes", "0", "--node", "0"], "--nodes")]:
        p = subprocess.run([CRAWL, *args, "a.test"], capture_output=True, text=True, timeout=10)
        err = p.stderr.splitlines()
        expect(p.returncode == 2 and err and word in err[0] and not p.stdout,
               f"{args}: exit {p.returncode}, {p.stderr!r}")


# ---- each option's effect, against a site of the case's own where the test web has no such page ----

class Site:
    """A threaded HTTP server of the case's own, answering for named hosts (reached through
    --resolve). respond(host, path, headers) gives (status, extra headers, body) or None for a
    404; it may sleep, as a slow server does. Every request is logged as (start, end, host, path,
    headers), end taken just before the answer is written; in-flight requests are counted, in
    all and per host, at their most."""

    def __init__(self, hosts, respond, bind="127.0.0.1"):
        import threading
        from http.server import BaseHTTPRequestHandler
        self.hosts, self.log = hosts, []
        self.request = threading.local()  # .method, for respond to read (HEAD or GET)
        self.now, self.most = 0, 0
        self.host_now, self.host_most = Counter(), Counter()
        lock = self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # the head and the body leave in one write (a flush after each request), with no
            # Nagle delay: written apart, a delayed ACK held every answer 40 ms
            wbufsize = 1 << 16
            disable_nagle_algorithm = True

            def answer(self):
                started = time.monotonic()
                host = self.headers.get("Host", "").split(":")[0].lower()
                with lock:
                    site.now += 1
                    site.most = max(site.most, site.now)
                    site.host_now[host] += 1
                    site.host_most[host] = max(site.host_most[host], site.host_now[host])
                site.request.method = self.command
                try:
                    got = respond(host, self.path, self.headers)
                finally:
                    with lock:  # before the answer leaves: the client cannot have it yet
                        site.now -= 1
                        site.host_now[host] -= 1
                        site.log.append((started, time.monotonic(), host, self.path,
                                         dict(self.headers.items())))
                status, extra, body = got if got else (404, {}, b"<html>not here</html>")
                if isinstance(body, str):
                    body = body.encode()
                self.send_response(status)
                content_type = extra.pop("Content-Type", "text/html")
                if content_type is not None:  # None: no Content-Type at all
                    self.send_header("Content-Type", content_type)
                for k, v in extra.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    if self.command != "HEAD":
                        self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the crawler gave up waiting, as the case wants

            do_GET = do_HEAD = answer

            def log_message(self, *args):
                pass

        self.server, self.port = serve_threaded(Handler, bind)

    def url(self, host, path="/"):
        return f"http://{host}:{self.port}{path}"

    def resolve(self):
        return [a for h in self.hosts for a in ("--resolve", f"{h}:{self.port}:127.0.0.1")]

    def crawl(self, *args, timeout=60, check=True):
        cmd = [CRAWL, "--no-progress", *self.resolve(), *args]
        started = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        p.elapsed = time.monotonic() - started
        if check and p.returncode != 0:
            raise AssertionError(f"crawl exited {p.returncode}: {p.stderr[-500:]}")
        return p

    def paths(self, host=None, since=0.0):
        with self.lock:
            return [r[3] for r in sorted(self.log) if (host is None or r[2] == host)
                    and r[0] >= since]

    def stop(self):
        self.server.shutdown()


def html_links(*hrefs):
    return "<html><body>" + "".join(f'<a href="{h}">x</a>' for h in hrefs) + "</body></html>"


ROBOTS_RULES = """User-agent: pickybot
Disallow: /

User-agent: *
Disallow: /a/
Allow: /a/open
Disallow: /*.php$
Disallow: /*/secret
Allow: /same
Disallow: /same
"""

# path: its fate under the * group above (RFC 9309: the longest match wins, Allow on a tie;
# * matches any run of characters, $ the end)
ROBOTS_FATES = {"/a/closed.html": "robots", "/a/open.html": "fetched", "/a/opener/x.html": "fetched",
                "/page.php": "robots", "/page.php?x=1": "fetched", "/page.phps": "fetched",
                "/docs/secret/1.html": "robots", "/secret/2.html": "fetched",
                "/same.html": "fetched", "/b.html": "fetched"}


def case_robots_rules_through_crawl(tmp):
    """robots.txt rules as a crawl applies them: Allow against Disallow by the longest match
    (Allow on a tie), * and $ in paths, and the group chosen by -U's product token (a group
    naming it replaces *, whatever the case and version). A seed under a disallowed path is not
    fetched either: it gets fate robots and the server never sees a request for it."""
    host = "rules.test"

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, ROBOTS_RULES
        if path == "/":
            return 200, {}, html_links(*ROBOTS_FATES)
        return 200, {}, "<html><body>leaf</body></html>"

    site = Site([host], respond)
    try:
        p = site.crawl("-w", "0", "--jsonl", site.url(host))
        got = {r["url"]: r["fate"] for r in records(p)}
        want = {site.url(host, path): fate for path, fate in ROBOTS_FATES.items()}
        want[site.url(host)] = "fetched"
        expect(got == want, f"fates: {sorted(set(got.items()) ^ set(want.items()))}")
        fetched = sorted(path for path, fate in ROBOTS_FATES.items() if fate == "fetched")
        expect(sorted(site.paths()) == sorted(["/robots.txt", "/"] + fetched),
               f"requests: {site.paths()}")
        # a disallowed seed, and one allowed beside it
        since = time.monotonic()
        seeds = [site.url(host, "/a/closed.html"), site.url(host, "/docs/secret/1.html"),
                 site.url(host, "/a/open.html")]
        p = site.crawl("-w", "0", "-d", "0", "--jsonl", *seeds)
        got = {r["url"]: (r["fate"], r["depth"], r["from"]) for r in records(p)}
        expect(got == {seeds[0]: ("robots", 0, None), seeds[1]: ("robots", 0, None),
                       seeds[2]: ("fetched", 0, None)}, f"disallowed seeds: {got}")
        expect(sorted(site.paths(since=since)) == ["/a/open.html", "/robots.txt"],
               f"disallowed seeds: requests {site.paths(since=since)}")
        # -U picks the group of its product token: pickybot may fetch nothing, not even the seed
        for agent in ("pickybot/2.1", "PickyBot (+https://bot.example/)"):
            since = time.monotonic()
            p = site.crawl("-w", "0", "-U", agent, "--jsonl", site.url(host), check=False)
            got = [(r["url"], r["fate"]) for r in records(p)]
            expect(got == [(site.url(host), "robots")], f"-U {agent!r}: {got}")
            expect(site.paths(since=since) == ["/robots.txt"],
                   f"-U {agent!r}: requests {site.paths(since=since)}")
            agents = {r[4].get("User-Agent") for r in site.log if r[0] >= since}
            expect(agents == {agent}, f"-U {agent!r}: the server saw {agents}")
    finally:
        site.stop()


def case_per_host_and_concurrency_bounds(tmp):
    """--per-host N and -c N are upper bounds, at -j 1 and -j 4, and with N > 1 they are reached:
    a server taking 60 ms per answer counts the requests it holds at once, in all and per host."""
    hosts = [f"h{i}.bounds.test" for i in range(6)]

    def respond(h, path, headers):
        time.sleep(0.06)
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        if path == "/":
            return 200, {}, html_links(*(f"http://{x}:{site.port}/p{k}" for x in hosts
                                         for k in range(8)))
        return 200, {}, "<html><body>leaf</body></html>"

    site = Site(hosts, respond)
    try:
        for threads in ("1", "4"):
            for per_host, total in ((3, 64), (1, 4), (4, 3), (2, 1)):
                with site.lock:
                    site.log.clear()
                    site.most, site.host_most = 0, Counter()
                what = f"-j {threads} --per-host {per_host} -c {total}"
                site.crawl("-j", threads, "-q", "-w", "0", "--per-host", str(per_host), "-c",
                           str(total), "-D", "bounds.test", site.url(hosts[0]))
                pages = [r for r in site.log if r[3] != "/robots.txt"]
                expect(len(pages) == 1 + 6 * 8, f"{what}: {len(pages)} pages fetched")
                most_host = max(site.host_most.values())
                expect(most_host <= min(per_host, total) and site.most <= total,
                       f"{what}: {most_host} requests at once to one host, {site.most} in all")
                # the bounds are reached, so the counts can see a crawl going past them
                if total >= 6 * per_host:
                    expect(most_host == per_host, f"{what}: at most {most_host} to one host")
                if total > 1:
                    expect(site.most > 1, f"{what}: never more than one request at once")
    finally:
        site.stop()


def case_retry_after_beyond_max_delay(tmp):
    """A Retry-After longer than --max-delay: the URL is not asked for again before the server
    said, nor waited for longer than the user allows: it fails at once with its status and the
    reason, and its host rests --max-delay before its next request. --retries N asks a path that
    answers 503 without Retry-After 1 + N times, then fails it."""
    host = "busy.test"
    seen = Counter()

    def respond(h, path, headers):
        seen[path] += 1
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        if path == "/always":
            return 503, {}, "busy"
        if seen[path] == 1 and path == "/":
            return 503, {"Retry-After": "120"}, "busy"
        return 200, {}, "<html><body>here</body></html>"

    site = Site([host], respond)
    try:
        p = site.crawl("-w", "0", "-d", "0", "--max-delay", "1", "--jsonl", site.url(host),
                       site.url(host, "/other"), timeout=30, check=False)
        expect(p.returncode == 8, f"a seed answered 503: exit {p.returncode}")
        recs = {r["url"]: r for r in records(p)}
        first, other = recs[site.url(host)], recs[site.url(host, "/other")]
        expect(first["fate"] == "failed" and first.get("status") == 503 and
               first["error"] == "HTTP 503, Retry-After 120 s beyond --max-delay", f"{first}")
        expect(other["fate"] == "fetched", f"{other}")
        expect(seen["/"] == 1, f"{seen['/']} requests for the seed")
        log = sorted(r for r in site.log if r[3] in ("/", "/other"))
        expect([r[3] for r in log] == ["/", "/other"], f"requests {log}")
        gap = log[1][0] - log[0][1]
        expect(1.0 <= gap < 10, f"the host's next request came {gap:.2f}s after the 503 "
                                "(--max-delay 1)")
        # --retries N: a path that always answers 503 is asked 1 + N times
        for retries in (2, 1):
            seen.clear()
            p = site.crawl("-w", "0", "-d", "0", "--max-delay", "0.1", "--retries",
                           str(retries), "--jsonl", site.url(host, "/always"), check=False)
            recs = records(p)
            expect([(r["fate"], r.get("status")) for r in recs] == [("failed", 503)]
                   and seen["/always"] == 1 + retries,
                   f"--retries {retries}: {seen['/always']} requests, {recs}")
    finally:
        site.stop()


def case_delay_factor(tmp):
    """--delay-factor F: after a response that took T, the host waits F x T (when that is longer
    than --delay), capped by --max-delay. A server taking 0.1 s per answer: with -w 0 and
    --delay-factor 2 no gap is under 0.2 s; with --max-delay 0.12 too, the gaps are about 0.12 s;
    without the factor, about none."""
    host = "slow.test"

    def respond(h, path, headers):
        time.sleep(0.1)
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        k = int(path[2:]) if path.startswith("/p") else 0
        return 200, {}, html_links(f"/p{k + 1}") if k < 6 else "<html>end</html>"

    site = Site([host], respond)
    try:
        def gaps_of(*args):
            since = time.monotonic()
            site.crawl("-w", "0", "-d", "100", *args, site.url(host))
            reqs = sorted(r for r in site.log if r[0] >= since)
            expect(len(reqs) == 8, f"{args}: {len(reqs)} requests")
            return sorted(b[0] - a[1] for a, b in zip(reqs, reqs[1:]))
        factor = gaps_of("--delay-factor", "2")
        expect(factor[0] >= 0.2, f"--delay-factor 2: gaps {[round(g, 3) for g in factor]}")
        capped = gaps_of("--delay-factor", "2", "--max-delay", "0.12")
        median = capped[len(capped) // 2]
        expect(capped[0] >= 0.12 and median < 0.19,
               f"--max-delay 0.12: gaps {[round(g, 3) for g in capped]}")
        plain = gaps_of()
        expect(plain[len(plain) // 2] < 0.1, f"no factor: gaps {[round(g, 3) for g in plain]}")
    finally:
        site.stop()


def case_max_redirs(tmp):
    """--max-redirs N: a chain of redirects is followed for N hops; the hop beyond is not
    requested and gets fate limit. Each hop's record names its target."""
    host = "chain.test"

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        k = int(path[3:]) if path.startswith("/c/") else -1
        if 0 <= k < 9:
            return 301, {"Location": f"/c/{k + 1}"}, "moved"
        return 200, {}, "<html><body>end</body></html>"

    site = Site([host], respond)
    try:
        for limit in (2, 5, 0):
            since = time.monotonic()
            args = ["--max-redirs", str(limit)] if limit != 5 else []  # 5 is the default
            p = site.crawl("-w", "0", "--jsonl", *args, site.url(host, "/c/0"))
            got = {r["url"]: r for r in records(p)}
            want = {site.url(host, f"/c/{k}"): "fetched" for k in range(limit + 1)}
            want[site.url(host, f"/c/{limit + 1}")] = "limit"
            expect({u: r["fate"] for u, r in got.items()} == want, f"--max-redirs {limit}: {got}")
            for k in range(limit + 1):
                r = got[site.url(host, f"/c/{k}")]
                expect(r.get("status") == 301 and r.get("location") == site.url(host, f"/c/{k + 1}"),
                       f"--max-redirs {limit}: {r}")
            expect(site.paths(since=since) == ["/robots.txt"] + [f"/c/{k}" for k in range(limit + 1)],
                   f"--max-redirs {limit}: requests {site.paths(since=since)}")
    finally:
        site.stop()


def case_timeouts(tmp):
    """--timeout: a server that answers after 3 s fails the request at the limit, as a timeout,
    counted so in the summary. --connect-timeout: a server whose accept queue is full never
    completes the handshake; the connection is given up at that limit."""
    host = "hang.test"

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        if path == "/slow":
            time.sleep(3)
        return 200, {}, "<html><body>ok</body></html>"

    site = Site([host], respond)
    try:
        p = site.crawl("-w", "0", "--retries", "0", "--timeout", "1", "--jsonl",
                       site.url(host, "/slow"), site.url(host, "/fast"), timeout=30)
        got = {r["url"]: r for r in records(p)}
        slow, fast = got[site.url(host, "/slow")], got[site.url(host, "/fast")]
        expect(slow["fate"] == "failed" and slow["error"] == "Timeout was reached", f"{slow}")
        expect(fast["fate"] == "fetched", f"{fast}")
        expect(p.elapsed < 2.8, f"--timeout 1 took {p.elapsed:.2f}s")
        expect("1 timeout" in p.stderr, f"summary: {p.stderr}")
    finally:
        site.stop()
    # a listening socket whose accept queue is full: new handshakes are not answered
    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen(0)
    port = blocker.getsockname()[1]
    fillers = []
    try:
        for _ in range(4):
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            fillers.append(s)
        time.sleep(0.2)
        started = time.monotonic()
        p = subprocess.run([CRAWL, "--no-progress", "--retries", "0", "--connect-timeout", "1",
                            "--jsonl", "--resolve", f"full.test:{port}:127.0.0.1",
                            f"http://full.test:{port}/"], capture_output=True, text=True,
                           timeout=30)
        elapsed = time.monotonic() - started
        recs = records(p)
        expect(p.returncode == 4 and len(recs) == 1 and recs[0]["fate"] == "failed"
               and "Timeout was reached" in recs[0]["error"], f"exit {p.returncode}: {recs}")
        expect(0.9 <= elapsed < 3, f"--connect-timeout 1 took {elapsed:.2f}s")
    finally:
        for s in fillers:
            s.close()
        blocker.close()


def case_headers_sent(tmp):
    """-H adds its headers to every request, robots.txt's included; -U is the User-Agent of each;
    without -U it is crawl/VERSION."""
    host = "hdr.test"

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        return 200, {}, html_links("/a", "/b") if path == "/" else "<html>leaf</html>"

    site = Site([host], respond)
    try:
        site.crawl("-w", "0", "-H", "X-Team: crawlers", "-H", "Accept-Language: fr",
                   "-U", "testbot/1.0", site.url(host))
        expect(len(site.log) == 4, f"requests {site.paths()}")
        for r in site.log:
            h = r[4]
            expect(h.get("X-Team") == "crawlers" and h.get("Accept-Language") == "fr"
                   and h.get("User-Agent") == "testbot/1.0", f"{r[3]}: headers {h}")
        since = time.monotonic()
        site.crawl("-w", "0", "-d", "0", site.url(host))
        version = subprocess.run([CRAWL, "--version"], capture_output=True, text=True).stdout
        for r in site.log:
            if r[0] >= since:
                agent = r[4].get("User-Agent", "")
                expect(re.fullmatch(r"crawl/\S+", agent) and agent.split("/")[1] in version
                       and "X-Team" not in r[4], f"{r[3]}: headers {r[4]}")
    finally:
        site.stop()


def case_scope_filters(tmp):
    """--match, --exclude, -D, --exclude-domains, --scope any and --max-url-length, each compared
    exactly with the test web's model of a crawl so filtered: what they drop is neither printed
    nor fetched, and what is reachable only through it is not found."""
    runs = [
        (["--match", r"s[0-2]\.web|/robots"], {"match": r"s[0-2]\.web|/robots"}),
        (["--exclude", r"/p/[0-9]*[13579]\.html$"], {"exclude": r"/p/[0-9]*[13579]\.html$"}),
        (["-D", "s0.web.test,s2.web.test"], {"domains": "s0.web.test,s2.web.test"}),
        (["--exclude-domains", "s1.web.test,s3.web.test"],
         {"exclude_domains": "s1.web.test,s3.web.test"}),
        (["--scope", "any"], {"scope": "any"}),
        (["--max-url-length", "38"], {"max_url_length": "38"}),
    ]
    for args, model in runs:
        web = Web(tmp, hosts=5, pages=60)
        seed = web.url()
        p = crawl(web, "-w", "0", "-d", "1000", "--jsonl", *args, seed)
        log = web.stop()
        truth = web.truth(seed, **model)
        got = {r["url"]: (r["fate"], r["depth"]) for r in records(p)}
        expect_same_set(got, truth, f"{args}")
        wrong = [(u, got[u], t) for u, t in truth.items() if got[u] != t]
        expect(not wrong, f"{args}: fate/depth differ: {wrong[:3]}")
        fetched = {f"http://{h}:{web.port}{path}" for _, _, h, path, _ in log
                   if path != "/robots.txt"}
        want = {u for u, (fate, _) in truth.items() if fate in ("fetched", "failed")}
        expect(fetched == want, f"{args}: requests differ: {sorted(fetched ^ want)[:5]}")
    outside = {u for u in web.truth(seed, scope="any") if "elsewhere" in u}
    expect(outside, "the test web links no host outside its domain")
    expect(len(web.truth(seed, max_url_length="38")) < len(web.truth(seed)),
           "--max-url-length 38 drops nothing: the case shows nothing")


def case_spider_trap(tmp):
    """A spider trap: every page links a path one segment deeper (/a/b/a/b/...) and the next
    calendar day (?day=N+1). With the default guards a crawl at -d inf ends by itself, with fewer
    than 20,000 requests; the URLs not followed get fate trap with the rule in error, the summary
    counts them, and -v names the rule once for the host. With the guards off the same crawl runs
    until -n stops it."""
    host = "trap.test"

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        where, _, query = path.partition("?")
        day = int(query[4:]) if query.startswith("day=") else 0
        last = where.rstrip("/").rsplit("/", 1)[-1]
        deeper = where.rstrip("/") + ("/b" if last == "a" else "/a")
        return 200, {}, html_links(f"{deeper}?day={day}", f"{where}?day={day + 1}")

    site = Site([host], respond)
    try:
        p = site.crawl("-w", "0", "-d", "inf", "-v", "--jsonl", site.url(host), timeout=110)
        requests = len(site.log)
        expect(requests < 20000, f"{requests} requests")
        recs = records(p)
        expect_unique([r["url"] for r in recs], "record")
        fates = Counter(r["fate"] for r in recs)
        expect(set(fates) == {"fetched", "trap"}, f"fates {fates}")
        expect(fates["fetched"] == requests - 1, f"{fates['fetched']} fetched, {requests} requests")
        rules = Counter(r["error"].split(" ")[0] for r in recs if r["fate"] == "trap")
        expect(set(rules) == {"--max-path-repeat", "--max-query-variants"}, f"rules {rules}")
        repeats = [r["url"] for r in recs if r.get("error", "").startswith("--max-path-repeat")]
        expect(all("/a/b/a/b/a/b" in u for u in repeats), f"repeat traps {repeats[:3]}")
        per_path = Counter(r["url"].split("?")[0] for r in recs if r["fate"] == "fetched")
        expect(max(per_path.values()) <= 1001, f"query strings per path {per_path}")
        expect(f"{fates['trap']} URLs not followed as spider traps" in p.stderr,
               f"summary: {p.stderr[-600:]}")
        noted = [line for line in p.stderr.splitlines() if "look like a spider trap" in line]
        expect(len(noted) == 1 and host in noted[0], f"-v notes {noted}")
        # the guards off: only -n ends it
        with site.lock:
            site.log.clear()
        p = site.crawl("-w", "0", "-d", "inf", "-n", "3000", "--max-path-repeat", "0",
                       "--max-path-segments", "0", "--max-query-variants", "0", "--jsonl",
                       site.url(host), timeout=110)
        fates = Counter(r["fate"] for r in records(p))
        expect(fates["fetched"] == 3000 and fates["limit"] > 0 and not fates["trap"],
               f"guards off: fates {fates}")
    finally:
        site.stop()


def case_notes_escaped(tmp):
    """-v quotes a page's bytes in its notes (a Content-Type, an href not followed): their control
    characters reach the terminal as \\xHH, so a page cannot set the window title, clear the
    screen or ring the bell; the rest of the text, UTF-8 included, is as it was."""
    host = "esc.test"

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        body = '<html><body><a href="http://[\x1b[2J]/">x</a><a href="/caf\u00e9">y</a></body></html>'
        return 200, {"Content-Type": "text/html; x=\x1b]0;pwned\x07"}, body

    site = Site([host], respond)
    try:
        p = site.crawl("-w", "0", "-d", "0", "-v", site.url(host))
    finally:
        site.stop()
    controls = [c for c in p.stderr if ord(c) < 0x20 and c != "\n" or 0x7f <= ord(c) < 0xa0]
    expect(not controls, f"control characters on standard error: {controls[:5]}")
    expect("\\x1b]0;pwned\\x07" in p.stderr, f"the Content-Type is not shown escaped: {p.stderr!r}")
    expect("not followed: 'http://[\\x1b[2J]/'" in p.stderr, f"the href: {p.stderr!r}")


def case_cut_body_invents_no_link(tmp):
    """--max-size cuts a page in the middle of an href, and a style sheet in the middle of a
    url(): the links before the cut are found, the cut one is not made up from its first half."""
    host = "cut.test"
    pad = "<p>" + "x" * 3000 + "</p>"
    page = (f'<html><body><a href="/whole.html">w</a>{pad}'
            f'<a href="/half-of-a-long-name-that-goes-on.html">h</a></body></html>')
    sheet = f"a {{ background: url(/whole.png) }} /* {'y' * 3000} */ b {{ background: url(/half-of-a-long.png) }}"
    # each cut inside the second href, or the second url()
    cuts = {"/": page.index("half-of") + 8, "/style.css": sheet.index("half-of") + 8}

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        if path == "/style.css":
            return 200, {"Content-Type": "text/css"}, sheet
        return 200, {}, page

    site = Site([host], respond)
    try:
        for seed, whole in (("/", "/whole.html"), ("/style.css", "/whole.png")):
            p = site.crawl("-w", "0", "-d", "0", "--max-size", str(cuts[seed]),
                           site.url(host, seed))
            got = sorted(u[len(site.url(host)) - 1:] for u in lines(p))
            expect(got == sorted([seed, whole]), f"{seed}: printed {got}")
    finally:
        site.stop()


def case_protocol_errors(tmp):
    """A server that breaks HTTP: a response head with a 300 KB header line, a reply that is no
    HTTP at all. Each URL fails with the cause protocol and words that say so (not "Out of
    memory", not a connection failure), is not retried, and the summary counts them."""
    import threading
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    asked = Counter()

    def answer(conn):
        with conn:
            try:
                request = conn.recv(65536).decode("latin-1")
                path = request.split(" ")[1] if " " in request else "?"
                asked[path] += 1
                if path == "/big":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 300000 +
                                 b"\r\nContent-Length: 2\r\n\r\nhi")
                else:
                    conn.sendall(b"this is no HTTP\r\n\r\n")
            except OSError:
                pass

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        urls = [f"http://bad.test:{port}/big", f"http://bad.test:{port}/weird"]
        p = subprocess.run([CRAWL, "--no-progress", "--no-robots", "-w", "0", "-d", "0", "--jsonl",
                            "--resolve", f"bad.test:{port}:127.0.0.1", *urls],
                           capture_output=True, text=True, timeout=60)
    finally:
        listener.close()
    recs = {r["url"]: r for r in records(p)}
    big, weird = recs[urls[0]], recs[urls[1]]
    expect(big["fate"] == "failed" and "response head past curl's limit" in big["error"], f"{big}")
    expect(weird["fate"] == "failed" and "Out of memory" not in weird["error"] and
           "connect" not in weird["error"].lower(), f"{weird}")
    expect("2 failed (2 protocol)" in p.stderr, f"summary: {p.stderr}")
    expect(asked["/big"] == 1 and asked["/weird"] == 1, f"asked {asked}: retried")


def case_seeds_from_stdin(tmp):
    """-i - reads the seeds from standard input, comments and blank lines skipped."""
    web = Web(tmp, hosts=3, pages=30)
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "1000",
           "-i", "-"]
    p = subprocess.run(cmd, input=f"# two seeds\n\n{web.url('s1')}\n{web.url('s2', '/p/3.html')}\n",
                       capture_output=True, text=True, timeout=60)
    web.stop()
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    expect_same_set(lines(p), web.truth(web.url("s1"), web.url("s2", "/p/3.html")), "-i -")


def case_habits(tmp):
    """What users of wget and curl reach for without reading the manual.
    - `echo URL | crawl`: with no seed given, the seeds come from standard input.
    - Long options by their full names only: `--user-ag=x` and `--timeo 3` are usage errors
      naming the option meant (getopt would take them as --user-agent and --timeout), and a
      value after '=' is not echoed; the full names work.
    - --jsonl is strict UTF-8: a Content-Type holding a surrogate (ED A0 80) and an overlong
      form (C0 AF, E0 80 AF) comes out with U+FFFD, and every line decodes strictly; each record
      carries `time`, UTC in RFC 3339, within the crawl's run.
    - The status line, on by default on a terminal, stays off when TERM is dumb or unset."""
    import pty

    def respond(host, path, headers):
        if path == "/":
            return 200, {"Content-Type": "text/html; x=\xed\xa0\x80\xc0\xaf\xe0\x80\xaf"}, \
                '<a href="/next.html">next</a>'
        if path == "/next.html":
            return 200, {}, "<p>end</p>"
        return None

    site = Site(["a.test"], respond)
    try:
        base = [CRAWL, "--no-progress", *site.resolve(), "-w", "0"]
        p = subprocess.run(base, input=site.url("a.test") + "\n", capture_output=True,
                           text=True, timeout=60)
        expect(p.returncode == 0 and lines(p) == [site.url("a.test"), site.url("a.test", "/next.html")],
               f"seeds from standard input: exit {p.returncode}, {p.stdout!r} {p.stderr[-200:]!r}")

        for typed, meant in (("--user-ag=secretvalue", "--user-agent"), ("--timeo", "--timeout")):
            p = subprocess.run(base + [typed, "3", site.url("a.test")], capture_output=True,
                               text=True, timeout=60, stdin=subprocess.DEVNULL)
            expect(p.returncode == 2 and meant in p.stderr and "secretvalue" not in p.stderr
                   and not p.stdout, f"{typed}: exit {p.returncode}, {p.stderr!r}")
        p = subprocess.run(base + ["--user-agent=full/1", "--max-pages", "1", site.url("a.test")],
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        expect(p.returncode == 0 and lines(p), f"full names: exit {p.returncode}, {p.stderr!r}")

        started = time.time()
        p = subprocess.run(base + ["--jsonl", site.url("a.test")], capture_output=True,
                           timeout=60, stdin=subprocess.DEVNULL)
        ended = time.time()
        recs = [json.loads(line.decode("utf-8", errors="strict")) for line in p.stdout.splitlines()]
        front = [r for r in recs if r["url"] == site.url("a.test")]
        # one U+FFFD a byte, as the WHATWG UTF-8 decoder gives for these (no byte of them
        # starts a sequence that could go on)
        expect(front and front[0]["type"] == "text/html; x=" + "\ufffd" * 8,
               f"the Content-Type as JSON: {front}")
        for r in recs:
            expect(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", r.get("time", "")),
                   f"time {r.get('time')!r} is no RFC 3339 UTC time")
            at = datetime.datetime.strptime(r["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
                tzinfo=datetime.timezone.utc).timestamp()
            expect(started - 1 <= at <= ended + 1, f"time {r['time']} is not within the run")

        def status_shown(term):
            master, slave = pty.openpty()
            env = {k: v for k, v in os.environ.items() if k != "TERM"}
            if term is not None:
                env["TERM"] = term
            proc = subprocess.Popen([CRAWL, *site.resolve(), "-w", "0", site.url("a.test")],
                                    stdout=subprocess.DEVNULL, stderr=slave, env=env,
                                    stdin=subprocess.DEVNULL)  # output apart from the terminal
            os.close(slave)
            err = b""
            while True:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                err += chunk
            proc.communicate(timeout=60)
            os.close(master)
            return re.search(rb"\d+:\d\d \d+ pages?, ", err) is not None

        expect(status_shown("xterm"), "no status line on a terminal with TERM=xterm")
        expect(not status_shown("dumb"), "a status line with TERM=dumb")
        expect(not status_shown(None), "a status line with TERM unset")
    finally:
        site.stop()


def case_form_actions(tmp):
    """GET form actions are links: /search (its query dropped) is fetched and reported, with its
    own links; the POST form's /buy is never requested."""
    def respond(host, path, headers):
        if path == "/":
            return 200, {}, ('<form action="/search?q=x"><input name=q></form>'
                             '<form method="post" action="/buy"><input name=n></form>')
        if path == "/search":
            return 200, {}, '<a href="/result.html">r</a>'
        if path == "/result.html":
            return 200, {}, "<p>found</p>"
        return None

    site = Site(["a.test"], respond)
    try:
        p = site.crawl("-w", "0", site.url("a.test"))
        expect(lines(p) == [site.url("a.test", path) for path in ("/", "/search", "/result.html")],
               f"form actions: {lines(p)}")
        expect("/buy" not in site.paths(), f"a POST form was submitted: {site.paths()}")
    finally:
        site.stop()


def case_js_links(tmp):
    """--js: links in the string literals of an inline script and of a fetched .js file, and none
    from a comment, a regex, a template with a substitution or a JSON block. Without --js the
    script is printed and skipped (not fetched), and no string is read."""
    def respond(host, path, headers):
        if path == "/":
            return 200, {}, ('<script>fetch("/api/items"); var re = /"\\/not"/; // "/comment"\n'
                             '</script><script src="/app.js"></script>'
                             '<script type="application/ld+json">{"u": "/ld"}</script>')
        if path == "/app.js":
            return 200, {"Content-Type": "application/javascript"}, \
                "load('/from-js.html'); var t = `/tmpl/${x}`; /* '/c2' */"
        if path == "/api/items":
            return 200, {"Content-Type": "application/json"}, '{"items": []}'
        if path == "/from-js.html":
            return 200, {}, "<p>found by a script</p>"
        return None

    site = Site(["a.test"], respond)
    try:
        p = site.crawl("-w", "0", "--jsonl", site.url("a.test"))
        fates = {r["url"]: r["fate"] for r in records(p)}
        expect(fates == {site.url("a.test"): "fetched", site.url("a.test", "/app.js"): "skipped"},
               f"without --js: {fates}")
        since = time.monotonic()
        p = site.crawl("-w", "0", "--js", site.url("a.test"))
        want = [site.url("a.test", path) for path in ("/", "/api/items", "/app.js", "/from-js.html")]
        expect(sorted(lines(p)) == sorted(want), f"--js: {lines(p)}")
        asked = set(site.paths(since=since)) - {"/robots.txt"}
        expect(asked == {"/", "/api/items", "/app.js", "/from-js.html"}, f"--js requested {asked}")
    finally:
        site.stop()


def case_jsonl_via(tmp):
    """--jsonl's via says where each URL was found: the seed, the element of its link, a meta
    refresh, a form, CSS (a sheet, a <style>, a style attribute), a script (--js), a redirect, a
    sitemap. A --state crawl stopped by -n and continued keeps it for the URLs it left."""
    def respond(host, path, headers):
        if host == "www.a.test":
            return (200, {}, "<p>w</p>") if path == "/w.html" else None
        if path == "/":
            return 200, {}, ('<html><head><link rel=stylesheet href="/s.css">'
                             '<meta http-equiv="refresh" content="9; url=/r.html">'
                             '<style>p { background: url(/st.png) }</style></head><body>'
                             '<a href="/a.html">a</a><img src="/i.png"><a href="/old">o</a>'
                             '<form action="/find?q=1"></form><div style="background:url(/d.png)">'
                             '</div><script>fetch("/api/x");</script><iframe src="/f.html">'
                             '</iframe></body></html>')
        if path == "/s.css":
            return 200, {"Content-Type": "text/css"}, "p { background: url(/c.png) }"
        if path == "/old":
            return 301, {"Location": "/new"}, ""
        if path == "/a.html":
            return 200, {}, html_links(site.url("www.a.test", "/w.html"))
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "Sitemap: /sitemap.xml\n"
        if path == "/sitemap.xml":
            return 200, {"Content-Type": "application/xml"}, (
                '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                '<url><loc>/from-sitemap.html</loc></url></urlset>')
        if path in ("/r.html", "/new", "/find", "/api/x", "/f.html", "/from-sitemap.html"):
            return 200, {}, "<p>page</p>"
        return None

    site = Site(["a.test", "www.a.test"], respond)
    want = {"/": "seed", "/a.html": "a", "/i.png": "img", "/old": "a", "/new": "redirect",
            "/s.css": "link", "/c.png": "css", "/st.png": "css", "/d.png": "css",
            "/r.html": "refresh", "/find": "form", "/api/x": "js", "/f.html": "iframe",
            "/from-sitemap.html": "sitemap"}
    want = {site.url("a.test", path): via for path, via in want.items()}
    want[site.url("www.a.test", "/w.html")] = "a"
    try:
        p = site.crawl("-w", "0", "--js", "--sitemaps", "--jsonl", site.url("a.test"))
        got = {r["url"]: r["via"] for r in records(p)}
        expect(got == want, f"via: {sorted(set(got.items()) ^ set(want.items()), key=str)}")
        # stopped by -n with URLs queued, then continued: the last record of each URL
        state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
        site.crawl("-w", "0", "--js", "--sitemaps", "--jsonl", "-n", "3", "--state", state,
                   "-o", out, site.url("a.test"))
        with open(out) as f:
            first = [json.loads(line) for line in f]
        expect(any(r["fate"] == "limit" for r in first), f"-n 3 left nothing: {first}")
        site.crawl("--state", state, "-n", "100")
        with open(out) as f:
            last = {r["url"]: r["via"] for r in map(json.loads, f)}
        expect(last == want,
               f"via after --state: {sorted(set(last.items()) ^ set(want.items()), key=str)}")
    finally:
        site.stop()


def case_content_sniffing(tmp):
    """Bodies as servers really send them: with no Content-Type, a body that starts like HTML is
    parsed (one shorter than the sniffed bytes too) and binary is not; a page with no charset is
    UTF-8 when its bytes are; a UTF-16 BOM decides over the charset the header names."""
    bom = "\ufeff<a href=\"/\u00fc16.html\">u</a>".encode("utf-16-le")
    pages = {
        "/": (None, "<!DOCTYPE html><html><body>" + "<p>text</p>" * 60 +
              '<a href="/p.html">p</a><a href="/data">d</a><a href="/short">s</a>'
              '<a href="/u.html">u</a></body></html>'),
        "/p.html": (None, '  \n<p>a paragraph <a href="/deeper.html">deeper</a>'),
        "/short": (None, '<a href="/s.html">s</a>'),
        "/data": (None, b"\x00\x01\x02 binary <a href=\"/never.html\">no</a>" + b"\x00" * 600),
        "/u.html": ("text/html", '<a href="/caf\u00e9.html">c</a><a href="/bom.html">b</a>'),
        "/bom.html": ("text/html; charset=iso-8859-1", bom),
    }

    def respond(host, path, headers):
        if path not in pages:
            return None
        content_type, body = pages[path]
        return 200, {"Content-Type": content_type}, body

    site = Site(["a.test"], respond)
    try:
        p = site.crawl("-w", "0", site.url("a.test"))
        want = ["/", "/p.html", "/data", "/short", "/u.html", "/deeper.html", "/s.html",
                "/caf%C3%A9.html", "/bom.html", "/%C3%BC16.html"]
        expect_same_set(lines(p), [site.url("a.test", path) for path in want], "sniffed")
    finally:
        site.stop()


def in_private_netns(name):
    """Runs case name again in a network namespace of its own: only lo, with 10.77.0.9 on it too,
    and no route out, so that a test of private addresses sends nothing anywhere else whatever
    the crawler does. True in the namespace (the case goes on), False outside (it has run)."""
    if os.environ.get("CRAWL_TEST_NETNS") == "1":
        return True
    setup = 'ip link set lo up && ip addr add 10.77.0.9/32 dev lo && exec "$@"'
    p = subprocess.run(["unshare", "-n", "sh", "-c", setup, "sh", sys.executable,
                        os.path.abspath(__file__), BUILT_CRAWL, TESTWEB, name],
                       env=dict(os.environ, CRAWL_TEST_NETNS="1"), capture_output=True,
                       text=True, timeout=300)
    expect(p.returncode == 0, f"in its network namespace: {p.stdout[-2000:]} {p.stderr[-2000:]}")
    return False


def case_private_redirects(tmp):
    """A redirect from a loopback host into a private address (10.77.0.9) is refused before any
    connection, for a robots.txt and for a page, the error naming --allow-private; with it they
    are followed. A redirect to another origin (robots.txt's or a page's) carries none of the -H
    headers, which every other request has. Run in a network namespace of its own."""
    if not in_private_netns("private_redirects"):
        return

    def respond(host, path, headers):
        if host == "a.test" and path == "/robots.txt":
            return 301, {"Location": site.url("in.a.test", "/robots.txt")}, ""
        if host == "in.a.test" and path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nAllow: /\n"
        if host == "c.test" and path == "/":
            return 200, {}, html_links("/go")
        if host == "c.test" and path == "/go":
            return 302, {"Location": site.url("in.c.test", "/x")}, ""
        if host == "h.test" and path == "/robots.txt":
            return 301, {"Location": site.url("r.h.test", "/hop-robots.txt")}, ""
        if host == "r.h.test" and path == "/hop-robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nAllow: /\n"
        if host == "h.test" and path == "/":
            return 200, {}, html_links("/go")
        if host == "h.test" and path == "/go":
            return 302, {"Location": site.url("r.h.test", "/landing")}, ""
        if host == "r.h.test" and path == "/landing":
            return 200, {}, html_links("/after")
        if path in ("/", "/x", "/after"):
            return 200, {}, "<p>page</p>"
        return None

    site = Site(["a.test", "c.test", "h.test", "r.h.test"], respond, bind="0.0.0.0")
    inside = [a for h in ("in.a.test", "in.c.test") for a in
              ("--resolve", f"{h}:{site.port}:10.77.0.9")]
    seeds = [site.url(h) for h in ("a.test", "c.test", "h.test")]
    try:
        p = site.crawl("-w", "0", "-H", "X-Test: yes", "--jsonl", *inside, *seeds, check=False)
        recs = {r["url"]: r for r in records(p)}
        refused = "to the private address 10.77.0.9 (--allow-private allows it)"
        a, x = recs.get(site.url("a.test")), recs.get(site.url("in.c.test", "/x"))
        expect(a and a["fate"] == "failed" and a["error"].startswith("robots.txt: redirected "
                                                                     "from a loopback address")
               and refused in a["error"], f"robots.txt redirected inside: {a}")
        expect(x and x["fate"] == "failed" and refused in x["error"], f"page redirected: {x}")
        asked = [(h, path) for _, _, h, path, _ in site.log]
        expect(not [r for r in asked if r[0].startswith("in.")], f"a refused address was asked: {asked}")
        with_header = {(h, path): hdrs.get("X-Test") for _, _, h, path, hdrs in site.log}
        expect(with_header.get(("r.h.test", "/hop-robots.txt"), "none") is None and
               with_header.get(("r.h.test", "/landing"), "none") is None,
               f"-H followed a redirect to another origin: {with_header}")
        expect(with_header.get(("h.test", "/")) == "yes" and
               with_header.get(("h.test", "/robots.txt")) == "yes" and
               with_header.get(("r.h.test", "/after")) == "yes",
               f"-H missing where it belongs: {with_header}")
        p = site.crawl("-w", "0", "--allow-private", "--jsonl", *inside, *seeds)
        fates = {r["url"]: r["fate"] for r in records(p)}
        expect(fates.get(site.url("a.test")) == "fetched" and
               fates.get(site.url("in.c.test", "/x")) == "fetched",
               f"--allow-private: {fates}")
    finally:
        site.stop()


def case_wget_spellings(tmp):
    """wget's spellings where they mean the same: -r is taken, -l and --level are --depth, --wait
    is --delay, and the crawl is the one crawl's own names give. Where they would mislead, a
    usage error says what crawl calls it: -np, wget's -H before an option, a list with a space."""
    web = Web(tmp, hosts=2, pages=40)
    own = crawl(web, "-d", "1", "-w", "0", web.url())
    for spelled in (["-r", "-l", "1", "--wait", "0"], ["--recursive", "--level", "1", "-w", "0"]):
        p = crawl(web, *spelled, web.url())
        expect(sorted(lines(p)) == sorted(lines(own)), f"{spelled}: {lines(p)[:5]}")
    for args, hint in ((["-np"], "--no-parent"), (["-H", "-D", "web.test"], "--scope any"),
                       (["-A", "png jpg"], "separated by commas"),
                       (["-D", "web.test other.test"], "a comma list")):
        p = crawl(web, *args, web.url(), check=False)
        expect(p.returncode == 2 and hint in p.stderr and not p.stdout,
               f"{args}: exit {p.returncode}, {p.stderr!r}")
    web.stop()


def case_exit_statuses(tmp):
    """wget's exit statuses: 8 when a seed answers with an HTTP error, when a link --check-skipped
    checks is broken, and with --fail-on-broken when any URL failed; 0 for a crawl that merely
    found broken links; 4 (no seed reached) wins over 8. The summary counts every failed URL as a
    broken link, a DNS failure too, and names its cause."""
    web = Web(tmp, hosts=2, pages=60)
    missing, dead = web.url("s0", "/missing/1.html"), web.url("dnsfail", "/")
    runs = [(["-d", "2", web.url()], 0), (["-d", "2", "--fail-on-broken", web.url()], 8),
            (["-d", "0", missing], 8), (["-d", "0", web.url(), missing], 8),
            (["-d", "0", "--retries", "0", dead], 4),
            (["-d", "0", "--retries", "0", dead, "http://nxdomain.web.test/"], 4)]
    summaries = {}
    for args, status in runs:
        p = crawl(web, "-w", "0", *args, check=False)
        expect(p.returncode == status, f"{args}: exit {p.returncode}, not {status}: {p.stderr}")
        summaries[tuple(args)] = p.stderr
    # -v names robots.txt's status, not "received"
    p = crawl(web, "-w", "0", "-d", "0", "-v", web.url())
    expect(re.search(r"/robots\.txt -> HTTP 200, \d+ B", p.stderr), f"-v robots.txt: {p.stderr}")
    p = crawl(web, "-w", "0", "-d", "1", "--retries", "0", "--jsonl", web.url(), dead,
              check=False)
    web.stop()
    failed = [r for r in records(p) if r["fate"] == "failed"]
    m = re.search(r"(\d+) broken links?:", p.stderr)
    expect(failed and m and int(m.group(1)) == len(failed),
           f"{len(failed)} failed, summary: {p.stderr}")
    expect(f"{dead} (dns), linked from (a seed)" in p.stderr, f"the DNS failure: {p.stderr}")
    expect(p.returncode == 0, f"a seed unreached and one fetched: exit {p.returncode}")
    # --check-skipped: a missing image is a broken checked link
    site = Site(["a.test"], lambda host, path, headers:
                (200, {}, '<img src="/gone.png"><img src="/here.png">') if path == "/" else
                (200, {"Content-Type": "image/png"}, "png") if path == "/here.png" else None)
    try:
        for args, status in ((["--check-skipped"], 8), ([], 0)):
            p = site.crawl("-w", "0", *args, site.url("a.test"), check=False)
            expect(p.returncode == status, f"{args}: exit {p.returncode}, not {status}: {p.stderr}")
    finally:
        site.stop()


def case_empty_results_explained(tmp):
    """A crawl whose filters left nothing to print says so in its summary: -A naming an
    extension no URL has, --match that no link matched. One that printed something does not."""
    web = Web(tmp, hosts=1, pages=30)
    for args, said in ((["-A", "svg"], "no URL found was printed: none of the"),
                       (["--match", "/nothing-like-this/"], "--match turned away every link"),
                       (["-A", "png"], None), (["--match", "/p/"], None)):
        p = crawl(web, "-w", "0", *args, web.url())
        found = [u for u in lines(p) if u != web.url()]  # the seed is printed whatever --match
        if said:
            expect(not found and said in p.stderr, f"{args}: {p.stdout[:200]!r} {p.stderr}")
        else:
            expect(found and "no URL found was printed" not in p.stderr, f"{args}: {p.stderr}")
    web.stop()


def case_outside_links(tmp):
    """Links out of scope get a fate: one --jsonl record each, fate outside, at the depth where
    first found, as the truth has them; printed only with --print-outside; counted in the
    summary. --check-outside requests each once, politely (robots.txt obeyed): HEAD, then GET
    when HEAD answers 405; fetched or failed, its links not followed, exit 8 when one is broken.
    --check-skipped falls back to GET the same way."""
    web = Web(tmp, hosts=2, pages=120)
    p = crawl(web, "-w", "0", "-d", "4", "--jsonl", web.url())
    plain = crawl(web, "-w", "0", "-d", "4", web.url())
    printed = crawl(web, "-w", "0", "-d", "4", "--print-outside", web.url())
    web.stop()
    truth = web.truth(web.url(), depth=4, outside=True)
    outside = {u for u, (fate, _) in truth.items() if fate == "outside"}
    expect(len(outside) >= 5, f"the test web links out too little: {len(outside)}")
    got = {r["url"]: (r["fate"], r["depth"]) for r in records(p, outside=True)}
    expect(got == truth, f"records: {sorted(set(got.items()) ^ set(truth.items()))[:6]}")
    expect(not outside & set(lines(plain)), "printed out of scope without --print-outside")
    expect_same_set(lines(printed), set(lines(plain)) | outside, "--print-outside")
    expect(f"{len(outside)} links out of scope" in plain.stderr, f"summary: {plain.stderr}")

    def respond(host, path, headers):
        method = site.request.method
        if host == "a.test" and path == "/":
            links = [site.url(h, p) for h, p in (("b.test", "/ok"), ("b.test", "/gone"),
                                                  ("b.test", "/private/x"), ("c.test", "/nohead"))]
            return 200, {}, html_links(*links, "/pic.png")
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow: /private/\n"
        if path in ("/nohead", "/pic.png") and method == "HEAD":
            return 405, {}, ""
        if path in ("/ok", "/nohead"):
            return 200, {}, html_links("/never-followed")
        if path == "/pic.png":
            return 200, {"Content-Type": "image/png"}, "png"
        return None

    site = Site(["a.test", "b.test", "c.test"], respond)
    try:
        p = site.crawl("-w", "0", "--scope", "host", "--check-outside", "--check-skipped",
                       "--jsonl", site.url("a.test"), check=False)
        expect(p.returncode == 8, f"a checked link is broken: exit {p.returncode} {p.stderr}")
        fates = {r["url"]: (r["fate"], r.get("status")) for r in records(p, outside=True)}
        want = {site.url("a.test"): ("fetched", 200), site.url("b.test", "/ok"): ("fetched", 200),
                site.url("b.test", "/gone"): ("failed", 404),
                site.url("b.test", "/private/x"): ("robots", None),
                site.url("c.test", "/nohead"): ("fetched", 200),
                site.url("a.test", "/pic.png"): ("fetched", 200)}
        expect(fates == want, f"--check-outside: {fates}")
        asked = Counter((h, path) for _, _, h, path, _ in site.log if path != "/robots.txt")
        expect(asked[("c.test", "/nohead")] == 2 and asked[("a.test", "/pic.png")] == 2 and
               asked[("b.test", "/ok")] == 1 and not [k for k in asked if "never" in k[1]],
               f"requests: {asked}")
    finally:
        site.stop()


def case_resumes_tell_the_truth(tmp):
    """A --state crawl stopped by -n names the command that goes on; continued, its summary counts
    all its runs, over their time; continued once more after it ended, it says it is complete,
    prints nothing and asks the server nothing (robots.txt neither)."""
    web = Web(tmp, hosts=2, pages=40)
    state = os.path.join(tmp, "state")
    first = crawl(web, "-w", "0.3", "-d", "2", "-n", "5", "--state", state, web.url())
    expect(f"left for the next run: 'crawl --state {state}' goes on" in first.stderr,
           f"first run: {first.stderr}")
    second = crawl(web, "-w", "0", "--state", state, "-n", "100000")  # fast: its own time is less
    m = re.search(r"(\d+) pages fetched, \d+ URLs discovered, [\d.]+ MB in ([\d.]+) s over 2 runs "
                  r"\(([\d.]+) pages/s\)", second.stderr)
    expect(m, f"second run's summary: {second.stderr}")
    pages, secs, rate = int(m.group(1)), float(m.group(2)), float(m.group(3))
    expect(secs >= first.elapsed * 0.7, f"the time is not the runs': {secs} s, the first run "
           f"alone took {first.elapsed:.2f} s")
    # the time is printed to 0.01 s, the rate to 0.1
    expect(pages > 5 and pages / (secs + 0.005) - 0.05 <= rate <= pages / max(secs - 0.005, 1e-3)
           + 0.05, f"the rate is not the runs' pages over their time: {m.group(0)}")
    since = time.monotonic()  # the test web's clock too
    third = crawl(web, "-w", "0", "--state", state)
    log = web.stop()
    expect(not third.stdout and "this crawl was complete already" in third.stderr and
           "over 3 runs" in third.stderr, f"third run: {third.stdout!r} {third.stderr}")
    late = [r for r in log if r[0] >= since]
    expect(not late, f"a complete crawl asked the server: {late[:3]}")


def case_expect_costs_what_is_used(tmp):
    """A filter sized far beyond the crawl (--expect 50000000, a table of about 240 MB) costs what
    its URLs touch, not its size: the crawl's peak memory stays within 100 MB of one with the
    default --expect, and its output is the same."""
    import resource
    web = Web(tmp, hosts=2, pages=40)
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}  # it would write it
    peaks, outs = {}, {}
    for expect_n in ("1000000", "50000000"):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        p = subprocess.run([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w",
                            "0", "-d", "2", "--expect", expect_n, web.url()],
                           capture_output=True, text=True, timeout=60, env=env)
        expect(p.returncode == 0, f"--expect {expect_n}: exit {p.returncode} {p.stderr}")
        peaks[expect_n] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        outs[expect_n] = sorted(p.stdout.splitlines())
        expect(peaks[expect_n] >= before, "ru_maxrss went down")
    web.stop()
    expect(outs["1000000"] == outs["50000000"], "the output differs with --expect")
    with open(BUILT_CRAWL, "rb") as f:
        if b"__tsan_init" in f.read():
            print("skip: ThreadSanitizer's calloc writes every byte it gives; measured without it")
            return
    # ru_maxrss of the children is the largest child's so far, in KiB: the second run's is the
    # peak unless the first was larger
    expect(peaks["50000000"] - peaks["1000000"] < 100 * 1024,
           f"--expect 50000000 cost {(peaks['50000000'] - peaks['1000000']) // 1024} MB more")


def case_many_seed_hosts(tmp):
    """Seeds on more hosts than crawl makes at once (2,500, fed a window at a time so that hosts
    are made as they are reached): the crawl is the ground truth's, breadth first, and a seed is
    a seed (depth 0, via seed) even when a page linked it before its turn. Stopped by -n 1, it
    asks nothing of most hosts and still gives every seed its record. Killed with kill -9 while
    seeds wait, a --state crawl continued until it ends gives every URL one record."""
    import random
    web = Web(tmp, hosts=2500, pages=2, links=4)
    seeds = [web.url(f"s{i}") for i in range(2500)]
    seed_file = os.path.join(tmp, "seeds.txt")
    with open(seed_file, "w") as f:
        f.write("\n".join(seeds) + "\n")
    truth = web.truth(*seeds, depth=1)
    p = crawl(web, "-w", "0", "-d", "1", "--jsonl", "-i", seed_file, timeout=120)
    recs = records(p)
    log = web.stop()
    expect_breadth_first(recs, [e for e in log if e[3] != "/robots.txt"], truth, "2,500 seeds")
    not_seed = [r["url"] for r in recs if (r["url"] in truth and truth[r["url"]][1] == 0) !=
                (r["via"] == "seed")]
    expect(not not_seed, f"seeds not recorded as seeds, or the other way: {not_seed[:5]}")

    web = Web(tmp, hosts=2500, pages=2, links=4)
    seeds = [web.url(f"s{i}") for i in range(2500)]
    with open(seed_file, "w") as f:
        f.write("\n".join(seeds) + "\n")
    p = crawl(web, "-w", "0", "-n", "1", "-d", "0", "--jsonl", "-i", seed_file, timeout=120)
    recs = [r for r in records(p) if r["via"] == "seed"]  # and the one page's links
    log = web.stop()
    expect_unique([r["url"] for r in recs], "-n 1: record")
    expect_same_set([r["url"] for r in recs], seeds, "-n 1: records")
    fates = Counter(r["fate"] for r in recs)
    expect(fates == Counter({"limit": 2499, "fetched": 1}), f"-n 1: fates {fates}")
    asked = {host for _, _, host, _, _ in log}
    expect(len(asked) < 1300, f"-n 1: {len(asked)} of 2,500 hosts were asked for robots.txt")

    web = Web(tmp, hosts=2500, pages=2, links=4)
    seeds = [web.url(f"s{i}") for i in range(2500)]
    with open(seed_file, "w") as f:
        f.write("\n".join(seeds) + "\n")
    state = os.path.join(tmp, "state")
    out_file = os.path.join(tmp, "records.jsonl")  # cut back to its checkpoint by each run
    rng = random.Random(int(os.environ.get("CRAWL_TEST_SEED", "0")) or None)
    kills, runs = 0, 0
    while True:
        runs += 1
        expect(runs <= 20, "the --state crawl did not end in 20 runs")
        cmd = ([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d",
                "1", "--jsonl", "-o", out_file, "--checkpoint", "0.2", "--state", state, "-i",
                seed_file]
               if runs == 1 else [CRAWL, "--state", state])
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if kills < 3:
            try:
                proc.wait(timeout=rng.uniform(0.6, 1.2))
            except subprocess.TimeoutExpired:
                kills += 1
                proc.kill()
        _, err = proc.communicate(timeout=120)
        if proc.returncode == 0:
            break
        expect(proc.returncode == -signal.SIGKILL, f"run {runs}: exit {proc.returncode} {err}")
    web.stop()
    expect(kills >= 1, "the --state crawl ended before it was killed")
    with open(out_file) as f:
        recs = inside([json.loads(line) for line in f])
    truth = web.truth(*seeds, depth=1)
    expect_unique([r["url"] for r in recs], f"--state, {kills} kills: record")
    got = {r["url"]: (r["fate"], r["depth"]) for r in recs}
    wrong = [(u, got.get(u), t) for u, t in truth.items() if got.get(u) != t]
    expect(not wrong and len(got) == len(truth),
           f"--state, {kills} kills: {len(wrong)} of {len(truth)} off, e.g. {wrong[:3]}")


def case_seed_hosts_cost_what_is_used(tmp):
    """100,000 seeds on 100,000 hosts (loopback addresses, of which only the first serves), with
    -n 1 -d 0: hosts are made a window at a time, and no host is asked anything once -n is
    reached, so the crawl ends in seconds under 64 MB, every seed with its record."""
    with open(BUILT_CRAWL, "rb") as f:
        sanitized = re.search(rb"__(a|t)san_init", f.read()) is not None
    # under a sanitizer, a run of 100,000 hosts' robots.txt lookups would take minutes: the
    # behaviour is checked on 5,000, and memory and time only without one
    hosts = 5000 if sanitized else 100000
    web = Web(tmp, hosts=1, pages=2)
    seeds = [web.url()] + [f"http://127.{1 + i // 65536}.{i // 256 % 256}.{i % 256}:{web.port}/"
                           for i in range(hosts - 1)]
    seed_file = os.path.join(tmp, "seeds.txt")
    with open(seed_file, "w") as f:
        f.write("\n".join(seeds) + "\n")
    out = os.path.join(tmp, "records.jsonl")
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}
    started = time.monotonic()
    # the one name needs no lookup: under a sanitizer the loop is slow enough for a query to time out
    proc = subprocess.Popen([CRAWL, "--no-progress", "--resolve", f"s0.web.test:{web.port}:127.0.0.1",
                             "-n", "1", "-d", "0", "--jsonl", "-o", out, "-i", seed_file],
                            stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.monotonic() - started
    err = proc.stderr.read().decode()
    proc.stderr.close()
    web.stop()
    expect(os.waitstatus_to_exitcode(status) == 0, f"exit {status}: {err[-500:]}")
    with open(out) as f:
        recs = [json.loads(line) for line in f]
    fates = Counter(r["fate"] for r in recs if r["via"] == "seed")
    expect(fates == Counter({"limit": hosts - 1, "fetched": 1}), f"seed fates {fates}")
    print(f"{hosts} seed hosts: {elapsed:.1f} s, {usage.ru_maxrss // 1024} MB")
    if sanitized:
        print("skip: a sanitizer's shadow memory and pace are no crawl's")
        return
    expect(usage.ru_maxrss < 64 * 1024, f"peak RSS {usage.ru_maxrss // 1024} MB, 64 MB at most")
    expect(elapsed < 30, f"{elapsed:.1f} s, 30 s at most")


def case_install_as_the_readme_says(tmp):
    """The README's Install commands, as written there (with a --destdir, so nothing leaves the
    case's directory): a build without the tests' packages, a prefix given at setup, and meson
    install, which puts crawl, its man page and its completion under that prefix."""
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(source, "README.md")) as f:
        readme = f.read()
    block = readme.split("## Install", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    setup = next(line for line in block.splitlines() if line.startswith("meson setup"))
    install = next(line for line in block.splitlines() if line.startswith("meson install"))
    args = setup.split("#")[0].split()[2:]  # after "meson setup"
    build = os.path.join(tmp, "build")
    args = [build if a == "build-release" else a for a in args]
    args = [a for a in args if not a.startswith("--prefix")] + ["--prefix", "/opt/crawl-test"]
    p = subprocess.run(["meson", "setup", *args], cwd=source, capture_output=True, text=True,
                       timeout=120)
    expect(p.returncode == 0, f"{setup}: {p.stdout[-500:]} {p.stderr[-500:]}")
    expect(install.split("#")[0].split()[:3] == ["meson", "install", "-C"], f"{install}")
    dest = os.path.join(tmp, "dest")
    p = subprocess.run(["meson", "install", "-C", build, "--destdir", dest, "--quiet"],
                       capture_output=True, text=True, timeout=600)
    expect(p.returncode == 0, f"{install}: {p.stdout[-500:]} {p.stderr[-500:]}")
    for path in ("bin/crawl", "share/man/man1/crawl.1", "share/bash-completion/completions/crawl"):
        expect(os.path.exists(os.path.join(dest, "opt/crawl-test", path)), f"not installed: {path}")
    p = subprocess.run([os.path.join(dest, "opt/crawl-test/bin/crawl"), "--version"],
                       capture_output=True, text=True)
    expect(p.returncode == 0 and "crawl" in p.stdout, f"the installed crawl: {p.stdout!r}")


def case_fp_rate(tmp):
    """--fp-rate and --expect size the filter: a --seen file for 1e-2 is smaller than one for
    1e-9 (fewer bits a URL), one for 1,000 URLs smaller than one for 100,000, and the crawls
    print the ground truth of this small web."""
    web = Web(tmp, hosts=2, pages=40)
    sizes = {}
    for rate in ("1e-2", "1e-9"):
        seen = os.path.join(tmp, f"{rate}.seen")
        p = crawl(web, "-w", "0", "-d", "1000", "--expect", "100000", "--fp-rate", rate,
                  "--seen", seen, web.url())
        expect_same_set(lines(p), web.truth(web.url()), f"--fp-rate {rate}")
        sizes[rate] = os.path.getsize(seen)
    # bits per URL: -log2(p)/ln 2, 9.6 at 1e-2 and 43 at 1e-9
    expect(sizes["1e-9"] > 3 * sizes["1e-2"], f"--seen sizes {sizes}")
    # --expect sizes it too: room for 100 times the URLs takes about 100 times the bytes
    seen = os.path.join(tmp, "small.seen")
    crawl(web, "-w", "0", "-d", "0", "--expect", "1000", "--fp-rate", "1e-9", "--seen", seen,
          web.url())
    web.stop()
    expect(sizes["1e-9"] > 30 * os.path.getsize(seen),
           f"--expect 1000: {os.path.getsize(seen)} bytes, --expect 100000: {sizes['1e-9']}")


def gaps(log):
    by_host = defaultdict(list)
    for start, end, host, _, _ in log:
        by_host[host].append((start, end))
    return {h: [b[0] - a[1] for a, b in zip(sorted(r), sorted(r)[1:])] for h, r in by_host.items()}


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__" and sys.argv[1:] == ["--list"]:
    print("\n".join(CASES))  # tests/meson.build makes a test of each
elif __name__ == "__main__":
    name = sys.argv[3]
    # crawl reads seeds from standard input when given none: the cases' crawls read nothing
    # unless a case hands them input
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    # CRAWL_TEST_KEEP=1 keeps the case's directory (printed) to look into after a failure
    with (contextlib.nullcontext(tempfile.mkdtemp()) if KEEP else
          tempfile.TemporaryDirectory()) as tmp:
        if KEEP:
            print(f"{name}: kept in {tmp}")
            tempfile.tempdir = tmp
        threads = os.environ.get("CRAWL_TEST_THREADS")
        if threads:
            wrapper = os.path.join(tmp, "crawl-j" + threads)
            with open(wrapper, "w") as f:
                f.write(f'#!/bin/sh\nexec "{os.path.abspath(CRAWL)}" -j {threads} "$@"\n')
            os.chmod(wrapper, 0o755)
            CRAWL = wrapper
        try:
            CASES[name](tmp)
        except AssertionError as e:
            print(f"FAIL {name}: {e}")
            sys.exit(1)
    print(f"ok {name}")
