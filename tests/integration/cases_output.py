"""Integration cases: What a user sees: the printed URLs and records, standard error, options (the report and exit statuses are cases_report.py, the status line on a terminal cases_terminal.py, the install cases_install.py)."""
from harness import *  # noqa: F401,F403 (the shared harness)


def case_full_crawl(tmp):
    """The printed set is the ground truth; robots.txt first and obeyed; nothing out of scope."""
    web = Web(tmp, hosts=6, pages=80)
    p = crawl(web, "-w", "0", "-d", "1000", web.url())
    log = web.stop()
    got = lines(p)
    expect_unique(got, "URL")
    expect_same_set(got, web.truth(web.url()), "printed set")
    expect(not [r for r in log if r[3].startswith("/private/")], "a robots-disallowed path was requested")
    expect(not [r for r in log if "elsewhere" in r[2]], "an out-of-scope host was requested")
    first = {}
    for r in sorted(log):
        first.setdefault(r[2], r[3])
    expect(all(path == "/robots.txt" for path in first.values()), f"robots.txt not first: {first}")
    requested = [(r[2], r[3]) for r in log]
    expect_unique(requested, "request")
    expect("pages fetched" in p.stderr, "no summary on standard error")


def case_jsonl_fates(tmp):
    """--jsonl: one record per printed URL, with the fate the ground truth gives it."""
    web = Web(tmp, hosts=3, pages=60)
    p = crawl(web, "-w", "0", "-d", "1000", "--jsonl", web.url())
    web.stop()
    recs = records(p)
    expect_unique([r["url"] for r in recs], "record")
    truth = web.truth(web.url())
    expect_same_set([r["url"] for r in recs], truth, "records")
    for r in recs:
        fate = truth[r["url"]][0]
        expect(r["fate"] == fate, f"{r['url']}: fate {r['fate']}, want {fate}")
        if r["fate"] == "fetched":
            expect(r["status"] in (200, 301) and r["bytes"] >= 0 and r["ms"] >= 0 and "type" in r,
                   f"fetched record lacks fields: {r}")
        if r["fate"] == "failed":
            expect(r["status"] == 404 and "error" in r, f"failed record: {r}")
        m = re.search(r"/r/(\d+)$", r["url"])
        if m:  # a redirect's record names its target
            target = r["url"][:m.start()] + ("/" if m.group(1) == "0" else f"/p/{m.group(1)}.html")
            expect(r.get("location") == target, f"redirect record: {r}")
        else:
            expect("location" not in r, f"location in a record that is no redirect: {r}")
        expect(r["from"] is None if r["url"] == web.url() else isinstance(r["from"], str),
               f"from: {r}")


def case_head_closes_early(tmp):
    """`crawl ... | head -n 3`: three lines, exit status 0, nothing on standard error, and the
    crawl ends then: at -w 0.05 the whole web would take 800 requests and 10 s at least (a floor
    no machine shortens), and it makes fewer than 100."""
    web = Web(tmp, hosts=4, pages=200)
    cmd = (f"set -o pipefail; '{CRAWL}' --dns-server 127.0.0.1:{web.dns} -w 0.05 -d 1000 "
           f"'{web.url()}' 2>'{tmp}/err' | head -n 3")
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=60)
    asked = len(web.stop())
    expect(p.returncode == 0, f"exit status {p.returncode}")
    expect(len(p.stdout.splitlines()) == 3, f"output {p.stdout!r}")
    with open(f"{tmp}/err") as f:
        err = f.read()
    expect(err == "", f"standard error: {err!r}")
    expect(asked < 100, f"{asked} requests after head had its three lines")


def case_output_file_and_input(tmp):
    """-i FILE (a comment, a blank line, a seed with spaces around it) and -o FILE with -q: the
    URLs of both seeds' crawl in the file, nothing on standard output or error."""
    web = Web(tmp, hosts=2, pages=30)
    seeds = os.path.join(tmp, "seeds.txt")
    with open(seeds, "w") as f:
        f.write(f"# seeds\n\n{web.url()}\n  {web.url('s1')}  \n")
    out = os.path.join(tmp, "out.txt")
    p = crawl(web, "-w", "0", "-d", "1000", "-q", "-i", seeds, "-o", out)
    web.stop()
    expect(p.stdout == "" and p.stderr == "", "-o/-q: something on stdout or stderr")
    with open(out) as f:
        got = f.read().splitlines()
    expect_same_set(got, web.truth(web.url(), web.url("s1")), "-i/-o crawl")


def case_seed_file_bad_lines(tmp):
    """A seed file with lines that are no seed URL (another scheme, a bad port, a space in a
    host): each is skipped with a note naming the file and line, and the crawl goes on from the
    good ones; -q keeps the notes back. A file of bad lines only is a usage error. Past 20 such
    lines the rest are counted in one note; a line with a NUL byte is skipped; a file that never
    ends a line (/dev/zero) or a directory is a usage error. A --state crawl begun with the file
    goes on with the seeds it read, without a word of its bad lines."""
    web = Web(tmp, hosts=2, pages=30)
    seeds = os.path.join(tmp, "seeds.txt")
    with open(seeds, "w") as f:
        # a comment of one character, and a seed with blanks after it, are read as such
        f.write(f"# seeds\n{web.url()}\nftp://files.example/\n\nmailto:x@s1.web.test\n"
                f"http://s1.web.test:99999/\n{web.url('s1')} \t\n#\n")
    p = crawl(web, "-w", "0", "-d", "1000", "-i", seeds)
    expect_same_set(lines(p), web.truth(web.url(), web.url("s1")), "the good seeds")
    notes = [line for line in p.stderr.splitlines() if "not a seed URL, skipped" in line]
    expect([n.split(": not")[0] for n in notes] ==
           [f"crawl: {seeds}:3", f"crawl: {seeds}:5", f"crawl: {seeds}:6"], f"notes {notes}")
    # a --state crawl keeps the seeds it read (state_keeps_its_seeds): going on, it says
    # nothing of the file's bad lines
    state = os.path.join(tmp, "state")
    crawl(web, "-w", "0", "-n", "2", "--state", state, "-i", seeds)
    p = crawl(web, "--state", state, check=False)
    expect(p.returncode == 0 and "not a seed URL" not in p.stderr,
           f"continued: exit {p.returncode}, {p.stderr[-300:]!r}")
    quiet = crawl(web, "-q", "-w", "0", "-d", "0", "-i", seeds)
    expect(quiet.stderr == "", f"-q: {quiet.stderr!r}")
    with open(seeds, "w") as f:
        f.write("ftp://files.example/\nmailto:x@y.example\n")
    p = crawl(web, "-i", seeds, check=False)
    expect(p.returncode == 2 and "no seed URL given" in p.stderr and p.stderr.count("skipped") == 2,
           f"bad lines only: exit {p.returncode}, {p.stderr!r}")
    # a line cut by a NUL byte is no URL; a file of garbage gives 20 notes and a count, not a note
    # a line
    with open(seeds, "wb") as f:
        f.write(f"{web.url()}\0junk\n".encode() + b"ftp://x/\n" * 25 + f"{web.url()}\n".encode())
    p = crawl(web, "-w", "0", "-d", "0", "-i", seeds)
    notes = [line for line in p.stderr.splitlines() if "not a seed URL, skipped" in line]
    expect(web.url() in lines(p) and len(notes) == 20 and "(a NUL byte)" in notes[0] and
           f"crawl: {seeds}: 6 more lines that are no seed URL skipped" in p.stderr,
           f"garbage lines: {lines(p)}, {p.stderr!r}")
    # a file that never ends a line is refused at its bound, not read into memory whole; a
    # directory at its first read
    for path, said in (("/dev/zero", "/dev/zero:1: a line longer than 1 MiB"),
                       (tmp, "Is a directory")):
        p = crawl(web, "-i", path, check=False)
        expect(p.returncode == 2 and said in p.stderr, f"-i {path}: {p.returncode} {p.stderr!r}")
    web.stop()


def case_usage_errors(tmp):
    """A bad option or value, no seed, or a seed that is no http(s) URL: exit 2, one line naming
    what is wrong and one pointing to --help, nothing on standard output; each refusal of a
    user agent says what is wrong with it. A file read more than once named as a pipe that nobody
    writes is refused at once (opening it to check would wait for a writer)."""
    pipe = os.path.join(tmp, "pipe")
    os.mkfifo(pipe)
    for args, word in [(["--bogus"], "--bogus"), (["-d", "x", "a.test"], "--depth"),
                       (["-w", "-1", "a.test"], "--delay"), (["-U", "", "a.test"], "--user-agent"),
                       (["--scope", "planet", "a.test"], "--scope"), ([], "seed"),
                       (["ftp://a.test/"], "ftp://a.test/"), (["--max-size", "10Q", "a.test"], "--max-size"),
                       (["--resolve", "bad", "a.test"], "--resolve"), (["--match", "(", "a.test"], "--match"),
                       (["-c", "0", "a.test"], "--concurrency"), (["--timeout"], "--timeout"),
                       (["-T", "0", "a.test"], "--timeout"),
                       (["-d", "infinite", "a.test"], "--depth"),
                       (["-A", "*.p?f", "a.test"], "--accept-ext"),
                       (["-R", "tar.", "a.test"], "--reject-ext"),
                       (["--queue-disk", "5X", "a.test"], "--queue-disk"),
                       (["--max-path-repeat", "-1", "a.test"], "--max-path-repeat"),
                       (["--max-path-segments", "x", "a.test"], "--max-path-segments"),
                       (["--max-query-variants", "1.5", "a.test"], "--max-query-variants"),
                       (["--fp-rate", "1e-300", "a.test"], "--fp-rate"),
                       (["--dns-server", "nonsense", "a.test"], "--dns-server"),
                       (["--dns-server", "127.0.0.1:53,[::1]:0", "a.test"], "--dns-server"),
                       (["--load-cookies", tmp, "a.test"], "--load-cookies"),
                       (["--cacert", tmp, "a.test"], "--cacert"),
                       (["--netrc-file", tmp, "a.test"], "--netrc-file"),
                       (["--cacert", pipe, "a.test"], "--cacert: a pipe"),
                       (["--netrc-file", pipe, "a.test"], "--netrc-file: a pipe"),
                       (["--load-cookies", pipe, "a.test"], "--load-cookies: a pipe"),
                       (["-H", "X-Trace Id: 1", "a.test"], "--header"),
                       (["-H", "X-Id\x01: 1", "a.test"], "--header"),
                       (["-H", "X-Id: 1\r\nX-Injected: 2", "a.test"], "--header"),
                       (["-H", "X-Id: 1\x1b[2J", "a.test"], "--header"),
                       (["-H", "X-Id: 1\x7f", "a.test"], "--header"),
                       (["-U", "bot\r\nX-Injected: 1", "a.test"], "--user-agent"),
                       (["mailto:x@a.test"], "mailto:x@a.test"),
                       (["--cluster", "redis://127.0.0.1:1/j", "--nodes", "4097", "a.test"],
                        "'4097' for --nodes: a whole number from 1 to 4096"),
                       (["--netrc-file", "/nonexistent/netrc", "a.test"],
                        "'/nonexistent/netrc' for --netrc-file: No such file or directory"),
                       (["--cluster", "redis://127.0.0.1:1/j", "--nodes", "3", "--node", "3",
                         "a.test"], "--node: a whole number from 0 to 2")]:
        p = subprocess.run([CRAWL, *args], capture_output=True, text=True, timeout=10)
        expect(p.returncode == 2, f"{args}: exit {p.returncode}")
        err = p.stderr.splitlines()
        expect(len(err) == 2 and word in err[0] and "--help" in err[1], f"{args}: {p.stderr!r}")
        expect(p.stdout == "", f"{args}: stdout {p.stdout!r}")
    # a tab is the one control byte a header's value may hold: taken, the next option is the one
    # refused
    p = subprocess.run([CRAWL, "-H", "X-Id: a\tb", "--max-redirs", "x", "a.test"],
                       capture_output=True, text=True, timeout=10)
    expect(p.returncode == 2 and "--max-redirs" in p.stderr and "--header" not in p.stderr,
           f"a tab in -H: {p.stderr!r}")
    # each refusal of a user agent says what is wrong with it
    for agent, why in (("", "must not be empty"), ("bot\r\nX-Injected: 1", "control characters"),
                       ("/1.0", "must start with a product token")):
        p = subprocess.run([CRAWL, "-U", agent, "a.test"], capture_output=True, text=True,
                           timeout=10)
        expect(p.returncode == 2 and why in p.stderr, f"-U {agent!r}: {p.stderr!r}")
    for flag in ("--help", "--version", "-h", "-V"):
        p = subprocess.run([CRAWL, flag], capture_output=True, text=True, timeout=10)
        expect(p.returncode == 0 and p.stdout and not p.stderr, f"{flag}: {p.returncode}")


def case_option_bounds(tmp):
    """Both sides of every bounded option: its least and its greatest value are taken, one below
    and one above are refused (exit 2, one line naming the option and a line pointing to --help,
    nothing on standard output). A value taken is seen by the error that follows it, which is
    about the seed (ftp://a.test/, given for that) and not the option."""
    most = str(2 ** 63 - 1)
    past = str(2 ** 63)
    bounds = [
        ("--max-sitemaps", "1", "1000000", "0", "1000001"),
        ("--sitemap-depth", "0", "100", "-1", "101"),
        ("--depth", "0", "1000000", "-1", "1000001"),
        ("--max-pages", "1", most, "0", past),
        ("--max-pages-per-host", "1", most, "0", past),
        ("--max-url-length", "16", "1048576", "15", "1048577"),
        ("--max-path-repeat", "0", "1000000", "-1", "1000001"),
        ("--max-path-segments", "0", "1000000", "-1", "1000001"),
        ("--max-query-variants", "0", most, "-1", past),
        ("--delay", "0", "24h", "-0.001", "86400.001"),
        ("--delay-factor", "0", "1000", "-0.1", "1000.1"),
        ("--max-delay", "0", "1440m", "-1", "1441m"),
        ("--ip-delay", "0ms", "86400s", "-1ms", "86401"),
        ("--per-host", "1", "1000", "0", "1001"),
        ("--concurrency", "1", "10000", "0", "10001"),
        ("--threads", "1", "256", "0", "257"),
        ("--timeout", "1ms", "24h", "0.0009", "24.001h"),
        ("--connect-timeout", "0.001", "86400", "0", "86401"),
        ("--retries", "0", "100", "-1", "101"),
        ("--max-redirs", "0", "100", "-1", "101"),
        ("--rate", "0.001", "1000000", "0.0009", "1000001"),
        ("--max-time", "1ms", "8760h", "0", "8761h"),
        ("--checkpoint", "0.1", "86400", "0.09", "86401"),
        ("--expect", "1", str(1 << 40), "0", str((1 << 40) + 1)),
        ("--queue-memory", "1", str(1 << 40), "0", str((1 << 40) + 1)),
        ("--fp-rate", "1e-15", "0.4999", "1e-16", "0.5"),
    ]
    seed = "ftp://a.test/"
    for option, least, greatest, below, above in bounds:
        for value, taken in ((least, True), (greatest, True), (below, False), (above, False)):
            p = subprocess.run([CRAWL, option, value, seed], capture_output=True, text=True,
                               timeout=10)
            err = p.stderr.splitlines()
            expect(p.returncode == 2 and len(err) == 2 and "--help" in err[1] and not p.stdout,
                   f"{option} {value}: exit {p.returncode}, {p.stderr!r}")
            named = (seed in err[0] and option not in err[0]) if taken else option in err[0]
            expect(named, f"{option} {value} {'taken' if taken else 'refused'}? {err[0]!r}")


def case_output_errors(tmp):
    """Only a closed pipe is a quiet end: a full disk (/dev/full as standard output or as -o)
    is fatal with one line naming the output and the error, exit status 1; --seen is not saved
    (no line was written, so no URL counts as settled) and says so. A --seen file that cannot
    be written is refused before the first request."""
    web = Web(tmp, hosts=2, pages=30)
    seen = os.path.join(tmp, "full.seen")
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "1000"]
    with open("/dev/full", "w") as full:
        p = subprocess.run(cmd + ["--seen", seen, web.url()], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=60)
    err = p.stderr.splitlines()
    expect(p.returncode == 1, f"exit status {p.returncode}: {p.stderr}")
    expect(len(err) == 2 and "standard output" in err[1] and "No space left on device" in err[1]
           and err[0] == "crawl: --seen not saved: standard output could not be written",
           f"standard error: {p.stderr!r}")
    expect(not os.path.exists(seen), "--seen was saved though no URL was written")
    again = crawl(web, "-w", "0", "-d", "0", "--seen", seen, web.url())
    expect(again.returncode == 0 and web.url() in lines(again),
           f"the next run does not print the seed again: {again.stdout!r}")
    p = crawl(web, "-w", "0", "-d", "1000", "-o", "/dev/full", web.url(), check=False)
    err = p.stderr.splitlines()
    expect(p.returncode == 1 and len(err) == 1 and "/dev/full" in err[0]
           and "No space left on device" in err[0], f"-o /dev/full: {p.returncode} {p.stderr!r}")
    before = time.monotonic()
    p = crawl(web, "-w", "0", "--seen", "/proc/nope/crawl.seen", web.url(), check=False)
    log = web.stop()
    err = p.stderr.splitlines()
    expect(p.returncode == 1 and len(err) == 1 and "/proc/nope/crawl.seen" in err[0],
           f"unwritable --seen: {p.returncode} {p.stderr!r}")
    expect(not [r for r in log if r[0] >= before], "requests made with an unwritable --seen")


def case_head_stops_at_once(tmp):
    """`crawl -A epub ... | head -n 1`: the one epub URL (a seed) is printed, head goes away, and
    crawl notices from its event loop although it has nothing more to write: it ends within a
    second, quietly, with status 0, and starts no request after head has gone."""
    web = Web(tmp, hosts=4, pages=200)
    book = web.url("s0", "/book.epub")
    proc = subprocess.Popen([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}",
                             "-w", "0.05", "-d", "1000", "-A", "epub", book, web.url()],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = subprocess.Popen(["head", "-n", "1"], stdin=proc.stdout, stdout=subprocess.PIPE)
    proc.stdout.close()  # head holds the only read end
    got = head.stdout.read().decode()
    head.wait(timeout=30)
    gone = time.monotonic()
    try:
        err = proc.communicate(timeout=30)[1].decode()
    finally:
        proc.kill()
    ended = time.monotonic()
    log = web.stop()
    expect(got == book + "\n", f"head read {got!r}")
    expect(proc.returncode == 0 and err == "", f"exit status {proc.returncode}, stderr {err!r}")
    expect(ended - gone < 1.0, f"crawl ended {ended - gone:.2f}s after head")
    late = [r for r in log if r[0] > gone + 0.05]
    expect(not late, f"{len(late)} requests started after head had gone: {late[:3]}")


def case_wget_habits(tmp):
    """-d inf crawls everything; -A takes pdf, .pdf and *.pdf alike; --help shows the default
    --skip-ext list."""
    web = Web(tmp, hosts=2, pages=40)
    p = crawl(web, "-w", "0", "-d", "inf", web.url())
    expect_same_set(lines(p), web.truth(web.url()), "-d inf")
    pdfs = [u for u in web.truth(web.url()) if u.endswith(".pdf")]
    for form in ("pdf", ".pdf", "*.pdf", "*.PDF"):
        p = crawl(web, "-w", "0", "-d", "inf", "-A", form, web.url())
        expect_same_set(lines(p), pdfs, f"-A {form}")
    web.stop()
    help_text = subprocess.run([CRAWL, "--help"], capture_output=True, text=True).stdout
    words = " ".join(help_text.split())
    for run in ("tar gz tgz zip Z rpm deb", "docx xlsx pptx odt apk msi"):
        expect(run in words, f"--help lacks the default --skip-ext list ({run})")


def case_summary_tells_the_story(tmp):
    """The summary counts every fate in words, as the ground truth has them, and lists the
    first 10 broken links with the page linking each; -v names every one. (Web 3 has no
    redirect target that a link of the redirect's own level reaches too: see doc/behaviour.md, Depth.)"""
    web = Web(tmp, hosts=3, pages=80, seed=3)
    p = crawl(web, "-w", "0", "-d", "2", web.url())
    verbose = crawl(web, "-w", "0", "-d", "1000", "-v", web.url())
    web.stop()
    truth = web.truth(web.url(), depth=2)
    n = Counter(fate for fate, _ in truth.values())
    want = (f"{n['fetched']} fetched, {n['failed']} failed (" if n["failed"] else "")
    expect(n["failed"] and n["depth"] and n["skipped"] and n["robots"], f"truth's fates {n}")
    expect(want in p.stderr, f"want '{want}' in the summary: {p.stderr}")
    want = (f"{n['robots']} robots exclusions, {n['depth']} cut by depth, {n['skipped']} skipped, "
            f"0 over a limit, 0 pending")
    expect(want in p.stderr, f"want '{want}' in the summary: {p.stderr}")
    broken = sorted(u for u, (fate, _) in web.truth(web.url()).items() if fate == "failed")
    expect(len(broken) > 10, f"only {len(broken)} broken links in the test web")
    expect(f"crawl: {len(broken)} broken links:" in verbose.stderr, f"summary: {verbose.stderr}")
    listed = [row for row in verbose.stderr.splitlines() if row.startswith("crawl:   http")]
    expect(len(listed) == 10 and all("(HTTP 404), linked from http://" in row for row in listed),
           f"listed {listed}")
    expect(f"and {len(broken) - 10} more" in verbose.stderr, "the rest are not counted")
    named = re.findall(r"broken link: (\S+) \(HTTP 404\), linked from http", verbose.stderr)
    expect(sorted(named) == broken, f"-v named {len(named)} of {len(broken)} broken links")


def case_full_disk_output(tmp):
    """-o on a disk that fills up (a 64 KiB tmpfs, in a mount namespace of the case's own): the
    --state crawl stops with an error naming the file, and no checkpoint counts a URL as settled
    whose line was not written. `crawl --state DIR` once the disk has room cuts the file back to
    its last checkpoint and goes on: over the runs every URL of the ground truth has one record,
    whole, with its fate and depth."""
    web = Web(tmp, hosts=3, pages=300)
    disk, state = os.path.join(tmp, "disk"), os.path.join(tmp, "state")
    os.mkdir(disk)
    out = os.path.join(disk, "out.jsonl")
    script = """
mount -t tmpfs -o size=64k tmpfs "$D" || exit 90
"$@" 2> "$T/err1"; echo $? > "$T/rc1"
mount -o remount,size=64m "$D" || exit 91
"$C" --no-progress --state "$S" 2> "$T/err2"; echo $? > "$T/rc2"
cp "$D/out.jsonl" "$T/out.jsonl"
rm "$D/out.jsonl" && mount -o remount,size=32k "$D" || exit 92
"$C" --no-progress $SEEN -o "$D/seen1.txt" 2> "$T/err3"; echo $? > "$T/rc3"
cp "$D/seen1.txt" "$T/seen1.txt"
mount -o remount,size=64m "$D" || exit 93
"$C" --no-progress $SEEN -o "$D/seen2.txt" 2> "$T/err4"; echo $? > "$T/rc4"
cp "$D/seen2.txt" "$T/seen2.txt"
"""
    first = state_cmd(web, state, "--jsonl", "-o", out, interval=0.1, delay="0")
    seen = ["--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000", "-w", "0", "--checkpoint",
            "0.1", "--seen", os.path.join(tmp, "seen"), web.url()]
    env = dict(os.environ, D=disk, T=tmp, S=state, C=CRAWL, SEEN=" ".join(seen))
    p = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", *first], env=env,
                       capture_output=True, text=True, timeout=120)
    log = web.stop()
    expect(p.returncode == 0, f"the namespace's script failed ({p.returncode}): {p.stderr}")
    read = lambda name: open(os.path.join(tmp, name)).read()
    expect(read("rc1").strip() == "1" and "No space left on device" in read("err1"),
           f"first run: exit {read('rc1').strip()}: {read('err1')[-800:]}")
    expect(read("rc2").strip() == "0", f"second run: exit {read('rc2').strip()}: {read('err2')}")
    recs = []
    with open(os.path.join(tmp, "out.jsonl")) as f:
        for n, line in enumerate(f, 1):
            try:
                recs.append(json.loads(line))
            except ValueError:
                raise AssertionError(f"line {n} of -o is not whole: {line[:300]!r}")
    truth = expect_records_of_one_crawl(web, inside(recs))  # pages after the checkpoint come twice
    expect(len(log) > len(truth) / 2, "the server saw too little: was the crawl run at all?")
    # --seen: the file is not saved past a line that was not written, so the next run prints
    # again what the full disk lost (a run may print a URL twice, never lose one)
    expect(read("rc3").strip() == "1" and "No space left on device" in read("err3"),
           f"--seen on a full disk: exit {read('rc3').strip()}: {read('err3')[-800:]}")
    expect(read("rc4").strip() == "0", f"--seen, room again: exit {read('rc4').strip()}")
    whole = [line for line in read("seen1.txt").split("\n")[:-1]] + read("seen2.txt").split()
    missing = set(truth) - set(whole)
    expect(not missing, f"--seen: {len(missing)} URLs lost, e.g. {sorted(missing)[:3]}")


def case_notes_escaped(tmp):
    """-v quotes a page's bytes in its notes (a Content-Type, an href not followed): their control
    characters reach the terminal as \\xHH, so a page cannot set the window title, clear the
    screen or ring the bell; the rest of the text, UTF-8 included, is as it was. Every C0 byte a
    header can carry, DEL, the C1 controls (as UTF-8 and as bare bytes) are tried. --jsonl writes
    them as \\uXXXX, U+2028 and U+2029 too (a quote and a backslash as JSON's own escapes), so
    a record read back has the header's text (U+FFFD for each byte that is no UTF-8) and
    splitting the output at any line break Python knows gives one record a line."""
    host = "esc.test"
    c0 = "".join(chr(b) for b in range(1, 0x20) if b not in (0x09, 0x0a, 0x0d))
    c1 = "".join(chr(c) for c in range(0x80, 0xa0)) + "\u2028\u2029 caf\u00e9"
    bare = bytes(range(0x80, 0xa0))  # bytes that are no UTF-8, after /c1's type
    # UTF-8 on the wire; a quote and a backslash, which JSON escapes as \" and \\
    types = {"/": "text/html; x=\x1b]0;pwned\x07 " + c0 + "\x7f" + ' y="a\\b"',
             "/c1": "text/html; x=" + c1}
    href = "http://[" + c0 + "\x7f\u009b]/"

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow:\n"
        if path not in types:
            return 404, {}, "no"
        body = f'<html><body><a href="{href}">x</a><a href="/c1">y</a></body></html>'
        value = types[path].encode() + (bare if path == "/c1" else b"")
        return 200, {"Content-Type": value.decode("latin-1")}, body

    site = Site([host], respond)
    try:
        p = site.crawl("-w", "0", "-d", "1", "-v", site.url(host))
        j = site.crawl("-w", "0", "-d", "1", "--jsonl", site.url(host))
    finally:
        site.stop()
    controls = [c for c in p.stderr if ord(c) < 0x20 and c != "\n" or 0x7f <= ord(c) < 0xa0]
    expect(not controls, f"control characters on standard error: {controls[:5]}")
    expect("\\x1b]0;pwned\\x07" in p.stderr, f"the Content-Type is not shown escaped: {p.stderr!r}")
    shown = "".join(f"\\x{b:02x}" for b in (c0 + "\x7f").encode())
    expect("not followed: 'http://[" + shown + "\\xc2\\x9b]/'" in p.stderr,
           f"the href: {p.stderr!r}")
    expect("text/html; x=\\x1b]0;pwned\\x07 " + shown in p.stderr,
           f"the Content-Type's C0 bytes: {p.stderr!r}")
    expect("text/html; x=" + "".join(f"\\x{b:02x}" for b in c1[:32].encode()) in p.stderr,
           f"the Content-Type's C1 characters: {p.stderr!r}")
    raw = [hex(ord(c)) for c in j.stdout
           if ord(c) < 0x20 and c != "\n" or 0x7f <= ord(c) < 0xa0 or c in "\u2028\u2029"]
    expect(not raw, f"--jsonl: raw controls or separators: {raw[:8]}")
    recs = [json.loads(line) for line in j.stdout.splitlines()]  # splits at U+0085 and U+2028
    got = {r["url"]: r.get("type") for r in recs}
    want = {site.url(host): types["/"],
            site.url(host, "/c1"): types["/c1"] + "\ufffd" * len(bare)}
    expect(got == want, f"--jsonl types: {got!r}")


def case_seeds_from_stdin(tmp):
    """-i - reads the seeds from standard input, comments and blank lines skipped."""
    web = Web(tmp, hosts=3, pages=30)
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "1000",
           "-i", "-"]
    p = subprocess.run(cmd, input=f"# two seeds\n\n{web.url('s1')}\n{web.url('s2', '/p/3.html')}\n",
                       capture_output=True, text=True, timeout=60)
    web.stop()
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    expect_same_set(lines(p), web.truth(web.url("s1"), web.url("s2", "/p/3.html")), "-i -")


def case_habits(tmp):
    """What users of wget and curl reach for without reading the manual.
    - `echo URL | crawl`: with no seed given, the seeds come from standard input.
    - Long options by their full names only: `--user-ag=x` and `--timeo 3` are usage errors
      naming the option meant (getopt would take them as --user-agent and --timeout), and a
      value after '=' is not echoed; the full names work.
    - --jsonl is strict UTF-8: a Content-Type holding a surrogate (ED A0 80) and an overlong
      form (C0 AF, E0 80 AF) comes out with U+FFFD, and every line decodes strictly; each record
      carries `time`, UTC in RFC 3339, within the crawl's run.
    - The status line, on by default on a terminal, stays off when TERM is dumb or unset."""

    def respond(host, path, headers):
        if path == "/":
            return 200, {"Content-Type": "text/html; x=\xed\xa0\x80\xc0\xaf\xe0\x80\xaf"}, \
                '<a href="/next.html">next</a>'
        if path == "/next.html":
            return 200, {}, "<p>end</p>"
        return None

    site = Site(["a.test"], respond)
    try:
        base = [CRAWL, "--no-progress", *site.resolve(), "-w", "0"]
        p = subprocess.run(base, input=site.url("a.test") + "\n", capture_output=True,
                           text=True, timeout=60)
        expect(p.returncode == 0 and lines(p) == [site.url("a.test"), site.url("a.test", "/next.html")],
               f"seeds from standard input: exit {p.returncode}, {p.stdout!r} {p.stderr[-200:]!r}")

        for typed, meant in (("--user-ag=secretvalue", "--user-agent"), ("--timeo", "--timeout")):
            p = subprocess.run(base + [typed, "3", site.url("a.test")], capture_output=True,
                               text=True, timeout=60, stdin=subprocess.DEVNULL)
            expect(p.returncode == 2 and meant in p.stderr and "secretvalue" not in p.stderr
                   and not p.stdout, f"{typed}: exit {p.returncode}, {p.stderr!r}")
        p = subprocess.run(base + ["--user-agent=full/1", "--max-pages", "1", site.url("a.test")],
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        expect(p.returncode == 0 and lines(p), f"full names: exit {p.returncode}, {p.stderr!r}")

        started = time.time()
        p = subprocess.run(base + ["--jsonl", site.url("a.test")], capture_output=True,
                           timeout=60, stdin=subprocess.DEVNULL)
        ended = time.time()
        recs = [json.loads(line.decode("utf-8", errors="strict")) for line in p.stdout.splitlines()]
        front = [r for r in recs if r["url"] == site.url("a.test")]
        # one U+FFFD a byte, as the WHATWG UTF-8 decoder gives for these (no byte of them
        # starts a sequence that could go on)
        expect(front and front[0]["type"] == "text/html; x=" + "\ufffd" * 8,
               f"the Content-Type as JSON: {front}")
        for r in recs:
            expect(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", r.get("time", "")),
                   f"time {r.get('time')!r} is no RFC 3339 UTC time")
            at = record_time(r)
            expect(started - 1 <= at <= ended + 1, f"time {r['time']} is not within the run")

        def status_shown(term):
            env = {k: v for k, v in os.environ.items() if k != "TERM"}
            if term is not None:
                env["TERM"] = term
            # the output apart from the terminal
            err = on_pty([CRAWL, *site.resolve(), "-w", "0", site.url("a.test")], env,
                         stdout_too=False)
            return re.search(rb"\d+:\d\d \d+ pages?, ", err) is not None

        expect(status_shown("xterm"), "no status line on a terminal with TERM=xterm")
        expect(not status_shown("dumb"), "a status line with TERM=dumb")
        expect(not status_shown(None), "a status line with TERM unset")
    finally:
        site.stop()


def case_jsonl_via(tmp):
    """--jsonl's via says where each URL was found: the seed, the element of its link, a meta
    refresh, a form, CSS (a sheet, a <style>, a style attribute), a script (--js), a redirect, a
    sitemap. A --state crawl stopped by -n and continued keeps it for the URLs it left."""
    def respond(host, path, headers):
        if host == "www.a.test":
            return (200, {}, "<p>w</p>") if path == "/w.html" else None
        if path == "/":
            return 200, {}, ('<html><head><link rel=stylesheet href="/s.css">'
                             '<meta http-equiv="refresh" content="9; url=/r.html">'
                             '<style>p { background: url(/st.png) }</style></head><body>'
                             '<a href="/a.html">a</a><img src="/i.png"><a href="/old">o</a>'
                             '<form action="/find?q=1"></form><div style="background:url(/d.png)">'
                             '</div><script>fetch("/api/x");</script><iframe src="/f.html">'
                             '</iframe></body></html>')
        if path == "/s.css":
            return 200, {"Content-Type": "text/css"}, "p { background: url(/c.png) }"
        if path == "/old":
            return 301, {"Location": "/new"}, ""
        if path == "/a.html":
            return 200, {}, html_links(site.url("www.a.test", "/w.html"))
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "Sitemap: /sitemap.xml\n"
        if path == "/sitemap.xml":
            return 200, {"Content-Type": "application/xml"}, (
                '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                '<url><loc>/from-sitemap.html</loc></url></urlset>')
        if path in ("/r.html", "/new", "/find", "/api/x", "/f.html", "/from-sitemap.html"):
            return 200, {}, "<p>page</p>"
        return None

    site = Site(["a.test", "www.a.test"], respond)
    want = {"/": "seed", "/a.html": "a", "/i.png": "img", "/old": "a", "/new": "redirect",
            "/s.css": "link", "/c.png": "css", "/st.png": "css", "/d.png": "css",
            "/r.html": "refresh", "/find": "form", "/api/x": "js", "/f.html": "iframe",
            "/from-sitemap.html": "sitemap"}
    want = {site.url("a.test", path): via for path, via in want.items()}
    want[site.url("www.a.test", "/w.html")] = "a"
    try:
        p = site.crawl("-w", "0", "--js", "--sitemaps", "--jsonl", site.url("a.test"))
        got = {r["url"]: r["via"] for r in records(p)}
        expect(got == want, f"via: {sorted(set(got.items()) ^ set(want.items()), key=str)}")
        # stopped by -n with URLs queued, then continued: the last record of each URL
        state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
        site.crawl("-w", "0", "--js", "--sitemaps", "--jsonl", "-n", "3", "--state", state,
                   "-o", out, site.url("a.test"))
        with open(out) as f:
            first = [json.loads(line) for line in f]
        expect(any(r["fate"] == "limit" for r in first), f"-n 3 left nothing: {first}")
        site.crawl("--state", state, "-n", "100")
        with open(out) as f:
            last = {r["url"]: r["via"] for r in map(json.loads, f)}
        expect(last == want,
               f"via after --state: {sorted(set(last.items()) ^ set(want.items()), key=str)}")
    finally:
        site.stop()


def case_wget_spellings(tmp):
    """wget's spellings where they mean the same (doc/wget.md): -r is taken, -l and --level are
    --depth, --wait is --delay, --spider, -nv and --no-verbose change nothing, -e robots=off is
    --no-robots (and robots=on undoes it), --accept-regex and --reject-regex are --match and
    --exclude, -A takes an extension of two parts (tar.gz); the crawl is the one crawl's own
    names give. -t N is N - 1 retries, --max-redirect is --max-redirs, -h and -V are --help and
    --version. Where they would mislead, a usage error says what crawl calls it: -np, wget's -H
    before an option, a list with a space, an -e command crawl does not take this way."""
    web = Web(tmp, hosts=2, pages=40)
    own = crawl(web, "-d", "1", "-w", "0", web.url())
    for spelled in (["-r", "-l", "1", "--wait", "0"], ["--recursive", "--level", "1", "-w", "0"],
                    ["-d", "1", "-w", "0", "--spider", "-nv"],
                    ["-d", "1", "-w", "0", "--no-verbose", "-e", "robots=off", "-e", "robots = on"]):
        p = crawl(web, *spelled, web.url())
        expect(sorted(lines(p)) == sorted(lines(own)), f"{spelled}: {lines(p)[:5]}")
        expect_unique(lines(p), f"{spelled}")
    theirs = crawl(web, "-d", "1", "-w", "0", "--accept-regex", "/p/1", "--reject-regex",
                   "/p/1[0-9]", web.url())
    mine = crawl(web, "-d", "1", "-w", "0", "--match", "/p/1", "--exclude", "/p/1[0-9]",
                 web.url())
    expect(sorted(lines(theirs)) == sorted(lines(mine)) and lines(mine) and
           sorted(lines(mine)) != sorted(lines(own)), f"the regexes: {lines(theirs)[:5]}")
    for flag in ("-h", "-V"):
        p = crawl(web, flag, check=False)
        want = "Usage: crawl" if flag == "-h" else "crawl "
        expect(p.returncode == 0 and p.stdout.startswith(want), f"{flag}: {p.stdout[:80]!r}")

    # -A tar.gz takes a.tar.gz, not a.gz; -t 3 asks a failing page three times; --max-redirect
    # 1 follows one hop of two; -e robots=no (white space after it, as a .wgetrc line may have)
    # fetches what robots.txt disallows
    def respond(host, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow: /c.pdf\n"
        if path == "/":
            return 200, {}, html_links("/a.tar.gz", "/b.gz", "/c.pdf", "/flaky", "/r1",
                                       "mailto:a@wg.test", "javascript:void(0)", "tel:+100")
        if path == "/flaky":
            return 503, {}, "busy"
        if path == "/r1":
            return 302, {"Location": "/r2"}, ""
        if path == "/r2":
            return 302, {"Location": "/end"}, ""
        return 200, {"Content-Type": "application/octet-stream"}, "x"
    site = Site(["wg.test"], respond)
    try:
        for robots, fate in ((["-e", "robots = no \t"], "fetched"), ([], "robots")):
            site.log.clear()
            p = subprocess.run([CRAWL, *site.resolve(), "-w", "0", "-d", "1", "-A", "tar.gz,pdf",
                                "--skip-ext", "", "-t", "3", "--max-redirect", "1", "--jsonl",
                                *robots, site.url("wg.test")],
                               capture_output=True, text=True, timeout=60)
            recs = {r["url"].rsplit("/", 1)[1]: r for r in records(p)}
            expect(set(recs) == {"a.tar.gz", "c.pdf"}, f"-A tar.gz,pdf printed {sorted(recs)}")
            expect(recs["c.pdf"]["fate"] == fate, f"{robots}: c.pdf {recs['c.pdf']}")
            asked = Counter(path for _, _, _, path, _ in site.log)
            expect(asked["/flaky"] == 3, f"-t 3: /flaky asked {asked['/flaky']} times")
            expect(asked["/r2"] == 1 and asked["/end"] == 0, f"--max-redirect 1: {dict(asked)}")
            # the summary names what it did not follow (doc/behaviour.md, The summary)
            expect("; 3 not http(s) (mailto:, file:...)" in p.stderr, f"summary: {p.stderr}")
    finally:
        site.stop()
    for args, hint in ((["-np"], "--no-parent"), (["-H", "-D", "web.test"], "--scope any"),
                       (["-A", "png jpg"], "separated by commas"),
                       (["-D", "web.test other.test"], "a comma list"),
                       (["-A", "tar..gz"], "separated by commas"),
                       (["-e", "wait=1"], "use --delay"), (["-e", "robots=maybe"], "on or off"),
                       (["-t", "x"], "--tries")):
        p = crawl(web, *args, web.url(), check=False)
        expect(p.returncode == 2 and hint in p.stderr and not p.stdout,
               f"{args}: exit {p.returncode}, {p.stderr!r}")
    # -np as the very first argument (the crawl binary itself: the -j wrapper puts -j first)
    p = subprocess.run([sys.argv[1], "-np", web.url()], capture_output=True, text=True,
                       timeout=30)
    expect(p.returncode == 2 and "--no-parent" in p.stderr, f"-np first: {p.stderr!r}")
    web.stop()


def case_config_file(tmp):
    """A configuration file (doc/behaviour.md, Configuration file): $XDG_CONFIG_HOME/crawl/config,
    else ~/.config/crawl/config, one long option a line with # comments, read before the
    command line, which wins; --config FILE names another, --no-config reads none. A bad line is
    a usage error naming FILE:LINE; a password in a file others can read is refused; a crawl
    continued from --state keeps the file's options as it keeps the command line's."""
    web = Web(tmp, hosts=1, pages=30)
    xdg = os.path.join(tmp, "xdg")
    os.makedirs(os.path.join(xdg, "crawl"))
    conf = os.path.join(xdg, "crawl", "config")
    with open(conf, "w") as f:
        f.write("# my habits\n  delay = 0   \n\njsonl\n--depth = 0\n")

    def run(*args, env=None, check=True):
        p = subprocess.run([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}",
                            *args], capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, **(env or {"XDG_CONFIG_HOME": xdg})))
        expect(not check or p.returncode == 0, f"{args}: exit {p.returncode}: {p.stderr}")
        return p

    def fetched(p):
        return sorted(r["url"] for r in records(p) if r["fate"] == "fetched")

    p = run(web.url())  # depth 0 and --jsonl from the file
    expect(fetched(p) == [web.url()], f"the file's -d 0 and --jsonl: {p.stdout[:300]}")
    wide = run("-d", "1", web.url())  # the command line wins
    expect(len(fetched(wide)) > 1, f"-d 1 on the command line: {fetched(wide)}")
    plain = run("--no-config", "-d", "0", "-w", "0", web.url())
    expect(lines(plain) and not lines(plain)[0].startswith("{"), f"--no-config: {plain.stdout[:200]}")
    # ~/.config/crawl/config when XDG_CONFIG_HOME is not set
    home = os.path.join(tmp, "home")
    os.makedirs(os.path.join(home, ".config"))
    shutil.copytree(os.path.join(xdg, "crawl"), os.path.join(home, ".config", "crawl"))
    env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
    p = subprocess.run([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}",
                        web.url()], capture_output=True, text=True, timeout=60,
                       env=dict(env, HOME=home))
    expect(p.returncode == 0 and fetched(p) == [web.url()], f"~/.config: {p.stderr}")
    # --config FILE instead of the default's
    other = os.path.join(tmp, "other")
    with open(other, "w") as f:
        f.write("max-pages = 2\ndelay=0\n")
    p = run("--config", other, "-d", "3", web.url())
    expect(len(lines(p)) > 2 and not lines(p)[0].startswith("{") and
           "2 pages fetched" in p.stderr, f"--config: {p.stderr}")
    # refused: a bad value, a line that is no option, a password others can read, no file
    for text, mode, want in (("delay = 0\nmax-pages = many\n", 0o600, f"{other}:2: invalid value"),
                             ("delay = 0\n-w 0\n", 0o600, f"{other}:2: not an option line"),
                             ("deley = 1\n", 0o600, f"{other}:1: unknown option"),
                             ("user = ann:s3cret\n", 0o644, f"{other}:1: a password"),
                             ("header = Cookie: id=1\n", 0o640, f"{other}:1: a password"),
                             ("header = proxy-Authorization: Basic s3cret\n", 0o644,
                              f"{other}:1: a password")):
        with open(other, "w") as f:
            f.write(text)
        os.chmod(other, mode)
        p = run("--config", other, web.url(), check=False)
        expect(p.returncode == 2 and want in p.stderr and "s3cret" not in p.stderr and
               not p.stdout, f"{text!r}: exit {p.returncode}, {p.stderr!r}")
    with open(other, "w") as f:  # a header that is no credential, in a file others read: taken
        f.write("header = Accept-Language: de\ndelay = 0\ndepth = 0\n")
    os.chmod(other, 0o644)
    run("--config", other, web.url())
    os.chmod(other, 0o600)  # the owner's alone: taken
    with open(other, "w") as f:
        f.write("user = ann:s3cret\ndelay = 0\ndepth = 0\n")
    run("--config", other, web.url())
    p = run("--config", os.path.join(tmp, "missing"), web.url(), check=False)
    expect(p.returncode == 2 and "missing" in p.stderr, f"no such --config: {p.stderr}")
    # a file that is not a regular one: /dev/null is none (the default's options not read), a
    # pipe is read (bash's <(...)), a device that never ends a line is refused at 64 KiB, a
    # directory is refused
    p = run("--config", "/dev/null", "-d", "0", "-w", "0", web.url())
    expect(lines(p) and lines(p)[0] == web.url(),
           f"--config /dev/null: {p.stdout[:200]} {p.stderr[-200:]}")
    p = subprocess.run(["bash", "-c", "exec \"$@\" --config <(printf 'jsonl\\ndepth = 0\\n')",
                        "crawl", CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}",
                        "-w", "0", web.url()], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, XDG_CONFIG_HOME=xdg))
    expect(p.returncode == 0 and fetched(p) == [web.url()],
           f"--config <(...): exit {p.returncode}: {p.stdout[:200]} {p.stderr[-300:]}")
    long_line = os.path.join(tmp, "long.conf")
    with open(long_line, "w") as f:
        f.write("# " + "a" * 70000 + "\n")  # a comment, but past the bound: not read on
    for device, want in (("/dev/zero", "/dev/zero:1: not an option line (longer than 64 KiB)"),
                         (long_line, "long.conf:1: not an option line (longer than 64 KiB)"),
                         (tmp, "Is a directory")):
        p = run("--config", device, web.url(), check=False)
        expect(p.returncode == 2 and want in p.stderr and not p.stdout,
               f"--config {device}: exit {p.returncode}: {p.stderr[-300:]}")
    # --state keeps the file's options: continued with another file, the first's hold
    state = os.path.join(tmp, "state")
    with open(conf, "w") as f:
        f.write("delay = 0\njsonl\ndepth = 1\n")
    first = run("--state", state, "-n", "2", web.url())
    with open(conf, "w") as f:
        f.write("depth = 5\n")
    rest = run("--state", state, "-n", "40")
    depths = Counter(r["depth"] for r in records(rest) if r["fate"] == "fetched")
    expect(records(first) and depths and max(depths) == 1,
           f"continued, fetched by depth {depths}: {rest.stdout[:300]} {rest.stderr}")
    web.stop()
