"""Integration cases: Depth: breadth-first depths across hosts and shards, fetching ahead, redirects at the limit, -n."""
from harness import *  # noqa: F401,F403 (the shared harness)


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


def case_shards_share_hosts(tmp):
    """The hosts a crawl meets are spread over its shards as they come, each to the shard that
    holds fewest: over 8 hosts -j 4 gives each shard 2 and -j 3 gives 3, 3 and 2 (-v says so at
    the end, one line a shard), and the shards' pages add up to the crawl's. So do 120 hosts,
    given as seeds, over -j 4: 30 each (the first 192 hosts a run meets are spread so; past them
    a host goes where its name's hash says). One shard has nothing spread: -j 1 gives no such
    line."""
    for threads, hosts, want in (("4", 8, [2, 2, 2, 2]), ("3", 8, [2, 3, 3]),
                                 ("4", 120, [30, 30, 30, 30]), ("1", 8, [])):
        web = Web(tmp, hosts=hosts, pages=20 if hosts < 100 else 2, seed=7)
        seeds = [web.url()] if hosts < 100 else [web.url(f"s{i}") for i in range(hosts)]
        p = crawl(web, "-j", threads, "-v", "-w", "0", "-d", "1000", *seeds)
        web.stop()
        shards = [tuple(map(int, m)) for m in
                  re.findall(r"^crawl: shard \d+ of \d+: (\d+) pages of (\d+) hosts$", p.stderr,
                             re.M)]
        total = re.search(r"^crawl: (\d+) pages fetched", p.stderr, re.M)
        expect(sorted(h for _, h in shards) == want, f"-j {threads}: hosts by shard {shards}")
        expect(total and (not want or sum(n for n, _ in shards) == int(total.group(1))),
               f"-j {threads}: shards' pages {shards}, the crawl's {total and total.group(1)}")


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


def case_speculative_fetches(tmp):
    """A polite crawl fetches pages ahead of their level before their depth is known, so hosts do
    not wait for the slowest one at every depth; still every URL's fate and depth are the
    breadth-first truth's, with -d and without, no page is fetched twice and none that the truth
    does not fetch, and no request comes closer than the delay. Also with a --queue-memory so
    small that fetching ahead keeps reaching its budget (speculative pages under twice it, their
    links within twenty times it), stops, and starts again once confirmations free it; the summary
    says how often it stopped and names --queue-memory, and says nothing of it at the default
    budget."""
    for depth, budget in ((None, []), (3, []), (None, ["--queue-memory", "50"])):
        web = Web(tmp, hosts=12, pages=40, links=6, seed=7)
        args = ["-w", "0.02", "--jsonl", *budget] + (["-d", str(depth)] if depth else ["-d", "1000"])
        p = crawl(web, *args, web.url())
        log = web.stop()
        truth = web.truth(web.url(), depth=depth) if depth else web.truth(web.url())
        recs = records(p)
        expect_unique([r["url"] for r in recs], f"-d {depth}: record")
        expect_truth(recs, truth, f"-d {depth}")
        m = re.search(r"(\d+) pages fetched ahead of their level", p.stderr)
        expect(m and int(m.group(1)) > 0, f"-d {depth}: nothing was fetched ahead: {p.stderr}")
        # the summary says when the budget stopped it, and names the option that raises it
        m = re.search(r"fetching ahead of the level being finished stopped (\d+) times.*"
                      r"a larger --queue-memory raises it", p.stderr)
        expect(bool(m) == bool(budget), f"-d {depth} {budget}: the budget's note: {p.stderr}")
        fetched = Counter(f"http://{h}:{web.port}{path}" for _, _, h, path, _ in log
                          if path != "/robots.txt")
        twice = [u for u, n in fetched.items() if n > 1]
        expect(not twice, f"-d {depth}: fetched twice: {twice[:5]}")
        fetched_fates = {"fetched", "failed"}
        extra = [u for u in fetched if truth.get(u, ("none", 0))[0] not in fetched_fates]
        expect(not extra, f"-d {depth}: fetched, though the truth does not: {extra[:5]}")
        close = [g for host_gaps in gaps(log).values() for g in host_gaps if g < 0.02]
        expect(not close, f"-d {depth}: {len(close)} gaps under the delay")


def case_held_links_once(tmp):
    """Pages that share most of their links (30 a page on 6 hosts) hold each URL once while
    they wait for their level, so a --queue-memory that the distinct URLs fit in (200, which
    all the links held would pass) never stops fetching ahead, with speculative pages and with
    --state (none); every URL's fate and depth are still the breadth-first truth's. One shard
    (-j 1 given last wins): the budget is split among shards, and hosts among them unevenly."""
    for mode in ("speculative", "state"):
        web = Web(tmp, hosts=6, pages=40, links=30, seed=5)
        state = ["--state", os.path.join(tmp, "held-state")] if mode == "state" else []
        p = crawl(web, "-j", "1", "-w", "0.02", "-d", "1000", "--jsonl", "--queue-memory", "200",
                  *state, web.url())
        web.stop()
        truth = web.truth(web.url())
        recs = records(p)
        expect_truth(recs, truth, mode)
        expect("fetching ahead of the level being finished stopped" not in p.stderr,
               f"{mode}: the held links reached the budget: {p.stderr[-600:]}")


def case_links_fetched_ahead_wait_on_disk(tmp):
    """Pages fetched ahead wait until their level comes (outcome, links and, once confirmed,
    record) in a temporary file in $TMPDIR (seen open while the crawl runs, gone after it), and
    every URL's record is still the breadth-first truth's fate and depth, with the status, type,
    bytes, location and error a crawl with no delay (which fetches nothing ahead) reports. With no
    temporary file to be had, they wait in memory: the crawl says so once and its records are the
    same."""
    fields = ("status", "type", "bytes", "location", "error")
    def portless(text):
        return re.sub(r"(//[^/:]+):\d+", r"\1", text)
    for mode in ("file", "no file"):
        web = Web(tmp, hosts=6, pages=40, links=30, seed=5)
        stash_dir = os.path.join(tmp, "stash" if mode == "file" else "missing")
        if mode == "file":
            os.mkdir(stash_dir)
        cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.02",
               "-d", "1000", "--jsonl", web.url()]
        out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
        with open(out, "w") as o, open(err, "w") as e:
            proc = subprocess.Popen(cmd, stdout=o, stderr=e, env=dict(os.environ, TMPDIR=stash_dir))
            seen_open = False
            while proc.poll() is None:
                try:
                    fds = os.listdir(f"/proc/{proc.pid}/fd")
                    seen_open |= any("crawl-ahead-" in os.readlink(f"/proc/{proc.pid}/fd/{fd}")
                                     for fd in fds)
                except OSError:
                    pass  # it ended meanwhile, or a descriptor closed while read
                time.sleep(0.005)
        if mode == "file":
            plain = {portless(r["url"]): tuple(portless(str(r.get(k))) for k in fields)
                     for r in records(crawl(web, "-w", "0", "-d", "1000", "--jsonl", web.url()))}
        web.stop()
        with open(out) as o, open(err) as e:
            p = subprocess.CompletedProcess(cmd, proc.returncode, o.read(), e.read())
        expect(p.returncode == 0, f"{mode}: exit {p.returncode}: {p.stderr[-600:]}")
        truth = web.truth(web.url())
        recs = records(p)
        expect_truth(recs, truth, mode)
        got = {portless(r["url"]): tuple(portless(str(r.get(k))) for k in fields) for r in recs}
        off = [(u, o, plain.get(u)) for u, o in got.items() if o != plain.get(u)]
        expect(not off, f"{mode}: status, type, bytes, location or error off: {off[:5]}")
        expect(re.search(r"[1-9]\d* pages fetched ahead of their level", p.stderr),
               f"{mode}: nothing was fetched ahead: {p.stderr[-600:]}")
        said = p.stderr.count("no room for pages fetched ahead in a temporary file")
        if mode == "file":
            expect(seen_open, "the links of pages fetched ahead never went to a temporary file")
            expect(os.listdir(stash_dir) == [], f"left behind: {os.listdir(stash_dir)}")
            expect(said == 0, f"file: {p.stderr[-600:]}")
        else:
            expect(not seen_open, "a temporary file in a missing directory")
            expect(said == 1 and "missing (No such file or directory): what they keep for their "
                   "confirmation stays in memory" in p.stderr,
                   f"no file, said once: {p.stderr[-600:]}")


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


def case_redirect_reaches_a_page_fetched_ahead(tmp):
    """A redirect of one level whose target, on another host, a link of that same level found
    first (one level deeper) and which was fetched ahead of its level meanwhile (a host starts
    the next level's pages while a slow one finishes this one): the target still gets the
    redirect's depth and page, as breadth first does (doc/behaviour.md, Depth), and so do its
    links. Whether the target's answer came before the redirect's (its record waits for its
    level) or comes after (it is lowered in flight); never fetched twice. A link the target
    shares with a page of its first level (c's /q, held first) comes back to the target when
    it moves up, since the target is offered first then."""
    a, b, c = "a.ahead.test", "b.ahead.test", "c.ahead.test"
    slow = {"/r": 1.0}

    def respond(host, path, headers):
        if path == "/robots.txt":
            return None
        if host == a and path == "/":
            return 200, {}, html_links("/r", site.url(b, "/p"))
        if host == a and path == "/r":
            time.sleep(slow["/r"])
            return 301, {"Location": site.url(b, "/x")}, ""
        if host == b and path == "/p":
            return 200, {}, html_links("/x", site.url(c, "/q"))
        if host == c and path == "/q":
            return 200, {}, html_links(site.url(b, "/y"))
        if host == b and path == "/x":
            time.sleep(slow.get("/x", 0))
            return 200, {}, html_links("/y")
        if host == b and path == "/y":
            return 200, {}, html_links()
        return None

    site = Site([a, b, c], respond)
    try:
        # /x answered before /r's redirect comes (after /q: a page of its level held first),
        # and after
        for x_takes in (0.3, 1.5):
            slow["/x"] = x_takes
            since = time.monotonic()
            p = site.crawl("-w", "0.05", "--jsonl", site.url(a))
            got = {r["url"]: r for r in records(p)}
            log = {r[3]: r for r in site.log if r[0] >= since}
            # what the case is about: /x began before the redirect to it was answered
            expect(log["/x"][0] < log["/r"][1], f"/x {x_takes}: /x began after /r ended: {log}")
            expect(log["/q"][1] < log["/x"][1], f"/x {x_takes}: /q ended after /x: {log}")
            x, y = got[site.url(b, "/x")], got[site.url(b, "/y")]
            expect((x["depth"], x["from"], x["via"]) == (1, site.url(a, "/r"), "redirect"),
                   f"/x {x_takes}: the target is {x}")
            expect((y["depth"], y["from"]) == (2, site.url(b, "/x")), f"/x {x_takes}: {y}")
            expect(got[site.url(b, "/p")]["depth"] == 1, f"/x {x_takes}: {got}")
            expect(got[site.url(c, "/q")]["depth"] == 2, f"/x {x_takes}: {got}")
            paths = [r[3] for r in site.log if r[0] >= since and r[3] != "/robots.txt"]
            expect(sorted(paths) == ["/", "/p", "/q", "/r", "/x", "/y"], f"/x {x_takes}: {paths}")
    finally:
        site.stop()
