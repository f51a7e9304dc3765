"""Integration cases: Logins: --user, netrc, a password asked on the terminal, credentials kept to their seed's origin."""
from harness import *  # noqa: F401,F403 (the shared harness)


def case_logins_stay_on_https(tmp):
    """A login belongs to its origin, scheme included: with an https seed, --user and -H
    'Cookie: ...' go to https://a.test:PORT alone; a link and a 302 to http://a.test:PORT (the
    same host and port, served in clear by the same server) are fetched with neither, as curl
    -L -u sends nothing on such a redirect. Every https request of a carries both."""
    import base64
    pki = make_pki(tmp, "a.test")
    pw = "S3CRET-x7"
    basic = "Basic " + base64.b64encode(f"alice:{pw}".encode()).decode()

    def respond(host, path, headers):
        if path == "/":
            return 200, {}, (f'<a href="http://a.test:{site.port}/clear.html">c</a>'
                             '<a href="/go">go</a><a href="/in.html">in</a>')
        if path == "/go":
            return 302, {"Location": f"http://a.test:{site.port}/moved.html"}, ""
        if path in ("/in.html", "/clear.html", "/moved.html"):
            return 200, {}, "<p>page</p>"
        return None

    site = Site(["a.test"], respond, tls=pki)
    try:
        p = site.crawl("-w", "0", "--jsonl", "--cacert", os.path.join(pki, "ca.pem"),
                       "--user", f"alice:{pw}", "-H", "Cookie: session=s3cret",
                       site.url("a.test", scheme="https"))
        status = {r["url"]: r.get("status") for r in records(p)}
        want = {site.url("a.test", path, "https"): code
                for path, code in (("/", 200), ("/go", 302), ("/in.html", 200))}
        want.update({site.url("a.test", path): 200 for path in ("/clear.html", "/moved.html")})
        expect(status == want, f"records: {status}")
        with site.lock:
            sent = [(r[4][":scheme"], r[3], r[4]) for r in site.log if r[3] != "/robots.txt"]
        clear = [(path, h) for scheme, path, h in sent if scheme == "http"]
        expect(sorted(path for path, _ in clear) == ["/clear.html", "/moved.html"],
               f"asked in clear: {clear}")
        leaked = [(path, h) for path, h in clear if "Authorization" in h or "Cookie" in h]
        expect(not leaked, f"credentials sent in clear: {leaked}")
        secure = [h for scheme, _, h in sent if scheme == "https"]
        expect(len(secure) == 3 and all(h.get("Authorization") == basic and
                                        h.get("Cookie") == "session=s3cret" for h in secure),
               f"https requests without the login: {secure}")
    finally:
        site.stop()


def ask_password_on_terminal(argv, prompt, password):
    """Runs argv with a terminal of its own (a pseudo-terminal as its controlling one, standard
    output and error still pipes), types password and a newline once prompt is shown, and
    returns the finished process and all the terminal showed."""
    import fcntl
    import select
    import termios
    master, slave = os.openpty()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: fcntl.ioctl(slave, termios.TIOCSCTTY, 0),
                            pass_fds=(slave,))  # held open: the terminal lives while it runs
    os.close(slave)
    shown, typed = b"", False
    deadline = time.monotonic() + 60  # a bound on a broken run, not a wait for an event
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: every holder of the terminal closed it
                break
            if not chunk:
                break
            shown += chunk
            if not typed and prompt.encode() in shown:
                os.write(master, password.encode() + b"\n")
                typed = True
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    shown = shown.decode("utf-8", "replace")
    return subprocess.CompletedProcess(argv, proc.returncode, out, err), shown


def case_logins(tmp):
    """Credentials go to the seeds' hosts alone, and a password is never printed. The seed's host
    a.site.test answers 401 without alice's login; its pages link to b.site.test (in scope, the
    same site) and redirect there, and b logs what it is sent.
    - --user alice:PW, a seed http://alice:PW@a…/, --netrc-file FILE: every page of a is 200,
      and b never gets an Authorization header.
    - -H 'Authorization: …' and -H 'Cookie: …' go to a alone; another -H header goes to both.
    - a's robots.txt, asked with the login, redirects to b's: b's is asked without it.
    - PW is in no output line, --jsonl record, -v note or summary; the seed prints without its
      userinfo. A link with a userinfo of its own (carol's, to b) is printed and fetched
      without it: its password is printed nowhere, and b is sent no login.
    - --user alice with no terminal to ask the password on: a usage error (exit 2); with one,
      the password typed there (not echoed) logs in.
    - A --state directory and a --seen file are made mode 0600."""
    import base64
    pw, link_pw = "pw-Zq9x", "pw-Kc4w"
    basic = "Basic " + base64.b64encode(f"alice:{pw}".encode()).decode()

    def respond(host, path, headers):
        if host == "a.site.test":
            if headers.get("Authorization") != basic:
                return 401, {"WWW-Authenticate": 'Basic realm="a"'}, "<p>who are you?</p>"
            if path == "/robots.txt":
                return 301, {"Location": f"http://b.site.test:{site.port}/robots.txt"}, ""
            if path == "/":
                return 200, {}, ('<a href="/in.html">in</a><a href="/go">go</a>'
                                 f'<a href="http://carol:{link_pw}@b.site.test:{site.port}'
                                 '/page.html">b</a>')
            if path == "/go":
                return 302, {"Location": f"http://b.site.test:{site.port}/redir.html"}, ""
            if path == "/in.html":
                return 200, {}, "<p>inside</p>"
        if host == "b.site.test" and path in ("/page.html", "/redir.html"):
            return 200, {}, "<p>b</p>"
        if host == "b.site.test" and path == "/robots.txt":
            # sitemaps named (not fetched without --sitemaps): their list grows in the parser,
            # where the out-of-memory sweep below fails it too
            return 200, {"Content-Type": "text/plain"}, ("User-agent: *\nDisallow: /private\n" +
                                                         "".join(f"Sitemap: /s{i}.xml\n"
                                                                 for i in range(4)))
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
            expect(link_pw not in p.stdout + p.stderr and "carol" not in p.stdout + p.stderr,
                   f"{how}: the link's password was printed")
            with site.lock:
                to_b = [r for r in site.log if r[0] >= since and r[2] == "b.site.test"]
                robots_a = [r for r in site.log if r[0] >= since and r[2] == "a.site.test" and
                            r[3] == "/robots.txt" and r[4].get("Authorization") == basic]
            expect(to_b and not [r for r in to_b if "Authorization" in r[4]],
                   f"{how}: b.site.test was sent the login")
            expect(robots_a and [r for r in to_b if r[3] == "/robots.txt"],
                   f"{how}: a's robots.txt was not asked with the login, or its redirect to b's "
                   "not followed")

        since = time.monotonic()
        p = site.crawl("-w", "0", "-H", f"Authorization: {basic}", "-H", "Cookie: c=1",
                       "-H", "X-Team: crawlers", seed)
        with site.lock:
            sent = [(r[2], r[3], r[4]) for r in site.log
                    if r[0] >= since and r[3] != "/robots.txt"]
            robots_b = [r[4] for r in site.log
                        if r[0] >= since and r[2] == "b.site.test" and r[3] == "/robots.txt"]
        # b's robots.txt, asked twice: for a (its redirect, followed as a page's: no -H header
        # goes with it) and for b itself (the header that is no secret), neither with a secret
        expect(all("Authorization" not in h and "Cookie" not in h for h in robots_b) and
               sorted(str(h.get("X-Team")) for h in robots_b) == ["None", "crawlers"],
               f"b's robots.txt got {robots_b}")
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

        # memory running out at any call site of a crawl whose first seed carries the login and
        # whose second does not: it ends saying so, or a's pages get the login (never a crawl
        # that goes on without it)
        shim = os.environ.get("CRAWL_FAILALLOC")
        if shim:
            listing = os.path.join(tmp, "sites")

            def login_run(**env):
                return subprocess.run(
                    [sys.argv[1], "--no-progress", *site.resolve(), "-w", "0", "--jsonl",
                     with_userinfo, site.url("b.site.test", "/page.html")],
                    capture_output=True, text=True, timeout=60,
                    env=dict(os.environ, LD_PRELOAD=shim, **env))
            expect(login_run(CRAWL_ALLOC_SITES=listing).returncode == 0, "no failure: exit")
            with open(listing) as f:
                sites = [line.split()[0] for line in f]

            def logged_in(p):
                status = {r["url"]: r.get("status") for r in records(p)}
                return None if all(status.get(u) in (200, 302) for u in want_a) else \
                    f"a's pages without the login: {status}"

            expect_memory_failures(lambda s: login_run(CRAWL_FAIL_SITE=s), sites, logged_in,
                                   "site")

        # --user alice on a terminal: the password is asked there, with echo off, and used
        out, term = ask_password_on_terminal(
            [CRAWL, "--no-progress", "-w", "0", *site.resolve(), "--user", "alice", seed],
            "Enter password for alice: ", pw)
        expect(out.returncode == 0 and set(out.stdout.split()) >= want_a,
               f"--user alice, the password typed: exit {out.returncode}, {out.stdout!r}, "
               f"{out.stderr!r}")
        expect(pw not in term, f"the typed password was echoed on the terminal: {term!r}")

        state, seen = os.path.join(tmp, "state"), os.path.join(tmp, "seen")
        site.crawl("-w", "0", "--user", f"alice:{pw}", "--state", state, seed)
        site.crawl("-w", "0", "--user", f"alice:{pw}", "--seen", seen, seed)
        for path in (state, os.path.join(state, "checkpoint"), os.path.join(state, "options"),
                     seen):
            mode = os.stat(path).st_mode & 0o777
            expect(mode & 0o077 == 0, f"{path} is mode {mode:o}: others may read it")
    finally:
        site.stop()
