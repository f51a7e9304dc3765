#!/usr/bin/env python3
"""The integration tests' harness: the test web and the other servers the cases start, running
crawl, and the checks the cases of every feature share (crawl_cases.py runs them). CRAWL is
the binary under test; with CRAWL_TEST_THREADS the runner points it at a wrapper giving -j N
before any feature file is imported."""
import datetime
import errno
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
CRAWL, TESTWEB = (sys.argv + ["", ""])[1:3]
KEEP = os.environ.get("CRAWL_TEST_KEEP")  # keep each case's directory to look into
BUILT_CRAWL = CRAWL  # the binary itself, even when CRAWL is the -j wrapper

class Web:
    """A running testweb; its request log is read after it stops."""

    def __init__(self, tmp, hosts=4, pages=60, links=6, seed=1, markup=()):
        """markup: more of testweb's web options (--rich-markup, --page-bytes N)."""
        self.args = ["--hosts", str(hosts), "--pages", str(pages), "--links", str(links),
                     "--seed", str(seed), *markup]
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

    def served(self):
        """How many requests it has answered so far (its log is written line by line)."""
        try:
            with open(self.log_path, "rb") as f:
                return f.read().count(b"\n")
        except FileNotFoundError:
            return 0

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
    the crawl of the scope; outside_links checks them against the truth). A URL has one record,
    out of scope or not: every case that reads records checks that."""
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    expect_unique([r["url"] for r in recs], "record")
    return inside(recs, outside)

def inside(recs, outside=False):
    return recs if outside else [r for r in recs if r["fate"] != "outside"]

def record_time(r):
    """A record's time (RFC 3339, UTC, milliseconds) as seconds since the epoch."""
    return datetime.datetime.strptime(r["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()

def expect(cond, message):
    if not cond:
        raise AssertionError(message)

def expect_same_set(got, want, what):
    """got and want hold the same items; got, when a list (URLs printed, records, requests),
    holds each once: a URL printed or fetched twice is a failure even if the sets agree."""
    if not isinstance(got, (set, frozenset, dict)):
        got = list(got)
        expect_unique(got, what)
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

def answer(handler, body, ctype):
    """A whole 200 answer from a BaseHTTPRequestHandler, kept alive (HTTP/1.1)."""
    handler.send_response(200)
    handler.send_header("Content-Type", ctype)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)

def serve_threaded(handler_class, bind="127.0.0.1", tls=None):
    """A threaded HTTP server of the case's own on a loopback port: (server, port). With tls (a
    make_pki directory), each connection is TLS or plain HTTP as its first byte says, both on the
    one port, so that a case sees what a client sends in clear to an https origin's host:port."""
    import threading
    from http.server import ThreadingHTTPServer

    class Server(ThreadingHTTPServer):
        # a crawl at a high -c connects hundreds at once: a backlog of 5 (the default) would make
        # most of them wait for the kernel's SYN retries
        request_queue_size = 512

        def finish_request(self, request, client_address):  # in the connection's own thread
            if tls:
                import ssl
                ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                ctx.load_cert_chain(os.path.join(tls, "host.pem"), os.path.join(tls, "host.key"))
                request.settimeout(30)
                try:
                    first = request.recv(1, socket.MSG_PEEK)
                    if first == b"\x16":  # a TLS handshake
                        request = ctx.wrap_socket(request, server_side=True)
                    request.settimeout(None)
                except OSError:
                    return
            super().finish_request(request, client_address)

        def handle_error(self, request, client_address):
            # a client that closes a connection mid-answer (a body cut at --max-size, a crawl
            # stopped) is what some cases want: no traceback for it, one for anything else
            if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
                super().handle_error(request, client_address)
    server = Server((bind, 0), handler_class)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]

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

def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask

def free_port():
    """A loopback port with nothing listening on it (the kernel's pick, closed again)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

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

def state_cmd(web, state, *args, interval=0.3, delay="0.02"):
    return [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000",
            "-w", delay, "--checkpoint", str(interval), "--state", state, *args, web.url()]

def checkpoint_files(state):
    """A --state directory's checkpoint and the one before it, as bytes: a refused run must leave
    both as they were."""
    got = {}
    for name in ("checkpoint", "checkpoint.prev"):
        with open(os.path.join(state, name), "rb") as f:
            got[name] = f.read()
    return got

def expect_truth(recs, truth, what):
    """Every record has the breadth-first truth's fate and depth, and every URL of the truth a
    record."""
    wrong = [(r["url"], r["fate"], r["depth"], truth.get(r["url"])) for r in recs
             if (r["fate"], r["depth"]) != truth.get(r["url"])]
    expect(not wrong, f"{what}: fate or depth off: {wrong[:5]}")
    expect_same_set([r["url"] for r in recs], truth, what)

def expect_records_of_one_crawl(web, recs):
    """The --jsonl records of the runs of one crawl: one per URL of the ground truth, with its
    fate and depth. The truth, for more checks."""
    expect_unique([r["url"] for r in recs], "record across the runs")
    truth = web.truth(web.url())
    expect_truth(recs, truth, "the runs together")
    return truth

def expect_runs_are_one_crawl(web, recs, log):
    """The same for runs paused and continued, which fetch no page twice (robots.txt is fetched
    again by each run)."""
    expect_records_of_one_crawl(web, recs)
    twice = [k for k, n in Counter((h, p) for _, _, h, p, _ in log if p != "/robots.txt").items()
             if n > 1]
    expect(not twice, f"fetched twice: {twice[:5]}")

def run_paused(first, state, what, served, count, pauses=4, done=0):
    """The --state crawl that the command first begins, paused by SIGTERM once served() (the
    server's count of requests) has grown by count, and continued with nothing but
    `crawl --state DIR`, pauses times, then continued to its end, which exits done."""
    runs = 0
    while True:
        runs += 1
        expect(runs <= pauses + 2, f"{what}: the crawl did not end in {pauses + 2} runs")
        cmd = first if runs == 1 else [CRAWL, "--state", state]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if runs <= pauses:
            start = served()
            wait_until(lambda: served() >= start + count or proc.poll() is not None,
                       f"{count} requests of run {runs}")
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
        expect(proc.returncode in (done, 143),
               f"{what}: run {runs} exited {proc.returncode}: {err}")
        if proc.returncode == done:
            break
    expect(runs >= 3, f"{what}: the crawl ended after {runs} runs, too soon to show anything")

def paused_runs(web, state, out, *args, count=8, pauses=4):
    """A --state crawl of web with args (run_paused, each run paused after count requests): (its
    --jsonl records, the server's log)."""
    run_paused(state_cmd(web, state, "--jsonl", "-o", out, *args, interval=0.2, delay="0.04"),
               state, args, web.served, count, pauses)
    with open(out) as f:
        recs = inside([json.loads(line) for line in f])
    return recs, web.stop()

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

    def log(self, until=None, what="the lines wanted"):
        """Its log, once until(log) holds (a proxy may write a line after the answer it logs:
        the case names what it waits for rather than waiting a while)."""
        def read():
            with open(self.log_path, errors="replace") as f:
                return f.read()
        if until:
            wait_until(lambda: until(read()), f"{what} in the {self.kind} proxy's log", timeout=30)
        return read()

    def stop(self):
        self.proc.kill()
        self.proc.wait()

class Site:
    """A threaded HTTP server of the case's own, answering for named hosts (reached through
    --resolve). respond(host, path, headers) gives (status, extra headers (a list of values sends
    the header once for each), body) or None for a
    404; it may sleep, as a slow server does. A body given as a list of parts is sent part by
    part, 0.2 s apart, under one Content-Length, or each part a chunk with "Transfer-Encoding":
    "chunked" among the headers. A body given as an iterator is sent chunked, each part as the
    iterator gives it (a page that comes as something happens, never too slowly for curl's
    low-speed limit, which a server that only waits would meet). Every request is logged as
    (start, end, host, path,
    headers), end taken just before the answer is written; in-flight requests are counted, in
    all and per host, at their most."""

    def __init__(self, hosts, respond, bind="127.0.0.1", tls=None):
        import ssl
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
                        # ":scheme", a name no header can have: how the request came
                        scheme = "https" if isinstance(self.connection, ssl.SSLSocket) else "http"
                        site.log.append((started, time.monotonic(), host, self.path,
                                         {**dict(self.headers.items()), ":scheme": scheme}))
                status, extra, body = got if got else (404, {}, b"<html>not here</html>")
                streamed = hasattr(body, "__next__")
                if streamed:
                    extra["Transfer-Encoding"] = "chunked"
                parts = ((b.encode() if isinstance(b, str) else b for b in body) if streamed else
                         [b.encode() if isinstance(b, str) else b
                          for b in (body if isinstance(body, list) else [body])])
                body = b"" if streamed else b"".join(parts)
                self.send_response(status)
                content_type = extra.pop("Content-Type", "text/html")
                if content_type is not None:  # None: no Content-Type at all
                    self.send_header("Content-Type", content_type)
                for k, v in extra.items():  # a list: that header once for each value
                    for one in (v if isinstance(v, list) else [v]):
                        self.send_header(k, one)
                chunked = extra.get("Transfer-Encoding") == "chunked"
                if not chunked:
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    for i, part in enumerate(parts if self.command != "HEAD" else []):
                        if i:
                            self.wfile.flush()
                            if not streamed:
                                time.sleep(0.2)
                        if chunked and part:  # an empty chunk would end the body
                            part = b"%x\r\n%s\r\n" % (len(part), part)
                        self.wfile.write(part)
                    if chunked and self.command != "HEAD":
                        self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the crawler gave up waiting, as the case wants

            do_GET = do_HEAD = answer

            def log_message(self, *args):
                pass

        self.server, self.port = serve_threaded(Handler, bind, tls)

    def url(self, host, path="/", scheme="http"):
        return f"{scheme}://{host}:{self.port}{path}"

    def resolve(self):
        return [a for h in self.hosts for a in ("--resolve", f"{h}:{self.port}:127.0.0.1")]

    def crawl(self, *args, timeout=60, check=True, env=None):
        cmd = [CRAWL, "--no-progress", *self.resolve(), *args]
        started = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
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

class Gate(Site):
    """A seed a crawl cannot finish without: gate.test's / is answered only once release() is
    called (its robots.txt at once). A case that kills a crawl part way adds it to the seeds, so
    that however fast the machine, the crawl is still running when the case's event comes."""

    def __init__(self):
        import threading
        self.opened = threading.Event()
        self.asked = threading.Event()  # its / was asked for: the crawl waits on it now

        def respond(host, path, headers):
            if path == "/":
                self.asked.set()
                self.opened.wait(timeout=300)
                return 200, {}, "<p>the gate</p>"
            return None
        super().__init__(["gate.test"], respond)

    def release(self):
        self.opened.set()

    def stop(self):
        self.release()
        super().stop()

def summary_counts(err):
    """A summary's URLs discovered and the sum of its fates (None when it has no summary)."""
    m = re.search(r"(\d+) URLs discovered", err)
    fates = re.search(r"(\d+) fetched, (\d+) failed.*?, (\d+) robots exclusions, (\d+) cut by "
                      r"depth, (\d+) skipped, (\d+) over a limit, (\d+) pending", err)
    if not m or not fates:
        return None
    return int(m.group(1)), sum(int(n) for n in fates.groups())


def settled_records(p):
    """A crawl's --jsonl records without what differs from run to run (time, ms), sorted."""
    return sorted(json.dumps({k: v for k, v in json.loads(line).items() if k not in ("time", "ms")},
                             sort_keys=True) for line in p.stdout.splitlines())


def same_crawl_as(whole):
    """A went_on for expect_memory_failures: the crawl's records are whole's."""
    want = settled_records(whole)

    def check(p):
        got = settled_records(p)
        return None if got == want else f"another crawl: {sorted(set(got) ^ set(want))[:3]}"
    return check


def whole_record(line):
    """Whether line is one whole --jsonl record."""
    try:
        record = json.loads(line)
    except ValueError:
        return False
    return isinstance(record, dict) and "url" in record and "fate" in record


def expect_memory_failures(run, failures, went_on, what):
    """The out-of-memory promise (tests/README.md, Out of memory): run(failure) crawls with that
    allocation failing (tests/support/failalloc.c), four at a time (each crawl mostly waits).
    Each must end with exit 1 saying memory ran out, its --jsonl output whole records, or with
    exit 0 and went_on(p) None (else what is wrong). what names a failure in messages
    ("allocation", "site:call", whose address addr2line -e crawl reads). Returns how many ended
    and how many went on."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(run, failures))
    ended = 0
    for failure, p in zip(failures, runs):
        where = f"{what} {failure} failing"
        expect(p.returncode in (0, 1), f"{where}: exit {p.returncode}, {p.stderr[-600:]!r}")
        if p.returncode == 1:
            expect("out of memory" in p.stderr or os.strerror(errno.ENOMEM) in p.stderr,
                   f"{where}: exit 1 without a word of memory: {p.stderr!r}")
            # what it wrote before it ended is whole: a record a line, none cut or joined
            cut = [line for line in p.stdout.splitlines() if not whole_record(line)]
            expect(not cut and (not p.stdout or p.stdout.endswith("\n")),
                   f"{where}: a record not whole: {cut[:2]!r}, {p.stdout[-200:]!r}")
            ended += 1
        else:
            wrong = went_on(p)
            expect(not wrong, f"{where}: exit 0, {wrong}")
    return ended, len(runs) - ended


def on_pty(cmd, env, stdout_too):
    """Runs cmd with standard error on a new pseudo-terminal (standard output too, or
    /dev/null), to its end; what the terminal got, as bytes."""
    master, slave = os.openpty()
    proc = subprocess.Popen(cmd, stdout=slave if stdout_too else subprocess.DEVNULL,
                            stderr=slave, env=env, stdin=subprocess.DEVNULL)
    os.close(slave)
    stream = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the last holder of the terminal's other end has gone
            break
        if not chunk:
            break
        stream += chunk
    proc.communicate(timeout=60)
    os.close(master)
    return stream


class OutputWatch:
    """A running process's stdout and stderr (text pipes) read as it writes them, so that a case
    can wait for what it says (wait_until on err()) and still have all of both at the end."""

    def __init__(self, proc):
        self.proc = proc
        self.parts = {"stdout": [], "stderr": []}
        self.readers = [threading.Thread(target=self._read, args=(name,), daemon=True)
                        for name in self.parts]
        for reader in self.readers:
            reader.start()

    def _read(self, name):
        for line in getattr(self.proc, name):
            self.parts[name].append(line)

    def out(self):
        return "".join(list(self.parts["stdout"]))

    def err(self):
        return "".join(list(self.parts["stderr"]))

    def finish(self, timeout=90):
        """(stdout, stderr) once the process has ended and both are read to their end."""
        self.proc.wait(timeout=timeout)
        for reader in self.readers:
            reader.join(timeout=timeout)
        return self.out(), self.err()

def wait_until(cond, what, proc=None, timeout=120):
    """Polls cond until it holds: a case waits for an event, never for a fixed time. Fails when
    timeout passes first, or when proc ends first."""
    deadline = time.monotonic() + timeout
    while not cond():
        expect(proc is None or proc.poll() is None,
               f"the crawl ended (exit {proc.returncode if proc else ''}) before {what}")
        expect(time.monotonic() < deadline, f"no {what} in {timeout} s")
        time.sleep(0.005)

def wait_served(web, count, *procs):
    """Waits until web has answered count more requests than it had, while every one of procs
    runs: a crawl is stopped in its middle after so much work, not after so much time."""
    target = web.served() + count
    deadline = time.monotonic() + 120
    while web.served() < target:
        for proc in procs:
            expect(proc.poll() is None,
                   f"the crawl ended (exit {proc.returncode}) before {count} more requests")
        expect(time.monotonic() < deadline, f"not {count} more requests in 120 s")
        time.sleep(0.005)

def file_version(path):
    """What tells one write of path (replaced by a rename, or rewritten) from the next."""
    try:
        st = os.stat(path)
        return (st.st_ino, st.st_mtime_ns, st.st_size)
    except FileNotFoundError:
        return None

def kill_after_checkpoints(proc, state, count=1, sig=signal.SIGKILL):
    """kill -9 (or sig) of a --state crawl once it has written count checkpoints since it
    began."""
    path = os.path.join(state, "checkpoint")
    seen, last = 0, file_version(path)
    while seen < count:
        wait_until(lambda: file_version(path) != last, "a checkpoint", proc)
        last = file_version(path)
        seen += 1
    proc.send_signal(sig)

def pages_responder(pages):
    """A Site's respond for a table of path: (Content-Type, body); any other path is a 404."""
    def respond(host, path, headers):
        if path not in pages:
            return None
        content_type, body = pages[path]
        return 200, {"Content-Type": content_type}, body
    return respond

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

def in_private_netns(name):
    """Runs case name again in a network namespace of its own: only lo, with 10.77.0.9 on it too,
    and no route out, so that a test of private addresses sends nothing anywhere else whatever
    the crawler does. True in the namespace (the case goes on), False outside (it has run)."""
    if os.environ.get("CRAWL_TEST_NETNS") == "1":
        return True
    setup = 'ip link set lo up && ip addr add 10.77.0.9/32 dev lo && exec "$@"'
    p = subprocess.run(["unshare", "-n", "sh", "-c", setup, "sh", sys.executable,
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), "crawl_cases.py"),
                        BUILT_CRAWL, TESTWEB, name],
                       env=dict(os.environ, CRAWL_TEST_NETNS="1"), capture_output=True,
                       text=True, timeout=300)
    expect(p.returncode == 0, f"in its network namespace: {p.stdout[-2000:]} {p.stderr[-2000:]}")
    return False

def gaps(log):
    by_host = defaultdict(list)
    for start, end, host, _, _ in log:
        by_host[host].append((start, end))
    return {h: [b[0] - a[1] for a, b in zip(sorted(r), sorted(r)[1:])] for h, r in by_host.items()}
