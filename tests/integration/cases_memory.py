"""Integration cases: Memory and disk: the spill file and its budget, the seen filter's size, many seed hosts."""
import contextlib

from harness import *  # noqa: F401,F403 (the shared harness)


def case_queue_spills(tmp):
    """--queue-memory 1: the queue spills to a temporary file and still gives every URL, with its
    fate, each page requested once and robots.txt first; the file is gone at the end. With no
    temporary file to be had, the queue stays in memory and says so at once (but with -q)."""
    web = Web(tmp, hosts=4, pages=400)
    spill_dir = os.path.join(tmp, "spill")
    os.mkdir(spill_dir)
    env = dict(os.environ, TMPDIR=spill_dir)
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "1000",
           "--queue-memory", "1", "--jsonl", web.url()]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    log = web.stop()
    expect(p.returncode == 0, f"crawl exited {p.returncode}: {p.stderr}")
    recs = records(p)
    expect_unique([r["url"] for r in recs], "record")
    truth = web.truth(web.url())
    expect_same_set([r["url"] for r in recs], truth, "records")
    for r in recs:
        expect(r["fate"] == truth[r["url"]][0], f"{r['url']}: fate {r['fate']}")
    expect_unique([(r[2], r[3]) for r in log], "request")
    expect(os.listdir(spill_dir) == [], f"left behind: {os.listdir(spill_dir)}")
    expect("waited on disk" in p.stderr, f"nothing spilled: {p.stderr}")
    # no temporary file to be had: the queue stays in memory, nothing is lost, and it says so
    web = Web(tmp, hosts=4, pages=400)
    env = dict(os.environ, TMPDIR=os.path.join(tmp, "missing"))
    cmd[3] = f"127.0.0.1:{web.dns}"
    cmd[-1] = web.url()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    web.stop()
    expect(p.returncode == 0, f"no spill file: exit {p.returncode}: {p.stderr}")
    expect_same_set([r["url"] for r in records(p)], web.truth(web.url()), "no spill file")
    expect(re.search(r"\d+ queued URLs stayed in memory past --queue-memory: the temporary file "
                     r"in \S+missing could not take them \(No such file or directory\)", p.stderr),
           f"no spill file: {p.stderr}")
    # and at once, while the crawl runs: before the summary, once
    warned = [n for n, line in enumerate(p.stderr.splitlines())
              if "spill file in" in line and "missing cannot be written (No such file or "
              "directory): queued URLs stay in memory past --queue-memory" in line]
    summary = [n for n, line in enumerate(p.stderr.splitlines())
               if re.match(r"crawl: \d+ pages fetched, ", line)]
    expect(len(warned) == 1 and summary and warned[0] < summary[0],
           f"no spill file, said at once: {p.stderr}")
    # with -q, that warning is not said either: nothing on standard error but fatal errors
    web = Web(tmp, hosts=4, pages=400)
    cmd[3] = f"127.0.0.1:{web.dns}"
    cmd[-1] = web.url()
    p = subprocess.run(cmd + ["-q"], capture_output=True, text=True, timeout=120, env=env)
    web.stop()
    expect(p.returncode == 0 and p.stderr == "", f"no spill file, -q: {p.returncode} {p.stderr!r}")
    expect_same_set([r["url"] for r in records(p)], web.truth(web.url()), "no spill file, -q")


def case_many_hosts_share_queue_memory(tmp):
    """A broad crawl: 3,000 hosts of 10 pages from one seed, politely (-w 0.05), --queue-memory
    500. Past the budget a host keeps one page in memory, the rest wait on disk (64 a host, as it
    was, would have held every page in memory), and a host whose page in memory was taken to be
    fetched ahead brings its pages back from disk: the crawl ends with the truth's every URL, each
    requested once. (Before, that host's pages waited for good and the crawl never ended.)"""
    web = Web(tmp, hosts=3000, pages=10, links=10, markup=("--html-only",))
    p = crawl(web, "-w", "0.05", "-d", "1000", "--queue-memory", "500", "-D", "web.test",
              "--jsonl", web.url(), timeout=240)
    log = web.stop()
    recs = records(p)
    truth = web.truth(web.url(), scope="domain")
    expect_same_set([r["url"] for r in recs], truth, "records")
    wrong = [r["url"] for r in recs if (r["fate"], r["depth"]) != truth[r["url"]]]
    expect(not wrong, f"{len(wrong)} records with another fate or depth, e.g. {wrong[:3]}")
    # hosts idle a while keep their robots.txt rules on disk (more hosts than the budget): one
    # that comes back reads them back, and robots.txt is asked for once too
    expect_unique([(r[2], r[3]) for r in log], "request")
    m = re.search(r"(\d+) queued URLs waited on disk", p.stderr)
    pages = sum(1 for r in recs if r["fate"] == "fetched")
    expect(m and int(m.group(1)) >= pages // 4,
           f"{m.group(1) if m else 0} of {pages} pages waited on disk: {p.stderr}")


IDLE_HOSTS, IDLE_QUEUE_MEMORY = 300, 100


def idle_hosts_run(tmp, temp_dir, state=None, own_robots=True):
    """One crawl of case_idle_hosts_let_go_of_robots, its temporary files in temp_dir: its exit
    code, standard error, the records of the late links (by URL), the test web's log, and, with
    --state, the hosts a checkpoint written once they were put away leaves out. own_robots:
    every host's robots.txt says something of its own (else all say the same, and share one copy
    of their rules)."""
    import threading
    web = Web(tmp, hosts=IDLE_HOSTS, pages=2, links=2,
              markup=("--html-only", *(["--own-robots"] if own_robots else [])))
    late_links = [web.url(f"s{i}", path) for i in range(IDLE_HOSTS)
                  for path in ("/private/late.html", "/p/late.html")]
    opened = threading.Event()

    def held_page():  # comes a line at a time (so that curl's low-speed limit is never met)
        yield "<html><body>\n"      # until -v has said so of the hosts; then its links
        while not opened.wait(timeout=0.5):
            yield "<!-- " + "waiting " * 32 + "-->\n"
        yield "".join(f'<a href="{u}">x</a>' for u in late_links)

    def respond(host, path, headers):
        if path != "/":
            return None
        return 200, {"Content-Type": "text/html"}, held_page()
    late = Site(["late.web.test"], respond)
    seeds = os.path.join(tmp, "seeds.txt")
    with open(seeds, "w") as f:
        f.write("".join(web.url(f"s{i}") + "\n" for i in range(IDLE_HOSTS)))
        f.write(late.url("late.web.test") + "\n")
    out = os.path.join(tmp, "records.jsonl")
    proc = subprocess.Popen([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}",
                             *late.resolve(), "-v", "-w", "0.01", "-d", "3", "--queue-memory",
                             str(IDLE_QUEUE_MEMORY), "--timeout", "200", "--jsonl", "-o", out, "-i", seeds,
                             *(["--state", state, "--checkpoint", "0.2"] if state else [])],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=temp_dir))
    said, idle = [], 0
    # the event: -v says the rules of the hosts beyond --queue-memory were put away or let go
    # (each shard says so of its own); with shared rules, nothing is put away: they were parked.
    # A shard puts idle hosts away while it has more in memory than its share, so that many
    # always are, however the hosts' idle spells fall between its sweeps; which ones is the
    # machine's speed's, so the late page links to every host
    said_of = (r"(?:kept|let go of) the robots\.txt rules of (\d+) idle hosts" if own_robots
               else r"parked (\d+) idle hosts on disk")
    for line in proc.stderr:
        said.append(line)
        m = re.search(said_of, line)
        idle += int(m.group(1)) if m else 0
        if idle >= IDLE_HOSTS - IDLE_QUEUE_MEMORY:
            break
    saved_hosts = None
    if state:  # a checkpoint written after that: parked hosts are in it as the others are
        ckpt = os.path.join(state, "checkpoint")
        before = file_version(ckpt)
        wait_until(lambda: file_version(ckpt) != before, "a checkpoint", proc)
        with open(ckpt, "rb") as f:  # lines of text, and the seen filter's bytes
            saved = {line.split()[3].decode() for line in f if line.startswith(b"host ")}
        saved_hosts = {web.url(f"s{i}").rstrip("/") for i in range(IDLE_HOSTS)} - saved
    opened.set()
    err = "".join(said) + proc.stderr.read()
    proc.wait(timeout=120)
    log = web.stop()
    late.stop()
    with open(out) as f:
        recs = {r["url"]: r for r in map(json.loads, f)}
    return proc.returncode, err, {u: recs.get(u) for u in late_links}, log, saved_hosts


def case_idle_hosts_let_go_of_robots(tmp):
    """More hosts than --queue-memory (300 hosts, every one a seed, --queue-memory 100): a host
    idle a while (30 s and 30 gaps) with nothing queued keeps its robots.txt rules on disk, not in
    memory, and is parked there itself (the host file), which -v says, while its shard has more
    hosts in memory than its share. Links to every host found afterwards (on a page held back
    until -v has said so of the 200 beyond --queue-memory) bring the parked ones back with their
    rules: they still hold (each disallowed page gets fate robots, each allowed one is asked for)
    and every host's robots.txt is asked for once; the files are gone at the end. Where no
    temporary file can be made (a crawl beside it, TMPDIR missing), the rules are let go instead
    and fetched again, before the page, for the hosts that come back after that, and hosts stay
    in memory. Hosts whose robots.txt says the same (a third crawl) share one copy of their
    rules, which stays: only the first host met keeps its own, which alone goes to the rules
    file; the hosts are parked and come back with them."""
    import threading
    import urllib.parse
    runs = {}
    kept_dir = os.path.join(tmp, "temp")
    os.mkdir(kept_dir)
    shared_dir = os.path.join(tmp, "temp_shared")
    os.mkdir(shared_dir)
    wanted = {"kept": kept_dir, "let go": os.path.join(tmp, "missing"), "shared": shared_dir}
    threads = []
    for name, temp_dir in wanted.items():
        sub = os.path.join(tmp, "run_" + name.replace(" ", "_"))
        os.mkdir(sub)
        state = os.path.join(sub, "state") if name == "kept" else None
        threads.append(threading.Thread(
            target=lambda n=name, s=sub, d=temp_dir, st=state:
            runs.update({n: idle_hosts_run(s, d, st, own_robots=n != "shared")})))
        threads[-1].start()
    for t in threads:
        t.join(timeout=280)
    put_away = IDLE_HOSTS - IDLE_QUEUE_MEMORY
    for name in wanted:
        expect(name in runs, f"{name}: the crawl did not end")
        code, err, late, log, saved_hosts = runs[name]
        expect(code == 0, f"{name}: exit {code}: {err[-2000:]}")
        for url, rec in late.items():
            allowed = "/private/" not in url
            expect(rec and (rec["fate"] == "failed" and rec["status"] == 404 if allowed
                            else rec["fate"] == "robots"), f"{name}: the late page {url}: {rec}")
        robots = Counter(host for _, _, host, path, _ in log if path == "/robots.txt")
        again = [h for h, n in robots.items() if n > 1]
        expect(len(robots) == IDLE_HOSTS and (name == "let go" or not again),
               f"{name}: robots.txt asked again: {again[:5]}, {len(robots)} hosts")
        asked = {urllib.parse.urlsplit(u).hostname: u for u in late if "/p/" in u}
        late_asked = {e[2]: e for e in log if e[3] == "/p/late.html"}
        expect(set(late_asked) == set(asked), f"{name}: late pages not asked for: "
               f"{sorted(set(asked) - set(late_asked))[:5]}")
        if name == "kept":
            kept = sum(int(n) for n in re.findall(
                r"kept the robots\.txt rules of (\d+) idle hosts on disk", err))
            expect(kept >= put_away and "let go of" not in err, f"kept: -v said {err[-2000:]}")
            parked = sum(int(n) for n in re.findall(r"parked (\d+) idle hosts on disk", err))
            expect(parked >= put_away and "host file" not in err, f"kept: {parked} hosts parked, "
                   f"-v said {err[-2000:]}")
            # each of the 300 hosts began 2 pages: a checkpoint keeps that, parked or not
            expect(saved_hosts == set(), f"kept: a checkpoint left out {len(saved_hosts)} "
                   f"hosts, e.g. {sorted(saved_hosts)[:3]}")
            expect(os.listdir(kept_dir) == [], f"left behind: {os.listdir(kept_dir)}")
        elif name == "shared":
            # each shard's first host keeps its own copy (rules met once are not shared)
            kept = sum(int(n) for n in re.findall(r"kept the robots\.txt rules of (\d+)", err))
            shards = int(os.environ.get("CRAWL_TEST_THREADS") or 1)
            expect(kept <= shards and "let go of" not in err and "rules file" not in err,
                   f"shared: {kept} hosts' rules put away: -v said {err[-2000:]}")
            parked = sum(int(n) for n in re.findall(r"parked (\d+) idle hosts on disk", err))
            expect(parked >= put_away, f"shared: {parked} hosts parked")
            expect(os.listdir(shared_dir) == [], f"left behind: {os.listdir(shared_dir)}")
        else:
            let_go = sum(int(n) for n in re.findall(
                r"let go of the robots\.txt rules of (\d+) idle hosts", err))
            expect(let_go >= put_away and "the rules file of idle hosts in " in err,
                   f"let go: -v said {err[-2000:]}")
            expect("the host file of idle hosts in " in err and "parked" not in err,
                   f"let go: -v said {err[-2000:]}")
            # the hosts let go of before the late page came fetch their rules again, twice in
            # all, and before their late page; hosts let go of after it had no page left
            expect(put_away <= len(again) <= let_go and all(n == 2 for n in robots.values() if
                                                             n > 1),
                   f"let go: robots.txt asked again by {len(again)} hosts, {let_go} let go of")
            for host in again:
                second = [e for e in log if e[2] == host and e[3] == "/robots.txt"][-1]
                expect(late_asked[host][0] >= second[1], f"let go: {host}'s late page was "
                       "asked for before its robots.txt came again")


def case_queue_disk_budget(tmp):
    """--queue-disk: a spill file budget small enough to be reached. The URLs found once the file
    is full are printed but not queued, fate limit with the option in error, and counted in the
    summary; the crawl ends by itself, every record once, every fetched one a request, and the
    rest as the ground truth has them."""
    web = Web(tmp, hosts=2, pages=400)
    spill_dir = os.path.join(tmp, "spill")
    os.mkdir(spill_dir)
    env = dict(os.environ, TMPDIR=spill_dir)
    shards = int(os.environ.get("CRAWL_TEST_THREADS") or 1)
    cmd = [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0", "-d", "1000",
           "-j", str(shards), "--queue-memory", "1", "--queue-disk", "6k", "--jsonl", web.url()]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    # the spill files, unlinked, are still open: their sizes through /proc, as the crawl runs
    most = 0
    import threading
    out = {}
    reader = threading.Thread(target=lambda: out.update(zip(("out", "err"), proc.communicate())))
    reader.start()
    while proc.poll() is None:
        try:
            for fd in os.listdir(f"/proc/{proc.pid}/fd"):
                path = f"/proc/{proc.pid}/fd/{fd}"
                if "crawl-queue-" in os.readlink(path):
                    most = max(most, os.stat(path).st_size)
        except OSError:
            pass  # a descriptor closed meanwhile, or the process gone
        time.sleep(0.002)
    reader.join(timeout=60)
    log = web.stop()
    p = subprocess.CompletedProcess(cmd, proc.returncode, out.get("out", ""), out.get("err", ""))
    expect(p.returncode == 0, f"crawl exited {p.returncode}: {p.stderr}")
    expect(6144 // shards // 2 < most <= 6144 // shards,
           f"a spill file of {most} bytes, for a budget of {6144 // shards} a shard")
    recs = records(p)
    expect_unique([r["url"] for r in recs], "record")
    full = [r for r in recs if r["fate"] == "limit"]
    expect(full and all(r.get("error", "").startswith("--queue-disk") for r in full),
           f"limit records {full[:3]}")
    expect(f"{len(full)} URLs not queued" in p.stderr and "waited on disk" in p.stderr,
           f"summary: {p.stderr}")
    requested = {f"http://{h}:{web.port}{path}" for _, _, h, path, _ in log if path != "/robots.txt"}
    expect_same_set({r["url"] for r in recs if r["fate"] in ("fetched", "failed")}, requested,
                    "fetched and failed records against the requests")
    truth = web.truth(web.url())
    odd = [(r["url"], r["fate"], truth.get(r["url"])) for r in recs if r["url"] not in truth
           or (r["fate"] != "limit" and truth[r["url"]][0] != r["fate"])]
    expect(not odd, f"records off the truth: {odd[:5]}")
    expect(os.listdir(spill_dir) == [], f"left behind: {os.listdir(spill_dir)}")


def case_expect_costs_what_is_used(tmp):
    """A filter sized far beyond the crawl (--expect 50000000, a table of about 240 MB) costs what
    its URLs touch, not its size: the crawl's peak memory stays within 100 MB of one with the
    default --expect, and its output is the same."""
    import resource
    web = Web(tmp, hosts=2, pages=40)
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}  # it would write it
    peaks, outs = {}, {}
    for expect_n in ("1000000", "50000000"):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        p = subprocess.run([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w",
                            "0", "-d", "2", "--expect", expect_n, web.url()],
                           capture_output=True, text=True, timeout=60, env=env)
        expect(p.returncode == 0, f"--expect {expect_n}: exit {p.returncode} {p.stderr}")
        peaks[expect_n] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        outs[expect_n] = sorted(p.stdout.splitlines())
        expect(peaks[expect_n] >= before, "ru_maxrss went down")
    web.stop()
    expect(outs["1000000"] == outs["50000000"], "the output differs with --expect")
    with open(BUILT_CRAWL, "rb") as f:
        if b"__tsan_init" in f.read():
            print("skip: ThreadSanitizer's calloc writes every byte it gives; measured without it")
            return
    # ru_maxrss of the children is the largest child's so far, in KiB: the second run's is the
    # peak unless the first was larger
    expect(peaks["50000000"] - peaks["1000000"] < 100 * 1024,
           f"--expect 50000000 cost {(peaks['50000000'] - peaks['1000000']) // 1024} MB more")


def case_many_seed_hosts(tmp):
    """Seeds on more hosts than crawl makes at once (2,500, fed a window at a time so that hosts
    are made as they are reached): the crawl is the ground truth's, breadth first, and a seed is
    a seed (depth 0, via seed) even when a page linked it before its turn. Stopped by -n 1, it
    asks nothing of most hosts and still gives every seed its record. Killed with kill -9 while
    seeds wait, a --state crawl continued until it ends gives every URL one record."""
    web = Web(tmp, hosts=2500, pages=2, links=4)
    seeds = [web.url(f"s{i}") for i in range(2500)]
    seed_file = os.path.join(tmp, "seeds.txt")
    with open(seed_file, "w") as f:
        f.write("\n".join(seeds) + "\n")
    truth = web.truth(*seeds, depth=1)
    p = crawl(web, "-w", "0", "-d", "1", "--jsonl", "-i", seed_file, timeout=120)
    recs = records(p)
    log = web.stop()
    expect_breadth_first(recs, [e for e in log if e[3] != "/robots.txt"], truth, "2,500 seeds")
    not_seed = [r["url"] for r in recs if (r["url"] in truth and truth[r["url"]][1] == 0) !=
                (r["via"] == "seed")]
    expect(not not_seed, f"seeds not recorded as seeds, or the other way: {not_seed[:5]}")

    web = Web(tmp, hosts=2500, pages=2, links=4)
    seeds = [web.url(f"s{i}") for i in range(2500)]
    with open(seed_file, "w") as f:
        f.write("\n".join(seeds) + "\n")
    p = crawl(web, "-w", "0", "-n", "1", "-d", "0", "--jsonl", "-i", seed_file, timeout=120)
    recs = [r for r in records(p) if r["via"] == "seed"]  # and the one page's links
    log = web.stop()
    expect_unique([r["url"] for r in recs], "-n 1: record")
    expect_same_set([r["url"] for r in recs], seeds, "-n 1: records")
    fates = Counter(r["fate"] for r in recs)
    expect(fates == Counter({"limit": 2499, "fetched": 1}), f"-n 1: fates {fates}")
    asked = {host for _, _, host, _, _ in log}
    expect(len(asked) < 1300, f"-n 1: {len(asked)} of 2,500 hosts were asked for robots.txt")

    web = Web(tmp, hosts=2500, pages=2, links=4)
    seeds = [web.url(f"s{i}") for i in range(2500)]
    gate = Gate()  # the crawl cannot end before the third kill, however fast the machine
    with open(seed_file, "w") as f:
        f.write("\n".join(seeds + [gate.url("gate.test")]) + "\n")
    state = os.path.join(tmp, "state")
    out_file = os.path.join(tmp, "records.jsonl")  # cut back to its checkpoint by each run
    kills, runs = 0, 0
    while True:
        runs += 1
        expect(runs <= 20, "the --state crawl did not end in 20 runs")
        cmd = ([CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", *gate.resolve(),
                "-w", "0", "-d", "1", "--jsonl", "-o", out_file, "--checkpoint", "0.2", "--state",
                state, "-i", seed_file]
               if runs == 1 else [CRAWL, "--state", state])
        if kills == 3:
            gate.release()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if kills < 3:  # killed once it has kept something (a checkpoint of its own)
            kill_after_checkpoints(proc, state)
            kills += 1
        _, err = proc.communicate(timeout=120)
        if proc.returncode == 0:
            break
        expect(proc.returncode == -signal.SIGKILL, f"run {runs}: exit {proc.returncode} {err}")
    web.stop()
    gate.stop()
    expect(kills == 3, f"the --state crawl ended after {kills} kills")
    with open(out_file) as f:
        recs = inside([json.loads(line) for line in f])
    gate_recs = [r for r in recs if r["url"] == gate.url("gate.test")]
    expect([r["fate"] for r in gate_recs] == ["fetched"], f"the gate's records: {gate_recs}")
    recs = [r for r in recs if r not in gate_recs]
    truth = web.truth(*seeds, depth=1)
    expect_unique([r["url"] for r in recs], f"--state, {kills} kills: record")
    got = {r["url"]: (r["fate"], r["depth"]) for r in recs}
    wrong = [(u, got.get(u), t) for u, t in truth.items() if got.get(u) != t]
    expect(not wrong and len(got) == len(truth),
           f"--state, {kills} kills: {len(wrong)} of {len(truth)} off, e.g. {wrong[:3]}")


def case_seed_hosts_cost_what_is_used(tmp):
    """100,000 seeds on 100,000 hosts (loopback addresses, of which only the first serves), with
    -n 1 -d 0: hosts are made a window at a time, and no host is asked anything once -n is
    reached, so the crawl ends in seconds under 64 MB, every seed with its record."""
    with open(BUILT_CRAWL, "rb") as f:
        sanitized = re.search(rb"__(a|t)san_init", f.read()) is not None
    # under a sanitizer, a run of 100,000 hosts' robots.txt lookups would take minutes: the
    # behaviour is checked on 5,000, and memory and time only without one
    hosts = 5000 if sanitized else 100000
    web = Web(tmp, hosts=1, pages=2)
    seeds = [web.url()] + [f"http://127.{1 + i // 65536}.{i // 256 % 256}.{i % 256}:{web.port}/"
                           for i in range(hosts - 1)]
    seed_file = os.path.join(tmp, "seeds.txt")
    with open(seed_file, "w") as f:
        f.write("\n".join(seeds) + "\n")
    out = os.path.join(tmp, "records.jsonl")
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}
    started = time.monotonic()
    # the one name needs no lookup: under a sanitizer the loop is slow enough for a query to time out
    proc = subprocess.Popen([CRAWL, "--no-progress", "--resolve", f"s0.web.test:{web.port}:127.0.0.1",
                             "-n", "1", "-d", "0", "--jsonl", "-o", out, "-i", seed_file],
                            stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.monotonic() - started
    err = proc.stderr.read().decode()
    proc.stderr.close()
    web.stop()
    expect(os.waitstatus_to_exitcode(status) == 0, f"exit {status}: {err[-500:]}")
    with open(out) as f:
        recs = [json.loads(line) for line in f]
    fates = Counter(r["fate"] for r in recs if r["via"] == "seed")
    expect(fates == Counter({"limit": hosts - 1, "fetched": 1}), f"seed fates {fates}")
    print(f"{hosts} seed hosts: {elapsed:.1f} s, {usage.ru_utime + usage.ru_stime:.1f} s of CPU, "
          f"{usage.ru_maxrss // 1024} MB")
    if sanitized:
        print("skip: a sanitizer's shadow memory and pace are no crawl's")
        return
    expect(usage.ru_maxrss < 64 * 1024, f"peak RSS {usage.ru_maxrss // 1024} MB, 64 MB at most")
    # its CPU time, not the time on the clock, which a loaded machine stretches
    cpu = usage.ru_utime + usage.ru_stime
    expect(cpu < 30, f"{cpu:.1f} s of CPU ({elapsed:.1f} s on the clock), 30 s at most")


def case_out_of_memory_anywhere(tmp):
    """Memory running out at any allocation of crawl's own code: a small crawl (robots.txt, a
    page, a redirect, a 404, --jsonl, --state) is run once for every allocation its code makes,
    that one failing (tests/support/failalloc.c, through LD_PRELOAD; libcurl's and libxml2's
    own allocations are left alone). Each run either ends with exit 1 and "out of memory" on
    standard error (or the system's words for ENOMEM), or goes on as if nothing happened and
    prints the whole crawl; never a crash, a hang, or exit 0 with something missing. Builds with
    a sanitizer skip it (their allocator cannot be interposed)."""
    shim = os.environ.get("CRAWL_FAILALLOC")
    if not shim:
        print("skip: no failing allocator in a sanitizer's build")
        sys.exit(77)
    real = sys.argv[1]  # the crawl binary itself: the -j wrapper is a shell, whose own
    threads = os.environ.get("CRAWL_TEST_THREADS", "1")  # allocations would count too

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow: /private\n"
        if path == "/":
            return 200, {}, html_links("/a.html", "/moved", "/missing", "/private/x", "/a.html#top")
        if path == "/moved":
            return 301, {"Location": "/b.html"}, ""
        if path in ("/a.html", "/b.html"):
            return 200, {}, html_links("/", "/c.html?q=1")
        if path == "/c.html?q=1":
            return 200, {}, "<p>last</p>"
        return None

    site = Site(["oom.test"], respond)
    try:
        def run(n, state):
            env = dict(os.environ, LD_PRELOAD=shim, CRAWL_FAIL_ALLOC=str(n))
            if n == 0:
                env["CRAWL_ALLOC_COUNT"] = os.path.join(tmp, "count")
            cmd = [real, "-j", threads, "--no-progress", *site.resolve(), "-w", "0", "-d", "3",
                   "--jsonl", "--state", state, site.url("oom.test")]
            return subprocess.run(cmd, capture_output=True, text=True, timeout=30, env=env)

        whole = run(0, os.path.join(tmp, "state0"))
        expect(whole.returncode == 0, f"no failure: exit {whole.returncode}, {whole.stderr}")
        with open(os.path.join(tmp, "count")) as f:
            total = int(f.read())
        expect(total > 100, f"only {total} allocations counted: is the allocator loaded?")
        ended, tolerated = expect_memory_failures(
            lambda n: run(n, os.path.join(tmp, f"state{n}")), range(1, total + 1),
            same_crawl_as(whole), "allocation")
        print(f"{total} allocations: {ended} ended the crawl, {tolerated} were tolerated")
    finally:
        site.stop()


def case_out_of_memory_at_every_site(tmp):
    """Memory running out at every place in crawl's code that allocates, in a crawl that reaches
    more of it than out_of_memory_anywhere's: three hosts of the test web, polite (-w 0.005, so
    pages are fetched ahead and their links held), cut at depth 2, the queue spilled past 5
    URLs, sitemaps, --state and --warc. Failing each of its thousands of allocations would take
    too long: instead every call site that allocates (listed by a first run,
    tests/support/failalloc.c) fails, at its first call and in another run at the call halfway
    through its calls. Each run ends with exit 1 and
    "out of memory" (or the system's words for ENOMEM), or ends as if nothing happened with the
    same records; never a crash, a hang, or exit 0 with something missing."""
    shim = os.environ.get("CRAWL_FAILALLOC")
    if not shim:
        print("skip: no failing allocator in a sanitizer's build")
        sys.exit(77)
    real = sys.argv[1]  # the crawl binary itself, not the -j wrapper (a shell that allocates)
    threads = os.environ.get("CRAWL_TEST_THREADS", "1")
    web = Web(tmp, hosts=3, pages=60)

    def run(name, **env):
        state, warc = os.path.join(tmp, f"state-{name}"), os.path.join(tmp, f"{name}.warc")
        cmd = [real, "-j", threads, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}",
               "-w", "0.005", "-d", "2", "--queue-memory", "5", "--sitemaps", "--jsonl",
               "--state", state, "--warc", warc, web.url()]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, LD_PRELOAD=shim, **env))
        shutil.rmtree(state, ignore_errors=True)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(warc)
        return p

    try:
        listing = os.path.join(tmp, "sites")
        whole = run("whole", CRAWL_ALLOC_SITES=listing)
        expect(whole.returncode == 0, f"no failure: exit {whole.returncode}, {whole.stderr}")
        with open(listing) as f:
            calls = {site: int(n) for site, n in (line.split() for line in f)}
        expect(len(calls) > 100, f"only {len(calls)} call sites: is the allocator loaded?")
        # each site's first call, and the one halfway through its calls: a buffer's later
        # growth, say, where the first is when it is made
        sites = sorted(f"{site}:{n}" for site, count in calls.items()
                       for n in sorted({1, (count + 1) // 2}))
        want = settled_records(whole)
        expect(sum(1 for r in want if '"depth"' in r) > 20, f"a small crawl: {len(want)} records")

        ended, tolerated = expect_memory_failures(
            lambda s: run(s.replace(":", "-"), CRAWL_FAIL_SITE=s), sites, same_crawl_as(whole),
            "site:call")
        print(f"{len(calls)} call sites, {len(sites)} calls failed: {ended} ended the crawl, "
              f"{tolerated} were tolerated")
    finally:
        web.stop()


def case_shard_thread_refused(tmp):
    """A shard whose thread cannot start (the system refusing another thread: pthread_create
    made to fail by tests/support/failalloc.c's CRAWL_FAIL_THREAD) ends the crawl with exit 1,
    naming the shard, where the shards that did start would wait for it at their first barrier
    for ever. The same crawl with every thread started prints the whole web. Builds with a
    sanitizer skip it (the shim is loaded with the failing allocator)."""
    shim = os.environ.get("CRAWL_FAILALLOC")
    if not shim:
        print("skip: no failing allocator in a sanitizer's build")
        sys.exit(77)
    real = sys.argv[1]  # the crawl binary itself, at -j 4 whatever the case's threads
    web = Web(tmp, hosts=4, pages=20)
    try:
        cmd = [real, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-j", "4", "-w",
               "0", "-d", "1000", web.url()]
        whole = subprocess.run(cmd, env=dict(os.environ, LD_PRELOAD=shim), capture_output=True,
                               text=True, timeout=60)
        expect(whole.returncode == 0, f"every thread started: exit {whole.returncode}: "
               f"{whole.stderr[-300:]}")
        expect_same_set(lines(whole), web.truth(web.url()), "every thread started")
        # the signal watcher is the first thread crawl starts, shard 1 the second, shard 2 the third
        try:
            p = subprocess.run(cmd, env=dict(os.environ, LD_PRELOAD=shim, CRAWL_FAIL_THREAD="3"),
                               capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError("shard 2's thread refused: the crawl hung")
        expect(p.returncode == 1 and "cannot start a thread for shard 2" in p.stderr,
               f"shard 2's thread refused: exit {p.returncode}: {p.stderr[-300:]}")
    finally:
        web.stop()
