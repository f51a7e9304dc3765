"""Integration cases: Keeping a crawl: signals, --state killed and continued (--seen is cases_seen.py, WARC cases_warc.py)."""
import contextlib
import stat

from harness import *  # noqa: F401,F403 (the shared harness)


def case_sigint(tmp):
    """SIGINT: in-flight requests finish, queued URLs are reported pending, exit 130. The
    records are exactly what happened: fetched and failed ones are the requests the server
    answered, pending ones were never requested, and together with the rest they are URLs of the
    ground truth with its depths."""
    web = Web(tmp, hosts=3, pages=200)
    proc = subprocess.Popen([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w",
                             "0.2", "-d", "1000", "--jsonl", web.url()],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_served(web, 8, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    log = web.stop()
    expect(proc.returncode == 130, f"exit status {proc.returncode}: {err}")
    recs = inside([json.loads(line) for line in out.splitlines()])
    expect_unique([r["url"] for r in recs], "record")
    fates = Counter(r["fate"] for r in recs)
    expect(fates["pending"] > 0 and fates["fetched"] > 0, f"fates {dict(fates)}")
    requested = {f"http://{r[2]}:{web.port}{r[3]}" for r in log if r[3] != "/robots.txt"}
    expect_same_set({r["url"] for r in recs if r["fate"] in ("fetched", "failed")}, requested,
                    "fetched and failed records against the requests")
    truth = web.truth(web.url())
    pending = [r for r in recs if r["fate"] == "pending"]
    odd = [(r["url"], r["depth"], truth.get(r["url"])) for r in pending
           if truth.get(r["url"], ("", -1))[0] not in ("fetched", "failed")
           or truth[r["url"]][1] != r["depth"]]
    expect(not odd, f"pending records the full crawl would not fetch at that depth: {odd[:5]}")
    settled = [(r["url"], r["fate"], truth.get(r["url"])) for r in recs if r["fate"] != "pending"
               and (r["url"] not in truth or truth[r["url"]][0] != r["fate"])]
    expect(not settled, f"settled records off the truth: {settled[:5]}")
    expect("pages fetched" in err, "no summary after SIGINT")


def case_sighup_and_stalled_output(tmp):
    """SIGHUP is taken as SIGTERM: in-flight requests finish, the summary and `pending` records
    are written, exit 129. With standard output stalled (a reader that reads nothing, its pipe
    full), a first SIGINT cannot finish the crawl, and a second signal (SIGTERM) still ends it at
    once, with the first signal's status (130). Each signal is sent on an event: a fetched
    page's record read, crawl found waiting in a write to standard output."""
    import fcntl
    web = Web(tmp, hosts=3, pages=200)
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000",
           "--jsonl", web.url()]
    proc = subprocess.Popen(cmd + ["-w", "0.2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    first = ""
    while '"fetched"' not in first:  # the event: a page's record
        line = proc.stdout.readline()
        expect(line, f"the crawl ended before SIGHUP: {first}")
        first += line
    proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(timeout=60)
    expect(proc.returncode == 129, f"SIGHUP: exit status {proc.returncode}: {err[-300:]}")
    fates = Counter(r["fate"] for r in inside([json.loads(x) for x in (first + out).splitlines()]))
    expect(fates["pending"] > 0 and fates["fetched"] > 0, f"SIGHUP: fates {dict(fates)}")
    expect("pages fetched" in err, "SIGHUP: no summary")

    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: a small pipe, full after a few records
    with open(os.path.join(tmp, "stalled.err"), "w+") as err_file:
        proc = subprocess.Popen(cmd + ["-w", "0"], stdout=write_end, stderr=err_file)
        os.close(write_end)
        try:
            def blocked_writing():  # a thread of crawl's waits in write(1, ...)
                tasks = f"/proc/{proc.pid}/task"
                for tid in os.listdir(tasks):
                    try:
                        with open(f"{tasks}/{tid}/syscall") as f:
                            if f.read().startswith("1 0x1 "):
                                return True
                    except OSError:
                        pass
                return False
            wait_until(blocked_writing, "a write to standard output that blocks", proc)
            proc.send_signal(signal.SIGINT)
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise AssertionError("a second signal did not stop a crawl whose output stalled")
        finally:
            os.close(read_end)
            web.stop()
        err_file.seek(0)
        said = err_file.read()
    expect(proc.returncode == 130, f"stalled: exit status {proc.returncode}: {said[-300:]}")
    expect("stopped at once" in said, f"stalled: nothing said: {said[-300:]}")


def case_state_survives_kill(tmp):
    """--state: a polite crawl killed with kill -9 after one or two of its checkpoints (chosen at
    random), continued each time with
    nothing but `crawl --state DIR` (with shards, each time with another -j), until it ends. The runs together print every URL of the
    ground truth and fetch every page of it; pages fetched twice are no more than the requests
    the server answered in one checkpoint interval before each kill."""
    import random
    seed = int(os.environ.get("CRAWL_TEST_SEED", "0")) or random.randrange(1 << 30)
    rng = random.Random(seed)
    web = Web(tmp, hosts=3, pages=200)
    state, interval = os.path.join(tmp, "state"), 0.3
    warc = os.path.join(tmp, "crawl.warc.gz")
    printed, kills, runs = [], [], 0
    while True:
        runs += 1
        expect(runs <= 20, f"(seed {seed}) the crawl did not end in 20 runs")
        # with shards, each run continues with another number of them than the run before
        threads = ["-j", "4132"[runs % 4]] if os.environ.get("CRAWL_TEST_THREADS") else []
        # -w 0.04: the crawl takes 2.6 s at least (67 pages a host), and a run killed after its
        # first or second checkpoint (0.3 s apart) has crawled 0.65 s at most, so the third kill
        # comes before the end however fast the machine; the kill waits for an event, not a time
        cmd = (state_cmd(web, state, "--warc", warc, interval=interval, delay="0.04") if runs == 1
               else [CRAWL, *threads, "--state", state])
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if len(kills) < 3:
            kill_after_checkpoints(proc, state, rng.choice([1, 2]))
            kills.append(time.monotonic())
        out, err = proc.communicate(timeout=60)
        printed += out.splitlines()
        if proc.returncode == 0:
            break
        expect(proc.returncode == -signal.SIGKILL, f"(seed {seed}) run {runs}: {err}")
    log = web.stop()
    truth = web.truth(web.url())
    expect(len(kills) >= 3, f"(seed {seed}) the crawl ended before 3 kills: {len(kills)}")
    # a set: what a run printed after its last checkpoint before kill -9 is printed again by the
    # run that continues, by design (at most one checkpoint interval's worth, bounded above)
    expect_same_set(set(printed), truth, f"(seed {seed}) all runs together")
    fetched = Counter(f"http://{host}:{web.port}{path}" for _, _, host, path, _ in log
                      if path != "/robots.txt")
    unfetched = sorted(u for u, (fate, _) in truth.items() if fate == "fetched" and not fetched[u])
    expect(not unfetched, f"(seed {seed}) pages no run fetched: {unfetched[:5]}")
    twice = sum(n - 1 for n in fetched.values())
    # a page settled after the last checkpoint is fetched again, and so is one in flight
    bound = sum(sum(1 for start, *_ in log if k - interval - 0.1 <= start <= k) + 3 for k in kills)
    print(f"seed {seed}: {runs} runs, {len(kills)} kills, {len(fetched)} pages, "
          f"{twice} fetched twice (bound {bound})")
    expect(twice <= bound, f"(seed {seed}) {twice} pages fetched twice, more than {bound}")
    # the WARC, appended to by every run and cut back to its checkpoint by the next, reads whole
    # and holds every page
    archived = Counter(r["uri"] for r in expect_whole_warc(warc_records(warc), "--warc"))
    infos = sum(1 for r in warc_records(warc) if r["type"] == "warcinfo")
    expect(1 <= infos <= runs, f"(seed {seed}) {infos} warcinfo records for {runs} runs")
    missing = sorted(u for u, (fate, _) in truth.items() if fate == "fetched" and not archived[u])
    expect(not missing, f"(seed {seed}) pages not in the WARC: {missing[:5]}")
    expect(sum(archived.values()) <= len(log), f"(seed {seed}) more records than requests")


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


def case_state_pauses_on_sigterm(tmp):
    """--state: SIGTERM ends the crawl after the requests in flight and checkpoints it;
    `crawl --state DIR` continues it, appending to the -o file. Over the two runs each URL has
    one record, with the depth and fate of the ground truth, and no page is fetched twice."""
    web = Web(tmp, hosts=3, pages=120)
    state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
    warc = os.path.join(tmp, "crawl.warc")
    proc = subprocess.Popen(state_cmd(web, state, "--jsonl", "-o", out, "--warc", warc,
                                      interval=30),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_served(web, 20, proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    expect(proc.returncode == 143, f"first run exited {proc.returncode}: {err}")
    expect("left for the next run" in err, f"first run's summary: {err}")
    with open(out) as f:
        first = inside([json.loads(line) for line in f])
    expect(first, "the first run wrote nothing")
    again = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=60)
    expect(again.returncode == 0, f"second run exited {again.returncode}: {again.stderr}")
    expect(again.stdout == "", f"the second run wrote to standard output, not -o: {again.stdout}")
    done = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=60)
    expect(done.returncode == 0, f"a run after the end exited {done.returncode}: {done.stderr}")
    log = web.stop()
    with open(out) as f:
        recs = inside([json.loads(line) for line in f])
    expect(len(recs) > len(first), "the second run appended nothing")
    expect_runs_are_one_crawl(web, recs, log)
    # the WARC holds each exchange once, appended to by the runs that continued
    archived = Counter(r["uri"] for r in expect_whole_warc(warc_records(warc), "--warc"))
    expect(archived == Counter(f"http://{h}:{web.port}{p}" for _, _, h, p, _ in log),
           "the WARC's responses are not the server's requests")
    # a new crawl is never started in a directory that holds one
    p = subprocess.run(state_cmd(web, state), capture_output=True, text=True, timeout=20)
    expect(p.returncode == 2 and "holds a crawl already" in p.stderr, f"{p.returncode} {p.stderr}")


def case_state_keeps_urls_cut_beyond_depth(tmp):
    """--state -d 1: a URL one level beyond -d is seen, yet its record (fate depth) waits until
    the last level is done. Killed with kill -9 during that level, then paused with SIGTERM
    during it, and continued each time with `crawl --state DIR`: every URL still has one record,
    with the ground truth's fate and depth, and none of those records came before the end."""
    web = Web(tmp, hosts=20, pages=400, links=30)
    seeds = [web.url(f"s{i}") for i in range(20)]
    truth = web.truth(*seeds, depth=1)
    expect(sum(1 for fate, _ in truth.values() if fate == "depth") > 1000, "too few URLs cut")
    state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")

    def written():
        try:
            with open(out) as f:
                return [json.loads(line) for line in f if line.endswith("\n")]
        except FileNotFoundError:
            return []

    def during_last_level(proc, what):
        """Returns once the run has fetched 5 pages of the last level and checkpointed since,
        with the level not done: its cut URLs are seen, and their records wait."""
        at_start = sum(1 for r in written() if r["depth"] == 1 and r["fate"] == "fetched")
        deadline = time.monotonic() + 60
        while sum(1 for r in written() if r["depth"] == 1 and r["fate"] == "fetched") < at_start + 5:
            expect(proc.poll() is None, f"{what}: the run ended before its last level")
            expect(time.monotonic() < deadline, f"{what}: the last level did not begin")
            time.sleep(0.02)
        checkpoint = os.path.join(state, "checkpoint")
        for _ in range(2):  # checkpoints made since, with the level's cut URLs seen
            last = file_version(checkpoint)
            wait_until(lambda: file_version(checkpoint) != last, "a checkpoint", proc)
        level = [r for r in written() if r["depth"] == 1 and r["fate"] == "fetched"]
        expect(len(level) < sum(1 for f, d in truth.values() if f == "fetched" and d == 1),
               f"{what}: the last level was done before the signal, which tests nothing")
        early = [r["url"] for r in written() if r["fate"] == "depth"]
        expect(not early, f"{what}: records of URLs beyond -d before the last level: {early[:3]}")

    first = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.15", "-d",
             "1", "--jsonl", "-o", out, "--checkpoint", "0.1", "--state", state, *seeds]
    proc = subprocess.Popen(first, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    during_last_level(proc, "the run killed")
    proc.kill()
    proc.communicate(timeout=20)
    proc = subprocess.Popen([CRAWL, "--state", state], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    during_last_level(proc, "the run paused")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    expect(proc.returncode == 143, f"the run paused exited {proc.returncode}: {err}")
    early = [r["url"] for r in written() if r["fate"] == "depth"]
    expect(not early, f"a pause wrote records of URLs beyond -d: {early[:3]}")
    p = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, f"the last run exited {p.returncode}: {p.stderr}")
    web.stop()
    recs = inside(written())
    expect_unique([r["url"] for r in recs], "record across the runs")
    expect_truth(recs, truth, "the runs together")


def case_state_with_limits(tmp):
    """--state with -n, --max-pages-per-host and --depth, paused and continued several times:
    the limits hold over all the runs together as in one uninterrupted run. -n 40: 40 page
    requests in all, 40 fetched or failed records, the rest limit; --max-pages-per-host 20: 20
    requests to every host; -d 3: the ground truth's records. No page is fetched twice. Continued
    once more after it ended, the pages -n left meet the same limit: none is fetched, none gets a
    second record or another fate, and the summary counts what the last run's counted."""
    for args in (["-n", "40"], ["--max-pages-per-host", "20"], ["-d", "3"]):
        web = Web(tmp, hosts=3, pages=150, seed=4)
        state = os.path.join(tmp, "state" + args[0])
        out = os.path.join(tmp, "out" + args[0])
        run_paused(state_cmd(web, state, "--jsonl", "-o", out, *args, interval=0.2, delay="0.04"),
                   state, args, web.served, 8, 4)
        if args[0] == "-n":
            with open(out) as f:
                ended = f.read()
            last = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True,
                                  timeout=120)
            again = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True,
                                   timeout=120)
            expect(again.returncode == 0,
                   f"-n: continued after its end, exit {again.returncode}: {again.stderr}")
            with open(out) as f:
                expect(f.read() == ended, "-n: continued after its end, the records changed")
            counts = [re.search(r"\d+ fetched.*pending", p.stderr) for p in (last, again)]
            expect(all(counts) and counts[0].group(0) == counts[1].group(0),
                   f"-n: continued after its end, the counts changed: {last.stderr} / {again.stderr}")
        with open(out) as f:
            recs = inside([json.loads(line) for line in f])
        log = web.stop()
        pages = [(h, path) for _, _, h, path, _ in log if path != "/robots.txt"]
        expect_unique(pages, f"{args}: request")
        expect_unique([r["url"] for r in recs], f"{args}: record")
        settled = {r["url"] for r in recs if r["fate"] in ("fetched", "failed")}
        expect_same_set(settled, {f"http://{h}:{web.port}{path}" for h, path in pages},
                        f"{args}: fetched and failed records against the requests")
        truth = web.truth(web.url())
        if args[0] == "-n":
            expect(len(pages) == 40, f"-n 40: {len(pages)} page requests over the runs")
        elif args[0] == "--max-pages-per-host":
            per_host = Counter(h for h, _ in pages)
            expect(len(per_host) == 3 and set(per_host.values()) == {20},
                   f"--max-pages-per-host 20: {per_host}")
        else:
            truth = web.truth(web.url(), depth=3)
            expect_breadth_first(recs, [e for e in log if e[3] != "/robots.txt"], truth, "-d 3")
        if args[0] != "-d":
            odd = [(r["url"], r["fate"], truth.get(r["url"])) for r in recs
                   if r["fate"] not in ("fetched", "failed", "limit")
                   and truth.get(r["url"], ("",))[0] != r["fate"]
                   or r["fate"] == "limit" and truth.get(r["url"], ("",))[0] not in
                   ("fetched", "failed")]
            expect(not odd, f"{args}: fates off the truth: {odd[:5]}")
            expect(any(r["fate"] == "limit" for r in recs), f"{args}: no limit fates")
            expect(not [r for r in recs if r["fate"] == "pending"], f"{args}: pending records")


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


def case_state_across_thread_counts(tmp):
    """--state and --seen keep one file for every shard, loadable with another number of them: a
    polite crawl with -j 4 paused by SIGTERM after a few checkpoints (each made with every shard
    paused), continued with -j 1, paused again, and ended with -j 3, gives one record per URL with
    the ground truth's fate and depth, and fetches no page twice. A --seen file saved by -j 4 is
    whole for -j 1 and -j 3: nothing new is printed, only the seed is fetched again."""
    web = Web(tmp, hosts=4, pages=120)
    state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
    runs = [state_cmd(web, state, "-j", "4", "--jsonl", "-o", out, interval=0.2),
            [CRAWL, "-j", "1", "--state", state], [CRAWL, "-j", "3", "--state", state]]
    for i, cmd in enumerate(runs):
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if i < 2:  # paused after a few checkpoints with pages fetched between them
            wait_served(web, 15, proc)
            kill_after_checkpoints(proc, state, 2, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        want = (143, 0) if i < 2 else (0,)  # a pause may come after the end
        expect(proc.returncode in want, f"run {i + 1} exited {proc.returncode}: {err}")
    log = web.stop()
    with open(out) as f:
        recs = inside([json.loads(line) for line in f])
    expect_runs_are_one_crawl(web, recs, log)

    web = Web(tmp, hosts=4, pages=60)
    seen = os.path.join(tmp, "crawl.seen")
    first = crawl(web, "-j", "4", "-w", "0", "-d", "1000", "--seen", seen, web.url())
    expect_same_set(lines(first), web.truth(web.url()), "--seen, first run (-j 4)")
    windows = {}
    for threads in ("1", "3"):
        began = time.monotonic()  # the server stamps requests with the same clock
        again = crawl(web, "-j", threads, "-w", "0", "-d", "1000", "--seen", seen, web.url())
        windows[threads] = (began, time.monotonic())
        expect(lines(again) == [], f"--seen, -j {threads} printed {lines(again)[:5]}")
    log = web.stop()
    for threads, (a, b) in windows.items():
        requests = sorted(r[3] for r in log if a < r[0] < b)
        expect(requests == ["/", "/robots.txt"], f"--seen, -j {threads} requested {requests[:8]}")


def case_state_full_disk(tmp):
    """--state on a disk that fills up: the checkpoint fails with a clear error, the crawl ends
    with exit 1 at its stop, and the checkpoint before stays whole: continued from it (on a disk
    with room), the crawl ends with every URL of the ground truth printed."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        print("skip: needs root for a small tmpfs in a private mount namespace")
        sys.exit(77)
    web = Web(tmp, hosts=2, pages=100)
    small, kept = os.path.join(tmp, "small"), os.path.join(tmp, "kept")
    os.mkdir(small)
    state = os.path.join(small, "state")
    # a filter sized for the web, so that a checkpoint fits the 1 MB disk
    crawl_cmd = " ".join(f"'{a}'" for a in state_cmd(web, state, "--expect", "2000",
                                                     delay="0.05"))
    script = (f"mount -t tmpfs -o size=1m none '{small}' || exit 99; {crawl_cmd} & "
              f"echo $! > '{tmp}/pid'; wait $!; echo $? > '{tmp}/status'; cp -a '{state}' '{kept}'")
    sh = subprocess.Popen(["unshare", "-m", "sh", "-c", script], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    said = OutputWatch(sh)

    def failed_saves():
        return said.err().count("the checkpoint before stays")
    where = {}

    def checkpoint_made():  # the crawl's first checkpoint, seen through its mount namespace
        if "pid" not in where:
            with contextlib.suppress(FileNotFoundError), open(f"{tmp}/pid") as f:
                if f.read().endswith("\n"):
                    f.seek(0)
                    where["pid"] = f.read().strip()
            return False
        return os.path.exists(f"/proc/{where['pid']}/root{state}/checkpoint")

    try:
        wait_until(checkpoint_made, "a checkpoint", sh)
    except AssertionError:
        sh.kill()
        raise AssertionError(f"no checkpoint was made: {sh.communicate()}")
    pid = where["pid"]
    inside = f"/proc/{pid}/root{state}"
    with open(f"{inside}/filler", "wb") as f:  # the disk fills up
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass
    # checkpoints are made one after another: once one has failed for want of room, none made
    # later can take the place of the one there now, which is read then; and once another has
    # failed, the crawl is stopped
    wait_until(lambda: failed_saves() >= 1, "a checkpoint failing on the full disk", sh)
    with open(f"{inside}/checkpoint", "rb") as f:
        before = f.read()
    wait_until(lambda: failed_saves() >= 2, "a second checkpoint failing", sh)
    os.kill(int(pid), signal.SIGTERM)
    out, err = said.finish(timeout=30)
    with open(f"{tmp}/status") as f:
        status = int(f.read())
    expect(status == 1, f"exit status {status}: {err}")
    expect("No space left on device" in err and "the checkpoint before stays" in err,
           f"no clear error: {err}")
    expect("could not be saved" in err, f"the last checkpoint's failure is not fatal: {err}")
    with open(os.path.join(kept, "checkpoint"), "rb") as f:
        expect(f.read() == before, "the checkpoint changed on a full disk")
    os.remove(os.path.join(kept, "filler"))
    again = subprocess.run([CRAWL, "--state", kept], capture_output=True, text=True, timeout=60)
    expect(again.returncode == 0, f"continued run exited {again.returncode}: {again.stderr}")
    web.stop()
    # a set: what the run printed after the checkpoint that stayed is printed again by the run
    # that continues from it, by design (doc/behaviour.md, State)
    expect_same_set(set(out.splitlines() + again.stdout.splitlines()), web.truth(web.url()),
                    "the two runs together")


def case_resumes_tell_the_truth(tmp):
    """A --state crawl stopped by -n names the command that goes on; continued, its summary counts
    all its runs, over their time; continued once more after it ended, it says it is complete,
    prints nothing and asks the server nothing (robots.txt neither)."""
    web = Web(tmp, hosts=2, pages=40)
    state = os.path.join(tmp, "state")
    first = crawl(web, "-w", "0.3", "-d", "2", "-n", "5", "--state", state, web.url())
    expect(f"left for the next run: 'crawl --state {state}' goes on" in first.stderr,
           f"first run: {first.stderr}")
    second = crawl(web, "-w", "0", "--state", state, "-n", "100000")  # fast: its own time is less
    m = re.search(r"(\d+) pages fetched, \d+ URLs discovered, [\d.]+ MB in ([\d.]+) s over 2 runs "
                  r"\(([\d.]+) pages/s\)", second.stderr)
    expect(m, f"second run's summary: {second.stderr}")
    pages, secs, rate = int(m.group(1)), float(m.group(2)), float(m.group(3))
    expect(secs >= first.elapsed * 0.7, f"the time is not the runs': {secs} s, the first run "
           f"alone took {first.elapsed:.2f} s")
    # the time is printed to 0.01 s, the rate to 0.1
    expect(pages > 5 and pages / (secs + 0.005) - 0.05 <= rate <= pages / max(secs - 0.005, 1e-3)
           + 0.05, f"the rate is not the runs' pages over their time: {m.group(0)}")
    since = time.monotonic()  # the test web's clock too
    third = crawl(web, "-w", "0", "--state", state)
    log = web.stop()
    expect(not third.stdout and "this crawl was complete already" in third.stderr and
           "over 3 runs" in third.stderr, f"third run: {third.stdout!r} {third.stderr}")
    late = [r for r in log if r[0] >= since]
    expect(not late, f"a complete crawl asked the server: {late[:3]}")
