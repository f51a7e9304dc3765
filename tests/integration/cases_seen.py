"""Integration cases: --seen across runs: what was seen and left queued, a counting filter that forgets failures, a bad file, a kill, the false-positive rate."""
from harness import *  # noqa: F401,F403 (the shared harness)


def case_seen_across_runs(tmp):
    """--seen: a second run fetches the seeds again but prints only what is new."""
    web = Web(tmp, hosts=3, pages=40)
    seen = os.path.join(tmp, "crawl.seen")
    first = crawl(web, "-w", "0", "-d", "1000", "--seen", seen, web.url())
    expect_same_set(lines(first), web.truth(web.url()), "first run")
    expect(os.path.exists(seen), "no --seen file written")
    between = time.monotonic()  # the server stamps requests with the same clock
    second = crawl(web, "-w", "0", "-d", "1000", "--seen", seen, web.url())
    expect(lines(second) == [], f"second run printed {lines(second)[:5]}")
    # a seed the first run never saw is printed; its links that the first run saw are not
    new_seed = web.url("s0", "/p/1.html?fresh")
    after = time.monotonic()
    third = crawl(web, "-w", "0", "-d", "1", "--seen", seen, new_seed)
    log = web.stop()
    expect(lines(third) == [new_seed], f"third run printed {lines(third)}")
    second_requests = sorted(r[3] for r in log if between < r[0] < after)
    expect(second_requests == ["/", "/robots.txt"], f"second run requested {second_requests}")


def case_seen_counting_forgets_failures(tmp):
    """--dedupe counting or exact: URLs that failed are forgotten before saving, so the next run
    retries them, run after run; with bloom they stay recorded."""
    web = Web(tmp, hosts=1, pages=60)
    seed = None
    for page in range(60):
        url = web.url("s0", "/" if page == 0 else f"/p/{page}.html")
        truth = web.truth(url, depth=1, scope="host")
        failed = sorted(u for u, (fate, d) in truth.items() if fate == "failed" and d == 1)
        if failed:
            seed = url
            break
    expect(seed, "no page links to a missing page")
    for kind, want in (("counting", failed), ("exact", failed), ("bloom", [])):
        seen = os.path.join(tmp, kind + ".seen")
        crawl(web, "-w", "0", "-d", "1", "--scope", "host", "--dedupe", kind, "--seen", seen, seed)
        # the later runs name no --dedupe: the file's own kind decides, forgetting included
        for run in ("second", "third"):
            again = crawl(web, "-w", "0", "-d", "1", "--scope", "host", "--seen", seen, seed)
            expect(sorted(lines(again)) == want,
                   f"{kind}: {run} run printed {lines(again)}, want {want}")
    web.stop()


def case_seen_resumes_leftovers(tmp):
    """--seen with --max-pages: what a run leaves queued, the next run fetches without printing
    it again, for each filter kind. Run after run, the crawl completes: every URL of the web is
    printed exactly once over all runs, and no page is fetched by two runs (but the seed and
    robots.txt, fetched by every run, and with counting or exact the URLs that failed, which are
    forgotten so that a later run tries them again)."""
    for kind in ("bloom", "counting", "exact"):
        web = Web(tmp, hosts=2, pages=50)
        seen = os.path.join(tmp, kind + ".seen")
        printed, runs, windows = [], 0, []
        while True:
            runs += 1
            expect(runs <= 15, f"{kind}: still leaving URLs after 15 runs")
            began = time.monotonic()
            p = crawl(web, "-w", "0", "-d", "1000", "-n", "12", "--dedupe", kind, "--seen", seen,
                      web.url())
            windows.append((began, time.monotonic()))
            printed += lines(p)
            if "left for the next run" not in p.stderr:
                break
        log = web.stop()
        truth = web.truth(web.url())
        retried = {u for u, (fate, _) in truth.items() if fate == "failed" and kind != "bloom"}
        expect(runs >= 4, f"{kind}: the crawl needed only {runs} runs; -n did not cut it short")
        expect_unique([u for u in printed if u not in retried], f"{kind}: URL printed across runs")
        # a set: the failures a counting or exact filter retries are printed again, by design
        expect_same_set(set(printed), truth, f"{kind}: all runs together")
        fetched_by = defaultdict(set)
        for start, _, host, path, _ in log:
            for run, (a, b) in enumerate(windows):
                if a <= start <= b:
                    fetched_by[(host, path)].add(run)
        twice = [hp for hp, rs in fetched_by.items()
                 if len(rs) > 1 and hp[1] not in ("/", "/robots.txt")
                 and f"http://{hp[0]}:{web.port}{hp[1]}" not in retried]
        expect(not twice, f"{kind}: fetched by more than one run: {twice[:5]}")



def case_seen_leftovers_recorded_once(tmp):
    """--seen --jsonl with --max-pages, run after run: a page a run left to the next (-n spent)
    has its record from that run (fate limit), and the run that fetches it writes none (doc/
    behaviour.md, Resuming): every URL of the web has its records from one run only."""
    web = Web(tmp, hosts=2, pages=50)
    seen = os.path.join(tmp, "crawl.seen")
    records, runs = [], 0
    while True:
        runs += 1
        expect(runs <= 15, "still leaving URLs after 15 runs")
        p = crawl(web, "-w", "0", "-d", "1000", "-n", "12", "--dedupe", "bloom", "--jsonl",
                  "--seen", seen, web.url())
        records += [(runs, r) for r in inside([json.loads(line) for line in p.stdout.splitlines()])]
        if "left for the next run" not in p.stderr:
            break
    web.stop()
    expect(runs >= 4, f"the crawl needed only {runs} runs; -n did not cut it short")
    runs_of = defaultdict(set)
    for run, r in records:
        if r["url"] != web.url():  # the seed is fetched by every run
            runs_of[r["url"]].add(run)
    again = sorted(u for u, rs in runs_of.items() if len(rs) > 1)
    expect(not again, f"{len(again)} URLs recorded by more than one run: {again[:5]}")
    expect_same_set(set(runs_of) | {web.url()}, web.truth(web.url()), "all runs' records")

def case_seen_leftover_seeds_fetched_once(tmp):
    """--seen: seeds that a run left queued (-n cut it short) are given again as seeds to the
    next run, which takes them up once: each seed page is requested exactly once by that run,
    not once as a seed and once more as a URL the last run left."""
    web = Web(tmp, hosts=3, pages=20)
    seen = os.path.join(tmp, "crawl.seen")
    seeds = [web.url("s0"), web.url("s1"), web.url("s2")]
    first = crawl(web, "-w", "0", "-d", "0", "-n", "1", "--seen", seen, *seeds)
    expect("left for the next run" in first.stderr, f"-n 1 left no seed: {first.stderr[-500:]}")
    began = time.monotonic()
    crawl(web, "-w", "0", "-d", "0", "--seen", seen, *seeds)
    ended = time.monotonic()
    log = web.stop()
    asked = Counter(host for start, _, host, path, _ in log if path == "/" and began <= start <= ended)
    for host in ("s0", "s1", "s2"):
        name = f"{host}.web.test"
        expect(asked[name] == 1, f"the second run asked {name}/ {asked[name]} times: {asked}")


def case_seen_resumes_after_interrupt(tmp):
    """--seen: a crawl stopped by SIGINT leaves its pending URLs in the file; the next run fetches
    them, and the two runs together print the whole web, each URL once."""
    web = Web(tmp, hosts=3, pages=150)
    seen = os.path.join(tmp, "crawl.seen")
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000",
           "--jsonl", "--seen", seen, web.url()]
    proc = subprocess.Popen(cmd + ["-w", "0.2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    wait_served(web, 8, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    expect(proc.returncode == 130, f"exit status {proc.returncode}: {err}")
    first = inside([json.loads(line) for line in out.splitlines()])
    pending = {r["url"] for r in first if r["fate"] == "pending"}
    expect(pending, "nothing was pending at the interrupt")
    between = time.monotonic()
    second = subprocess.run(cmd + ["-w", "0"], capture_output=True, text=True, timeout=60)
    log = web.stop()
    expect(second.returncode == 0, f"second run exited {second.returncode}: {second.stderr}")
    again = inside([json.loads(line) for line in second.stdout.splitlines()])
    expect(f"{len(pending)} URLs the last run left queued" in second.stderr,
           f"second run's summary: {second.stderr}")
    urls = [r["url"] for r in first + again]
    truth = web.truth(web.url())
    expect_unique(urls, "record across the two runs")
    expect_same_set(urls, truth, "the two runs together")
    fetched_later = {f"http://{host}:{web.port}{path}" for start, _, host, path, _ in log
                     if start > between}
    # a URL queued before its host's robots.txt came may turn out to be excluded: not fetched
    missed = sorted(u for u in pending if u not in fetched_later and truth[u][0] != "robots")
    expect(not missed, f"pending URLs the second run did not fetch: {missed[:5]}")


def case_seen_bad_file_refused(tmp):
    """A corrupt or foreign --seen file is refused with one line; it is never overwritten."""
    web = Web(tmp, hosts=1, pages=10)
    seen = os.path.join(tmp, "bad.seen")
    for content in (b"", b"not a seen file at all\n", b"CRWLSEEN\x01\x00\x00\x00"):
        with open(seen, "wb") as f:
            f.write(content)
        p = crawl(web, "-w", "0", "--seen", seen, web.url(), check=False)
        expect(p.returncode == 1, f"exit {p.returncode} for {content!r}")
        err = p.stderr.strip().splitlines()
        expect(len(err) == 1 and "bad.seen" in err[0], f"stderr {p.stderr!r}")
        expect(p.stdout == "", "crawled despite a bad --seen file")
        with open(seen, "rb") as f:
            expect(f.read() == content, "the refused file was changed")
    web.stop()


def case_seen_survives_kill(tmp):
    """--seen keeps the queue in its periodic saves: a crawl killed with kill -9 after a save,
    run again with the same file, fetches what the first run had queued; together the two runs
    print the whole web, each run each URL once. What the first run found after its last save
    is found and printed again (doc/behaviour.md, The seen filter: --state is the crash-exact
    way), so a URL may be in both runs' output, but not what the save knew."""
    web = Web(tmp, hosts=3, pages=150)
    seen = os.path.join(tmp, "crawl.seen")
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000",
           "--checkpoint", "0.3", "--seen", seen, web.url()]
    proc = subprocess.Popen(cmd + ["-w", "0.05"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    wait_served(web, 10, proc)  # then a save that holds a queue
    saved = file_version(seen)
    wait_until(lambda: file_version(seen) != saved, "a save of the --seen file", proc)
    proc.kill()
    out, _ = proc.communicate(timeout=20)
    second = subprocess.run(cmd + ["-w", "0"], capture_output=True, text=True, timeout=60)
    expect(second.returncode == 0, f"second run exited {second.returncode}: {second.stderr}")
    expect("URLs the last run left queued were queued again" in second.stderr,
           f"second run's summary: {second.stderr}")
    log = web.stop()
    truth = web.truth(web.url())
    first_lines, second_lines = out.splitlines(), lines(second)
    expect_unique(first_lines, "the first run")
    expect_unique(second_lines, "the second run")
    expect_same_set(set(first_lines) | set(second_lines), truth, "the two runs together")
    # printed again: only what was found after the save, far from all the first run printed (a
    # second run that ignored the file would print every one of them again)
    again = set(first_lines) & set(second_lines)
    expect(len(again) < len(first_lines) / 2,
           f"{len(again)} of the first run's {len(first_lines)} URLs printed again")
    fetched = {f"http://{h}:{web.port}{p}" for _, _, h, p, _ in log}
    unfetched = sorted(u for u, (fate, _) in truth.items() if fate == "fetched" and u not in fetched)
    expect(not unfetched, f"pages neither run fetched: {unfetched[:5]}")



def case_seen_kill_keeps_records_owed(tmp):
    """--seen --jsonl and kill -9: the pages queued at the last save have no record yet (a stop
    writes `pending` ones, a kill nothing), so the next run, fetching them, writes their records:
    every page either run fetched has its record from one of them (doc/behaviour.md, Resuming),
    where the next run used to fetch them as if an earlier run had recorded them."""
    web = Web(tmp, hosts=3, pages=150)
    seen = os.path.join(tmp, "crawl.seen")
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000",
           "--checkpoint", "0.3", "--jsonl", "--seen", seen, web.url()]
    out_path = os.path.join(tmp, "first.jsonl")
    with open(out_path, "w") as out_file:
        proc = subprocess.Popen(cmd + ["-w", "0.05"], stdout=out_file, stderr=subprocess.PIPE,
                                text=True)
    wait_served(web, 10, proc)  # then a save that holds a queue
    saved = file_version(seen)
    wait_until(lambda: file_version(seen) != saved, "a save of the --seen file", proc)
    proc.kill()
    proc.communicate(timeout=20)
    second = subprocess.run(cmd + ["-w", "0"], capture_output=True, text=True, timeout=60)
    log = web.stop()
    expect(second.returncode == 0, f"second run exited {second.returncode}: {second.stderr}")
    expect("URLs the last run left queued were queued again" in second.stderr,
           f"second run's summary: {second.stderr}")
    with open(out_path) as f:  # the kill may have cut its last line
        first = [json.loads(line) for line in f if line.endswith("\n")]
    again = [json.loads(line) for line in second.stdout.splitlines()]
    expect_unique([r["url"] for r in again], "record of the second run")
    recorded = {r["url"] for r in first + again if r["fate"] != "pending"}
    fetched = {f"http://{h}:{web.port}{p}" for _, _, h, p, _ in log if p != "/robots.txt"}
    unrecorded = sorted(fetched - recorded)
    expect(not unrecorded, f"{len(unrecorded)} of {len(fetched)} pages fetched and recorded by "
           f"neither run: {unrecorded[:5]}")


def gone_and_slow(host, *links):
    """A site of one host whose / links to links, whose /gone answers 404, and whose /slow
    answers only once the Event opened is set, asked being set when a request waits for it:
    (site, opened, asked)."""
    import threading
    opened, asked = threading.Event(), threading.Event()

    def respond(host, path, headers):
        if path == "/":
            return 200, {}, html_links(*links)
        if path == "/gone":
            return 404, {}, "gone"
        if path == "/slow":
            if not opened.is_set():
                asked.set()
                opened.wait(timeout=120)
            return 200, {}, html_links()
        return None

    return Site([host], respond), opened, asked


def case_seen_stop_records_failed_once(tmp):
    """--seen --jsonl and a stop: a URL that failed before the stop gets its record at the stop
    (it waited for the pages linking to it), so the next run neither asks for it again nor
    records it a second time, while it fetches the page the stop left pending (its record was the
    `pending` one). The saves before the stop kept the failed URL to fetch again, for a kill."""
    a = "a.site.test"
    site, opened, asked = gone_and_slow(a, "/gone", "/slow")  # /slow answers in the second run
    try:
        seen = os.path.join(tmp, "crawl.seen")
        # bloom: a filter that can remove would forget /gone at the stop, for a later run to try
        cmd = [CRAWL, "--no-progress", *site.resolve(), "-w", "0", "-c", "1", "--checkpoint",
               "0.2", "--dedupe", "bloom", "--jsonl", "--seen", seen, site.url(a)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # -c 1: /gone (found first) has failed before /slow is asked for
        wait_until(lambda: asked.is_set() and (a, "/gone") in [(h, p) for _, _, h, p, _ in site.log],
                   "/gone asked for, then /slow", proc)
        saved = file_version(seen)
        wait_until(lambda: file_version(seen) != saved, "a save with /gone failed", proc)
        proc.send_signal(signal.SIGINT)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        expect(proc.returncode == 130, f"first run: exit {proc.returncode}: {err[-300:]}")
        first = {r["url"]: r for r in map(json.loads, out.splitlines())}
        expect(first.get(site.url(a, "/gone"), {}).get("fate") == "failed" and
               first.get(site.url(a, "/slow"), {}).get("fate") == "pending",
               f"first run's records: {first}")
        opened.set()
        since = time.monotonic()
        second = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        expect(second.returncode == 0, f"second run: exit {second.returncode}: {second.stderr}")
        again = [json.loads(line) for line in second.stdout.splitlines()]
        paths = [p for start, _, h, p, _ in site.log if start >= since]
        expect("/slow" in paths and "/gone" not in paths,
               f"the second run asked for {paths}: not /slow, or /gone again")
        expect(all(r["url"] != site.url(a, "/gone") for r in again),
               f"/gone recorded again: {again}")
    finally:
        opened.set()
        site.stop()


def case_seen_kill_records_failed_seed(tmp):
    """--seen --jsonl and kill -9 after a seed failed: its record waited for the crawl's end, so
    the kill lost it. The next run, given the same seed, fetches it again and writes its record,
    as it does for any other URL whose record a kill left owing (doc/behaviour.md, Resuming),
    where it used to fetch it as a seed some run had recorded."""
    a = "a.site.test"
    site, opened, asked = gone_and_slow(a, "/slow")  # /slow answers in the second run
    try:
        gone = site.url(a, "/gone")
        for dedupe in ("bloom", "exact"):  # whether the filter can forget or not
            opened.clear()
            asked.clear()
            seen = os.path.join(tmp, f"{dedupe}.seen")
            # -c 1 and /gone given first: it has failed before /slow is asked for
            cmd = [CRAWL, "--no-progress", *site.resolve(), "-w", "0", "-c", "1", "--checkpoint",
                   "0.2", "--dedupe", dedupe, "--jsonl", "--seen", seen, gone, site.url(a)]
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            wait_until(asked.is_set, "/slow asked for", proc)
            saved = file_version(seen)
            wait_until(lambda: file_version(seen) != saved, "a save with /gone failed", proc)
            proc.kill()
            out, _ = proc.communicate(timeout=20)
            first = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
            expect(all(r["url"] != gone for r in first), f"{dedupe}: first run recorded /gone "
                   f"before its end: {first}")
            opened.set()
            second = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            expect(second.returncode == 8,  # a seed answered with an HTTP error
                   f"{dedupe}: second run exited {second.returncode}: {second.stderr}")
            again = [json.loads(line) for line in second.stdout.splitlines()]
            records = [r for r in again if r["url"] == gone]
            expect(len(records) == 1 and records[0]["fate"] == "failed" and
                   records[0]["via"] == "seed" and records[0]["depth"] == 0,
                   f"{dedupe}: the second run's records of the failed seed: {records}")
    finally:
        opened.set()
        site.stop()


def case_seen_stop_records_waiting_seeds_once(tmp):
    """--seen --jsonl and a stop while seeds wait: the stop writes their `pending` records, so the
    next run, given the same seeds, fetches them without recording them again (only a seed whose
    record a kill lost is recorded again: seen_kill_records_failed_seed)."""
    a = "a.site.test"
    site, opened, asked = gone_and_slow(a)  # /slow answers in the second run
    try:
        seen = os.path.join(tmp, "crawl.seen")
        # -c 1 and /slow given first: the other seeds wait behind it
        seeds = [site.url(a, "/slow"), site.url(a), site.url(a, "/gone")]
        cmd = [CRAWL, "--no-progress", *site.resolve(), "-w", "0", "-c", "1", "--jsonl",
               "--seen", seen, *seeds]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_until(asked.is_set, "/slow asked for", proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        expect(proc.returncode == 130, f"first run: exit {proc.returncode}: {err[-300:]}")
        first = {r["url"]: r["fate"] for r in map(json.loads, out.splitlines())}
        waiting = seeds[1:]  # /slow, stopped in flight, has its own fate
        expect(all(first.get(u) == "pending" for u in waiting), f"first run's records: {first}")
        opened.set()
        second = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        again = [json.loads(line)["url"] for line in second.stdout.splitlines()]
        expect(not set(again) & set(waiting), f"waiting seeds recorded by both runs: {again}")
    finally:
        opened.set()
        site.stop()


def case_fp_rate(tmp):
    """--fp-rate and --expect size the filter: a --seen file for 1e-2 is smaller than one for
    1e-9 (fewer bits a URL), one for 1,000 URLs smaller than one for 100,000, and the crawls
    print the ground truth of this small web."""
    web = Web(tmp, hosts=2, pages=40)
    sizes = {}
    for rate in ("1e-2", "1e-9"):
        seen = os.path.join(tmp, f"{rate}.seen")
        p = crawl(web, "-w", "0", "-d", "1000", "--expect", "100000", "--fp-rate", rate,
                  "--seen", seen, web.url())
        expect_same_set(lines(p), web.truth(web.url()), f"--fp-rate {rate}")
        sizes[rate] = os.path.getsize(seen)
    # bits per URL: -log2(p)/ln 2, 9.6 at 1e-2 and 43 at 1e-9
    expect(sizes["1e-9"] > 3 * sizes["1e-2"], f"--seen sizes {sizes}")
    # --expect sizes it too: room for 100 times the URLs takes about 100 times the bytes
    seen = os.path.join(tmp, "small.seen")
    crawl(web, "-w", "0", "-d", "0", "--expect", "1000", "--fp-rate", "1e-9", "--seen", seen,
          web.url())
    web.stop()
    expect(sizes["1e-9"] > 30 * os.path.getsize(seen),
           f"--expect 1000: {os.path.getsize(seen)} bytes, --expect 100000: {sizes['1e-9']}")


def case_seen_interrupt_keeps_waiting_seeds(tmp):
    """--seen and SIGINT while seeds still wait for their turn: the seeds the first run never
    asked for get their `pending` records from it, are saved, and are fetched by the next run,
    which records none of them again (one record a URL, doc/behaviour.md, Resuming), and what
    they link to is fetched by one run or the other and recorded at its depth.
    The gate is the first seed: with -c 1 nothing else is asked for while its page hangs, so
    the interrupt comes with most seeds still waiting, however fast the machine."""
    web = Web(tmp, hosts=1500, pages=2, links=4)
    gate = Gate()
    try:
        seen = os.path.join(tmp, "crawl.seen")
        seeds = [web.url(f"s{i}") for i in range(1500)]
        seed_file = os.path.join(tmp, "seeds.txt")
        with open(seed_file, "w") as f:
            f.write("\n".join([gate.url("gate.test")] + seeds) + "\n")
        base = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", *gate.resolve(),
                "-c", "1", "-w", "0", "-d", "1", "-D", "web.test", "--jsonl", "--seen", seen]
        first, _ = gated_run(base, gate, seed_file, os.path.join(tmp, "first.jsonl"))
        # depth 0 was pending all along, so no link of a page fetched ahead of its level was
        # due: none is settled beyond -d 1 (one would be seen, and lost to the seed that waited)
        cut = [r["url"] for r in first if r["fate"] == "depth"]
        expect(not cut, f"the first run cut {len(cut)} URLs beyond --depth: {cut[:3]}")
        between = time.monotonic()
        gate.release()
        second = subprocess.run(base + [gate.url("gate.test")], capture_output=True, text=True,
                                timeout=300)
        expect(second.returncode == 0, f"second run: exit {second.returncode}: "
                                       f"{second.stderr[-500:]}")
        log = web.stop()
        asked = (set(), set())
        for start, _, host, path, _ in log:
            asked[start > between].add(f"http://{host}:{web.port}{path}")
        waiting = [s for s in seeds if s not in asked[0]]
        expect(len(waiting) >= 100, f"only {len(waiting)} seeds were waiting at the interrupt")
        unasked = [s for s in waiting if s not in asked[1]]
        expect(not unasked, f"{len(unasked)} waiting seeds never fetched: {unasked[:3]}")
        truth = web.truth(*seeds, depth=1, domains="web.test")
        records = [json.loads(line) for line in second.stdout.splitlines()]
        recorded = {r["url"]: r for r in records if r["url"] in truth}
        pending = {r["url"]: r for r in first if r["fate"] == "pending"}
        unrecorded = [s for s in waiting if s not in pending]
        expect(not unrecorded, f"{len(unrecorded)} waiting seeds without the first run's record")
        expect(all(pending[s]["depth"] == 0 and pending[s].get("via") == "seed" for s in waiting),
               f"a waiting seed's record: {[pending[s] for s in waiting[:1]]}")
        twice = [s for s in waiting if s in recorded]
        expect(not twice, f"{len(twice)} waiting seeds recorded by both runs: {twice[:3]}")
        for url, r in recorded.items():
            expect(r["depth"] == truth[url][1], f"{url}: depth {r['depth']}, want {truth[url][1]}")
        # what the first run queued, held or left waiting, the second takes up: together they
        # fetch every page of the whole crawl (the gate's aside)
        pages = [u for u, (fate, _) in truth.items() if fate == "fetched"]
        lost = [u for u in pages if u not in asked[0] and u not in asked[1]]
        expect(not lost, f"{len(lost)} of {len(pages)} pages fetched by neither run: {lost[:5]}")
    finally:
        gate.stop()
        web.stop()


def gated_run(cmd, gate, seed_file, out_path, kill_after_save_of=None):
    """Runs cmd -i seed_file, its records to out_path, until gate's page is asked for, then
    stops it (SIGINT) or, given kill_after_save_of (its --seen file), kills it after a save of
    that file; returns its records and standard error."""
    kill = kill_after_save_of is not None
    with open(out_path, "w") as out_file:  # a pipe no one reads would stall the crawl
        proc = subprocess.Popen(cmd + ["-i", seed_file], stdout=out_file, stderr=subprocess.PIPE,
                                text=True)
    wait_until(gate.asked.is_set, "the gate's request", proc)
    if kill:  # a save made while the gate holds the crawl: most seeds wait in it
        saved = file_version(kill_after_save_of)
        wait_until(lambda: file_version(kill_after_save_of) != saved, "a save of the --seen file",
                   proc)
        proc.kill()
    else:
        proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    expect(proc.returncode == (-9 if kill else 130), f"exit {proc.returncode}: {err[-500:]}")
    with open(out_path) as f:  # a kill may cut its last line
        return [json.loads(line) for line in f if line.endswith("\n")], err


def seen_rerun_with_seeds_waiting(tmp, kill):
    """A first --seen --jsonl run over every sixth of 1,300 seeds; a second given all of them,
    stopped (SIGINT, or kill -9 after a save) while most wait for their turn (-c 1, a gate);
    after a kill, a third given them in the reverse order and stopped so, the seeds the kill
    left owing their records now the last to wait; a last run given them again. Checks that each
    seed is recorded by one run and fetched; returns the runs' records and the second's summary."""
    web = Web(tmp, hosts=1300, pages=1, links=1)
    gates = [Gate(), Gate()]
    try:
        seen = os.path.join(tmp, "crawl.seen")
        seeds = [web.url(f"s{i}") for i in range(1300)]
        base = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", *gates[0].resolve(),
                *gates[1].resolve(), "-c", "1", "-w", "0", "-d", "0", "--jsonl", "--checkpoint",
                "0.2", "--seen", seen]
        first = subprocess.run(base + seeds[::6], capture_output=True, text=True, timeout=300)
        expect(first.returncode == 0, f"first run: exit {first.returncode}: {first.stderr[-500:]}")
        runs = [[json.loads(line) for line in first.stdout.splitlines()]]
        orders = [seeds, seeds[::-1]] if kill else [seeds]
        for i, order in enumerate(orders):
            seed_file = os.path.join(tmp, f"seeds{i}.txt")
            with open(seed_file, "w") as f:
                f.write("\n".join([gates[i].url("gate.test")] + order) + "\n")
            records, err = gated_run(base, gates[i], seed_file, os.path.join(tmp, f"{i}.jsonl"),
                                     seen if kill and i == 0 else None)
            runs.append(records)
            if i == 0:
                second_err = err
            gates[i].release()
        last = subprocess.run(base + ["-i", seed_file], capture_output=True, text=True,
                              timeout=300)
        expect(last.returncode == 0, f"last run: exit {last.returncode}: {last.stderr[-500:]}")
        runs.append([json.loads(line) for line in last.stdout.splitlines()])
        counts = summary_counts(last.stderr)
        expect(counts and counts[0] == counts[1], f"last run: URLs discovered and fates: {counts}")
        log = web.stop()
    finally:
        for gate in gates:
            gate.stop()
        web.stop()
    times = Counter(r["url"] for run in runs for r in run)
    again = sorted(u for u in seeds if times[u] > 1)
    expect(not again, f"{len(again)} seeds recorded by more than one run: {again[:3]}")
    never = [u for u in seeds if not times[u]]
    expect(not never, f"{len(never)} seeds recorded by no run: {never[:3]}")
    fetched = {f"http://{h}:{web.port}{p}" for _, _, h, p, _ in log}
    unfetched = [u for u in seeds if u not in fetched]
    expect(not unfetched, f"{len(unfetched)} seeds never fetched: {unfetched[:3]}")
    return runs, second_err, seeds


def case_seen_rerun_counts_every_seed(tmp):
    """--seen --jsonl, a second run given the first run's seeds among others and stopped while
    most wait for their turn: its summary counts every seed it took, those the first run
    recorded too (fetched again or left waiting, they have no record of this run), so its URLs
    discovered are the sum of its fates; a third run records none of them again."""
    runs, err, seeds = seen_rerun_with_seeds_waiting(tmp, kill=False)
    pending = [r["url"] for r in runs[1] if r["fate"] == "pending"]
    expect(len(pending) >= 100, f"only {len(pending)} seeds were waiting at the stop")
    counts = summary_counts(err)
    expect(counts and counts[0] == counts[1],
           f"second run: URLs discovered and its fates: {counts}: {err[-600:]}")
    # what it took is what it recorded and the first run's seeds, each once
    expect(counts[0] == len(runs[1]) + len(seeds[::6]),
           f"second run: {counts[0]} URLs discovered, {len(runs[1])} records")


def case_seen_kill_owes_no_earlier_seed(tmp):
    """--seen --jsonl, a second run given the first run's seeds among others and killed after a
    save while most wait for their turn: a later run records the seeds the kill left without a
    record, once, whether it fetches them or a stop leaves them waiting (`pending`), and none
    that the first run recorded."""
    runs, _, _ = seen_rerun_with_seeds_waiting(tmp, kill=True)
    expect(any(r["fate"] == "pending" for r in runs[2]), "the third run left no seed waiting")


def seen_stop_with_cut_url(tmp, second_depth):
    """A first run at -d 1 with --seen, stopped while b/p is asked for, a/x cut one level beyond
    -d (a/ -> a/q -> a/x); then a second run at second_depth, where b/p redirects to a/x (at -d
    1) or answers 404 (at -d 2, where a/x is within the limit itself). Returns the first run's
    records, the second run's, and the paths the second run asked for."""
    import threading
    a, b = "a.site.test", "b.site.test"
    opened = threading.Event()  # b/p answers only in the second run
    asked = threading.Event()

    def respond(host, path, headers):
        if host == a and path == "/":
            return 200, {}, html_links(site.url(b, "/p"), "/q")
        if host == a and path == "/q":
            return 200, {}, html_links("/x")  # depth 2: cut beyond -d 1
        if host == a and path == "/x":
            return 200, {}, html_links()
        if host == b and path == "/p":
            if not opened.is_set():
                asked.set()
                opened.wait(timeout=120)
            if second_depth > 1:
                return 404, {}, "gone"
            return 301, {"Location": site.url(a, "/x")}, ""
        return None

    site = Site([a, b], respond)
    try:
        seen = os.path.join(tmp, "crawl.seen")
        out_path = os.path.join(tmp, "first.jsonl")

        def cmd(depth):
            return [CRAWL, "--no-progress", *site.resolve(), "-w", "0", "-d", str(depth), "-D",
                    "site.test", "--jsonl", "--seen", seen, site.url(a)]

        def q_settled():
            with open(out_path) as f:
                return any(json.loads(line)["url"] == site.url(a, "/q") for line in f
                           if line.endswith("\n"))
        with open(out_path, "w") as out_file:
            proc = subprocess.Popen(cmd(1), stdout=out_file, stderr=subprocess.PIPE, text=True)
        wait_until(lambda: asked.is_set() and q_settled(), "b/p asked for and a/q's record",
                   proc)
        # the first signal waits for b/p, the second stops at once: b/p is left for the next run
        # (another signal: a second SIGINT sent before the first is taken would be lost in it;
        # pending together, SIGINT is taken first, and says the exit status)
        proc.send_signal(signal.SIGINT)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        expect(proc.returncode == 130, f"first run: exit {proc.returncode}: {err[-300:]}")
        with open(out_path) as f:
            first = {r["url"]: r for r in map(json.loads, f)}
        expect(first.get(site.url(a, "/x"), {}).get("fate") != "depth",
               f"a/x settled beyond -d while b/p was pending: {first}")
        opened.set()
        since = time.monotonic()
        second = subprocess.run(cmd(second_depth), capture_output=True, text=True, timeout=60)
        expect(second.returncode == 0, f"second run: exit {second.returncode}: {second.stderr}")
        again = {r["url"]: r for r in map(json.loads, second.stdout.splitlines())}
        paths = [(h, p) for start, _, h, p, _ in site.log if start >= since]
        return site, first, again, paths
    finally:
        opened.set()
        site.stop()


def case_seen_stop_keeps_cut_urls(tmp):
    """--seen and a stop: a URL cut one level beyond -d waits in the save with the page whose
    redirect may still reach it, and when the next run fetches that page and the redirect does,
    the URL is fetched at the redirect's depth (doc/behaviour.md, Depth), as within one run,
    not lost as seen already."""
    site, first, again, paths = seen_stop_with_cut_url(tmp, 1)
    a, b = "a.site.test", "b.site.test"
    expect((b, "/p") in paths and (a, "/x") in paths,
           f"the second run asked for {paths}, not b/p and a/x")
    x = again.get(site.url(a, "/x"))
    expect(x and (x["fate"], x["depth"], x["via"]) == ("fetched", 1, "redirect"),
           f"a/x in the second run: {x}")


def case_seen_stop_records_cut_urls(tmp):
    """--seen and a stop, then a run with a deeper -d: the URL the first run cut beyond its -d
    (printed there, its record waiting) is fetched at its own depth, and it gets its one --jsonl
    record from the run that fetched it (doc/behaviour.md, Resuming): neither run may leave it
    unrecorded, as it would a URL simply left queued, whose record the earlier run wrote."""
    site, first, again, paths = seen_stop_with_cut_url(tmp, 2)
    a, b = "a.site.test", "b.site.test"
    expect((b, "/p") in paths and (a, "/x") in paths,
           f"the second run asked for {paths}, not b/p and a/x")
    expect(site.url(a, "/x") not in first, f"a/x recorded by the first run: {first}")
    x = again.get(site.url(a, "/x"))
    expect(x and (x["fate"], x["depth"], x["from"]) == ("fetched", 2, site.url(a, "/q")),
           f"a/x in the second run: {x}")
    # b/p was recorded as pending by the first run: the second fetches it without a record
    expect(first.get(site.url(b, "/p"), {}).get("fate") == "pending" and
           site.url(b, "/p") not in again, f"b/p: {first.get(site.url(b, '/p'))}, {again}")
