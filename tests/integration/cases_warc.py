"""Integration cases: WARC archives: the records, a full disk, chunked and cut bodies, no secrets kept."""
import stat
import threading
from harness import *  # noqa: F401,F403 (the shared harness)


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


def case_warc_full_disk(tmp):
    """--warc on a disk with no room left (a 64 KiB tmpfs filled, in a mount namespace of the
    case's own): the archive cannot take its warcinfo record, so the crawl stops with exit 1 and
    an error naming the file, before it asks the web anything."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        print("skip: needs root for a small tmpfs in a private mount namespace")
        sys.exit(77)
    web = Web(tmp, hosts=1, pages=5)
    disk = os.path.join(tmp, "disk")
    os.mkdir(disk)
    warc = os.path.join(disk, "out.warc")
    script = ('mount -t tmpfs -o size=64k tmpfs "$D" || exit 90\n'
              'dd if=/dev/zero of="$D/fill" bs=4k 2> /dev/null\n'  # ends when the disk is full
              '"$@" > /dev/null 2> "$T/err"; echo $? > "$T/rc"')
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "--warc",
           warc, web.url()]
    p = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", *cmd],
                       env=dict(os.environ, D=disk, T=tmp), capture_output=True, text=True,
                       timeout=60)
    log = web.stop()
    expect(p.returncode == 0, f"the namespace's script failed ({p.returncode}): {p.stderr}")
    with open(os.path.join(tmp, "rc")) as f:
        rc = f.read().strip()
    with open(os.path.join(tmp, "err")) as f:
        err = f.read()
    expect(rc == "1" and f"cannot write '{warc}': No space left on device" in err,
           f"exit {rc}: {err[-800:]}")
    expect(not log, f"the web was asked {len(log)} times: {[e[3] for e in log][:5]}")


def case_warc_chunked_and_cut(tmp):
    """--warc with bodies a server sends in chunks (Transfer-Encoding: chunked; curl takes the
    chunks off, the record puts them back) and a body cut at --max-size: every digest holds as
    warcio reads them, in FILE and FILE.gz; a chunked payload is the whole body (an empty one
    empty), a cut one its first BYTES bytes, marked WARC-Truncated: length, and its links up to
    the cut are followed. A transfer coding other than chunked (gzip, which curl does not take
    off) is no chunking: the body is archived as it came."""
    import base64
    import gzip
    limit = 100000
    big = "".join(f'<p>{"x" * 4990}</p><a href="/at{i}">{i}</a>' for i in range(40))
    pages = {
        "/": ['<a href="/empty">e</a>', '<a href="/big">b</a>', '<a href="/plain">p</a>',
              '<a href="/coded">c</a>'],
        "/empty": [""],
    }

    def respond(host, path, headers):
        if path in pages:
            return 200, {"Transfer-Encoding": "chunked"}, list(pages[path])
        if path == "/big":
            return 200, {}, big
        if path == "/plain" or path.startswith("/at"):
            return 200, {}, "<p>plain</p>"
        if path == "/coded":  # a transfer coding that is not chunked, whose body ends with the
            return 200, {"Transfer-Encoding": "gzip", "Connection": "close"}, \
                gzip.compress(b"<p>coded</p>")  # connection: curl leaves the coding as it is
        return None

    site = Site(["w.test"], respond)
    try:
        for name in ("cut.warc", "cut.warc.gz"):
            path = os.path.join(tmp, name)
            p = site.crawl("-w", "0", "--max-size", str(limit), "--warc", path, site.url("w.test"))
            responses = {r["uri"]: r for r in expect_whole_warc(warc_records(path), name)}
            want = {"/": "".join(pages["/"]).encode(), "/empty": b"",
                    "/big": big.encode()[:limit], "/plain": b"<p>plain</p>",
                    "/coded": b"<p>coded</p>"}  # warcio takes the gzip off
            for at, body in want.items():
                r = responses.get(site.url("w.test", at))
                expect(r and r["status"] == 200, f"{name}: no 200 response for {at}")
                got = base64.b64decode(r["payload"])
                expect(got == body, f"{name}: {at}'s payload is {len(got)} bytes, want {len(body)}")
                expect(r["chunked"] == (at in pages), f"{name}: {at} chunked: {r['chunked']}")
                if at in pages:  # framed again as one chunk, or none for an empty body
                    framed = (b"%x\r\n%s\r\n" % (len(body), body) if body else b"") + b"0\r\n\r\n"
                    expect(base64.b64decode(r["chunks"]) == framed,
                           f"{name}: {at}'s chunks are {base64.b64decode(r['chunks'])[:80]!r}")
                expect((r["truncated"] == "length") == (at == "/big"),
                       f"{name}: {at} WARC-Truncated: {r['truncated']}")
            followed = {u for u in p.stdout.split() if "/at" in u}
            before_cut = {site.url("w.test", f"/at{i}") for i in range(40)
                          if big.find(f'/at{i}"') + 10 < limit}
            expect(followed == before_cut, f"{name}: links of the cut page: {len(followed)} "
                   f"printed, want the {len(before_cut)} before the cut")
    finally:
        site.stop()


def case_warc_keeps_no_secrets(tmp):
    """--warc with --proxy http://USER:PASS@ (tinyproxy, which asks for the login), --user and -H
    'Cookie: ...': the archive reads whole (every digest holds) and holds none of the secrets;
    each request record that carried them names the headers whose values it left out
    (WARC-Redacted-Headers) and keeps their names; the file is made 0600, and without any
    credential 0644 as before, also with a header given that is none (-H 'Accept-Language')."""
    import base64
    web = Web(tmp, hosts=2, pages=10, links=4, seed=2)
    names = [f"s{i}.web.test" for i in range(2)]
    proxy = Proxy(tmp, "http", names, login=("alice", "pr0xy-PASS"))
    warc = os.path.join(tmp, "crawl.warc")
    try:
        p = subprocess.run([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{free_port()}",
                            "-w", "0", "--proxy", f"http://alice:pr0xy-PASS@127.0.0.1:{proxy.port}",
                            "--user", "bob:us3r-PASS", "-H", "Cookie: session=c00kie-PASS",
                            "--warc", warc, web.url()], capture_output=True, text=True,
                           timeout=60)
        expect(p.returncode == 0 and lines(p), f"exit {p.returncode}: {p.stderr[-300:]}")
    finally:
        proxy.stop()
    with open(warc, "rb") as f:
        raw = f.read()
    secrets = [b"pr0xy-PASS", b"us3r-PASS", b"c00kie-PASS",
               base64.b64encode(b"alice:pr0xy-PASS"), base64.b64encode(b"bob:us3r-PASS")]
    expect(not [x for x in secrets if x in raw], f"secrets in the WARC: "
           f"{[x for x in secrets if x in raw]}")
    recs = warc_records(warc)
    expect_whole_warc(recs, "the WARC of a crawl with logins")
    requests = raw.count(b"WARC-Type: request")
    to_seed = raw.count(b"WARC-Redacted-Headers: Authorization, Proxy-Authorization, Cookie\r\n")
    to_others = raw.count(b"WARC-Redacted-Headers: Proxy-Authorization\r\n")
    expect(to_seed >= 2 and to_seed + to_others == requests,
           f"{requests} requests, {to_seed} + {to_others} saying what they left out")
    expect(raw.count(b"\r\nAuthorization:\r\n") == to_seed and
           raw.count(b"\r\nProxy-Authorization:\r\n") == requests,
           "the redacted headers' names are not kept")
    mode = os.stat(warc).st_mode & 0o777
    expect(mode == 0o600, f"the WARC of a crawl with logins is mode {mode:o}")
    plain = os.path.join(tmp, "plain.warc")
    crawl(web, "-w", "0", "-H", "Accept-Language: en", "--warc", plain, web.url())
    web.stop()
    mode = os.stat(plain).st_mode & 0o777
    expect(mode == 0o644 & ~current_umask(),
           f"a WARC without logins (a header that is none) is mode {mode:o}")


def case_warc_into_a_pipe(tmp):
    """--warc naming a pipe (`--warc >(gzip >crawl.warc.gz)`, as shell users write it) writes the
    archive into it as it comes: a reader gets a whole WARC (every digest holds), and the pipe
    stays a pipe of its own mode, a login's WARC notwithstanding (a file's is made 0600, a
    device's or pipe's is not the crawl's to change: /dev/null). With --state, which cuts the
    file back when a crawl goes on, such a --warc is refused at start."""
    web = Web(tmp, hosts=2, pages=10, links=4, seed=3)
    fifo = os.path.join(tmp, "warc.fifo")
    os.mkfifo(fifo, 0o644)
    mode = os.stat(fifo).st_mode & 0o777
    got = os.path.join(tmp, "got.warc")

    def read_all():
        with open(fifo, "rb") as pipe, open(got, "wb") as out:
            shutil.copyfileobj(pipe, out)

    reader = threading.Thread(target=read_all, daemon=True)
    reader.start()
    p = crawl(web, "-w", "0", "--user", "bob:us3r-PASS", "--warc", fifo, web.url())
    reader.join(60)  # at once: the crawl closed the pipe when it ended
    expect(p.returncode == 0 and not reader.is_alive(), f"exit {p.returncode}: {p.stderr[-300:]}")
    expect(stat.S_ISFIFO(os.stat(fifo).st_mode) and os.stat(fifo).st_mode & 0o777 == mode,
           f"the pipe is now {os.stat(fifo).st_mode:o}")
    responses = expect_whole_warc(warc_records(got), "the WARC read from the pipe")
    expect(len(responses) > 10, f"{len(responses)} responses in the pipe's WARC")
    p = crawl(web, "-w", "0", "--state", os.path.join(tmp, "state"), "--warc", fifo, web.url(),
              check=False)
    web.stop()
    expect(p.returncode == 1 and "not a regular file, which --state needs" in p.stderr,
           f"--state with a pipe for --warc: exit {p.returncode}, {p.stderr[-300:]}")
