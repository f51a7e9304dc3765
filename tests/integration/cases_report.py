"""Integration cases: What a crawl reports at its end: the broken-links report, exit statuses, empty results explained, records kept when the disk is full."""
from harness import *  # noqa: F401,F403 (the shared harness)


def case_exit_statuses(tmp):
    """wget's exit statuses: 8 when a seed answers with an HTTP error, and when the user asked to
    check links (--check-skipped, --check-outside, --fail-on-broken) and any URL failed, in scope
    or not; 0 for a crawl that merely found broken links; 4 (no seed reached) wins over 8. The summary counts every failed URL as a
    broken link, a DNS failure too, and names its cause."""
    web = Web(tmp, hosts=2, pages=60)
    missing, dead = web.url("s0", "/missing/1.html"), web.url("dnsfail", "/")
    # asking to check links (any of the three) makes a broken in-scope page fail the run too
    runs = [(["-d", "2", web.url()], 0), (["-d", "2", "--fail-on-broken", web.url()], 8),
            (["-d", "2", "--check-skipped", web.url()], 8),
            (["-d", "2", "--check-outside", web.url()], 8),
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


def case_report_markdown(tmp):
    """--report FILE: the broken links as Markdown (doc/behaviour.md, The report): the totals
    first, then each page that holds broken links, in the order the crawl met them, with its
    broken links (URL and status or cause); a link from more pages than the ten a record names
    says how many; a seed that failed is under Seeds. --report - writes it to standard output
    after the URLs; a report that cannot be made is said before the crawl (exit 1); a crawl
    stopped by SIGINT writes what it found. Asking for a report changes no exit status."""
    many = [f"/m{i}" for i in range(12)]

    def respond(host, path, headers):
        if path == "/":
            return 200, {}, html_links("/a", "/b", "/gone1", *many, "/gone2")
        if path == "/a":
            return 200, {}, html_links("/gone1", "/gone2", "/b")
        if path == "/b":
            return 200, {}, html_links("/err")
        if path == "/err":
            return 500, {}, "broken"
        if path in many:
            return 200, {}, html_links("/popular")
        return None  # 404: /gone1, /gone2, /popular
    site = Site(["rep.test"], respond)
    gate = Gate()
    try:
        out = os.path.join(tmp, "report.md")
        p = site.crawl("-w", "0", "--retries", "0", "--report", out, site.url("rep.test"),
                       site.url("rep.test", "/seedgone"), check=False)
        with open(out) as f:
            text = f.read()
        expect(p.returncode == 8, f"a seed answered 404: exit {p.returncode}, not 8")
        head, _, body = text.partition("\n## ")
        expect(head.startswith("# Broken links\n") and "| broken links | 5 |" in head and
               "| pages holding them | 6 |" not in head, f"totals: {head}")
        when = r"\(crawl [^,]+, \d{4}-\d\d-\d\d \d\d:\d\d UTC\)"
        expect(re.fullmatch(rf"5 broken links on \d+ pages {when}", head.split("\n")[2]),
               f"the totals' line: {head.split(chr(10))[2]!r}")
        # one broken link on one page: said in the singular
        p = site.crawl("-w", "0", "--retries", "0", "--report", out, site.url("rep.test", "/b"),
                       check=False)
        with open(out) as f:
            line = f.read().split("\n")[2]
        expect(re.fullmatch(rf"1 broken link on 1 page {when}", line), f"one: {line!r}")
        sections = {}
        for part in ("## " + body).split("\n## ")[0:]:
            title, _, items = part.removeprefix("## ").partition("\n\n")
            sections[title] = [line for line in items.splitlines() if line.startswith("- ")]
        url = site.url("rep.test")
        root, a, b = f"`{url}`", f"`{url}a`", f"`{url}b`"
        expect(sections.get(root) == [f"- `{url}gone1`: HTTP 404", f"- `{url}gone2`: HTTP 404"] and
               sections.get(a) == [f"- `{url}gone1`: HTTP 404", f"- `{url}gone2`: HTTP 404"] and
               sections.get(b) == [f"- `{url}err`: HTTP 500"] and
               sections.get("Seeds") == [f"- `{url}seedgone`: HTTP 404"],
               f"sections: {sections}")
        order = list(sections)
        expect(order.index(root) < order.index(a), f"pages out of the crawl's order: {order}")
        popular = [t for t, items in sections.items()
                   if items == [f"- `{url}popular`: HTTP 404 (linked from 12 pages; 10 listed here)"]]
        expect(len(popular) == 10, f"/popular listed under {len(popular)} pages: {sections}")
        expect(len(sections) == 14, f"{len(sections)} pages hold broken links: {list(sections)}")
        # to standard output, after the URLs; with --jsonl alike
        p = site.crawl("-w", "0", "--retries", "0", "--jsonl", "--report", "-", url)
        records_part, _, report = p.stdout.partition("# Broken links\n")
        expect(report and all(line.startswith("{") for line in records_part.splitlines()) and
               f"- `{url}gone2`: HTTP 404" in report, f"--report -: {p.stdout[-400:]}")
        p = site.crawl("--report", os.path.join(tmp, "no", "such", "dir.md"), url, check=False)
        expect(p.returncode == 1 and "cannot write --report" in p.stderr and not p.stdout,
               f"an unwritable report: {p.returncode} {p.stderr!r}")
        # stopped by SIGINT, a polite crawl with pages still queued (the gate's, at least): the
        # broken links found so far are written
        cmd = [CRAWL, "--no-progress", *site.resolve(), *gate.resolve(), "-w", "0.5",
               "--retries", "0", "--report", out, url, gate.url("gate.test")]
        before = site.paths().count("/gone1")
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        wait_until(lambda: site.paths().count("/gone1") > before, "this crawl's /gone1", proc)
        proc.send_signal(signal.SIGINT)
        gate.release()  # its request in flight ends, as SIGINT lets it
        _, err = proc.communicate(timeout=60)
        with open(out) as f:
            text = f.read()
        expect(proc.returncode == 130 and "stopped before its end" in text and
               f"- `{url}gone1`: HTTP 404" in text,
               f"interrupted: {proc.returncode} {err[-300:]} {text[:300]}")
    finally:
        gate.stop()
        site.stop()


def case_broken_links_name_their_pages(tmp):
    """--jsonl records of failed URLs carry linked_from: up to 10 pages that link to the URL, and
    linked_from_count, the count of all of them, each page once however often it links there.
    Most of those pages are found while the URL waits in the queue or after it failed; a redirect's
    target is linked from the URL that redirected; an out-of-scope link checked with
    --check-outside counts its pages too. The same with --state, paused and continued."""
    pages = 40
    # page i links its neighbours, /gone/all (from every page, twice from odd ones, the second
    # written whole: two links the page writes apart, one URL), /gone/few (from pages 3, 17 and
    # 30, twice on 17), /gone/late (from the last pages only), /r/i (which redirects to
    # /gone/r.html) on pages divisible by 7, and an outside link that is gone on pages 0 and 5
    refs = defaultdict(set)

    def links_of(i):
        out = [f"/p/{(i + 1) % pages}.html", f"/p/{(i * 3 + 2) % pages}.html", "/gone/all"]
        out += [site.url("a.test", "/gone/all")] * (i % 2)
        out += ["/gone/few"] * ((i in (3, 30)) + 2 * (i == 17))
        out += ["/gone/late"] if i >= pages - 4 else []
        out += [f"/r/{i}"] if i % 7 == 0 else []
        out += ["http://b.test:%d/gone/out" % site.port] if i in (0, 5) else []
        return out

    def respond(host, path, headers):
        m = re.fullmatch(r"/p/(\d+)\.html", path)
        if host == "a.test" and (path == "/" or (m and int(m.group(1)) < pages)):
            return 200, {}, html_links(*links_of(int(m.group(1)) if m else 0))
        if host == "a.test" and path.startswith("/r/"):
            return 301, {"Location": "/gone/r.html"}, ""
        return None

    site = Site(["a.test", "b.test"], respond)
    base = site.url("a.test")
    for n, i in enumerate([0] + list(range(pages))):  # the home page, then /p/0.html to the last
        page = base if n == 0 else site.url("a.test", f"/p/{i}.html")
        for link in links_of(i):
            refs[link if link.startswith("http") else site.url("a.test", link)].add(page)
    for i in range(0, pages, 7):
        refs[site.url("a.test", "/gone/r.html")].add(site.url("a.test", f"/r/{i}"))

    def expect_named(recs, what):
        failed = {r["url"]: r for r in recs if r["fate"] == "failed"}
        want = {u for u in refs if "/gone/" in u}
        expect(set(failed) == want, f"{what}: failed {sorted(failed)}, want {sorted(want)}")
        for url, r in failed.items():
            named, count = r.get("linked_from"), r.get("linked_from_count")
            expect(count == len(refs[url]), f"{what}: {url} linked from {count}, "
                   f"want {len(refs[url])}: {r}")
            expect(isinstance(named, list) and len(named) == min(10, len(refs[url])) and
                   len(set(named)) == len(named) and set(named) <= refs[url],
                   f"{what}: {url} names {named}, not among {sorted(refs[url])}")
            expect(r["from"] in named or len(named) == 10, f"{what}: from not named: {r}")
        others = [r for r in recs if r["fate"] != "failed" and "linked_from" in r]
        expect(not others, f"{what}: linked_from on a record of no failure: {others[:2]}")

    try:
        args = ["-d", "1000", "--scope", "host", "--check-outside", "--jsonl"]
        p = site.crawl("-w", "0", *args, base, check=False)
        expect(p.returncode == 8, f"a checked link is broken: exit {p.returncode} {p.stderr}")
        # the file where the pages' links wait was written whole: no word of damage
        expect("could not be read whole" not in p.stderr,
               f"a whole file called damaged: {p.stderr}")
        recs = [json.loads(line) for line in p.stdout.splitlines()]
        expect_unique([r["url"] for r in recs], "record")
        expect_named(recs, "one run")
        # --state: paused by SIGTERM, continued; the records of the failed URLs wait in DIR
        # until the crawl ends, however many runs it takes
        state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
        cmd = [CRAWL, "--no-progress", *site.resolve(), "--state", state, "-o", out,
               "--checkpoint", "0.1", "-w", "0.05", *args, base]
        # 8: a checked link is broken
        run_paused(cmd, state, "--state", lambda: len(site.log), 6, done=8)
        with open(out) as f:
            recs = [json.loads(line) for line in f]
        expect_unique([r["url"] for r in recs], "record across the runs")
        expect_named(recs, "--state, paused")
    finally:
        site.stop()


def case_full_temp_dir_keeps_failed_records(tmp):
    """--jsonl with $TMPDIR on a disk that fills up (a 64 KiB tmpfs, in a mount namespace of the
    case's own): the file where pages' links and failed URLs' records wait cannot be written, so
    the crawl ends with an error that says which file and why, and still writes a record for
    every URL it was answered for: each missing page the server answered 404 is recorded failed
    (or pending, when the crawl stopped before it read the answer)."""
    web = Web(tmp, hosts=3, pages=300)
    disk = os.path.join(tmp, "disk")
    os.mkdir(disk)
    script = 'mount -t tmpfs -o size=64k tmpfs "$D" || exit 90\nTMPDIR="$D" "$@" > "$T/out"'
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000", "-w",
           "0", "--jsonl", web.url()]
    p = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", *cmd],
                       env=dict(os.environ, D=disk, T=tmp), capture_output=True, text=True,
                       timeout=120)
    log = web.stop()
    expect(p.returncode == 1 and "the failed URLs' referrers: No space left on device" in p.stderr,
           f"exit {p.returncode}: {p.stderr[-800:]}")
    with open(os.path.join(tmp, "out")) as f:
        recs = {}
        for line in f:
            r = json.loads(line)
            expect(r["url"] not in recs, f"two records of {r['url']}")
            recs[r["url"]] = r
    missing = {f"http://{h}:{web.port}{path}" for _, _, h, path, _ in log if "/missing/" in path}
    expect(len(missing) > 5, f"the crawl ended before it met the missing pages: {len(missing)}")
    lost = [u for u in missing if recs.get(u, {}).get("fate") not in ("failed", "pending")]
    expect(not lost, f"{len(lost)} of {len(missing)} missing pages answered 404 have no failed "
           f"record, e.g. {[recs.get(u) or u for u in lost[:2]]}")
    failed = [r for r in recs.values() if r["fate"] == "failed"]
    expect(all("linked_from_count" in r for r in failed), "a failed record without its pages")


def case_stop_counts_waiting_seeds(tmp):
    """A crawl stopped while most of its 3,000 seeds still wait to be offered (-c 1, a gate
    holding the only slot): every seed -A accepts gets its record (`pending`), offered or not,
    and no other does, and the summary counts them all: its URLs discovered and the sum of its
    fates are the seeds."""
    site, gate = Site(["a.test"], lambda host, path, headers: (200, {}, "<p>a page</p>")), Gate()
    try:
        seeds = [gate.url("gate.test")] + [site.url("a.test", f"/p{i}" + ".pdf" * (i % 2))
                                           for i in range(3000)]
        seed_file = os.path.join(tmp, "seeds.txt")
        with open(seed_file, "w") as f:
            f.write("\n".join(seeds) + "\n")
        proc = subprocess.Popen([CRAWL, "--no-progress", *site.resolve(), *gate.resolve(), "-w",
                                 "0", "-c", "1", "-A", "pdf", "--jsonl", "-i", seed_file],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_until(gate.asked.is_set, "the gate asked for", proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        gate.stop()
        site.stop()
    expect(proc.returncode == 130, f"exit {proc.returncode}: {err[-300:]}")
    recs = [json.loads(line) for line in out.splitlines()]
    expect_same_set([r["url"] for r in recs], [u for u in seeds if u.endswith(".pdf")],
                    "records")
    counts = summary_counts(err)
    expect(counts, f"no summary: {err[-400:]}")
    expect(counts[0] == len(seeds) == counts[1],
           f"{counts[0]} URLs discovered, fates adding up to {counts[1]}, {len(seeds)} seeds")
