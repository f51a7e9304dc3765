"""Integration cases: Sitemaps: seeds from them, their turns beside pages, corrupt gzip, XML not well-formed, without robots.txt."""
from harness import *  # noqa: F401,F403 (the shared harness)


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


def case_sitemaps_share_turns(tmp):
    """Sitemaps never starve a crawl. A host whose robots.txt names an index of 300 sitemaps
    (each listing one page): its pages and its sitemaps take turns, so the seed is fetched among
    the host's first requests, not after the 300; -n counts pages alone (-n 20: 20 pages, and no
    sitemap taken for one). An index whose sitemaps are indexes again, for ever, stops at
    --sitemap-depth (2: three levels fetched) and --max-sitemaps bounds a host's sitemaps (1,000
    by default, against an index of 1,010); each bound says so on standard error."""
    def sitemap_index(locs):
        return ('<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/'
                'sitemap/0.9">' + "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in locs) +
                "</sitemapindex>")

    def urlset(locs):
        return ('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                + "".join(f"<url><loc>{u}</loc></url>" for u in locs) + "</urlset>")

    def respond(host, path, headers):
        base = f"http://{host}:{site.port}"
        xml = {"Content-Type": "application/xml"}
        if path == "/robots.txt":
            first = "/nest/0.xml" if host == "nest.test" else "/index.xml"
            return 200, {"Content-Type": "text/plain"}, f"User-agent: *\nSitemap: {base}{first}\n"
        if path == "/":
            return 200, {}, html_links(*[f"/a{i}.html" for i in range(40)])
        if path == "/index.xml":
            count = 1010 if host == "many.test" else 300
            return 200, xml, sitemap_index([f"{base}/sm/{i}.xml" for i in range(count)])
        if path.startswith("/sm/"):
            return 200, xml, urlset([f"{base}/p/{path[4:-4]}.html"])
        if path.startswith("/nest/"):
            level = int(path[6:-4])
            return 200, xml, sitemap_index([f"{base}/nest/{level + 1}.xml"])
        if path.endswith(".html"):
            return 200, {}, "<p>page</p>"
        return None

    site = Site(["a.test", "nest.test", "many.test"], respond)
    try:
        since = time.monotonic()
        p = site.crawl("-w", "0", "--sitemaps", "-n", "20", "-d", "1", site.url("a.test"))
        asked = [path for path in site.paths("a.test", since) if path != "/robots.txt"]
        pages = [x for x in asked if not x.endswith(".xml")]
        sitemaps = [x for x in asked if x.endswith(".xml")]
        expect("/" in asked[:4], f"the seed waited behind sitemaps: {asked[:10]}")
        expect(len(pages) == 20, f"-n 20 fetched {len(pages)} pages: {pages}")
        expect(2 <= len(sitemaps) <= 25, f"{len(sitemaps)} sitemaps beside 20 pages: {sitemaps}")

        since = time.monotonic()
        p = site.crawl("-w", "0", "--sitemaps", "-d", "0", site.url("nest.test"))
        nested = sorted(x for x in site.paths("nest.test", since) if x.startswith("/nest/"))
        expect(nested == ["/nest/0.xml", "/nest/1.xml", "/nest/2.xml"],
               f"--sitemap-depth 2 fetched {nested}")
        expect("--sitemap-depth 2" in p.stderr, f"no word of the bound: {p.stderr[-300:]!r}")

        since = time.monotonic()
        p = site.crawl("-w", "0", "--sitemaps", "--max-sitemaps", "5", "-d", "0",
                       site.url("a.test"))
        sitemaps = [x for x in site.paths("a.test", since) if x.endswith(".xml")]
        expect(len(sitemaps) == 5, f"--max-sitemaps 5 fetched {len(sitemaps)}: {sitemaps}")
        expect("--max-sitemaps 5" in p.stderr, f"no word of the bound: {p.stderr[-300:]!r}")
        printed = [u for u in lines(p) if "/p/" in u]
        expect(printed, "the sitemaps fetched gave no page")

        # the default bound, 1,000 sitemaps a host (the index among them), against 1,011
        since = time.monotonic()
        p = site.crawl("-w", "0", "--sitemaps", "-d", "0", site.url("many.test"))
        sitemaps = [x for x in site.paths("many.test", since) if x.endswith(".xml")]
        expect(len(sitemaps) == 1000, f"by default {len(sitemaps)} sitemaps were fetched")
        expect("--max-sitemaps 1000" in p.stderr, f"no word of the bound: {p.stderr[-300:]!r}")
    finally:
        site.stop()


ENTRIES = [f"/e/{i}.html" for i in range(400)]  # the damaged-sitemap cases' urlset
KEPT = 150  # the entries before the damage


def entries_xml(base, upto=None):
    """A urlset of ENTRIES on base; with upto, its first upto entries and no end tag."""
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns='
            '"http://www.sitemaps.org/schemas/sitemap/0.9">\n')
    urls = "".join(f"<url><loc>{base}{e}</loc></url>\n" for e in ENTRIES[:upto])
    return head + urls + ("</urlset>\n" if upto is None else "")


def entries_site(hosts, path, content_type, body_of):
    """Hosts whose robots.txt names one sitemap at path, body_of(host, base) its body, and whose
    entries are plain pages."""
    def respond(host, asked, headers):
        base = site.url(host, "")
        if asked == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, f"User-agent: *\nSitemap: {base}{path}\n"
        if asked == path:
            return 200, {"Content-Type": content_type}, body_of(host, base)
        if asked == "/" or asked.startswith("/e/"):
            return 200, {}, "<p>entry</p>"
        return None

    site = Site(hosts, respond)
    return site


def crawl_entries(site, host, want):
    """crawl -v --sitemaps of host: exit 0 and exactly the entries want crawled."""
    p = site.crawl("-v", "-w", "0", "-d", "0", "--sitemaps", site.url(host), check=False)
    expect(p.returncode == 0, f"{host}: exit {p.returncode}: {p.stderr[-300:]}")
    got = {u for u in p.stdout.split() if "/e/" in u}
    expect(got == {site.url(host, e) for e in want},
           f"{host}: {len(got)} entries crawled, want {len(want)}")
    return p


def case_sitemap_corrupt_gzip(tmp):
    """A gzip sitemap damaged part way (its deflate data holds the first 150 of its 400 entries,
    then a block of a type that does not exist): with -v a note names it ("corrupt gzip data"),
    exactly the 150 entries before the damage are crawled, and the crawl ends with exit 0; the
    same sitemap whole gives every entry."""
    import gzip
    import zlib

    def damaged(text):
        # a gzip header, the text in stored deflate blocks (not final), then a final block of
        # type 3, which deflate reserves: inflate stops there, whatever came before is whole
        deflate = zlib.compressobj(0, zlib.DEFLATED, -15)
        data = deflate.compress(text.encode()) + deflate.flush(zlib.Z_SYNC_FLUSH)
        return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + data + b"\x07" + bytes(16)

    def body_of(host, base):
        if host == "bad.test":
            return damaged(entries_xml(base, KEPT))
        return gzip.compress(entries_xml(base).encode())

    site = entries_site(["bad.test", "good.test"], "/map.xml.gz", "application/gzip", body_of)
    try:
        for host, want in (("bad.test", ENTRIES[:KEPT]), ("good.test", ENTRIES)):
            p = crawl_entries(site, host, want)
            noted = "map.xml.gz: corrupt gzip data" in p.stderr
            expect(noted == (host == "bad.test"), f"{host}: the note: {noted}")
    finally:
        site.stop()


def case_sitemap_not_well_formed(tmp):
    """A plain sitemap cut short in the middle of its 151st entry: the 150 entries before the
    cut are crawled, exit 0, and -v names the sitemap, its 150 entries and that it is not
    well-formed XML, with the line libxml2 stopped at; the same sitemap whole gives all 400
    entries and no such word."""
    def body_of(host, base):
        body = entries_xml(base)
        if host == "cut.test":
            body = body[:body.index(f"{base}{ENTRIES[KEPT]}") + len(base) + 4]
        return body

    site = entries_site(["cut.test", "whole.test"], "/map.xml", "application/xml", body_of)
    try:
        for host, want in (("cut.test", ENTRIES[:KEPT]), ("whole.test", ENTRIES)):
            p = crawl_entries(site, host, want)
            said = [ln for ln in p.stderr.splitlines() if "/map.xml -> " in ln]
            expect(len(said) == 1, f"{host}: the sitemap's line: {said}")
            told = f"-> {len(want)} entries; not well-formed XML, line {KEPT + 3}: "
            if host == "cut.test":
                expect(told in said[0], f"{host}: {said[0]!r}, want {told!r}")
            else:
                expect(said[0].endswith("/map.xml -> 400 entries"), f"{host}: {said[0]!r}")
    finally:
        site.stop()


def case_sitemaps_without_robots(tmp):
    """--sitemaps --no-robots: the sitemaps are found where robots.txt is not read (at
    /sitemap.xml), and the printed set is the truth of both."""
    web = Web(tmp, hosts=2, pages=20)
    p = crawl(web, "-w", "0", "-d", "1000", "--sitemaps", "--no-robots", web.url())
    web.stop()
    expect_same_set(lines(p), web.truth(web.url(), sitemaps=True, robots=False),
                    "--sitemaps --no-robots")
