"""Integration cases: robots.txt: unavailable, redirected, ignored, its rules through a crawl, fetched again a day later."""
import glob
import threading

from harness import *  # noqa: F401,F403 (the shared harness)


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
                     "error": "robots.txt: HTTP 503", "linked_from": [],
                     "linked_from_count": 0}], f"{recs}")
    expect([r[3] for r in log] == ["/robots.txt", "/robots.txt"], f"requests {log}")
    expect("1 failed (1 http), 0 robots exclusions" in p.stderr, f"summary: {p.stderr}")


def case_robots_redirect_chains(tmp):
    """robots.txt reached through redirects (RFC 9309 2.3.1.2: at least five followed): after 5
    hops its rules hold (a disallowed page is `robots`, an allowed one fetched); a sixth hop is
    too many, and the host's pages are `failed`, "robots.txt: too many redirects", none asked
    for. A page served as application/xhtml+xml is HTML: its links are followed."""
    def respond(host, path, headers):
        hops = 5 if host == "five.test" else 6
        if path == "/robots.txt":
            return 301, {"Location": "/hop1"}, ""
        if path.startswith("/hop"):
            n = int(path[4:])
            if n < hops:
                return 301, {"Location": f"/hop{n + 1}"}, ""
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow: /private\n"
        if path == "/":
            return 200, {"Content-Type": "application/xhtml+xml"}, (
                '<html xmlns="http://www.w3.org/1999/xhtml"><body>'
                '<a href="/private/x">p</a><a href="/open">o</a></body></html>')
        if path == "/open":
            return 200, {}, "<p>open</p>"
        return None

    site = Site(["five.test", "six.test"], respond)
    try:
        five, six = site.url("five.test"), site.url("six.test")
        p = site.crawl("-w", "0", "--retries", "0", "--jsonl", five, six, check=False)
        fates = {r["url"]: (r["fate"], r.get("error")) for r in records(p)}
        expect(fates.get(site.url("five.test", "/open"), ("",))[0] == "fetched" and
               fates.get(site.url("five.test", "/private/x"), ("",))[0] == "robots" and
               fates.get(five, ("",))[0] == "fetched", f"five hops: {fates}")
        expect(fates.get(six) == ("failed", "robots.txt: too many redirects"),
               f"six hops: {fates.get(six)}")
        asked = site.paths("six.test")
        expect(asked == ["/robots.txt"] + [f"/hop{n}" for n in range(1, 6)],
               f"six.test was asked {asked}")
        expect(p.returncode == 0, f"exit {p.returncode} (one seed was fetched): {p.stderr}")
    finally:
        site.stop()


def case_no_robots(tmp):
    """--no-robots: the printed set is the truth without robots.txt, the disallowed paths are
    fetched, and robots.txt is never asked for."""
    web = Web(tmp, hosts=2, pages=40)
    p = crawl(web, "-w", "0", "-d", "1000", "--no-robots", web.url())
    log = web.stop()
    expect_same_set(lines(p), web.truth(web.url(), robots=False), "--no-robots")
    expect([r for r in log if r[3].startswith("/private/")], "disallowed paths not fetched")
    expect(not [r for r in log if r[3] == "/robots.txt"], "robots.txt fetched with --no-robots")


def case_robots_rules_through_crawl(tmp):
    """robots.txt rules as a crawl applies them: Allow against Disallow by the longest match
    (Allow on a tie), * and $ in paths, and the group chosen by -U's product token (a group
    naming it replaces *, whatever the case and version). A seed under a disallowed path is not
    fetched either: it gets fate robots and the server never sees a request for it. A link the
    rules at hand exclude is settled when found (without --jsonl): a polite crawl whose last page
    links only such paths ends with that page, not a delay later."""
    host = "rules.test"
    closed = [path for path, fate in ROBOTS_FATES.items() if fate == "robots"]

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, ROBOTS_RULES
        if path == "/":
            return 200, {}, html_links(*ROBOTS_FATES)
        if path == "/closed-only.html":
            return 200, {}, html_links(*closed)
        if path == "/order.html":
            return 200, {}, html_links("/mid.html", "/hop")
        if path == "/mid.html":
            return 200, {}, html_links("/a/closed.html")
        if path == "/hop":
            return 301, {"Location": "/a/closed.html"}, ""
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
        # -w 1.5: the page at 1.5 s, and its excluded links settled with it (without --jsonl,
        # whose records keep them queued for the depth a redirect may give them)
        since = time.monotonic()
        p = site.crawl("-w", "1.5", site.url(host, "/closed-only.html"))
        ended = time.monotonic()
        want = [site.url(host, path) for path in ["/closed-only.html", *closed]]
        expect(sorted(p.stdout.split()) == sorted(want), f"-w 1.5, excluded links: {p.stdout}")
        with site.lock:
            page_end = max(r[1] for r in site.log if r[0] >= since)
        expect(sorted(site.paths(since=since)) == ["/closed-only.html", "/robots.txt"],
               f"-w 1.5, excluded links: requests {site.paths(since=since)}")
        expect(ended - page_end < 1.0, f"-w 1.5: the crawl ended {ended - page_end:.2f} s after "
                                       "its last request, waiting on links it would not fetch")
        # with --jsonl an excluded link waits in its queue, where a redirect of the level above
        # (/hop, depth 1, fetched after /mid.html) still gives it depth 1: /mid.html linked it at 2
        p = site.crawl("-w", "0", "--jsonl", site.url(host, "/order.html"))
        got = {r["url"]: (r["fate"], r["depth"]) for r in records(p)}
        expect(got.get(site.url(host, "/a/closed.html")) == ("robots", 1),
               f"--jsonl: an excluded redirect target's record: {got}")
    finally:
        site.stop()


# Debian's libfaketime, under its architecture's multiarch directory
FAKETIME = next(iter(sorted(glob.glob("/usr/lib/*/faketime/libfaketimeMT.so.1"))),
                "/usr/lib/<arch>/faketime/libfaketimeMT.so.1")


def case_robots_fetched_again_a_day_later(tmp):
    """A robots.txt serves 24 hours (RFC 9309, 2.4): a crawl whose clock passes that fetches it
    again before the host's next page, and follows the new rules from then on; within the day it
    is fetched once. crawl runs under libfaketime, whose clock (the monotonic one too) the server
    moves 25 hours on while crawl waits out the delay after a chosen page: nothing is in flight
    then. The rules before the jump exclude /before/, the rules after it /after/; where the
    robots.txt is gone after the jump (404), nothing is excluded from then on."""
    if not os.path.exists(FAKETIME):
        raise AssertionError(f"{FAKETIME} is missing: scripts/install-deps.sh --tests installs "
                             "faketime")
    host, pages, jump_after = "clock.test", 6, 2
    clock = os.path.join(tmp, "faketime")
    jumped = []  # the server's time of the jump, once made

    def move_clock():
        with open(clock, "w") as f:
            f.write("+25h\n")
        jumped.append(time.monotonic())

    def respond(h, path, headers):
        if path == "/robots.txt":
            if jumped and moves == "gone":
                return 404, {"Content-Type": "text/plain"}, "gone"
            return 200, {"Content-Type": "text/plain"}, (
                "User-agent: *\nDisallow: /after/\n" if jumped else
                "User-agent: *\nDisallow: /before/\n")
        m = re.fullmatch(r"/p/(\d+)\.html", path)
        if m and int(m.group(1)) < pages:
            i = int(m.group(1))
            if i == jump_after and moves:
                threading.Timer(0.1, move_clock).start()  # early in the 0.5 s crawl then waits
            onward = [f"/p/{i + 1}.html"] if i + 1 < pages else []
            return 200, {}, html_links(*onward, f"/before/{i}.html", f"/after/{i}.html")
        if path.startswith(("/before/", "/after/")):
            return 200, {}, "<html><body>leaf</body></html>"
        return None

    env = dict(os.environ, LD_PRELOAD=FAKETIME, FAKETIME_TIMESTAMP_FILE=clock,
               FAKETIME_NO_CACHE="1",
               # a sanitizer's runtime wants to come first among the libraries: it still does
               # all it does after the preloaded one
               ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")
    site = Site([host], respond)
    try:
        for moves in (False, True, "gone"):
            with open(clock, "w") as f:
                f.write("+0\n")
            jumped.clear()
            since = time.monotonic()
            site.crawl("-w", "0.5", "-d", "20", site.url(host, "/p/0.html"), env=env)
            with site.lock:
                log = sorted((r[0], r[3]) for r in site.log if r[0] >= since)
            robots = [t for t, path in log if path == "/robots.txt"]
            chain = [path for _, path in log if path.startswith("/p/")]
            expect(chain == [f"/p/{i}.html" for i in range(pages)],
                   f"moved {moves}: the pages, each once and in order: {chain}")
            if not moves:  # within the day: once, and /before/ is never asked for
                expect(len(robots) == 1, f"unmoved: robots.txt fetched {len(robots)} times")
                expect(not [p for _, p in log if p.startswith("/before/")],
                       f"unmoved: /before/ fetched: {log}")
                continue
            expect(jumped and len(robots) == 2 and robots[1] > jumped[0],
                   f"moved: robots.txt fetched at {[round(t - since, 2) for t in robots]}, the "
                   f"clock moved at {[round(t - since, 2) for t in jumped]}")
            before = [p for t, p in log if p.startswith("/before/")]
            after_late = [p for t, p in log if p.startswith("/after/") and t > robots[1]]
            early = [p for t, p in log if p.startswith("/before/") and t < robots[1]]
            expect(not early and (moves == "gone" or not after_late),
                   f"moved: each rule set obeyed in its time: {log}")
            # the pages found after the jump link /before/ pages the new rules let in
            expect(sorted(before) == [f"/before/{i}.html" for i in range(jump_after + 1, pages)],
                   f"moved {moves}: /before/ pages fetched: {before}")
    finally:
        site.stop()
