"""Integration cases: the --state directory: what it refuses, its locks, its files never opened through a link, the paths, options and seeds it keeps, a crawl refused at its start (the crawl kept there is cases_state.py)."""
import stat

from harness import *  # noqa: F401,F403 (the shared harness)


def case_state_refusals_keep_files(tmp):
    """A --state directory that cannot be continued is left byte for byte as it was (checkpoint,
    checkpoint.prev, options, -o and the link log): seeds given to a directory that holds a crawl (exit 2), a
    lock held by another process, an options file damaged, both checkpoints damaged (exit 1,
    naming both), the checkpoint damaged with none before it (exit 1, no word of continuing). A damaged checkpoint with a whole one before it is continued from that one,
    which stays `checkpoint.prev` until a save has replaced the damaged one (kept as the one
    before, one failed save would have left nothing to continue from). The runs together give
    one record per URL of the truth."""
    import fcntl
    web = Web(tmp, hosts=3, pages=150, seed=5)
    state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
    proc = subprocess.Popen(state_cmd(web, state, "--jsonl", "-o", out, interval=0.2),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kill_after_checkpoints(proc, state, 2, signal.SIGTERM)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    expect(proc.returncode == 143, f"the first run exited {proc.returncode}: {err}")

    def files():
        got = checkpoint_files(state)
        for name, path in (("options", os.path.join(state, "options")), ("-o", out),
                           ("links", os.path.join(state, "links"))):
            with open(path, "rb") as f:
                got[name] = f.read()
        return got

    def refused(why, status, said, *args):
        kept = files()
        p = subprocess.run([CRAWL, "--state", state, *args], capture_output=True, text=True,
                           timeout=60)
        expect(p.returncode == status and all(s in p.stderr for s in said) and not p.stdout,
               f"{why}: exit {p.returncode}, {p.stderr!r}")
        expect(files() == kept, f"{why}: the state's files changed")
        return p

    refused("seeds given", 2, ["holds a crawl already"], web.url())
    with open(os.path.join(state, "lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        lock.truncate(0)  # as a crawl holding it does: its PID in the file
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        refused("the lock held", 1, [f"is in use by process {os.getpid()}"])
    options = files()["options"]
    with open(os.path.join(state, "options"), "wb") as f:
        f.write(options[:len(options) // 2])
    refused("the options damaged", 1, ["not an options file"])
    with open(os.path.join(state, "options"), "wb") as f:
        f.write(options)
    whole = checkpoint_files(state)
    damaged = {}
    for name, data in whole.items():
        damaged[name] = data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 1]) + \
            data[len(data) // 2 + 1:]
        with open(os.path.join(state, name), "wb") as f:
            f.write(damaged[name])
    p = refused("both checkpoints damaged", 1, ["checkpoint before it", "checkpoint.prev"])
    expect("continuing" not in p.stderr, f"both damaged, yet continuing: {p.stderr!r}")
    # the checkpoint damaged and none before it: refused, with no word of continuing
    os.remove(os.path.join(state, "checkpoint.prev"))
    p = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 1 and "no checkpoint before it to continue from" in p.stderr and
           "continuing" not in p.stderr,
           f"no checkpoint before: exit {p.returncode}, {p.stderr!r}")
    with open(os.path.join(state, "checkpoint.prev"), "wb") as f:
        f.write(damaged["checkpoint.prev"])
    # the checkpoint damaged, the one before whole: one save only (at the pause), long after
    with open(os.path.join(state, "checkpoint.prev"), "wb") as f:
        f.write(whole["checkpoint.prev"])
    proc = subprocess.Popen([CRAWL, "--state", state, "--checkpoint", "1000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_served(web, 4, proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    expect(proc.returncode == 143 and "continuing from the checkpoint before it" in err,
           f"continued from the checkpoint before: exit {proc.returncode}, {err!r}")
    expect(checkpoint_files(state)["checkpoint.prev"] == whole["checkpoint.prev"],
           "the damaged checkpoint was kept as the one before")
    p = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, f"the last run: exit {p.returncode}, {p.stderr}")
    web.stop()
    with open(out) as f:
        expect_records_of_one_crawl(web, inside([json.loads(line) for line in f]))


def case_state_files_refuse_links(tmp):
    """Files of a --state directory and a --seen file are never opened through a symbolic link,
    and a directory others may write to is refused, as is a --state that is no directory
    (/dev/null): a link planted at `links`, at `options` or at a --seen file's name leaves its
    target as it was, and the crawl says why (exit 1); one planted at `cookies` is replaced by the
    jar, never written through. A
    continued crawl removes the temporary checkpoints a killed save left (`checkpoint.tmp.PID`),
    and with -v says how many;
    one killed before its first checkpoint says that it starts over."""
    site = Site(["a.test"], lambda host, path, headers:
                (200, {}, html_links("/b.html")) if path in ("/", "/b.html") else None)
    victim = os.path.join(tmp, "victim")
    with open(victim, "w") as f:
        f.write("precious\n")

    def unchanged():
        with open(victim) as f:
            return f.read() == "precious\n"
    try:
        seed = site.url("a.test")
        open_dir = os.path.join(tmp, "open")
        os.mkdir(open_dir)
        os.chmod(open_dir, 0o777)
        p = site.crawl("--state", open_dir, seed, check=False)
        expect(p.returncode == 1 and "others may write to it" in p.stderr and
               not os.listdir(open_dir), f"a directory open to others: exit {p.returncode}, "
               f"{p.stderr!r}, holds {os.listdir(open_dir)}")
        # writable by a group: refused when it is another's, taken when it is the user's own
        # (Debian's user private groups make such directories with umask 002)
        if os.geteuid() == 0:  # only root gives a directory to another group
            os.chmod(open_dir, 0o770)
            os.chown(open_dir, -1, 65534 if os.getegid() != 65534 else 0)
            p = site.crawl("--state", open_dir, seed, check=False)
            expect(p.returncode == 1 and "others may write to it" in p.stderr,
                   f"a directory another group may write to: exit {p.returncode}, {p.stderr!r}")
        # something that is no directory, such as /dev/null (world-writable, as a device is), is
        # refused as such, with seeds or without
        for args in ((seed,), ()):
            p = site.crawl("--state", "/dev/null", *args, check=False)
            expect(p.returncode == 1 and "'/dev/null': not a directory" in p.stderr,
                   f"--state /dev/null {args}: exit {p.returncode}, {p.stderr!r}")
        own_group = os.path.join(tmp, "own-group")
        os.mkdir(own_group)
        os.chmod(own_group, 0o770)  # the user's own group, as made
        site.crawl("-w", "0", "--state", own_group, seed)

        planted = os.path.join(tmp, "planted")
        os.mkdir(planted, 0o700)
        os.symlink(victim, os.path.join(planted, "links"))
        p = site.crawl("--jsonl", "--state", planted, seed, check=False)
        expect(p.returncode == 1 and "symbolic link" in p.stderr and unchanged(),
               f"links planted: exit {p.returncode}, {p.stderr[-300:]!r}")

        seen = os.path.join(tmp, "crawl.seen")
        os.symlink(victim, seen)
        p = site.crawl("--seen", seen, seed, check=False)
        expect(p.returncode == 1 and "symbolic link" in p.stderr and unchanged(),
               f"--seen planted: exit {p.returncode}, {p.stderr[-300:]!r}")

        state = os.path.join(tmp, "state")
        site.crawl("-w", "0", "--state", state, seed)
        os.rename(os.path.join(state, "options"), os.path.join(tmp, "options"))
        os.symlink(os.path.join(tmp, "options"), os.path.join(state, "options"))
        p = site.crawl("--state", state, check=False)
        expect(p.returncode == 1 and "symbolic link" in p.stderr,
               f"options planted: exit {p.returncode}, {p.stderr[-300:]!r}")
        os.unlink(os.path.join(state, "options"))
        os.rename(os.path.join(tmp, "options"), os.path.join(state, "options"))

        # a link planted at the cookies' name, to a pipe no one reads: the jar replaces the link
        # (a crawl that went through it would wait on the pipe for good, and time out here)
        fifo = os.path.join(tmp, "cookies.fifo")
        os.mkfifo(fifo)
        linked = os.path.join(tmp, "linked")
        os.mkdir(linked, 0o700)
        os.symlink(fifo, os.path.join(linked, "cookies"))
        site.crawl("-w", "0", "--state", linked, seed)
        jar = os.path.join(linked, "cookies")
        expect(not os.path.islink(jar) and stat.S_ISREG(os.stat(jar).st_mode) and
               stat.S_ISFIFO(os.stat(fifo).st_mode), "the cookies' link was not replaced")

        leftovers = [os.path.join(state, f"checkpoint.tmp.{pid}") for pid in (4000001, 4000002)]
        for path in leftovers:
            with open(path, "wb") as f:
                f.write(b"\0" * 65536)
        other = os.path.join(state, "checkpoint.tmp.notes")  # not a save's: it stays
        open(other, "w").close()
        p = site.crawl("-v", "--state", state)
        expect(not [x for x in leftovers if os.path.exists(x)] and os.path.exists(other),
               f"left over: {sorted(os.listdir(state))}")
        expect("removed 2 temporary files a killed run left" in p.stderr,
               f"-v does not say what it removed: {p.stderr[-400:]!r}")
    finally:
        site.stop()

    gate = Gate()
    try:
        state = os.path.join(tmp, "unsaved")
        cmd = [CRAWL, "--no-progress", *gate.resolve(), "--checkpoint", "1h", "--state", state,
               gate.url("gate.test")]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_until(gate.asked.is_set, "the seed's request", proc)
        proc.kill()
        proc.communicate(timeout=30)
        expect(not os.path.exists(os.path.join(state, "checkpoint")), "a checkpoint was saved")
        gate.release()
        p = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=60)
        expect(p.returncode == 0 and "before its first checkpoint" in p.stderr and
               lines(p) == [gate.url("gate.test")],
               f"continued: exit {p.returncode}, {p.stdout!r}, {p.stderr[-300:]!r}")
    finally:
        gate.stop()


def case_state_begun_twice_at_once(tmp):
    """Two crawls begun at the same moment on one new --state directory: every time, one runs
    and the other is refused before it writes anything there, so the options kept are the
    runner's, and the crawl continues with them."""
    site = Site(["a.test"], lambda host, path, headers:
                (200, {}, "<p>one page</p>") if path == "/" else None)
    try:
        for trial in range(30):
            state = os.path.join(tmp, f"state{trial}")
            procs = {name: subprocess.Popen(
                [CRAWL, "--no-progress", *site.resolve(), "-w", "0", "-U", f"racer-{name}",
                 "--state", state, site.url("a.test")],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for name in "AB"}
            ends = {name: p.communicate(timeout=60) for name, p in procs.items()}
            codes = {name: p.returncode for name, p in procs.items()}
            ran = [name for name, code in codes.items() if code == 0]
            expect(len(ran) == 1 and sorted(codes.values())[1] in (1, 2),
                   f"trial {trial}: exits {codes}, {ends}")
            with open(os.path.join(state, "options"), "rb") as f:
                kept = f.read()
            loser = "B" if ran == ["A"] else "A"
            expect(f"racer-{ran[0]}".encode() in kept and f"racer-{loser}".encode() not in kept,
                   f"trial {trial}: {ran[0]} ran, the options kept: {kept!r}")
            p = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True,
                               timeout=60)
            expect(p.returncode == 0, f"trial {trial}: continued: exit {p.returncode} {p.stderr}")
    finally:
        site.stop()


def case_state_and_seen_locked(tmp):
    """One crawl per --state directory and per --seen file: a second crawl started while the
    first runs exits 1 at once naming the first's PID, and prints nothing; the first is killed
    with kill -9, and its lock, gone with it, keeps no later run out: continued, the crawl ends."""
    web = Web(tmp, hosts=2, pages=60)
    state = os.path.join(tmp, "state")
    seen = os.path.join(tmp, "crawl.seen")
    base = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.1",
            "-d", "1000"]
    for option, first, second in (
            ("--state", base + ["--state", state, web.url()], [CRAWL, "--state", state]),
            ("--seen", base + ["--seen", seen, web.url()], base + ["--seen", seen, web.url()])):
        proc = subprocess.Popen(first, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            wait_served(web, 3, proc)  # it runs, and holds its lock
            p = subprocess.run(second, capture_output=True, text=True, timeout=30)
            err = p.stderr.splitlines()
            expect(p.returncode == 1 and len(err) == 1 and
                   f"is in use by process {proc.pid}" in err[0] and not p.stdout,
                   f"{option}, a second crawl: exit {p.returncode}, {p.stderr!r}")
            # at once: while the first still runs and holds the lock, not once it let go
            expect(proc.poll() is None, f"{option}: the refusal came after the first crawl "
                   f"ended (exit {proc.returncode})")
        finally:
            proc.kill()
            proc.communicate()
        p = subprocess.run(second, capture_output=True, text=True, timeout=60)
        expect(p.returncode == 0, f"{option}, after kill -9: exit {p.returncode}, {p.stderr}")
    web.stop()


def case_state_keeps_absolute_paths(tmp):
    """A --state crawl begun with a relative -o and --warc, paused, and continued from another
    working directory writes on to the same files (not to new ones where it runs): together they
    hold one record per URL of the truth, and the WARC reads whole."""
    web = Web(tmp, hosts=2, pages=80)
    first_dir, other_dir = os.path.join(tmp, "here"), os.path.join(tmp, "elsewhere")
    os.mkdir(first_dir)
    os.mkdir(other_dir)
    crawl_path = os.path.abspath(CRAWL)  # the case runs it from other directories
    cmd = [crawl_path, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.03", "-d",
           "1000", "--checkpoint", "0.2", "--state", "state", "--jsonl", "-o", "out.jsonl",
           "--warc", "crawl.warc", web.url()]
    proc = subprocess.Popen(cmd, cwd=first_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    wait_served(web, 20, proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    expect(proc.returncode == 143, f"the first run exited {proc.returncode}: {err}")
    p = subprocess.run([crawl_path, "--state", os.path.join(first_dir, "state")], cwd=other_dir,
                       capture_output=True, text=True, timeout=60)
    log = web.stop()
    expect(p.returncode == 0, f"continued elsewhere: exit {p.returncode}, {p.stderr}")
    expect(os.listdir(other_dir) == [], f"files made where it was continued: "
                                        f"{os.listdir(other_dir)}")
    with open(os.path.join(first_dir, "out.jsonl")) as f:
        recs = inside([json.loads(line) for line in f])
    expect_runs_are_one_crawl(web, recs, log)
    expect_whole_warc(warc_records(os.path.join(first_dir, "crawl.warc")), "--warc")


def case_state_keeps_its_seeds(tmp):
    """A --state crawl keeps its seeds themselves, however they were given: begun with -n 1 (one
    seed fetched, the other left for a later run) from -i FILE, from -i - (standard input) or
    on the command line, it goes on with the seed left after FILE is removed, with nothing on
    standard input, and with the seed given once. A directory an older crawl began (its options
    without seeds) goes on by reading its -i FILE again; an options file whose count of arguments
    does not hold is refused as damaged."""
    web = Web(tmp, hosts=2, pages=30)
    seeds = os.path.join(tmp, "seeds.txt")
    both = [web.url(), web.url("s1")]
    base = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "0",
            "--jsonl"]

    def begun_and_continued(name, args, given, before_continue=lambda: None):
        state = os.path.join(tmp, name)
        first = subprocess.run(base + ["-n", "1", "--state", state] + args, input=given,
                               capture_output=True, text=True, timeout=60)
        expect(first.returncode == 0, f"{name}: begun: exit {first.returncode}, {first.stderr}")
        before_continue()
        then = subprocess.run([CRAWL, "--state", state, "-n", "10"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60)
        expect(then.returncode == 0, f"{name}: continued: exit {then.returncode}, {then.stderr}")
        began = {r["url"]: r["fate"] for r in records(first) if r["via"] == "seed"}
        expect(sorted(began) == sorted(both) and sorted(began.values()) == ["fetched", "limit"],
               f"{name}: the seeds' records when begun: {began}")
        left = [u for u, fate in began.items() if fate == "limit"]
        went_on = [(r["url"], r["fate"]) for r in records(then) if r["via"] == "seed"]
        expect(went_on == [(left[0], "fetched")], f"{name}: the seeds' records after: {went_on}")

    with open(seeds, "w") as f:
        f.write("\n".join(both) + "\n")
    begun_and_continued("file", ["-i", seeds], None, lambda: os.unlink(seeds))
    begun_and_continued("stdin", ["-i", "-"], "\n".join(both) + "\n")
    begun_and_continued("arguments", both, None)

    # the options of an older crawl: the arguments alone, -i FILE read again as it goes on
    old = os.path.join(tmp, "old")
    os.mkdir(old, 0o700)
    with open(seeds, "w") as f:
        f.write(web.url("s1") + "\n")
    args = ["--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "0", "--jsonl", "-i", seeds]
    with open(os.path.join(old, "options"), "wb") as f:
        f.write(b"crawl-options 1\0" + b"".join(a.encode() + b"\0" for a in args))
    p = subprocess.run([CRAWL, "--no-progress", "--state", old], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0 and [(r["url"], r["fate"]) for r in records(p)
                                  if r["via"] == "seed"] == [(web.url("s1"), "fetched")],
           f"an older crawl's options: exit {p.returncode}, {p.stdout}, {p.stderr}")

    # a count of arguments past the words there are, or no seed after them: damaged
    for name, words in (("past", [b"crawl-options 2", b"9", b"-d", b"0", web.url().encode()]),
                        ("no-seed", [b"crawl-options 2", b"2", b"-d", b"0"]),
                        ("not-a-count", [b"crawl-options 2", b"-d", b"0", web.url().encode()]),
                        ("no-count", [b"crawl-options 2", b"", b"-d", b"0", web.url().encode()])):
        damaged = os.path.join(tmp, name)
        os.mkdir(damaged, 0o700)
        with open(os.path.join(damaged, "options"), "wb") as f:
            f.write(b"".join(w + b"\0" for w in words))
        p = subprocess.run([CRAWL, "--no-progress", "--state", damaged], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60)
        expect(p.returncode == 1 and "is not an options file this crawl wrote" in p.stderr and
               not p.stdout, f"{name}: exit {p.returncode}, {p.stderr!r}")
    web.stop()


def case_state_refused_at_its_start(tmp):
    """A --state crawl begun and refused before it starts (-o or --report in a directory that
    does not exist: exit 1) leaves no crawl in its directory: the same command mended begins the
    crawl, where it was told the directory holds one already. One whose --warc the engine
    refuses as it starts saves no checkpoint, with -j 1 as with more: continued with --warc
    mended, it starts over from its seeds. A crawl that ran to its end is kept, whatever its
    exit status."""
    web = Web(tmp, hosts=1, pages=5)
    state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
    missing = os.path.join(tmp, "missing")
    base = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "0",
            "--jsonl", "--state", state]
    for bad in (["-o", os.path.join(missing, "out.jsonl")],
                ["-o", out, "--report", os.path.join(missing, "report.json")]):
        p = subprocess.run(base + bad + [web.url()], capture_output=True, text=True, timeout=60)
        expect(p.returncode == 1 and missing in p.stderr, f"{bad}: exit {p.returncode}, {p.stderr}")
        expect("options" not in os.listdir(state), f"{bad}: left {os.listdir(state)}")
    p = subprocess.run(base + ["-o", out, web.url()], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, f"mended: exit {p.returncode}, {p.stderr}")
    with open(out) as f:
        recs = [json.loads(line) for line in f]
    expect([(r["url"], r["fate"]) for r in recs if r["via"] == "seed"] == [(web.url(), "fetched")],
           f"mended: {recs}")
    # a --warc the engine refuses as the crawl starts: it did not start, and saves nothing (it
    # keeps its options, as a crawl stopped before its first checkpoint); given again, mended,
    # it starts over from its seeds
    warc = os.path.join(tmp, "warc-state")
    p = subprocess.run(base[:-1] + [warc, "-o", out, "--warc", os.path.join(missing, "c.warc"),
                                    web.url()], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 1 and missing in p.stderr and "checkpoint" not in os.listdir(warc),
           f"--warc refused: exit {p.returncode}, {os.listdir(warc)}, {p.stderr}")
    p = subprocess.run([CRAWL, "--no-progress", "--state", warc, "--warc",
                        os.path.join(tmp, "c.warc")], capture_output=True, text=True, timeout=60)
    with open(out) as f:
        recs = [json.loads(line) for line in f]
    expect(p.returncode == 0 and "starts over from its seeds" in p.stderr and
           [(r["url"], r["fate"]) for r in recs if r["via"] == "seed"] == [(web.url(), "fetched")],
           f"--warc mended: exit {p.returncode}, {p.stderr}, {recs}")
    # a crawl that ran to its end is kept whatever its exit status (8: its seed answered 404)
    ended = os.path.join(tmp, "ended")
    p = subprocess.run(base[:-1] + [ended, web.url(path="/missing/1.html")], capture_output=True,
                       text=True, timeout=60)
    expect(p.returncode == 8, f"a seed of 404: exit {p.returncode}, {p.stderr}")
    p = subprocess.run([CRAWL, "--state", ended], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 8 and "complete already" in p.stderr,
           f"a seed of 404, continued: exit {p.returncode}, {p.stderr}")
    web.stop()
