"""Integration cases: Which links are found, followed, printed or filtered: elements, CSS, scripts, forms, scope (sitemaps are cases_sitemaps.py, link checking cases_checks.py)."""
import urllib.request

from harness import *  # noqa: F401,F403 (the shared harness)


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
    (their fate fetched, a request each) and the PDFs still printed but never requested; with
    `--skip-ext ''` (no list) both are fetched."""
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
    web = Web(tmp, hosts=2, pages=40)  # the same web on another port
    p = crawl(web, "-w", "0", "-d", "1000", "--skip-ext", "", "--jsonl", web.url())
    web.stop()
    recs = {r["url"]: r["fate"] for r in records(p)}
    wrong = [(u, f) for u, f in recs.items() if u.endswith((".png", ".pdf")) and f != "fetched"]
    expect(len([u for u in recs if u.endswith((".png", ".pdf"))]) == len(pngs + pdfs),
           f"--skip-ext '': {len(recs)} records")
    expect(not wrong, f"--skip-ext '': fates {wrong[:5]}")


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


def case_bad_bytes_in_legacy_charsets(tmp):
    """A page in a legacy encoding with a byte sequence it lacks (named by the Content-Type or by
    a <meta>) is decoded on past it, as the Encoding Standard says: the crawl goes on, its links
    after the bad byte are followed, every other page is crawled, and the exit status is 0. A
    windows-1252 page's query bytes 0x81, 0x8D, 0x8F, 0x90 and 0x9D are those bytes, not "&#129;".
    """
    bad = {"shift_jis": b"\x82", "euc-jp": b"\xa4", "gbk": b"\x81", "big5": b"\xa4",
           "euc-kr": b"\xb0", "gb18030": b"\x81\x30"}
    pages = {"/": ("text/html", "".join(f'<a href="/h-{c}.html">h</a><a href="/m-{c}.html">m</a>'
                                        for c in bad) + '<a href="/q.html">q</a>')}
    for charset, byte in bad.items():
        pages[f"/h-{charset}.html"] = (f"text/html; charset={charset}",
                                       b"<p>" + byte + f'</p><a href="/h-{charset}-after.html">'
                                       f'a</a>'.encode())
        pages[f"/m-{charset}.html"] = ("text/html",
                                       f'<html><head><meta charset="{charset}"></head><body>'
                                       f'<p>'.encode() + byte + f'</p><a href="/m-{charset}-1.html">'
                                       f'a</a><p>\xff\xff</p><a href="/m-{charset}-2.html">b'
                                       f'</a>'.encode())
        for after in (f"/h-{charset}-after.html", f"/m-{charset}-1.html", f"/m-{charset}-2.html"):
            pages[after] = ("text/html", "<p>after</p>")
    pages["/q.html"] = ("text/html; charset=windows-1252",
                        b'<a href="/q?x=\x81\x8d\x8f\x90\x9d\x80">q</a>')
    pages["/q?x=%81%8D%8F%90%9D%80"] = ("text/html", "<p>the query</p>")

    site = Site(["a.test"], pages_responder(pages))
    try:
        p = site.crawl("-w", "0", "--jsonl", site.url("a.test"), check=False)
        expect(p.returncode == 0, f"crawl exited {p.returncode}: {p.stderr[-500:]}")
        recs = records(p)
        want = {site.url("a.test", path) for path in pages}
        expect_same_set([r["url"] for r in recs], want, "pages with bad bytes")
        expect(all(r["fate"] == "fetched" and r["status"] == 200 for r in recs),
               f"not all fetched: {[r for r in recs if r['fate'] != 'fetched']}")
    finally:
        site.stop()


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


def case_query_trap_of_many_paths(tmp):
    """A spider trap of 20 pages, each growing its own path one segment deeper with its query
    carried along, and the next day (?day=N+1): ten grow by a pair of segments (/a/b/a/b, up to
    --max-path-repeat), ten by ever new ones (up to --max-path-segments). At the defaults and
    -d inf the crawl ends by itself under 20,000 requests (1,000 query strings a path would make
    over 100,000), -v says why, and every page the seed links is fetched. Past 20,000 requests
    the server answers pages without links, so a crawl that misses the trap ends too, and fails.
    A second host holds two paths whose pages link each other's next query (/p?n=N to
    /q?n=N+1 and back), which --max-query-variants counts as one chain: 1,000 pages and it
    ends."""
    host, loop = "trap.test", "loop.test"
    served, looped = [], []

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        if h.startswith(loop):
            looped.append(path)
            if path == "/":
                return 200, {}, html_links("/p?n=0")
            where, _, query = path.partition("?")
            if len(looped) > 5000:
                return 200, {}, "<p>no more</p>"
            other = "/q" if where == "/p" else "/p"
            return 200, {}, html_links(f"{other}?n={int(query[2:]) + 1}")
        served.append(path)
        if path == "/":
            return 200, {}, html_links(*(f"/r{k}?day=0" for k in range(20)))
        if len(served) > 20000:
            return 200, {}, "<p>no more</p>"
        where, _, query = path.partition("?")
        day = int(query[4:])
        segments = where.strip("/").split("/")
        if int(segments[0][1:]) < 10:
            deeper = where + ("/b" if segments[-1] == "a" else "/a")
        else:
            deeper = f"{where}/s{len(segments)}"
        return 200, {}, html_links(f"{deeper}?day={day}", f"{where}?day={day + 1}")

    site = Site([host, loop], respond)
    try:
        p = site.crawl("-w", "0", "-d", "inf", "-v", "--jsonl", site.url(host), site.url(loop),
                       timeout=110)
        expect(len(served) < 20000, f"{len(served)} requests")
        expect(1000 <= len(looped) <= 1002, f"{len(looped)} requests to {loop}")
        recs = [r for r in records(p) if loop not in r["url"]]
        expect_unique([r["url"] for r in recs], "record")
        fates = Counter(r["fate"] for r in recs)
        expect(set(fates) == {"fetched", "trap"}, f"fates {fates}")
        expect(fates["fetched"] == len(served), f"{fates['fetched']} fetched, {len(served)} served")
        roots = {site.url(host, f"/r{k}?day=0") for k in range(20)}
        fetched = {r["url"] for r in recs if r["fate"] == "fetched"}
        expect(roots <= fetched, f"not fetched: {sorted(roots - fetched)[:3]}")
        rules = Counter(r["error"].split(" ")[0] for r in recs if r["fate"] == "trap")
        expect(rules["--max-query-variants"] > 0, f"rules {rules}")
        carried = [line for line in p.stderr.splitlines() if "carried on from path to path grows" in line]
        expect(len(carried) == 1 and host in carried[0], f"-v notes {carried}")
        # once marked, every path keeps 20 query strings, as the note and doc/behaviour.md say
        expect(carried and carried[0].endswith("at most 20 query strings a path from now on"),
               f"-v note {carried[:1]}")
    finally:
        site.stop()


def case_query_catalogue_crawls_whole(tmp):
    """A shop's catalogue: 5,000 items under one path (/item?id=N), linked 100 a page from 50
    listing pages (/list?page=N, each linking the next and the previous), each item linking its
    neighbours, its listing and its reviews (/reviews?id=N), whose print page carries the id one
    path further (/reviews/print?id=N). At the defaults and -d inf every one of the 15,051 pages
    is fetched: --max-query-variants cuts the chains a site grows, not a catalogue's size. With
    --max-query-variants 30 the listing chain is cut, and the items it would have led to are
    never found."""
    host = "shop.test"
    items, per_page = 5000, 100
    pages = items // per_page

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        where, _, query = path.partition("?")
        n = int(query.split("=")[1]) if query else 0
        if where == "/":
            return 200, {}, html_links("/list?page=1")
        if where == "/list":
            links = [f"/item?id={i}" for i in range((n - 1) * per_page + 1, n * per_page + 1)]
            links += [f"/list?page={m}" for m in (n - 1, n + 1) if 1 <= m <= pages]
            return 200, {}, html_links(*links)
        if where == "/item":
            links = [f"/item?id={i}" for i in (n - 1, n + 1) if 1 <= i <= items]
            links += [f"/list?page={(n - 1) // per_page + 1}", f"/reviews?id={n}"]
            return 200, {}, html_links(*links)
        if where == "/reviews":
            return 200, {}, html_links(f"/item?id={n}", f"/reviews/print?id={n}")
        if where == "/reviews/print":
            return 200, {}, "<p>printed</p>"
        return 404, {}, "no such page"

    site = Site([host], respond)
    try:
        p = site.crawl("-w", "0", "-d", "inf", "--jsonl", site.url(host), timeout=110)
        recs = records(p)
        expect_unique([r["url"] for r in recs], "record")
        fates = Counter(r["fate"] for r in recs)
        expect(fates == Counter(fetched=1 + pages + 3 * items), f"fates {fates}")
        # a cap below the listing's chain cuts it (the guard is on, and counts the chain)
        p = site.crawl("-w", "0", "-d", "inf", "--jsonl", "--max-query-variants", "30",
                       site.url(host), timeout=110)
        recs = records(p)
        listed = {r["url"] for r in recs if r["fate"] == "fetched" and "/list?" in r["url"]}
        trapped = [r["url"] for r in recs if r["fate"] == "trap"]
        expect(trapped and all("/list?" in u or "/item?" in u or "/reviews" in u for u in trapped),
               f"trapped {trapped[:3]}")
        expect(25 <= len(listed) <= 31, f"{len(listed)} listing pages fetched")
    finally:
        site.stop()


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


def case_rich_markup(tmp):
    """The test web in the markup of a documentation site (testweb --rich-markup: classes and
    titles on every link, inline code, character references, highlighted code blocks, tables, an
    inline style sheet and script, anchors to the page itself), which the build guided by a
    profile trains on: the same URLs, fates and depths as the plain web's truth, and no request
    for an anchor's own page twice."""
    web = Web(tmp, hosts=3, pages=60, links=8, markup=("--rich-markup", "--page-bytes", "16384"))
    ask = urllib.request.Request(f"http://127.0.0.1:{web.port}/p/1.html",
                                 headers={"Host": f"s0.web.test:{web.port}"})
    with urllib.request.urlopen(ask, timeout=10) as r:
        page = r.read().decode()
    expect('class="highlight"' in page and "&#8212;" in page and 'href="#page-1"' in page,
           f"not the rich markup: {page[:300]!r}")
    p = crawl(web, "-w", "0", "-d", "1000", "--jsonl", web.url())
    log = web.stop()
    truth = web.truth(web.url())
    recs = {r["url"]: r for r in records(p)}
    expect_same_set(recs, truth, "records")
    for url, (fate, d) in truth.items():
        expect(recs[url]["fate"] == fate and recs[url]["depth"] == d,
               f"{url} is {recs[url]['fate']}/{recs[url]['depth']}, want {fate}/{d}")
    gets = Counter((r[2], r[3]) for r in log) - Counter(web.heads)
    gets[("s0.web.test", "/p/1.html")] -= 1  # the case's own request above
    twice = [k for k, n in gets.items() if n > 1]
    expect(not twice, f"requested twice: {twice[:5]}")


def case_links_written_twice(tmp):
    """A link a page writes again (with another fragment, or by another element) is offered once:
    its record names the first place it was written, and it is fetched once. A <base> after some
    links changes what the same text names: x.html before it is /x.html, after it /sub/x.html,
    and both are fetched. Under `-j 4` the links go to the shards of their hosts, and a second
    host's links are written twice too."""
    def respond(host, path, headers):
        if path == "/":
            return 200, {}, ('<img src="x.html"><a href="x.html#a">a</a><a href="x.html">b</a>'
                             '<a href="y.html">y</a><a href="http://b.test:PORT/z.html#1">z</a>'
                             '<a href="http://b.test:PORT/z.html#2">z</a>'
                             '<base href="/sub/"><a href="x.html">c</a><a href="y.html#q">d</a>'
                             '<img src="y.html">'.replace("PORT", str(site.port)))
        if path in ("/x.html", "/y.html", "/sub/x.html", "/sub/y.html", "/z.html"):
            return 200, {}, "<p>page</p>"
        return None

    site = Site(["a.test", "b.test"], respond)
    try:
        p = site.crawl("-w", "0", "-D", "a.test,b.test", "--jsonl", site.url("a.test"))
        got = {r["url"]: r.get("via") for r in records(p)}
        want = {site.url("a.test", "/"): "seed", site.url("a.test", "/x.html"): "img",
                site.url("a.test", "/y.html"): "a", site.url("a.test", "/sub/x.html"): "a",
                site.url("a.test", "/sub/y.html"): "a", site.url("b.test", "/z.html"): "a"}
        expect(got == want, f"records {got}")
        fetched = Counter(path for path in site.paths() if path != "/robots.txt")
        expect(set(fetched) == {"/", "/x.html", "/y.html", "/sub/x.html", "/sub/y.html",
                                "/z.html"} and max(fetched.values()) == 1, f"fetched {fetched}")
    finally:
        site.stop()


def case_long_pages(tmp):
    """Pages past the 256 KB a page is held, each on a host of its own and sent in two parts, so
    they are in flight at once. A shard holds its long pages whole while they take at most 4 MB
    together, and parses the others as they come:
    - four of 1.2 MB whose length the server says (the room is taken at their head), and four
      gzipped, whose length nobody says (the room is taken as they grow);
    - one of 4.5 MB, gzipped: it outgrows the room while held, and is parsed as it comes from
      there;
    - one of 8 MB past --max-size (6 MB): cut there;
    - one of 3 MB, gzipped, which fits the room when alone.
    Every link of each is found, at its start, its middle and its end, but the cut page's last,
    after the cut. One request at a time (-c 1), each page but the 4.5 and 8 MB ones finds the
    room given back by the one before and is held whole: -v says those two alone were parsed as
    they came."""
    import gzip
    filler = "<p>" + "text " * 200 + "</p>\n"  # 1,008 bytes
    sizes = [1200 * 1024] * 8 + [4608 * 1024, 8 << 20, 3 << 20]
    zipped = {4, 5, 6, 7, 8, 10}
    hosts = [f"h{n}.test" for n in range(len(sizes))]

    def long_page(n):  # in two parts
        links = [f'<a href="/leaf{k}.html">{k}</a>' for k in range(3)]
        half = (sizes[n] // 2) // len(filler)
        parts = [links[0] + filler * half, links[1] + filler * half + links[2]]
        if n not in zipped:
            return {}, parts
        body = gzip.compress("".join(parts).encode())
        return {"Content-Encoding": "gzip"}, [body[:len(body) // 2], body[len(body) // 2:]]

    def respond(host, path, headers):
        if host == "a.test" and path == "/":
            return 200, {}, "".join(f'<a href="http://{h}:{site.port}/long.html">p</a>'
                                    for h in hosts)
        if host in hosts and path == "/long.html":
            extra, parts = long_page(hosts.index(host))
            return 200, extra, parts
        if host in hosts and re.fullmatch(r"/leaf\d\.html", path):
            return 200, {}, "<p>leaf</p>"
        return None

    site = Site(["a.test"] + hosts, respond)
    try:
        p = site.crawl("-w", "0", "-d", "2", "-D", ",".join(["a.test"] + hosts), "--max-size",
                       "6M", site.url("a.test"))
        want = {site.url("a.test", "/")}
        for n, h in enumerate(hosts):
            want.add(site.url(h, "/long.html"))
            for k in range(3):
                if n != 9 or k < 2:  # the cut page's end is past --max-size
                    want.add(site.url(h, f"/leaf{k}.html"))
        expect_same_set(lines(p), want, "long pages")
        p = site.crawl("-w", "0", "-d", "2", "-c", "1", "-v", "-D", ",".join(["a.test"] + hosts),
                       "--max-size", "6M", site.url("a.test"))
        expect_same_set(lines(p), want, "long pages, one at a time")
        came = {h for h in hosts if re.search(rf"//{re.escape(h)}:\d+/long\.html -> 200 .*"
                                              r"\(parsed as it came\)$", p.stderr, re.M)}
        expect(came == {hosts[8], hosts[9]}, f"parsed as they came, one at a time: {sorted(came)}")
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


def case_cites_descriptions_and_buttons(tmp):
    """The other URLs a page names are found and recorded with how: a quotation's source (via
    cite), an image's long description and low-resolution copy (via img), a submit button's
    formaction in a GET form (via form, its query dropped); the button of a POST form and one
    whose formmethod is post are never requested."""
    def respond(host, path, headers):
        if path == "/":
            return 200, {}, ('<blockquote cite="/source.html">q</blockquote>'
                             '<img src="/i.png" longdesc="/desc.html" lowsrc="/low.png">'
                             '<form action="/search"><button formaction="/other?q=1">go</button>'
                             '<button formmethod="post" formaction="/post-button">p</button>'
                             '</form><form method="post" action="/buy">'
                             '<button formaction="/buy-now">b</button></form>')
        if path in ("/source.html", "/desc.html", "/search", "/other"):
            return 200, {}, "<p>a page</p>"
        return None

    site = Site(["a.test"], respond)
    try:
        p = site.crawl("-w", "0", "--jsonl", site.url("a.test"))
        got = {r["url"]: (r["fate"], r["via"]) for r in records(p)}
        want = {site.url("a.test"): ("fetched", "seed"),
                site.url("a.test", "/source.html"): ("fetched", "cite"),
                site.url("a.test", "/i.png"): ("skipped", "img"),
                site.url("a.test", "/low.png"): ("skipped", "img"),
                site.url("a.test", "/desc.html"): ("fetched", "img"),
                site.url("a.test", "/search"): ("fetched", "form"),
                site.url("a.test", "/other"): ("fetched", "form")}
        expect(got == want, f"records: {got}")
        asked = [path for path in site.paths() if path in ("/buy", "/buy-now", "/post-button")]
        expect(not asked, f"a POST submission was made: {asked}")
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


def case_content_sniffing(tmp):
    """Bodies as servers really send them: with no Content-Type, a body that starts like HTML is
    parsed (one shorter than the sniffed bytes too) and binary is not; only the first 512 bytes
    are sniffed (a tag that ends within them counts, one that ends past them does not); a page
    with no charset is UTF-8 when its bytes are; a UTF-16 BOM decides over the charset the header
    names."""
    bom = "\ufeff<a href=\"/\u00fc16.html\">u</a>".encode("utf-16-le")
    pages = {
        "/": (None, "<!DOCTYPE html><html><body>" + "<p>text</p>" * 60 +
              '<a href="/p.html">p</a><a href="/data">d</a><a href="/short">s</a>'
              '<a href="/u.html">u</a><a href="/edge-in">i</a><a href="/edge-out">o</a>'
              '</body></html>'),
        # "<html" and the '>' that ends it: bytes 506-511, the last sniffed; 507-512, one past
        "/edge-in": (None, " " * 506 + '<html><a href="/in.html">in</a>'),
        "/edge-out": (None, " " * 507 + '<html><a href="/out.html">out</a>'),
        "/p.html": (None, '  \n<p>a paragraph <a href="/deeper.html">deeper</a>'),
        "/short": (None, '<a href="/s.html">s</a>'),
        "/data": (None, b"\x00\x01\x02 binary <a href=\"/never.html\">no</a>" + b"\x00" * 600),
        "/u.html": ("text/html", '<a href="/caf\u00e9.html">c</a><a href="/bom.html">b</a>'),
        "/bom.html": ("text/html; charset=iso-8859-1", bom),
    }

    site = Site(["a.test"], pages_responder(pages))
    try:
        p = site.crawl("-w", "0", site.url("a.test"))
        want = ["/", "/p.html", "/data", "/short", "/u.html", "/deeper.html", "/s.html",
                "/caf%C3%A9.html", "/bom.html", "/%C3%BC16.html", "/edge-in", "/edge-out",
                "/in.html"]
        expect_same_set(lines(p), [site.url("a.test", path) for path in want], "sniffed")
    finally:
        site.stop()


def case_text_only_elements(tmp):
    """Links written inside elements whose content is text (title, textarea, xmp, noembed,
    iframe, plaintext, script) are never requested nor printed, as a browser sees none; an
    iframe's src is a link, and CSS in style elements and style attributes is still read."""
    inside = ["/title.html", "/textarea.html", "/xmp.png", "/noembed.html", "/iframe.html",
              "/script.html", "/plaintext.html", "/after-plaintext.html"]
    pages = {
        "/": ('<!DOCTYPE html><html><head><title><a href="/title.html">t</a></title>'
              '<style>@import "/sheet.css";</style>'
              '<script>document.write(\'<a href="/script.html">s</a>\')</script></head><body>'
              '<textarea><a href="/textarea.html">x</a></textarea><xmp><img src="/xmp.png"></xmp>'
              '<noembed><a href="/noembed.html">x</a></noembed>'
              '<iframe src="/frame.html"><a href="/iframe.html">x</a></iframe>'
              '<p style="background: url(/bg.png)"><a href="/real.html">r</a></p>'
              '<plaintext><a href="/plaintext.html">x</a></plaintext>'
              '<a href="/after-plaintext.html">a</a>'),
        "/sheet.css": "body { background: url(/from-sheet.png) }",
    }
    asked = set()

    def respond(host, path, headers):
        asked.add(path)
        if path in pages:
            kind = "text/css" if path.endswith(".css") else "text/html"
            return 200, {"Content-Type": kind}, pages[path]
        if path in ("/frame.html", "/real.html"):
            return 200, {"Content-Type": "text/html"}, "<p>leaf"
        if path.endswith(".png"):
            return 200, {"Content-Type": "image/png"}, b"\x89PNG"
        return None

    site = Site(["a.test"], respond)
    try:
        p = site.crawl("-w", "0", site.url("a.test"))
        want = ["/", "/sheet.css", "/frame.html", "/bg.png", "/real.html", "/from-sheet.png"]
        expect_same_set(lines(p), [site.url("a.test", path) for path in want], "text-only")
        expect(not asked & set(inside), f"requested from inside text: {sorted(asked & set(inside))}")
    finally:
        site.stop()


def case_page_directives_every_form(tmp):
    """Page directives as servers write them, at -w 0 and in a polite crawl that fetches ahead
    (-w 0.05): a page's links are printed and not followed (fate robots, never requested) for
    <meta name="robots"> with nofollow or none in any case among other tokens, and for
    X-Robots-Tag nofollow or none, alone, among others, in one header of several, or after our
    own product token ("crawl: nofollow"); they are followed for noindex alone, for a token that
    only starts with nofollow, for words as long as none or nofollow or prefixes of them (noai,
    no), for names as long as ours or prefixes of it, for <meta name="otherbot">, for
    X-Robots-Tag naming another crawler ("otherbot: nofollow"). A directive with a value of its own names no crawler:
    "unavailable_after: 2030-01-01, max-snippet: 20, nofollow" is everyone's nofollow."""
    host = "d.test"
    meta = {"m-none": ("robots", "none"), "m-upper": ("ROBOTS", "NoIndex, NOFOLLOW"),
            "m-noindex": ("robots", "noindex"), "m-longer": ("robots", "nofollowing"),
            "m-other": ("otherbot", "nofollow")}
    tags = {"h-none": ["none"], "h-mixed": ["noarchive, NoFollow"], "h-two": ["noindex", "nofollow"],
            "h-ours": ["crawl: nofollow"], "h-other": ["otherbot: nofollow"],
            "h-valued": ["unavailable_after: 2030-01-01, max-snippet: 20, nofollow"],
            "h-other-then-all": ["otherbot: noindex", "nofollow"],
            # followed: a word as long as "none" or "nofollow" that is neither, a prefix of
            # one, a name as long as ours or a prefix of it
            "h-near": ["noai, noimages, no, nofollo"], "h-names": ["crawx: nofollow, cra: none"]}
    kept = {"m-none", "m-upper", "h-none", "h-mixed", "h-two", "h-ours", "h-other-then-all",
            "h-valued"}

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        name = path.strip("/")
        if path == "/":
            return 200, {}, html_links(*(f"/{n}" for n in (*meta, *tags)))
        if name in meta:
            m, content = meta[name]
            return 200, {}, (f'<html><head><meta name="{m}" content="{content}"></head>'
                             f'<body><a href="/t-{name}">t</a></body></html>')
        if name in tags:
            return 200, {"X-Robots-Tag": tags[name]}, html_links(f"/t-{name}")
        if name.startswith("t-"):
            return 200, {}, "<p>target</p>"
        return None

    site = Site([host], respond)
    try:
        for delay in ("0", "0.05"):
            since = time.monotonic()
            p = site.crawl("-w", delay, "-d", "2", "-U", "crawl/1.0", "--jsonl", site.url(host))
            recs = {r["url"]: r for r in records(p)}
            with site.lock:
                asked = {r[3].strip("/") for r in site.log if r[0] >= since}
            for name in (*meta, *tags):
                r = recs.get(site.url(host, f"/t-{name}"))
                if name in kept:
                    expect(r and r["fate"] == "robots" and f"t-{name}" not in asked,
                           f"-w {delay}, {name}: its link was followed: {r}")
                else:
                    expect(r and r["fate"] == "fetched" and f"t-{name}" in asked,
                           f"-w {delay}, {name}: its link was not followed: {r}")
    finally:
        site.stop()
