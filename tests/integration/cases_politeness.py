"""Integration cases: Politeness: delays, Crawl-delay, -c and --per-host, Retry-After, pacing (robots.txt is cases_robots.py)."""
import re
import threading

from harness import *  # noqa: F401,F403 (the shared harness)


def case_delay_respected(tmp):
    """No two requests to one host closer than --delay; hosts are crawled side by side: while
    one host waits out its gap, the others are asked (read from the server's log, not from how
    long the crawl took, which a busy machine stretches)."""
    web = Web(tmp, hosts=3, pages=20, links=4)
    delay = 0.05
    crawl(web, "-w", str(delay), "-d", "1000", web.url("s0"), web.url("s1"), web.url("s2"))
    log = web.stop()
    by_host = defaultdict(list)
    for start, end, host, path, status in log:
        by_host[host].append((start, end))
    for host, reqs in by_host.items():
        reqs.sort()
        for (s1, e1), (s2, e2) in zip(reqs, reqs[1:]):
            expect(s2 - e1 >= delay, f"{host}: gap {s2 - e1:.4f}s below {delay}s")
    # a gap of one host that another host's request began in; one host crawled after another
    # would share only the gaps where one hands over to the next
    starts = [(start, host) for start, end, host, path, status in log]
    gaps = shared = 0
    for host, reqs in by_host.items():
        for (s1, e1), (s2, e2) in zip(reqs, reqs[1:]):
            gaps += 1
            shared += any(e1 <= t <= s2 and h != host for t, h in starts)
    expect(len(by_host) == 3 and shared >= gaps / 2,
           f"hosts not crawled side by side: {shared} of {gaps} gaps saw another host's request")


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
    sockets in its epoll set between requests), and at -j 4 a shard whose turn raised no gate
    sleeps too (it turns again at once only when held pages may start)."""
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


def case_many_connections(tmp):
    """-c 300 over 300 hosts in 256 descriptors:
    - under a soft limit of 256 (the usual one is 1,024): crawl raises its own soft limit as far
      as the hard one allows, and -c stands;
    - under a hard limit of 256 too, which it cannot raise: -c comes down to what fits beside
      what each shard's engine takes (doc/design.md, Connections), and a note says so.
    Either way no transfer fails to connect for want of a socket (-v names each that does, even
    one a retry later fetches) and the printed set is the ground truth. Where the shards alone
    need more than the limit, the crawl cannot start, and says that descriptors are why."""
    for limit, cut in (("-Sn 256", False), ("-n 256", True)):
        web = Web(tmp, hosts=300, pages=4, links=3)
        seeds = [web.url(f"s{i}") for i in range(300)]
        cmd = (f"ulimit {limit} && exec '{CRAWL}' --no-progress -v --dns-server "
               f"127.0.0.1:{web.dns} -w 0 -d 1000 -c 300 --jsonl " + " ".join(seeds))
        p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
        web.stop()
        expect(p.returncode == 0, f"ulimit {limit}: exit status {p.returncode}: {p.stderr[-500:]}")
        notes = [line for line in p.stderr.splitlines() if "this process may open (ulimit -n)" in line]
        expect(len(notes) == int(cut), f"ulimit {limit}: notes of -c cut {notes}")
        refused = [line for line in p.stderr.splitlines() if "Couldn't connect" in line]
        expect(not refused, f"ulimit {limit}: {len(refused)} transfers could not connect: "
               f"{refused[:2]}")
        recs = records(p)
        broken = [r for r in recs if r["fate"] == "failed" and "status" not in r]
        expect(not broken,
               f"ulimit {limit}: {len(broken)} transfers failed without a response: {broken[:2]}")
        expect_same_set([r["url"] for r in recs], web.truth(*seeds), f"ulimit {limit}: records")
    # 64 shards in 128 descriptors cannot even open their loops: the error says why
    cmd = f"ulimit -n 128 && exec '{BUILT_CRAWL}' --no-progress -j 64 -w 0 http://127.0.0.1:9/"
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 1 and "cannot start: Too many open files (ulimit -n" in p.stderr,
           f"-j 64 in 128 descriptors: exit status {p.returncode}: {p.stderr[-300:]}")


def counting_handler(state, lock):
    """A handler class (HTTP/1.1 kept alive) that counts in state, under lock, the connections
    open ("open"), the most open at once ("most") and all it was handed ("connections")."""
    from http.server import BaseHTTPRequestHandler

    class Counting(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self):
            super().setup()
            with lock:
                state["open"] += 1
                state["connections"] += 1
                state["most"] = max(state["most"], state["open"])

        def finish(self):
            with lock:
                state["open"] -= 1
            super().finish()

        def log_message(self, *args):
            pass
    return Counting


def case_no_lingering_past_the_descriptors(tmp):
    """A server slow to close: it answers a request that said `Connection: close` and then waits
    for the crawl to close the connection. crawl keeps such a socket open a while for the
    server's close (doc/design.md, Connections), but only in descriptors it has to spare: under a
    hard limit of 256 that -c 300 does not fit in, -c comes down (a note gives the number) and
    none are left over, so each such connection is closed at once. The server counts the
    connections open at once: at most the cut -c in flight and 16 kept idle for each shard, with
    a few more for the server's own lag in seeing a close; a crawl that kept 32 lingering each
    shard as well goes past that (and at -j 4 out of descriptors). Every page is fetched, and no
    transfer fails to connect."""
    hosts = [f"h{i}.slow.test" for i in range(300)]
    state = {"open": 0, "most": 0, "connections": 0}
    lock = threading.Lock()

    class Handler(counting_handler(state, lock)):
        def do_GET(self):
            said_close = (self.headers.get("Connection") or "").lower() == "close"
            if self.path == "/robots.txt":
                answer(self, b"User-agent: *\nDisallow:\n", "text/plain")
            else:
                answer(self, b"<html><body><p>a page</p></body></html>", "text/html")
            if said_close:
                # slow to close: the crawl's close (or a stop far beyond any crawl) ends it
                self.wfile.flush()
                self.connection.settimeout(60)
                try:
                    while self.connection.recv(4096):
                        pass
                except OSError:
                    pass

    server, port = serve_threaded(Handler)
    try:
        resolves = [a for h in hosts for a in ("--resolve", f"{h}:{port}:127.0.0.1")]
        seeds = [f"http://{h}:{port}/" for h in hosts]
        cmd = ["bash", "-c", 'ulimit -n 256 && exec "$@"', "crawl", CRAWL, "--no-progress", "-v",
               "--jsonl", "-w", "0", "-d", "1000", "-c", "300", *resolves, *seeds]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    finally:
        server.shutdown()
    expect(p.returncode == 0, f"exit status {p.returncode}: {p.stderr[-500:]}")
    cut = re.findall(r"this process may open \(ulimit -n\): -c (\d+) instead", p.stderr)
    expect(len(cut) == 1, f"no note of -c cut: {p.stderr[-300:]}")
    refused = [line for line in p.stderr.splitlines() if "Couldn't connect" in line]
    expect(not refused, f"{len(refused)} transfers could not connect: {refused[:2]}")
    expect_same_set([r["url"] for r in records(p) if r["fate"] == "fetched"], seeds,
                    "fetched pages")
    shards = int(os.environ.get("CRAWL_TEST_THREADS", "1"))
    bound = int(cut[0]) + 16 * shards
    expect(state["most"] <= bound + 8,
           f"{state['most']} connections open at once, where -c {cut[0]} and {shards} shards "
           f"keep at most {bound}: sockets lingered past the descriptors")


def case_broad_crawl_keeps_few_connections(tmp):
    """300 hosts at -c 2, each host's root linking to two pages of its own and to the next two
    hosts; a threaded server counts connections, those open at once at their most, and requests.
    - Crawled from the first host at -w 0: each host's requests (robots.txt, its root, its two
      pages) share one connection (fewer connections than 0.4 of the requests: closing a host's
      connection after its first page, or after every request, fails). Every host is reached
      through --resolve alone, and there are more than the engine keeps in curl's DNS cache (it
      takes the oldest back): a host curl had to look up itself would fail, so every page is
      fetched, each once. A request after which the crawl closes its connection says so
      (`Connection: close`, so that the server closes first and keeps the closed connection's
      TIME_WAIT): almost every connection ends with such a request, where curl would otherwise
      have closed it unannounced after every host's last page; none says it twice.
    - `-H 'Connection: keep-alive'` is the user's to say: every request carries that one
      Connection header, the crawl's own left out.
    - Every host a seed at -w 0.2, so the crawl goes round them all and each waits with more
      queued: the connections kept idle for their next requests stay within the engine's bound
      (doc/design.md, Connections: four per transfer in flight and 64, here 72, with the two in
      flight), not one for each of the 300 hosts, and every page is fetched."""
    hosts = [f"h{i}.broad.test" for i in range(300)]
    state = {}
    lock = threading.Lock()

    class Handler(counting_handler(state, lock)):
        def finish(self):
            with lock:
                # the client closed it after a request that did not say it would
                state["unannounced"] += not getattr(self, "said_close", False)
            super().finish()

        def do_GET(self):
            host = self.headers.get("Host", "").split(":")[0]
            said = self.headers.get_all("Connection") or []
            self.said_close = said == ["close"]
            with lock:
                state["requests"][(host, self.path)] += 1
                state["said"][tuple(said)] += 1
            if self.path == "/robots.txt":
                answer(self, b"User-agent: *\nDisallow:\n", "text/plain")
                return
            i = hosts.index(host)
            if self.path == "/":
                links = ["/a", "/b"] + [f"http://{hosts[(i + k) % len(hosts)]}:{port}/"
                                        for k in (1, 2)]
                body = "".join(f'<a href="{u}">x</a>' for u in links)
            else:
                body = "<p>a page</p>"
            answer(self, f"<html><body>{body}</body></html>".encode(), "text/html")

    def crawl(delay, seeds, more=()):
        with lock:
            state.update(open=0, most=0, connections=0, requests=Counter(), said=Counter(),
                         unannounced=0)
        resolves = [a for h in hosts for a in ("--resolve", f"{h}:{port}:127.0.0.1")]
        p = subprocess.run([CRAWL, "--no-progress", "--jsonl", "-w", delay, "-d", "1000",
                            "-c", "2", *more, *resolves, *seeds], capture_output=True,
                           text=True, timeout=300)
        expect(p.returncode == 0, f"-w {delay}: exit {p.returncode}: {p.stderr[-300:]}")
        want = [f"http://{h}:{port}{path}" for h in hosts for path in ("/", "/a", "/b")]
        expect_same_set([r["url"] for r in records(p) if r["fate"] == "fetched"], want,
                        f"-w {delay}: fetched pages")
        asked = state["requests"]
        expect(len(asked) == 4 * len(hosts) and max(asked.values()) == 1,
               f"-w {delay}: {len(asked)} distinct requests, the most asked "
               f"{max(asked.values())} times")
        return state["connections"], sum(asked.values()), state["most"]

    server, port = serve_threaded(Handler)
    try:
        connections, requests, _ = crawl("0", [f"http://{hosts[0]}:{port}/"])
        expect(connections < 0.4 * requests, f"{connections} connections for {requests} "
               "requests: a host's requests did not share one")
        said = dict(state["said"])
        expect(set(said) <= {(), ("close",)} and said.get(("close",), 0) >= len(hosts),
               f"Connection headers sent (their values: requests): {said}")
        expect(state["unannounced"] <= connections // 20,
               f"{state['unannounced']} of {connections} connections closed by the crawl after "
               "a request that did not say Connection: close")
        crawl("0", [f"http://{hosts[0]}:{port}/"], ["-H", "Connection: keep-alive"])
        said = dict(state["said"])
        expect(set(said) == {("keep-alive",)},
               f"with -H 'Connection: keep-alive', Connection headers sent: {said}")
        _, _, most = crawl("0.2", [f"http://{h}:{port}/" for h in hosts])
        expect(most <= 72 + 2 + 4,
               f"{most} connections open at once: idle ones were kept past the bound")
    finally:
        server.shutdown()


def case_pacing(tmp):
    """--rate, --random-wait, --max-time and durations with units, timed from the server's side.
    - -w 100ms keeps 0.1 s between the requests to a host; a duration that is none (5x, 0 for
      --max-time) is a usage error.
    - -w 0.002m (0.12 s, minutes): no gap under 0.115 s, and the median under 0.2 s.
    - --random-wait with -w 200ms over 40 gaps: none under 0.1 s, at most 3 over 0.32 s (draws
      are from 0.1 to 0.3 s; a loaded machine lengthens a few gaps, as it did one to 0.417 s,
      so no single gap bounds them; draws up to 0.36 s make some 6 of them longer), their
      mean from 0.165 to 0.245 s (0.2 s, four standard deviations of 40 uniform draws either
      side); both upper bounds grow by what the machine added to the -w 0.002m gaps' median just
      before, so a loaded machine does not fail them; and at least 4 under 0.17 s (of 40
      uniform draws, 14 are expected; fewer than 4 come once in 16,000 runs): without the
      draws no gap is under 0.2 s, however fast or loaded the machine, where the mean alone
      would pass.
    - --rate 20 over six hosts at -w 0: no second of the crawl holds more than 20 request
      starts (one more for the server's own timing), and the whole takes at least what the rate
      allows and at most half as long again and a second (a slower rate fails).
    - --max-time 1s on a crawl of some 4 s: it ends in time with exit 0, what it had queued
      `pending`: the server sees its requests within 1 s of the first (and half a second for
      its own stamps), whatever the machine's speed; so does --max-time 0.0003h (1.08 s, hours),
      which ends after 1 s;
      with --state, `crawl --state DIR` again and again (each run 1 s) ends with the truth,
      each URL once."""
    chain = [f"/c{i}.html" for i in range(12)]
    longer = [f"/c{i}.html" for i in range(40)]  # for the random gaps' mean
    hosts = [f"h{i}.pace.test" for i in range(6)]

    def respond(host, path, headers):
        if path == "/":
            return 200, {}, "".join(f'<a href="{p}">x</a>' for p in
                                    (longer if host == hosts[1] else chain))
        if path in longer:
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
        since = time.monotonic()
        site.crawl("-w", "0.002m", site.url(hosts[2]))
        gaps = sorted(gaps_of(hosts[2], since))
        expect(len(gaps) == len(chain) + 1 and gaps[0] >= 0.115 and gaps[len(gaps) // 2] < 0.2,
               f"-w 0.002m: gaps {[round(g, 3) for g in gaps]}")
        # what this machine, as loaded as it is now, adds to a gap: the upper bounds below allow it
        late = max(0.0, gaps[len(gaps) // 2] - 0.12)
        for bad, named in ((["-w", "5x"], "--delay"), (["--max-time", "0"], "--max-time"),
                           (["--rate", "0"], "--rate"), (["--timeout", "-1s"], "--timeout")):
            p = site.crawl(*bad, site.url(hosts[0]), check=False)
            expect(p.returncode == 2 and named in p.stderr, f"{bad}: exit {p.returncode}, "
                   f"{p.stderr[:200]!r}")

        since = time.monotonic()
        site.crawl("-w", "200ms", "--random-wait", site.url(hosts[1]))
        gaps = gaps_of(hosts[1], since)
        mean = sum(gaps) / max(len(gaps), 1)
        short = sum(1 for g in gaps if g < 0.17)
        long = sum(1 for g in gaps if g > 0.32 + late)
        expect(len(gaps) == len(longer) + 1 and min(gaps) >= 0.095 and long <= 3 and
               0.165 <= mean <= 0.245 + late and short >= 4,
               f"--random-wait: mean {mean:.3f}, {short} under 0.17 s, {long} over 0.32 s "
               f"(+{late:.3f} s late), "
               f"gaps {[round(g, 3) for g in gaps]}")

        since = time.monotonic()
        p = site.crawl("-w", "0", "--rate", "20", "-c", "16", *[site.url(h) for h in hosts])
        got = starts(None, since)
        expect(len(got) == (len(hosts) - 1) * (len(chain) + 2) + len(longer) + 2,
               f"--rate: {len(got)} requests")
        busiest = max(sum(1 for t in got if a <= t < a + 1.0) for a in got)
        expect(busiest <= 21, f"--rate 20: {busiest} requests started within one second")
        least = (len(got) - 1) / 20
        expect(least * 0.9 <= got[-1] - got[0] <= least * 1.5 + 1,
               f"--rate 20: {len(got)} requests in {got[-1] - got[0]:.2f} s")
    finally:
        site.stop()

    web = Web(tmp, hosts=1, pages=40, links=4, seed=9)
    truth = web.truth(web.url())

    def request_span(since):
        """From the first request the server logged after since to the last: the crawl's time
        limit counts from its start, which comes before its first request, so a crawl that
        keeps it asks nothing later than the limit after that request, however slowly the
        machine starts it or lets it exit (a request's line may come a moment after the crawl
        exits: the span can only be shorter for it)."""
        with open(web.log_path) as f:
            starts = [float(line.split()[0]) for line in f if line.endswith("\n")]
        starts = [t for t in starts if t >= since]
        return max(starts) - min(starts) if starts else 0.0

    started = time.monotonic()
    p = crawl(web, "-w", "0.1", "-d", "1000", "--jsonl", "--max-time", "1s", web.url())
    span = request_span(started)
    recs = records(p)
    fates = Counter(r["fate"] for r in recs)
    # half a second for the server's own stamps; a crawl to its end asks for some 4 s
    expect(p.returncode == 0 and span <= 1.5 and fates["pending"] > 0 and
           "--max-time" in p.stderr,
           f"--max-time 1s: exit {p.returncode}, requests over {span:.2f} s, fates {dict(fates)}")
    expect_unique([r["url"] for r in recs], "--max-time: record")
    expect(all(r["url"] in truth for r in recs), "--max-time: a record off the truth")
    started = time.monotonic()
    p = crawl(web, "-w", "0.1", "-d", "1000", "--jsonl", "--max-time", "0.0003h", web.url())
    took, span = time.monotonic() - started, request_span(started)
    fates = Counter(r["fate"] for r in records(p))
    expect(p.returncode == 0 and took >= 1.0 and span <= 1.58 and fates["pending"] > 0,
           f"--max-time 0.0003h: exit {p.returncode} after {took:.1f} s, requests over "
           f"{span:.2f} s, fates {dict(fates)}")
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


def case_every_status_class(tmp):
    """Each class of HTTP status, where a status matters: a page, a page retried, robots.txt.
    Pages: 400, 401 and 404 fail at once (one request each, the status in the record); 408, 429,
    500, 502, 503 and 504 are transient: retried --retries times (3 requests) and then failed, or
    fetched when the server recovers (2 requests). robots.txt: 400 and 401 allow everything (RFC 9309 2.3.1.3);
    429, 500 and 502 make the host unreachable (2.3.1.4; 429 is the server asking for less, as
    Google reads it): retried, then the host's pages fail naming robots.txt and its status, never
    requested, or fetched when robots.txt recovers. A record's time is when its fate was
    settled: not before the last request it took (robots.txt's, for a host it failed), and for a
    page that failed at once, before the last retry of another (its record is written at the
    crawl's end, with the time it failed)."""
    transient = (408, 429, 500, 502, 503, 504)
    pages = {"/s400": 400, "/s401": 401, "/s404": 404, "/r408": 408, "/r429": 429, "/r500": 500,
             "/r502": 502, **{f"/s{status}": status for status in transient}}
    robots = {"rob400": 400, "rob401": 401, "rob429": 429, "rob500": 500, "rob502": 502,
              "rec429": 429, "rec502": 502}
    hosts = ["pages.test"] + [f"{h}.test" for h in robots]
    asked, stamps = Counter(), {}

    def respond(h, path, headers):
        name = h.split(".")[0]
        with site.lock:
            asked[(name, path)] += 1
            times = asked[(name, path)]
            stamps.setdefault((name, path), []).append(time.time())
        wait = {"Retry-After": "0"}
        if path == "/robots.txt":
            if name in robots and not (name.startswith("rec") and times > 1):
                return robots[name], (wait if robots[name] == 429 else {}), "no"
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        if name == "pages" and path == "/":
            return 200, {}, html_links(*pages)
        if path in pages and not (path.startswith("/r") and times > 1):
            return pages[path], (wait if pages[path] == 429 else {}), "no"
        return 200, {}, "<p>fine</p>"

    site = Site(hosts, respond)
    try:
        p = site.crawl("-w", "0", "-d", "1", "--retries", "2", "--max-delay", "1", "--jsonl",
                       *(site.url(h) for h in hosts), check=False, timeout=90)
        ended = time.time()
    finally:
        site.stop()
    recs = {r["url"]: r for r in records(p)}

    def settled(r, name, path):
        at = record_time(r)
        last = stamps[(name, path)][-1]
        expect(last - 0.002 <= at <= ended, f"{r['url']}: time {r['time']}, its last request "
               f"({path}) at {datetime.datetime.utcfromtimestamp(last).isoformat()}")
    for path, status in pages.items():
        r = recs[site.url("pages.test", path)]
        tries = asked[("pages", path)]
        settled(r, "pages", path)
        if path.startswith("/r"):
            expect(r["fate"] == "fetched" and r["status"] == 200 and tries == 2,
                   f"{path}, {status} once: {r}, {tries} requests")
        elif status in transient:
            expect(r["fate"] == "failed" and r["status"] == status and
                   r["error"] == f"HTTP {status}" and tries == 3,
                   f"{path}, {status} for good: {r}, {tries} requests")
        else:
            expect(r["fate"] == "failed" and r["status"] == status and
                   r["error"] == f"HTTP {status}" and tries == 1,
                   f"{path}, {status}: {r}, {tries} requests")
            expect(record_time(r) < stamps[("pages", "/s500")][-1],
                   f"{path}: time {r['time']}, after /s500's last retry: the time it was written")
    for name, status in robots.items():
        r = recs[site.url(f"{name}.test")]
        tries = asked[(name, "/robots.txt")]
        settled(r, name, "/robots.txt")
        if status in (400, 401) or name.startswith("rec"):
            expect(r["fate"] == "fetched" and asked[(name, "/")] == 1 and
                   tries == (2 if name.startswith("rec") else 1),
                   f"robots.txt {status} ({name}): {r}, {tries} requests of robots.txt")
        else:
            expect(r["fate"] == "failed" and r["error"] == f"robots.txt: HTTP {status}" and
                   asked[(name, "/")] == 0 and tries == 3,
                   f"robots.txt {status} for good ({name}): {r}, {tries} requests of robots.txt")
