"""Integration cases: The network as users have it: DNS, TLS, HTTP/2, compression, timeouts, proxies, cookies (logins are cases_logins.py)."""
import json
import stat
import threading
from harness import *  # noqa: F401,F403 (the shared harness)


def case_dns_failure(tmp):
    """A host whose lookup fails after the retries: its URLs are failed with the resolver's
    reason (a server failure, a name that does not exist), the crawl goes on. Each name is
    looked up again --retries times, no more: the summary counts one retry for each."""
    web = Web(tmp, hosts=2, pages=20)
    bad = f"http://dnsfail.web.test:{web.port}/"
    missing = f"http://nxdomain.web.test:{web.port}/a.html"
    p = crawl(web, "-w", "0", "--retries", "1", "--jsonl", bad, missing, web.url())
    web.stop()
    recs = {r["url"]: r for r in records(p)}
    # c-ares 1.18 ends a query whose one server answered SERVFAIL as servers it could not reach
    for url, why in ((bad, ("DNS server returned general failure", "Could not contact DNS servers")),
                     (missing, ("Domain name not found",))):
        expect(recs[url]["fate"] == "failed" and
               recs[url]["error"] in [f"DNS lookup failed: {w}" for w in why], f"{url}: {recs[url]}")
    expect(recs[web.url()]["fate"] == "fetched", "the good seed was not fetched")
    expect("2 dns" in p.stderr, f"summary: {p.stderr}")
    expect(" 2 retries;" in p.stderr, f"summary: {p.stderr}")


def case_dns_retried_before_robots(tmp):
    """A lookup that fails at first is retried before anything else of its host: robots.txt is
    fetched once, after the address is known, and curl never resolves a name by itself."""
    web = Web(tmp, hosts=1, pages=5)
    seed = f"http://dnsflaky.web.test:{web.port}/"
    p = crawl(web, "-w", "0", "-v", "--jsonl", seed, check=False)
    expect(p.returncode == 8, f"the seed answered 404: exit {p.returncode}")
    log = web.stop()
    recs = records(p)
    expect(len(recs) == 1 and recs[0].get("status") == 404, f"records {recs}")
    expect([r[3] for r in log] == ["/robots.txt", "/"], f"requests {[r[3] for r in log]}")
    expect("DNS lookup failed" in p.stderr, "the first lookup did not fail")
    expect("resolve host" not in p.stderr, f"curl resolved a name itself: {p.stderr[-400:]}")


def case_stopped_during_a_lookup(tmp):
    """SIGINT while a host's lookup waits on a DNS server that never answers: the crawl pauses
    at once (exit 130) with its seed kept for the next run, and lets go of the lookup (nothing
    leaks under the sanitizers); the next run, whose DNS server answers, fetches the seed."""
    web = Web(tmp, hosts=1, pages=5)
    silent = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    silent.bind(("127.0.0.1", 0))
    silent.settimeout(60)
    state = os.path.join(tmp, "state")
    proc = subprocess.Popen([CRAWL, "--no-progress", "--dns-server",
                             f"127.0.0.1:{silent.getsockname()[1]}", "-w", "0", "-d", "0",
                             "--jsonl", "--state", state, web.url()],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        silent.recvfrom(512)  # the lookup is in flight
    except socket.timeout:
        proc.kill()
        raise AssertionError("no DNS query came in 60 s")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    silent.close()
    expect(proc.returncode == 130, f"paused: exit {proc.returncode}: {err[-400:]}")
    expect(out == "" and "1 queued URLs left for the next run" in err, f"{out!r} {err[-400:]}")
    again = subprocess.run([CRAWL, "--state", state, "--dns-server", f"127.0.0.1:{web.dns}"],
                           capture_output=True, text=True, timeout=60)
    web.stop()
    fetched = [(r["url"], r.get("status")) for r in map(json.loads, again.stdout.splitlines())
               if r["fate"] == "fetched"]
    expect(again.returncode == 0 and fetched == [(web.url(), 200)],
           f"continued: exit {again.returncode} {fetched} {again.stderr[-300:]}")


def case_unreachable_server(tmp):
    """Nothing listening: the seed is failed (not a robots exclusion) with an error naming
    robots.txt and the connection, with the system's reason after curl's words, counted under
    connect, exit status 4; the same with --no-robots, where the page itself fails. With one
    good seed beside it the status is 0."""
    web = Web(tmp, hosts=1, pages=5)
    dead = f"http://dead.web.test:{free_port()}/"
    p = crawl(web, "-w", "0", "--retries", "0", "--jsonl", dead, check=False)
    expect(p.returncode == 4, f"exit status {p.returncode}: {p.stderr}")
    recs = records(p)
    expect(len(recs) == 1 and recs[0]["fate"] == "failed" and recs[0]["error"] ==
           "robots.txt: Couldn't connect to server (Connection refused)" and "status" not in recs[0],
           f"records {recs}")
    expect("1 failed (1 connect), 0 robots exclusions" in p.stderr, f"summary: {p.stderr}")
    expect("no seed could be fetched" in p.stderr, f"summary: {p.stderr}")
    p = crawl(web, "-w", "0", "--retries", "0", "--no-robots", "--jsonl", dead, check=False)
    recs = records(p)
    expect(p.returncode == 4 and recs[0]["fate"] == "failed"
           and "robots.txt" not in recs[0]["error"], f"--no-robots: {p.returncode} {recs}")
    p = crawl(web, "-w", "0", "--retries", "0", "-d", "0", dead, web.url(), check=False)
    web.stop()
    expect(p.returncode == 0, f"one good seed: exit status {p.returncode}")


def case_resolve_without_dns(tmp):
    """--resolve gives the address: no DNS server is needed."""
    web = Web(tmp, hosts=2, pages=30)
    p = crawl(web, "-w", "0", "-d", "1000", "--scope", "host", "--resolve",
              f"s0.web.test:{web.port}:127.0.0.1", web.url(), dns=False)
    web.stop()
    expect_same_set(lines(p), web.truth(web.url(), scope="host"), "--resolve crawl")


def case_hosts_file(tmp):
    """/etc/hosts answers before DNS, as the system's order says ("hosts: files dns"), even with
    --dns-server: a name only the file knows is reached, the first of its lines wins, among a
    blocklist of 100,000 lines (read once, not at every lookup); a name the file lacks still goes
    to the DNS server."""
    web = Web(tmp, hosts=2, pages=20)
    hosts = os.path.join(tmp, "hosts")
    with open(hosts, "w") as f:
        f.write("127.0.0.1 localhost\n")
        f.writelines(f"0.0.0.0 ad{i}.blocked.example\n" for i in range(100000))
        f.write("127.0.0.1 files-only.example\n127.0.0.9 files-only.example\n")
    only = f"http://files-only.example:{web.port}/"
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "0",
           "--retries", "0", "--jsonl", only, web.url()]
    p = subprocess.run(["unshare", "-m", "sh", "-c", f'mount --bind {hosts} /etc/hosts && exec "$@"',
                        "sh", *cmd], capture_output=True, text=True, timeout=120)
    log = web.stop()
    recs = {r["url"]: r for r in records(p)}
    expect(recs.get(only, {}).get("status") == 404, f"{only}: {recs.get(only)}; {p.stderr[-400:]}")
    expect(recs.get(web.url(), {}).get("fate") == "fetched", f"{web.url()}: {recs.get(web.url())}")
    asked = {(r[2].split(":")[0], r[3]) for r in log}
    expect(("files-only.example", "/") in asked and ("s0.web.test", "/") in asked,
           f"requests {sorted(asked)}")


def case_hosts_file_order(tmp):
    """The hosts file and DNS in the order nsswitch.conf gives them: "files dns" takes the file's
    address for a name both know, "dns files" DNS's, and asks the file for a name DNS does not
    know; "files" alone never asks DNS, and a name the file lacks fails as a name not found."""
    web = Web(tmp, hosts=2, pages=5)
    hosts = os.path.join(tmp, "hosts")
    with open(hosts, "w") as f:
        # s0 where nothing listens: reached only if DNS's answer (127.0.0.1) is taken
        f.write("127.0.0.9 s0.web.test\n127.0.0.1 files-only.example\n")
    s0, s1 = web.url("s0"), web.url("s1")
    only = f"http://files-only.example:{web.port}/"
    want = {"files dns": {s0: "failed", s1: "fetched", only: 404},
            "dns files": {s0: "fetched", s1: "fetched", only: 404},
            "files": {s0: "failed", s1: "Domain name not found", only: 404}}
    for order, fates in want.items():
        nsswitch = os.path.join(tmp, "nsswitch-" + order.replace(" ", "-"))
        with open(nsswitch, "w") as f:
            f.write(f"hosts: {order}\n")
        cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d",
               "0", "--retries", "0", "--no-robots", "--jsonl", s0, s1, only]
        p = subprocess.run(["unshare", "-m", "sh", "-c",
                            'mount --bind "$0" /etc/hosts && mount --bind "$1" /etc/nsswitch.conf '
                            '&& shift && exec "$@"', hosts, nsswitch, *cmd],
                           capture_output=True, text=True, timeout=120)
        recs = {r["url"]: r for r in records(p)}
        for url, fate in fates.items():
            r = recs.get(url, {})
            got = (r.get("status") if isinstance(fate, int) else
                   r.get("fate") if fate in ("failed", "fetched") else r.get("error", ""))
            expect(got == fate or (isinstance(got, str) and isinstance(fate, str) and
                                   fate not in ("failed", "fetched") and fate in got),
                   f"{order}: {url}: {r}; {p.stderr[-300:]}")
    web.stop()


def case_tls_verification(tmp):
    """https for real: a CA made with openssl at test time signs the test host's certificate,
    served by openssl s_server. With --cacert the crawl verifies and fetches; against the
    system's CAs it fails with the cause tls (also for robots.txt, counted under tls, exit 4);
    -k skips the check."""
    openssl = shutil.which("openssl")
    pki = make_pki(tmp, "tls.web.test")
    www = os.path.join(tmp, "www")
    os.mkdir(www)
    with open(os.path.join(www, "index.html"), "w") as f:
        f.write('<html><body><a href="next.html">next</a></body></html>\n')
    with open(os.path.join(www, "next.html"), "w") as f:
        f.write("<html><body>end</body></html>\n")
    with open(os.path.join(www, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")
    port = free_port()
    server = subprocess.Popen([openssl, "s_server", "-accept", f"127.0.0.1:{port}", "-WWW",
                               "-quiet", "-cert", os.path.join(pki, "host.pem"),
                               "-key", os.path.join(pki, "host.key")],
                              cwd=www, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        seed = f"https://tls.web.test:{port}/index.html"
        base = [CRAWL, "--no-progress", "--resolve", f"tls.web.test:{port}:127.0.0.1", "-w", "0",
                "--retries", "0", "--jsonl"]

        def run(*extra):
            return subprocess.run(base + list(extra) + [seed], capture_output=True, text=True,
                                  timeout=60)

        p = run("--cacert", os.path.join(pki, "ca.pem"))
        recs = {r["url"]: r for r in records(p)}
        expect(p.returncode == 0 and [recs[u]["fate"] for u in sorted(recs)] == ["fetched"] * 2,
               f"--cacert: exit {p.returncode}, {recs} {p.stderr[-300:]}")
        p = run()
        recs = records(p)
        expect(p.returncode == 4 and len(recs) == 1 and recs[0]["fate"] == "failed"
               and recs[0]["error"].startswith("robots.txt: ") and "1 failed (1 tls)" in p.stderr,
               f"system CAs: exit {p.returncode}, {recs} {p.stderr[-300:]}")
        p = run("-k")
        recs = records(p)
        expect(p.returncode == 0 and len(recs) == 2 and all(r["fate"] == "fetched" for r in recs),
               f"-k: exit {p.returncode}, {recs}")
    finally:
        server.kill()
        server.wait(timeout=10)


def case_http2_multiplexed(tmp):
    """HTTP/2 for real, against Debian's nghttpd over TLS: used when the server offers it; with
    --per-host 4 the host's pages go as streams of one connection, several at once, and with
    --per-host 1 one at a time. Every page is fetched either way. Requests that start together
    before the host's first connection is up (--no-robots, several seeds) wait for it and share
    it, rather than each opening one."""
    nghttpd = shutil.which("nghttpd") or "/usr/sbin/nghttpd"
    expect(os.path.exists(nghttpd), "nghttpd is not installed (Debian nghttp2-server)")
    pki = make_pki(tmp, "h2.web.test")
    www = os.path.join(tmp, "www")
    os.makedirs(os.path.join(www, "p"))
    pages = 40
    with open(os.path.join(www, "index.html"), "w") as f:
        f.write("<html><body>" + "".join(f'<a href="p/{i}.html">{i}</a>' for i in range(10)) +
                "</body></html>\n")
    for i in range(pages):
        with open(os.path.join(www, "p", f"{i}.html"), "w") as f:
            f.write("<html><body>" + "".join(f'<a href="{(i * k + 3) % pages}.html">x</a>'
                                             for k in (3, 7, 11)) + "</body></html>\n")
    with open(os.path.join(www, "robots.txt"), "w") as f:
        f.write("User-agent: *\nDisallow: /private/\n")
    # a tiny page is answered at once: when the crawler runs slowly (ASan: about one crawl in
    # two), a turn's streams may each be done before the next is sent, so "several at once" gets
    # up to eight crawls to show (a plain build shows it in the first)
    runs = [("4", "several", attempt) for attempt in range(8)]
    runs += [("1", "one", 0), ("4", "wait", 0)]
    shown = False
    for per_host, streams, attempt in runs:
        if shown and streams == "several":
            continue
        port = free_port()
        log_path = os.path.join(tmp, f"nghttpd-{per_host}.log")
        with open(log_path, "w") as log:
            server = subprocess.Popen([nghttpd, "-v", "-d", www, "-a", "127.0.0.1", str(port),
                                       os.path.join(pki, "host.key"),
                                       os.path.join(pki, "host.pem")],
                                      stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for_port(port)
            seeds = [f"https://h2.web.test:{port}/"]
            if streams == "wait":  # five at once, no robots.txt first to open the connection
                seeds += [f"https://h2.web.test:{port}/p/{i}.html" for i in range(4)]
            p = subprocess.run([CRAWL, "--no-progress", "--jsonl", "-w", "0", "-d", "1000",
                                "--per-host", per_host, "--retries", "0",
                                *(["--no-robots"] if streams == "wait" else []),
                                "--cacert", os.path.join(pki, "ca.pem"),
                                "--resolve", f"h2.web.test:{port}:127.0.0.1", *seeds],
                               capture_output=True, text=True, timeout=60)
        finally:
            server.terminate()
            server.wait(timeout=10)
        expect(p.returncode == 0, f"--per-host {per_host}: exit {p.returncode}: {p.stderr[-300:]}")
        fetched = [r["url"] for r in records(p) if r["fate"] == "fetched"]
        others = [(r["url"], r["fate"], r.get("error")) for r in records(p) if r["fate"] != "fetched"]
        expect(len(fetched) == pages + 1,
               f"--per-host {per_host}: {len(fetched)} pages fetched; {others[:3]}")
        per_conn, most = h2_streams(log_path)
        expect(sum(per_conn.values()) == pages + 1 + (streams != "wait"),  # and robots.txt
               f"--per-host {per_host}: nghttpd saw {sum(per_conn.values())} requests")
        expect(len(per_conn) == 1, f"--per-host {per_host}: requests over {len(per_conn)} "
               "connections, not one")
        if streams == "several":
            shown = most > 1
            expect(shown or attempt < 7,
                   f"--per-host {per_host}: {most} streams open at once in eight crawls, want several")
        elif streams == "one":
            expect(most == 1, f"--per-host {per_host}: {most} streams open at once, want one")


def case_compression_bombs(tmp):
    """gzip, brotli and zstd bodies are decoded (a link at the start of each is found) and
    --max-size holds against a bomb in each: 256 MiB of HTML in a few hundred KB stops at 1 MiB
    decoded, its later link is never seen, and the crawl's peak memory stays within 40 MB of
    what a crawl of one small page takes."""
    bodies = {"/": ("text/html", None, b"<html><body>" + b"".join(
        f'<a href="/{c}.html">{c}</a>'.encode() for c in ("gzip", "br", "zstd")) +
        b"</body></html>\n")}
    for coding in ("gzip", "br", "zstd"):
        head = f'<html><body><a href="/found-{coding}.html">early</a>'.encode()
        tail = f'<a href="/never-{coding}.html">late</a></body></html>'.encode()
        data = compress(coding, head, 256, tail)
        expect(len(data) < 2 << 20, f"{coding}: the bomb is {len(data)} bytes")
        bodies[f"/{coding}.html"] = ("text/html", coding, data)
        bodies[f"/found-{coding}.html"] = ("text/html", None, b"<html>found</html>\n")
    server, port = serve_encoded(tmp, bodies)
    try:
        def run(seed):
            with open(os.path.join(tmp, "out"), "w+") as out, \
                    open(os.path.join(tmp, "err"), "w+") as err:
                proc = subprocess.Popen([CRAWL, "--no-progress", "--jsonl", "-w", "0", "-d", "3",
                                         "--max-size", "1M", seed], stdout=out, stderr=err)
                _, status, usage = os.wait4(proc.pid, 0)  # its own peak memory, no other child's
                out.seek(0)
                err.seek(0)
                return os.waitstatus_to_exitcode(status), out.read(), err.read(), usage

        # the same crawl of one small page: what the program needs without any bomb
        _, _, _, small = run(f"http://127.0.0.1:{port}/found-gzip.html")
        returncode, out, err, usage = run(f"http://127.0.0.1:{port}/")
    finally:
        server.shutdown()
    expect(returncode == 0, f"exit {returncode}: {err[-300:]}")
    recs = {r["url"].split("/", 3)[3]: r for r in inside([json.loads(x) for x in out.splitlines()])}
    for coding in ("gzip", "br", "zstd"):
        bomb = recs.get(f"{coding}.html")
        expect(bomb and bomb["fate"] == "fetched" and bomb["bytes"] == 1 << 20,
               f"{coding}: {bomb}")
        expect(f"found-{coding}.html" in recs, f"{coding}: the link at its start was not found")
        expect(f"never-{coding}.html" not in recs, f"{coding}: read past --max-size")
    peak_mb, base_mb = usage.ru_maxrss / 1024, small.ru_maxrss / 1024
    print(f"crawl's peak RSS: {peak_mb:.0f} MB for 3 x 256 MiB of decoded bombs, "
          f"{base_mb:.0f} MB for one small page")
    expect(peak_mb < base_mb + 40, f"crawl's peak RSS {peak_mb:.0f} MB, {base_mb:.0f} MB without "
           "the bombs")


def case_proxies(tmp):
    """--proxy and the environment's proxies, through real ones (Proxy): the crawler's own name
    server answers nothing, so a crawl through a proxy that looks names up prints the truth only
    if the proxy looked up every host.
    - --proxy http://USER:PASS@: the truth; every page request is in tinyproxy's log, which asked
      for the login; the password is in no output, -v note or summary.
    - http_proxy in the environment: the same. no_proxy naming the web's domain, and --noproxy
      '*' over http_proxy: direct (the web's name server then), the proxy sees nothing new.
    - --proxy socks5h://: the truth, each host reached through microsocks. socks5:// resolves
      locally: with the dead name server the seed fails on DNS.
    - A scheme curl does not take, in --proxy or in https_proxy: a usage error that does not
      quote the value. --ip-delay through a proxy that looks names up: a note says it cannot
      apply. A --state crawl through it keeps its options, password and all, in a file only its
      owner reads (0600)."""
    web = Web(tmp, hosts=3, pages=20, links=4, seed=2)
    names = [f"s{i}.web.test" for i in range(3)]
    dead_dns = f"127.0.0.1:{free_port()}"
    truth = web.truth(web.url())
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    http = Proxy(tmp, "http", names, login=("alice", "s3cret-pw"))
    socks = Proxy(tmp, "socks", names)
    try:
        def run(*args, dns=dead_dns, **extra):
            cmd = [CRAWL, "--no-progress", "--dns-server", dns, "-w", "0", "-d", "1000", *args]
            return subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                                  env={**env, **extra})

        proxy_url = f"http://alice:s3cret-pw@127.0.0.1:{http.port}"
        for how, p in (("--proxy", run("-v", "--ip-delay", "0.001", "--proxy", proxy_url,
                                       web.url())),
                       ("http_proxy", run("-v", web.url(), http_proxy=proxy_url))):
            expect(p.returncode == 0, f"{how}: exit {p.returncode}: {p.stderr[-300:]}")
            expect_same_set(lines(p), truth, f"through the HTTP proxy ({how})")
            expect("s3cret" not in p.stdout + p.stderr, f"{how}: the password was printed")
            expect(("--ip-delay does not apply" in p.stderr) == (how == "--proxy"),
                   f"{how}: the note on --ip-delay through a proxy: {p.stderr[:300]!r}")
        asked = {(h, path) for _, _, h, path, _ in web.stop()}
        got = http.log(lambda text: all(f"GET http://{h}:{web.port}{path} " in text
                                        for h, path in asked), "every request the web answered")
        for h, path in asked:
            expect(f"GET http://{h}:{web.port}{path} " in got,
                   f"GET http://{h}:{web.port}{path} is not in the proxy's log")
        web = Web(tmp, hosts=3, pages=20, links=4, seed=2)  # a fresh log, the same web
        before = got.count("GET ")
        for how, p in (("no_proxy", run(web.url(), dns=f"127.0.0.1:{web.dns}",
                                        http_proxy=proxy_url, no_proxy="other.example,web.test")),
                       ("--noproxy", run("--noproxy", "*", web.url(), dns=f"127.0.0.1:{web.dns}",
                                         http_proxy=proxy_url))):
            expect(p.returncode == 0, f"{how}: exit {p.returncode}: {p.stderr[-300:]}")
            expect_same_set(lines(p), web.truth(web.url()), f"direct ({how})")
        expect(http.log().count("GET ") == before, "a host named by no_proxy went through the proxy")

        p = run("--proxy", f"socks5h://127.0.0.1:{socks.port}", web.url())
        expect(p.returncode == 0, f"socks5h: exit {p.returncode}: {p.stderr[-300:]}")
        expect_same_set(lines(p), web.truth(web.url()), "through the SOCKS5 proxy (socks5h)")
        got = socks.log(lambda text: all(f"connected to {name}:{web.port}" in text
                                         for name in names), "a connection to every host")
        for name in names:
            expect(f"connected to {name}:{web.port}" in got, f"{name} not reached through socks")
        p = run("--jsonl", "--proxy", f"socks5://127.0.0.1:{socks.port}", web.url())
        recs = records(p)
        expect(p.returncode == 4 and [r["fate"] for r in recs] == ["failed"] and
               "DNS" in recs[0]["error"], f"socks5:// with no name server: exit {p.returncode}, "
               f"{recs}: the name was not looked up here")

        state = os.path.join(tmp, "state")
        p = run("--state", state, "--proxy", proxy_url, web.url())
        expect(p.returncode == 0 and set(lines(p)) == set(web.truth(web.url())),
               f"--state through the proxy: exit {p.returncode}, {p.stderr[-300:]}")
        mode = os.stat(os.path.join(state, "options")).st_mode & 0o777
        expect(mode == 0o600, f"{state}/options, which holds the proxy's password, is {mode:o}")

        p = run("--proxy", "ftp://bob:hunter2@127.0.0.1:1", web.url())
        expect(p.returncode == 2 and "--proxy" in p.stderr and "hunter2" not in p.stderr,
               f"--proxy ftp://: exit {p.returncode}, {p.stderr!r}")
        p = run(web.url(), https_proxy="gopher://bob:hunter2@127.0.0.1:1")
        expect(p.returncode == 2 and "https_proxy" in p.stderr and "hunter2" not in p.stderr,
               f"https_proxy=gopher://: exit {p.returncode}, {p.stderr!r}")
    finally:
        http.stop()
        socks.stop()
        web.stop()


def case_dead_proxy_named(tmp):
    """A proxy that cannot be reached is named, as wget names it: each failure's record and -v
    note say "the proxy http://127.0.0.1:PORT" and why the system refused it, and the summary
    asks whether it is running;
    its password is in none of them. (Nothing listens on the port: no traffic leaves.)"""
    port = free_port()
    p = subprocess.run([CRAWL, "--no-progress", "-v", "--jsonl", "--retries", "0", "--proxy",
                        f"http://alice:pr0xy-pw@127.0.0.1:{port}", "http://a.test:8080/"],
                       capture_output=True, text=True, timeout=60)
    # curl's words, then the system's, which say the proxy refused
    named = f"the proxy http://127.0.0.1:{port}: Couldn't connect to server (Connection refused)"
    recs = records(p)
    expect(p.returncode == 4 and len(recs) == 1 and named in recs[0].get("error", ""),
           f"exit {p.returncode}, records {recs}")
    expect(named in p.stderr and f"is the proxy http://127.0.0.1:{port} running?" in p.stderr,
           f"the proxy is not named: {p.stderr[-600:]!r}")
    expect("pr0xy-pw" not in p.stdout + p.stderr, "the proxy's password was printed")


def case_cookies(tmp):
    """A site behind a session cookie: its front page sets `session` for the whole domain
    (Domain=site.test, so six hosts share it, spread over the shards at -j4) and every other page
    answers 403 without it.
    - By default the cookie is kept and sent back: every page of every host is fetched, by one
      jar whatever the -j. --save-cookies writes it (Netscape format, mode 0600), and into a
      pipe or device it names (never a file renamed over it).
    - --no-cookies: the pages are 403, no request carries a Cookie.
    - --load-cookies with the saved file, seeded past the front page: the pages open at once.
    - --state: paused after the front page, continued with `crawl --state DIR`: the session
      goes on (DIR/cookies, mode 0600), though the front page is not fetched again."""
    hosts = [f"h{i}.site.test" for i in range(6)]
    chain = [f"/p{i}.html" for i in range(4)]

    def respond(host, path, headers):
        if path == "/":
            links = "".join(f'<a href="http://{h}:{site.port}{chain[0]}">x</a>' for h in hosts)
            return 200, {"Set-Cookie": "session=opensesame; Domain=site.test; Path=/"}, links
        if path in chain:
            if "session=opensesame" not in headers.get("Cookie", ""):
                return 403, {}, "<p>log in first</p>"
            i = chain.index(path)
            return 200, {}, f'<a href="{chain[i + 1]}">next</a>' if i + 1 < len(chain) else "end"
        return None

    site = Site(hosts, respond)
    try:
        jar = os.path.join(tmp, "jar.txt")
        p = site.crawl("-w", "0", "-d", "9", "--jsonl", "--save-cookies", jar, site.url(hosts[0]))
        recs = records(p)
        pages = [r for r in recs if r["url"].endswith(".html")]
        expect(len(pages) == len(hosts) * len(chain) and
               all(r["fate"] == "fetched" and r["status"] == 200 for r in pages),
               f"with cookies: {[(r['url'], r.get('status')) for r in pages if r.get('status') != 200][:5]}"
               f" of {len(pages)}")
        expect(os.stat(jar).st_mode & 0o777 == 0o600, f"--save-cookies made {jar} "
               f"{os.stat(jar).st_mode & 0o777:o}")
        with open(jar) as f:
            saved = f.read()
        expect(saved.startswith("# Netscape HTTP Cookie File") and
               re.search(r"^\S*site\.test\tTRUE\t/\t\S+\t\d+\tsession\topensesame$", saved, re.M),
               f"the saved jar: {saved!r}")
        # a jar named where no file is (a pipe, a device such as /dev/null) is written into it,
        # never replaced by a file renamed over it
        fifo = os.path.join(tmp, "jar.fifo")
        os.mkfifo(fifo)
        got = []
        reader = threading.Thread(target=lambda: got.append(open(fifo).read()), daemon=True)
        reader.start()
        p = site.crawl("-w", "0", "-d", "0", "--load-cookies", jar, "--save-cookies", fifo,
                       site.url(hosts[5], chain[-1]))
        reader.join(30)  # at once when the crawl wrote into the pipe; never when it replaced it
        expect(stat.S_ISFIFO(os.stat(fifo).st_mode) and got and "\tsession\topensesame" in got[0],
               f"--save-cookies into a pipe: {os.stat(fifo).st_mode:o}, {got!r}")
        expect(p.returncode == 0 and "cookies" not in p.stderr,  # a pipe has no fsync to fail
               f"--save-cookies into a pipe: exit {p.returncode}, {p.stderr[-300:]!r}")

        since = time.monotonic()
        p = site.crawl("-w", "0", "--jsonl", "--no-cookies", site.url(hosts[0]))
        statuses = {r["url"]: r.get("status") for r in records(p) if r["url"].endswith(".html")}
        expect(len(statuses) == len(hosts) and set(statuses.values()) == {403},
               f"--no-cookies: {statuses}")
        with site.lock:
            sent = [r for r in site.log if r[0] >= since and "Cookie" in r[4]]
        expect(not sent, f"--no-cookies sent a Cookie: {sent[:2]}")

        p = site.crawl("-w", "0", "-d", "9", "--jsonl", "--load-cookies", jar,
                       site.url(hosts[3], chain[0]))
        got = [(r["url"], r.get("status")) for r in records(p)]
        expect(len(got) == len(chain) and all(st == 200 for _, st in got),
               f"--load-cookies: {got}")

        state = os.path.join(tmp, "state")
        cmd = [CRAWL, "--no-progress", *site.resolve(), "-w", "0.4", "-d", "9", "--jsonl", "--checkpoint",
               "0.1", "--state", state, site.url(hosts[0])]
        asked = len(site.log)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_until(lambda: len([r for r in site.log[asked:] if r[3] != "/robots.txt"]) >= 4,
                   "the front page, and a few of the pages after it", proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        expect(proc.returncode == 130, f"paused: exit {proc.returncode}: {err[-300:]}")
        mode = os.stat(os.path.join(state, "cookies")).st_mode & 0o777
        expect(mode == 0o600, f"{state}/cookies is {mode:o}")
        again = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True,
                               timeout=90)
        expect(again.returncode == 0, f"continued: exit {again.returncode}: {again.stderr[-300:]}")
        recs = inside([json.loads(line) for line in (out + again.stdout).splitlines()])
        pages = {r["url"]: r.get("status") for r in recs if r["url"].endswith(".html")}
        expect(len(pages) == len(hosts) * len(chain) and set(pages.values()) == {200},
               f"across the pause: {sorted(pages.items())[:6]}")
        fronts = [r for r in site.log if r[3] == "/"]
        expect(len(fronts) == 3,
               f"the front page was fetched {len(fronts)} times by the 3 crawls seeded there")
    finally:
        site.stop()


def case_timeouts(tmp):
    """--timeout: a server that does not answer fails the request at the limit, as a timeout,
    counted so in the summary. --connect-timeout: a server whose accept queue is full never
    completes the handshake; the connection is given up at that limit. Neither waits for a fixed
    time: the server holds its answer until the crawl has ended (a crawl that never timed out
    would run into the harness's timeout), and the limit is read from when the request reached
    the server to the record's time, not from the crawl's whole run."""
    host = "hang.test"
    release, arrived = threading.Event(), []

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        if path == "/slow":
            arrived.append(time.time())
            release.wait(60)
        return 200, {}, "<html><body>ok</body></html>"

    site = Site([host], respond)
    try:
        p = site.crawl("-w", "0", "--retries", "0", "--timeout", "1", "--jsonl",
                       site.url(host, "/slow"), site.url(host, "/fast"), timeout=30)
        release.set()
        got = {r["url"]: r for r in records(p)}
        slow, fast = got[site.url(host, "/slow")], got[site.url(host, "/fast")]
        expect(slow["fate"] == "failed" and slow["error"] == "Timeout was reached", f"{slow}")
        expect(fast["fate"] == "fetched", f"{fast}")
        # the limit is 1 s from the transfer's start, a little of which passed before the request
        # reached the server (more on a busy machine); a tenth of it or ten times it (the unit
        # taken wrongly) would be 0.1 or 10
        held = record_time(slow) - arrived[0]
        expect(len(arrived) == 1 and 0.5 <= held < 5,
               f"--timeout 1: the request was held {held:.2f}s")
        expect("1 timeout" in p.stderr, f"summary: {p.stderr}")
    finally:
        release.set()
        site.stop()
    # a listening socket whose accept queue is full: new handshakes are not answered
    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen(0)
    port = blocker.getsockname()[1]
    fillers = []
    try:
        for _ in range(4):
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            fillers.append(s)
        time.sleep(0.2)
        started = time.monotonic()
        p = subprocess.run([CRAWL, "--no-progress", "--retries", "0", "--connect-timeout", "1",
                            "--jsonl", "--resolve", f"full.test:{port}:127.0.0.1",
                            f"http://full.test:{port}/"], capture_output=True, text=True,
                           timeout=30)
        elapsed = time.monotonic() - started
        recs = records(p)
        expect(p.returncode == 4 and len(recs) == 1 and recs[0]["fate"] == "failed"
               and "Timeout was reached" in recs[0]["error"], f"exit {p.returncode}: {recs}")
        # a timer never fires early; the crawl's start and exit are all else it counts, and a
        # limit taken ten times over would be 10 s
        expect(0.9 <= elapsed < 5, f"--connect-timeout 1 took {elapsed:.2f}s")
    finally:
        for s in fillers:
            s.close()
        blocker.close()


def case_headers_sent(tmp):
    """-H adds its headers to every request, robots.txt's included; -U is the User-Agent of each;
    without -U it is crawl/VERSION."""
    host = "hdr.test"

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        return 200, {}, html_links("/a", "/b") if path == "/" else "<html>leaf</html>"

    site = Site([host], respond)
    try:
        site.crawl("-w", "0", "-H", "X-Team: crawlers", "-H", "Accept-Language: fr",
                   "-U", "testbot/1.0", site.url(host))
        expect(len(site.log) == 4, f"requests {site.paths()}")
        for r in site.log:
            h = r[4]
            expect(h.get("X-Team") == "crawlers" and h.get("Accept-Language") == "fr"
                   and h.get("User-Agent") == "testbot/1.0", f"{r[3]}: headers {h}")
        since = time.monotonic()
        site.crawl("-w", "0", "-d", "0", site.url(host))
        version = subprocess.run([CRAWL, "--version"], capture_output=True, text=True).stdout
        for r in site.log:
            if r[0] >= since:
                agent = r[4].get("User-Agent", "")
                expect(re.fullmatch(r"crawl/\S+", agent) and agent.split("/")[1] in version
                       and "X-Team" not in r[4], f"{r[3]}: headers {r[4]}")
    finally:
        site.stop()


def case_protocol_errors(tmp):
    """A server that breaks HTTP: a response head with a 300 KB header line, a reply that is no
    HTTP at all, a chunked body whose second chunk has no hexadecimal size. Each URL fails with
    the cause protocol and words that say so (not "Out of memory", not a connection failure), is
    not retried, and the summary counts them."""
    import threading
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    asked = Counter()

    def answer(conn):
        with conn:
            try:
                request = conn.recv(65536).decode("latin-1")
                path = request.split(" ")[1] if " " in request else "?"
                asked[path] += 1
                if path == "/big":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 300000 +
                                 b"\r\nContent-Length: 2\r\n\r\nhi")
                elif path == "/chunks":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                                 b"Transfer-Encoding: chunked\r\n\r\n"
                                 b"5\r\n<p>hi\r\nzz\r\n<a href=/x>\r\n0\r\n\r\n")
                else:
                    conn.sendall(b"this is no HTTP\r\n\r\n")
            except OSError:
                pass

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        urls = [f"http://bad.test:{port}/big", f"http://bad.test:{port}/weird",
                f"http://bad.test:{port}/chunks"]
        p = subprocess.run([CRAWL, "--no-progress", "--no-robots", "-w", "0", "-d", "0", "--jsonl",
                            "--resolve", f"bad.test:{port}:127.0.0.1", *urls],
                           capture_output=True, text=True, timeout=60)
    finally:
        listener.close()
    recs = {r["url"]: r for r in records(p)}
    big, weird, chunks = recs[urls[0]], recs[urls[1]], recs[urls[2]]
    expect(big["fate"] == "failed" and "response head past curl's limit" in big["error"], f"{big}")
    expect(weird["fate"] == "failed" and "Out of memory" not in weird["error"] and
           "connect" not in weird["error"].lower(), f"{weird}")
    expect(chunks["fate"] == "failed" and "chunk" in chunks["error"] and
           "connect" not in chunks["error"].lower(), f"{chunks}")
    expect("3 failed (3 protocol)" in p.stderr, f"summary: {p.stderr}")
    expect(asked == {"/big": 1, "/weird": 1, "/chunks": 1}, f"asked {asked}: retried")


def case_private_redirects(tmp):
    """A redirect from a loopback host into a private address (10.77.0.9) is refused before any
    connection, for a robots.txt and for a page (with robots.txt and without), the error naming
    --allow-private; with it they are followed. A redirect to another origin (robots.txt's or a page's) carries none of the -H
    headers, which every other request has. Run in a network namespace of its own."""
    if not in_private_netns("private_redirects"):
        return

    def respond(host, path, headers):
        if host == "a.test" and path == "/robots.txt":
            return 301, {"Location": site.url("in.a.test", "/robots.txt")}, ""
        if host == "in.a.test" and path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nAllow: /\n"
        if host == "c.test" and path == "/":
            return 200, {}, html_links("/go")
        if host == "c.test" and path == "/go":
            return 302, {"Location": site.url("in.c.test", "/x")}, ""
        if host == "h.test" and path == "/robots.txt":
            return 301, {"Location": site.url("r.h.test", "/hop-robots.txt")}, ""
        if host == "r.h.test" and path == "/hop-robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nAllow: /\n"
        if host == "h.test" and path == "/":
            return 200, {}, html_links("/go")
        if host == "h.test" and path == "/go":
            return 302, {"Location": site.url("r.h.test", "/landing")}, ""
        if host == "r.h.test" and path == "/landing":
            return 200, {}, html_links("/after")
        if path in ("/", "/x", "/after"):
            return 200, {}, "<p>page</p>"
        return None

    site = Site(["a.test", "c.test", "h.test", "r.h.test"], respond, bind="0.0.0.0")
    inside = [a for h in ("in.a.test", "in.c.test") for a in
              ("--resolve", f"{h}:{site.port}:10.77.0.9")]
    seeds = [site.url(h) for h in ("a.test", "c.test", "h.test")]
    try:
        p = site.crawl("-w", "0", "-H", "X-Test: yes", "--jsonl", *inside, *seeds, check=False)
        recs = {r["url"]: r for r in records(p)}
        refused = "to the private address 10.77.0.9 (--allow-private allows it)"
        a, x = recs.get(site.url("a.test")), recs.get(site.url("in.c.test", "/x"))
        expect(a and a["fate"] == "failed" and a["error"].startswith("robots.txt: redirected "
                                                                     "from a loopback address")
               and refused in a["error"], f"robots.txt redirected inside: {a}")
        expect(x and x["fate"] == "failed" and refused in x["error"], f"page redirected: {x}")
        asked = [(h, path) for _, _, h, path, _ in site.log]
        expect(not [r for r in asked if r[0].startswith("in.")], f"a refused address was asked: {asked}")
        with_header = {(h, path): hdrs.get("X-Test") for _, _, h, path, hdrs in site.log}
        expect(with_header.get(("r.h.test", "/hop-robots.txt"), "none") is None and
               with_header.get(("r.h.test", "/landing"), "none") is None,
               f"-H followed a redirect to another origin: {with_header}")
        expect(with_header.get(("h.test", "/")) == "yes" and
               with_header.get(("h.test", "/robots.txt")) == "yes" and
               with_header.get(("r.h.test", "/after")) == "yes",
               f"-H missing where it belongs: {with_header}")
        # the page's own check, which robots.txt's refusal came before above
        p = site.crawl("-w", "0", "--no-robots", "--jsonl", *inside, site.url("c.test"),
                       check=False)
        x = {r["url"]: r for r in records(p)}.get(site.url("in.c.test", "/x"))
        expect(x and x["fate"] == "failed" and refused in x["error"],
               f"--no-robots: page redirected: {x}")
        expect(not [r for r in site.log if r[2].startswith("in.")], "--no-robots: a refused "
               "address was asked")
        p = site.crawl("-w", "0", "--allow-private", "--jsonl", *inside, *seeds)
        fates = {r["url"]: r["fate"] for r in records(p)}
        expect(fates.get(site.url("a.test")) == "fetched" and
               fates.get(site.url("in.c.test", "/x")) == "fetched",
               f"--allow-private: {fates}")
    finally:
        site.stop()


def case_broad_crawl_spares_source_ports(tmp):
    """A crawl of many hosts at one address does not run out of source ports. Each connection
    the crawl will not keep ends with a request that says `Connection: close`, and the crawl
    closes its socket only once the server has closed (fetch/linger.c), so the server holds the
    closed connection's TIME_WAIT: the crawl's side holds none, and its next connection to that
    address may take the same port. In a network namespace of its
    own where the client never reuses a port in TIME_WAIT (net.ipv4.tcp_tw_reuse 0, as on every
    address but loopback) and 500 source ports are free, a web of 3,000 hosts of one page each,
    every host at one address and port, is crawled at -w 0 -c 8 with every page fetched at its
    depth. Where the crawl closed first, connections failed ("Couldn't connect to server") from
    about the 500th on."""
    if not in_private_netns("broad_crawl_spares_source_ports"):
        return
    for key, value in (("net/ipv4/tcp_tw_reuse", "0"),
                       ("net/ipv4/ip_local_port_range", "40000 40499")):
        with open("/proc/sys/" + key, "w") as f:
            f.write(value)
    web = Web(tmp, hosts=3000, pages=1, links=10, markup=("--html-only",))
    try:
        p = crawl(web, "--jsonl", "-w", "0", "-c", "8", "-d", "1000000", "-D", "web.test",
                  web.url(), timeout=120, check=False)
        recs = records(p)
        unreached = [r for r in recs if r["fate"] == "failed" and "status" not in r]
        expect(p.returncode == 0 and not unreached, f"exit {p.returncode}, {len(unreached)} "
               f"pages not reached: {unreached[:2]} {p.stderr[-300:]}")
        truth = web.truth(web.url(), domains="web.test")
        expect(len(truth) > 1000, f"the web's truth has {len(truth)} pages")
        expect_truth(recs, truth, "records")
    finally:
        web.stop()
