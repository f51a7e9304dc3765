"""Integration cases: A crawl as a link checker: --check-skipped, --check-outside, --check-fragments, and the pages that link each URL."""
from harness import *  # noqa: F401,F403 (the shared harness)


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


def case_links_to_this_page(tmp):
    """Links to a place in their own page ("#top", "", " #x ") name the page, seen already: no
    request, nothing printed twice. Under a <base> they name the base instead, which is fetched
    (a fragment alone, or an empty href, resolves to the base URL)."""
    def respond(host, path, headers):
        if path == "/":
            return 200, {}, ('<a href="#top">t</a><a href="">e</a><a href=" #x ">x</a>'
                             '<a href="/in/?q=1">in</a><a href="/far/">far</a>')
        if path == "/in/?q=1":
            return 200, {}, '<a href="#here">h</a><a href="">e</a><p id="here">in</p>'
        if path == "/far/":
            return 200, {}, '<base href="/based/"><a href="#frag">f</a>'
        if path == "/based/":
            return 200, {}, '<p>the base</p>'
        return None

    site = Site(["a.test"], respond)
    try:
        p = site.crawl("-w", "0", site.url("a.test"))
        want = [site.url("a.test", path) for path in ("/", "/in/?q=1", "/far/", "/based/")]
        expect(sorted(lines(p)) == sorted(want), f"printed {lines(p)}")
        expect(sorted(site.paths()) == sorted(["/robots.txt", "/", "/in/?q=1", "/far/", "/based/"]),
               f"requested {site.paths()}")
    finally:
        site.stop()


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


def case_check_fragments(tmp):
    """--check-fragments (doc/behaviour.md, Fragments): a link whose #fragment names no id of its
    fetched HTML target (nor the name of an <a> there) is a broken link, with the pages that
    link to it, counted, listed and reported like any other, and exit 8. # and #top always
    exist, a text fragment (#:~:text=) is not checked, a fragment is percent-decoded before it
    is compared, a target not fetched as HTML (skipped, out of scope) is not judged. On 200
    pages with 2,000 good fragment links and 50 broken ones, the 50 are found and no other."""
    pages = 200

    def page(i):
        ids = "".join(f'<h2 id="s{k}">{k}</h2>' for k in range(10))
        good = "".join(f'<a href="/p{(i + k) % pages}#s{k}">g</a>' for k in range(10))
        broken = f'<a href="/p{i + 1}#nope{i}">b</a>' if i < 50 else ""
        return f"<html><body>{ids}{good}{broken}<a href=\"/p{(i + 1) % pages}\">n</a></body></html>"

    def respond(host, path, headers):
        if path == "/":
            return 200, {}, ('<a href="/p0">p</a><a href="/doc#intro">ok</a>'
                             '<a href="/doc#missing">no</a><a href="#here">here</a>'
                             '<a href="#nowhere">no</a><p id="here"></p><a href="/doc#top">top</a>'
                             '<a href="/doc#">empty</a><a href="/doc#caf%C3%A9">decoded</a>'
                             '<a href="/doc#:~:text=none">text</a><a href="/f.png#x">png</a>'
                             '<a href="/doc#old">a name</a><a href="/doc#plain">a name only</a>')
        if path == "/doc":
            return 200, {}, ('<h1 id="intro">i</h1><a name="old">o</a><span id="caf\u00e9"></span>'
                             '<p name="plain">a p\'s name names nothing</p>'
                             '<a href="/#here">back</a><a href="/#gone">gone</a>')
        if path == "/f.png":
            return 200, {"Content-Type": "image/png"}, "x"
        if path.startswith("/p") and path[2:].isdigit() and int(path[2:]) < pages:
            return 200, {}, page(int(path[2:]))
        return None
    site = Site(["frag.test"], respond)
    try:
        url = site.url("frag.test")
        report = os.path.join(tmp, "report.md")
        p = site.crawl("-w", "0", "-d", "inf", "--check-fragments", "--jsonl", "--report", report,
                       url, check=False)
        failed = {r["url"]: r for r in records(p) if r["fate"] == "failed"}
        want = {f"{url}p{i + 1}#nope{i}" for i in range(50)} | {
            f"{url}doc#missing", f"{url}#nowhere", f"{url}#gone", f"{url}doc#plain"}
        expect(set(failed) == want, f"broken: missing {sorted(want - set(failed))[:5]}, "
               f"more {sorted(set(failed) - want)[:5]}")
        expect_unique([r["url"] for r in records(p)], "record")
        expect(p.returncode == 8, f"broken fragments: exit {p.returncode}")
        r = failed[f"{url}#gone"]
        expect(r["linked_from"] == [f"{url}doc"] and r["linked_from_count"] == 1 and
               "gone" in r["error"], f"its record: {r}")
        expect(f"{len(want)} broken links:" in p.stderr and f"{len(want)} fragment)" in p.stderr,
               f"summary: {p.stderr}")
        with open(report) as f:
            text = f.read()
        expect(f"- `{url}doc#missing`: fragment: no element" in text, f"report: {text[:600]}")
        # without the option, nothing is judged
        p = site.crawl("-w", "0", "-d", "inf", "--jsonl", url)
        expect(not [r for r in records(p) if r["fate"] == "failed"], "failed without the option")
    finally:
        site.stop()
