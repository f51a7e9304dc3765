"""Integration cases: Keeping a crawl: signals, --state killed and continued (its directory is cases_state_dir.py, --seen cases_seen.py, WARC cases_warc.py)."""
import contextlib

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
