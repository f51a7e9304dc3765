"""Integration cases: --cluster: processes sharing one crawl through Redis."""
import contextlib

from harness import *  # noqa: F401,F403 (the shared harness)
from cluster_harness import *  # noqa: F401,F403 (Redis and the nodes of a cluster run)


def case_cluster_nodes(tmp):
    """--cluster: three processes over one Redis share a crawl of 30 hosts whose pages link
    across hosts. Each prints the URLs of the hosts it owns: together every URL once, with the
    truth's fate and breadth-first depth (at -d 1000 and at -d 3 with a delay), the same set as
    one process, and no page fetched twice. The processes run 1, 3 and 2 shards of their own.
    Once the job has ended, its streams are empty and every key it used expires within a week."""
    redis = Redis(tmp)
    try:
        for job, delay, depth in (("deep", "0", 1000), ("shallow", "0.01", 3)):
            web = Web(tmp, hosts=30, pages=40, links=10, seed=7)
            procs = cluster_run(web, redis, job, (["-j", "1"], ["-j", "3"], ["-j", "2"]),
                                "-w", delay, "-d", str(depth), "--jsonl", web.url())
            log = web.stop()
            what = f"-w {delay} -d {depth}"
            for i, proc in enumerate(procs):
                expect(proc.returncode == 0, f"{what}: node {i} exited {proc.returncode}: "
                       f"{proc.err[-400:]}")
            recs = inside([json.loads(line) for proc in procs for line in proc.out.splitlines()])
            expect(all(proc.out for proc in procs), f"{what}: a node printed nothing")
            expect_breadth_first(recs, log, web.truth(web.url(), depth=depth),
                                 f"{what} across nodes")
            for node in range(3):
                stream = f"crawl:{{{job}:{node}}}:links"
                expect(redis.command("XLEN", stream) == ":0", f"{stream} is not empty")
                expect(redis.command("EXISTS", f"crawl:{{{job}:{node}}}:taken") == ":0",
                       f"node {node}'s taken set stays")
            keys = redis.command("KEYS", f"crawl:{{{job}*")
            expect(len(keys) >= 8, f"the job's keys: {keys} (3 streams, 3 states, options, "
                   "ended, the pages begun)")
            for key in keys:
                ttl = redis.command("TTL", key)
                expect(ttl.startswith(":") and 0 < int(ttl[1:]) <= 7 * 24 * 3600,
                       f"{key} does not expire: TTL {ttl}")
        # the same job again is refused: its state says it has ended
        web = Web(tmp, hosts=2, pages=5)
        p = crawl(web, "--cluster", redis.url("deep"), "--nodes", "3", "--node", "0", web.url(),
                  check=False)
        web.stop()
        expect(p.returncode == 1 and "has ended" in p.stderr and not p.stdout,
               f"a finished job again: exit {p.returncode}, {p.stderr!r}")
    finally:
        redis.stop()


def case_cluster_failed_start_keeps_state(tmp):
    """A --state node of a cluster, paused, then continued with other options than its job's,
    and while Redis is down: each continuation that cannot start exits 1 and leaves
    `checkpoint` and `checkpoint.prev` byte for byte as they were (a save made then held one
    shard's part alone). Continued while Redis is still down, it waits
    (--cluster-wait), saying so once and saving nothing, and once Redis is back the crawl ends
    with every URL of the truth, no page fetched twice."""
    redis = Redis(tmp, aof=True)
    web = Web(tmp, hosts=6, pages=120, seed=3)
    state, out = os.path.join(tmp, "state"), os.path.join(tmp, "out.jsonl")
    try:
        first = state_cmd(web, state, "-j", "3", "--jsonl", "-o", out, "--cluster",
                          redis.url("keep"), "--nodes", "1", "--node", "0", interval=0.2)
        proc = subprocess.Popen(first, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_served(web, 10, proc)  # then paused after two checkpoints: both files are kept
        kill_after_checkpoints(proc, state, 2, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        expect(proc.returncode == 143, f"the first run exited {proc.returncode}: {err}")
        before = checkpoint_files(state)
        p = subprocess.run([CRAWL, "--state", state, "-d", "3"], capture_output=True, text=True,
                           timeout=60)
        expect(p.returncode == 1 and "runs with other options" in p.stderr and not p.stdout,
               f"continued with other options: exit {p.returncode}, {p.stderr!r}")
        expect(checkpoint_files(state) == before, "other options: the checkpoint files changed")
        redis.stop()
        for threads in ("3", "1"):
            p = subprocess.run([CRAWL, "-j", threads, "--cluster-wait", "0", "--state", state],
                               capture_output=True, text=True, timeout=60)
            expect(p.returncode == 1 and "Redis at" in p.stderr,
                   f"-j {threads}, Redis down: exit {p.returncode}, {p.stderr!r}")
            expect(checkpoint_files(state) == before,
                   f"-j {threads}, Redis down: the checkpoint files changed")
        waiting = subprocess.Popen([CRAWL, "--state", state], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        said = OutputWatch(waiting)
        wait_until(lambda: "waiting for it up to 60 s" in said.err(), "the wait for Redis said",
                   waiting)
        expect(checkpoint_files(state) == before,
               "the checkpoint files changed while waiting for Redis")
        redis.start()
        _, err = said.finish(timeout=90)
        expect(waiting.returncode == 0, f"continued with Redis back: exit {waiting.returncode}, "
               f"{err}")
        expect(err.count("waiting for it up to 60 s") == 1 and "Redis answers" in err,
               f"the wait for Redis, as said: {err!r}")
    finally:
        redis.stop()
    log = web.stop()
    with open(out) as f:
        recs = inside([json.loads(line) for line in f])
    expect_same_set({r["url"] for r in recs}, web.truth(web.url()), "the runs together")
    twice = [k for k, n in Counter((h, path) for _, _, h, path, _ in log
                                   if path != "/robots.txt").items() if n > 1]
    expect(len(twice) <= 12, f"fetched twice: {len(twice)}, e.g. {twice[:3]}")


def case_cluster_continued_after_end(tmp):
    """A --state node continued after its job ended: when its state holds nothing unfinished
    (its part was done) it says the job is complete, asks nothing and exits 0; when it holds
    queued pages (a node paused, its job then ended), it exits 1 naming what would be lost and
    leaves `checkpoint` and `checkpoint.prev` byte for byte as they were. A new crawl on an
    ended job is refused as before."""
    redis = Redis(tmp)
    web = Web(tmp, hosts=6, pages=60, links=4, seed=3)
    try:
        def node_cmd(job, state, i, nodes, *args):
            return [CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d", "1000",
                    "--jsonl", "--checkpoint", "0.2", "--state", state, "--cluster",
                    redis.url(job), "--nodes", str(nodes), "--node", str(i), *args, web.url()]
        dirs = [os.path.join(tmp, f"done{i}") for i in range(2)]
        procs = nodes_run([node_cmd("done", d, i, 2, "-w", "0", "-j", "2")
                           for i, d in enumerate(dirs)])
        for i, proc in enumerate(procs):
            expect(proc.returncode == 0, f"node {i} exited {proc.returncode}: {proc.err[-300:]}")
        expect(redis.command("EXISTS", "crawl:{done}:ended") == ":1", "the job did not end")
        for i in range(2):  # what --state nodes acknowledge one checkpoint late is gone too
            expect(redis.command("XLEN", f"crawl:{{done:{i}}}:links") == ":0" and
                   redis.command("EXISTS", f"crawl:{{done:{i}}}:taken") == ":0",
                   f"node {i}'s stream or taken set stays after the end")
        before = time.monotonic()
        for threads in ("2", "1"):
            p = subprocess.run([CRAWL, "-j", threads, "--state", dirs[1]], capture_output=True,
                               text=True, timeout=60)
            expect(p.returncode == 0 and "the job 'done' is complete" in p.stderr
                   and not p.stdout, f"-j {threads}, continued after the end: exit "
                   f"{p.returncode}, {p.stdout[:200]!r} {p.stderr!r}")
        continued = time.monotonic()
        # a node paused mid-crawl, whose job then ends (as the nodes mark it when done)
        paused = os.path.join(tmp, "paused")
        proc = subprocess.Popen(node_cmd("cut", paused, 0, 1, "-w", "0.05"),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wait_served(web, 10, proc)
        # a checkpoint written before the pause, so that the pause's makes checkpoint.prev (on a
        # loaded machine ten requests may come before the first): an event, not a time
        wait_until(lambda: os.path.exists(os.path.join(paused, "checkpoint")),
                   "the paused node's first checkpoint", proc)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        expect(proc.returncode == 143, f"the paused node exited {proc.returncode}: {err}")
        expect(redis.command("SET", "crawl:{cut}:ended", "1") == "+OK", "cannot end the job")
        kept = checkpoint_files(paused)
        asked = time.monotonic()
        p = subprocess.run([CRAWL, "--state", paused], capture_output=True, text=True, timeout=60)
        expect(p.returncode == 1 and "has ended, but this node's state holds" in p.stderr
               and re.search(r"\b[1-9]\d* queued pages", p.stderr) and not p.stdout,
               f"paused, continued after the end: exit {p.returncode}, {p.stderr!r}")
        expect(checkpoint_files(paused) == kept, "the checkpoint files changed")
        log = web.stop()
        expect(not [r for r in log if before <= r[0] < continued],
               "a node continued after the end made requests")
        expect(not [r for r in log if r[0] >= asked], "a refused continuation made requests")
        # a new crawl on the ended job
        web = Web(tmp, hosts=2, pages=5)
        p = crawl(web, "--cluster", redis.url("done"), "--nodes", "2", "--node", "0", web.url(),
                  check=False)
        expect(p.returncode == 1 and "give the new crawl a new job name" in p.stderr,
               f"a new crawl on an ended job: exit {p.returncode}, {p.stderr!r}")
    finally:
        web.stop()
        redis.stop()


def case_cluster_continued_after_end_with_sitemap(tmp):
    """A --state node paused while its only unfinished work was a sitemap (asked for, not yet
    answered): continued after its job ended, it counts the sitemap as unfinished, exits 1 naming
    it among the queued pages, and leaves its checkpoint as it was, where taking its part as done
    would lose the sitemap's URLs."""
    import threading
    host = "map.site.test"
    opened, asked = threading.Event(), threading.Event()

    def respond(h, path, headers):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, \
                f"User-agent: *\nSitemap: {site.url(host, '/map.xml')}\n"
        if path == "/":
            return 200, {}, html_links()
        if path == "/map.xml":
            asked.set()
            opened.wait(timeout=120)
            return 200, {"Content-Type": "application/xml"}, "<urlset></urlset>"
        return None

    redis = Redis(tmp)
    site = Site([host], respond)
    try:
        state = os.path.join(tmp, "paused")
        proc = subprocess.Popen(
            [CRAWL, "--no-progress", *site.resolve(), "-w", "0", "--sitemaps", "--checkpoint",
             "0.2", "--per-host", "4", "--state", state, "--cluster", redis.url("maps"),
             "--nodes", "1", "--node", "0", site.url(host)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

        def only_the_sitemap():
            """A checkpoint whose lines (doc/design.md, The checkpoint format) hold the sitemap
            in flight and no page: the page and any other sitemap were done."""
            try:
                with open(os.path.join(state, "checkpoint"), "rb") as f:
                    saved = f.read()
            except FileNotFoundError:
                return False
            return saved.count(b"\nsitemap ") == 1 and b"/map.xml" in saved and \
                b"\npage " not in saved and b"\ntransit " not in saved

        wait_until(only_the_sitemap, "a checkpoint holding the sitemap alone", proc)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        expect(proc.returncode == 143, f"the paused node exited {proc.returncode}: {err}")
        expect(redis.command("SET", "crawl:{maps}:ended", "1") == "+OK", "cannot end the job")
        kept = checkpoint_files(state)
        p = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True, timeout=60)
        expect(p.returncode == 1 and "has ended, but this node's state holds" in p.stderr
               and "1 queued pages" in p.stderr and not p.stdout,
               f"paused with a sitemap, continued after the end: exit {p.returncode}, "
               f"{p.stderr!r}")
        expect(checkpoint_files(state) == kept, "the checkpoint files changed")
    finally:
        opened.set()
        site.stop()
        redis.stop()


def case_cluster_continued_after_end_with_cut(tmp):
    """A --state node whose part of the job is done but whose state keeps the URLs cut by depth
    (kept for a deeper run) counts nothing unfinished: continued after the job ended, it says the
    job is complete, exits 0, asks nothing, prints no record again (its first run printed each
    URL once), and its summary still counts the URLs cut by depth."""
    redis = Redis(tmp)
    web = Web(tmp, hosts=6, pages=60, links=4, seed=3)
    try:
        dirs = [os.path.join(tmp, f"node{i}") for i in range(2)]
        procs = nodes_run([[CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-d",
                            "1", "-w", "0", "-j", "2", "--jsonl", "--state", d, "--cluster",
                            redis.url("shallow"), "--nodes", "2", "--node", str(i), web.url()]
                           for i, d in enumerate(dirs)])
        recs = [json.loads(line) for proc in procs for line in proc.out.splitlines()]
        for i, proc in enumerate(procs):
            expect(proc.returncode == 0, f"node {i} exited {proc.returncode}: {proc.err[-300:]}")
        cut = [r["url"] for r in recs if r["fate"] == "depth"]
        expect(cut, f"no URL was cut by depth: {Counter(r['fate'] for r in recs)}")
        expect_unique([r["url"] for r in recs], "records of the first runs")
        expect(redis.command("EXISTS", "crawl:{shallow}:ended") == ":1", "the job did not end")
        before = time.monotonic()
        counted = 0
        for d in dirs:
            p = subprocess.run([CRAWL, "--state", d], capture_output=True, text=True, timeout=60)
            expect(p.returncode == 0 and "the job 'shallow' is complete" in p.stderr
                   and not p.stdout, f"continued after the end: exit {p.returncode}, "
                   f"{p.stdout[:200]!r} {p.stderr!r}")
            m = re.search(r"(\d+) cut by depth", p.stderr)
            counted += int(m.group(1)) if m else 0
        expect(counted == len(cut), f"the summaries count {counted} cut by depth, the first runs "
               f"recorded {len(cut)}")
        log = web.stop()
        expect(not [r for r in log if r[0] >= before], "a node continued after the end made "
               "requests")
    finally:
        web.stop()
        redis.stop()


def case_cluster_state_survives_kill(tmp):
    """--cluster with --state: three processes share a polite crawl, each checkpointing into its
    own directory; one is killed with kill -9 mid-crawl and continued with nothing but
    `crawl --state DIR`. The others wait for it (its hosts' depths are pending), it takes up again
    what Redis gave it after its last checkpoint (acknowledged only once a checkpoint held it),
    and all runs together print the single-process truth, fetching every page of it."""
    redis = Redis(tmp)
    try:
        web = Web(tmp, hosts=12, pages=80, links=2, seed=5)
        dirs, cmds = state_nodes(tmp, web, redis, "kill")
        again = []

        def kill_and_continue(procs):
            wait_served(web, 20, *procs)
            procs[1].kill()
            procs[1].wait()
            time.sleep(0.5)  # the others go on meanwhile, and send node 1 more links
            again.extend(nodes_run([[CRAWL, "--state", dirs[1]]]))

        procs = nodes_run(cmds, kill_and_continue)
        log = web.stop()
        expect(procs[1].returncode == -signal.SIGKILL, f"node 1 exited {procs[1].returncode}")
        for i, proc in ((0, procs[0]), (2, procs[2]), (1, again[0])):
            expect(proc.returncode == 0, f"node {i} exited {proc.returncode}: {proc.err[-400:]}")
        expect(again[0].out, "node 1, continued, printed nothing")
        truth = web.truth(web.url())
        expect_truth_records((*procs, *again), truth, "the nodes' runs together")
        fetched = {f"http://{h}:{web.port}{p}" for _, _, h, p, _ in log}
        unfetched = sorted(u for u, (fate, _) in truth.items()
                           if fate == "fetched" and u not in fetched)
        expect(not unfetched, f"pages no run fetched: {unfetched[:5]}")
    finally:
        redis.stop()


def case_cluster_survives_redis_restart(tmp):
    """--cluster with --state, and Redis started again from its append-only file twice:
    - killed with kill -9 mid-crawl and not back within --cluster-wait (2 s here): every process
      stops with a clear error naming Redis and the command that goes on, its checkpoint saved;
    - hung (SIGSTOP) while the processes, continued with `crawl --state DIR`, run, then each
      paused with SIGINT and Redis killed: a pause with Redis not answering keeps what it had
      not confirmed (most often the run is between two levels then, waiting for a view, and
      there is nothing: tests/cluster covers the batches kept).
    Continued once more, the runs together print the single-process truth, each URL once with
    the truth's fate and depth, and no page is fetched twice but those a node had in flight when
    Redis was killed: its crawl stops at once then (a fatal error), and what it had not settled
    is fetched again by the run that continues it (at most one page a host, as -w allows one
    request at a time; each answered within two seconds of the kill)."""
    redis = Redis(tmp, aof=True)
    killed_at = []
    try:
        web = Web(tmp, hosts=12, pages=80, links=2, seed=5)
        dirs, cmds = state_nodes(tmp, web, redis, "aof", "--cluster-wait", "2")

        def kill_redis(procs):
            wait_served(web, 20, *procs)
            killed_at.append(time.monotonic())
            redis.stop()

        def hang_redis(procs):
            wait_served(web, 10, *procs)
            redis.proc.send_signal(signal.SIGSTOP)
            time.sleep(1)  # a level's pages end meanwhile, and their links wait for Redis
            for p in procs:
                p.send_signal(signal.SIGINT)
            time.sleep(0.5)
            redis.stop()

        first = nodes_run(cmds, kill_redis)
        for i, proc in enumerate(first):
            expect(proc.returncode == 1 and f"Redis at 127.0.0.1:{redis.port}" in proc.err and
                   f"waited 2 s (--cluster-wait); once Redis answers, 'crawl --state {dirs[i]}' "
                   "goes on" in proc.err,
                   f"node {i} with Redis gone: exit {proc.returncode}, {proc.err[-300:]!r}")
        redis.start()
        again = [[CRAWL, "--state", d] for d in dirs]
        second = nodes_run(again, hang_redis)
        for i, proc in enumerate(second):
            # paused, it waits for Redis's answers a while: Redis may go first
            expect(proc.returncode == 130 or (proc.returncode == 1 and "Redis at" in proc.err),
                   f"node {i} paused with Redis hung: exit {proc.returncode}, "
                   f"{proc.err[-300:]!r}")
        redis.start()
        third = nodes_run(again)
        log = web.stop()
        for i, proc in enumerate(third):
            expect(proc.returncode == 0, f"node {i} exited {proc.returncode}: {proc.err[-400:]}")
        recs = expect_truth_records((*first, *second, *third), web.truth(web.url()),
                                    "the nodes' runs together")
        expect_unique([r["url"] for r in recs], "record across the runs of each node")
        fetched = Counter((h, p) for _, _, h, p, _ in log if p != "/robots.txt")
        first_end = {}
        for _, end, h, p, _ in sorted(log):
            first_end.setdefault((h, p), end)
        twice = [k for k, n in fetched.items() if n > 1]
        late = [k for k in twice if not any(abs(first_end[k] - t) < 2.0 for t in killed_at)]
        per_host = Counter(h for h, _ in twice)
        expect(not late and all(fetched[k] == 2 for k in twice) and
               all(n == 1 for n in per_host.values()),
               f"fetched twice, not in flight when Redis was killed: {late[:3]}; all twice: "
               f"{[(k, fetched[k]) for k in twice][:5]}")
    finally:
        redis.stop()


def case_cluster_waits_out_redis_restart(tmp):
    """--cluster with --state, Redis killed mid-crawl and started again from its append-only file
    1.5 s later: every process waits for it (saying so once, then that it answers again) and
    goes on where it was; each ends by itself with exit 0, and together they print the
    single-process truth, every URL once with the truth's fate and depth."""
    redis = Redis(tmp, aof=True)
    try:
        web = Web(tmp, hosts=12, pages=80, links=2, seed=5)
        dirs, cmds = state_nodes(tmp, web, redis, "wait")

        def restart_redis(procs):
            wait_served(web, 20, *procs)
            redis.stop()
            time.sleep(1.5)
            redis.start()

        procs = nodes_run(cmds, restart_redis)
        log = web.stop()
        for i, proc in enumerate(procs):
            expect(proc.returncode == 0, f"node {i} exited {proc.returncode}: {proc.err[-400:]}")
            expect(proc.err.count("waiting for it up to 60 s") == 1 and
                   proc.err.count("Redis answers again") == 1,
                   f"node {i} on the wait: {proc.err[-400:]!r}")
        recs = expect_truth_records(procs, web.truth(web.url()), "the nodes' runs")
        expect_unique([r["url"] for r in recs], "record across the nodes")
        fetched = Counter((h, p) for _, _, h, p, _ in log if p != "/robots.txt")
        twice = [k for k, n in fetched.items() if n > 1]
        expect(not twice, f"fetched twice: {twice[:5]}")
    finally:
        redis.stop()


def case_cluster_fatal_keeps_page_in_flight(tmp):
    """A page whose answer comes in the same turn of the loop as the error that ends a --cluster
    --state crawl (its Redis killed, not waited for: --cluster-wait 0): its links are no longer
    taken then, so it is not reported
    fetched either. The checkpoint keeps it, and the continued crawl fetches it again and
    reports it and its link. One turn is made by stopping the process (SIGSTOP) while Redis is
    killed and the answer written, then continuing it (SIGCONT) with both waiting."""
    import threading
    asked, release = threading.Event(), threading.Event()

    def respond(host, path, headers):
        if path == "/":
            return 200, {}, '<a href="/held.html">held</a>'
        if path == "/held.html":
            asked.set()
            release.wait(30)
            return 200, {}, '<a href="/child.html">child</a>'
        if path == "/child.html":
            return 200, {}, "<p>the end</p>"
        return None

    redis, site = Redis(tmp, aof=True), Site(["a.test"], respond)
    try:
        state = os.path.join(tmp, "state")
        proc = subprocess.Popen([CRAWL, "--no-progress", *site.resolve(), "--jsonl", "--state",
                                 state, "--cluster", redis.url("turn"), "--nodes", "1", "--node",
                                 "0", "--cluster-wait", "0", site.url("a.test")],
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        expect(asked.wait(30), "/held.html was never asked for")
        time.sleep(0.3)  # the process waits in its loop
        proc.send_signal(signal.SIGSTOP)
        redis.stop()  # first: its connections are the first ready
        release.set()
        time.sleep(0.5)  # the answer is written
        proc.send_signal(signal.SIGCONT)
        out, err = proc.communicate(timeout=60)
        expect(proc.returncode == 1 and "Redis at" in err,
               f"with Redis gone: exit {proc.returncode}, {err[-300:]!r}")
        redis.start()
        again = subprocess.run([CRAWL, "--state", state], capture_output=True, text=True,
                               timeout=60)
        expect(again.returncode == 0, f"continued: exit {again.returncode}, {again.stderr[-300:]}")
        recs = inside([json.loads(line) for line in (out + again.stdout).splitlines()])
        urls = Counter(r["url"] for r in recs)
        want = {site.url("a.test", p) for p in ("/", "/held.html", "/child.html")}
        expect(set(urls) == want and max(urls.values()) == 1,
               f"the two runs printed {dict(urls)}, want each of {sorted(want)} once")
        expect(all(r["fate"] == "fetched" for r in recs), f"fates: {recs}")
    finally:
        release.set()
        redis.stop()
        site.stop()


def case_cluster_max_pages(tmp):
    """--cluster with -n N: the limit is the whole run's, leased to the processes from Redis in
    blocks. Three processes over 12 hosts fetch exactly N pages together (robots.txt not counted),
    and the rest is accounted as limit once, across the nodes. With a delay and N = 450, more
    pages than the hosts of any one process hold (at most 387 requests), more than one process
    must fetch: the leases pass between them."""
    redis = Redis(tmp)
    try:
        for job, delay, limit in (("fast", "0", 100), ("polite", "0.005", 450)):
            web = Web(tmp, hosts=12, pages=60, links=6, seed=5)
            procs = cluster_run(web, redis, job, ([], [], []), "-w", delay, "-d", "1000",
                                "-n", str(limit), "--jsonl", web.url())
            log = web.stop()
            what = f"-w {delay} -n {limit}"
            for i, proc in enumerate(procs):
                expect(proc.returncode == 0, f"{what}: node {i} exited {proc.returncode}: "
                       f"{proc.err[-300:]}")
            pages = [r for r in log if r[3] != "/robots.txt"]
            expect(len(pages) == limit, f"{what}: {len(pages)} page requests, want {limit}")
            owners = {r[2] for r in pages}
            recs = inside([json.loads(line) for proc in procs for line in proc.out.splitlines()])
            expect_unique([r["url"] for r in recs], f"{what}: record")
            fates = Counter(r["fate"] for r in recs)
            expect(fates["fetched"] + fates["failed"] == limit, f"{what}: fates {dict(fates)}")
            expect(fates["limit"] > 0, f"{what}: no limit fates: {dict(fates)}")
            fetching = sum(1 for proc in procs
                           if any(json.loads(line)["fate"] == "fetched"
                                  for line in proc.out.splitlines()))
            expect(limit < 450 or (fetching > 1 and len(owners) > 5),
                   f"{what}: {fetching} nodes fetched, over {len(owners)} hosts")
    finally:
        redis.stop()


def case_cluster_stop_and_errors(tmp):
    """--cluster: SIGINT to one process stops all three (each exits 130, reporting what it had
    queued as pending; with --state each pauses, and all continue to the end); a process with
    other options than the job's is refused; no Redis at the address is a clear fatal error; a malformed address, a
    node out of range and --node without --cluster are usage errors."""
    redis = Redis(tmp)
    try:
        web = Web(tmp, hosts=12, pages=60, links=6, seed=5)
        stopped = []

        def interrupt(procs):
            wait_served(web, 10, *procs)
            procs[1].send_signal(signal.SIGINT)
            stopped.append(time.monotonic())

        procs = nodes_run([[CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w",
                            "0.3", "-d", "1000", "--jsonl", "--cluster", redis.url("stop"),
                            "--nodes", "3", "--node", str(i), web.url()] for i in range(3)],
                          interrupt)
        took = time.monotonic() - stopped[0]
        web.stop()
        for i, proc in enumerate(procs):
            expect(proc.returncode == 130, f"node {i} exited {proc.returncode}: {proc.err[-300:]}")
        expect(took < 10, f"the nodes took {took:.1f} s to stop")
        recs = inside([json.loads(line) for proc in procs for line in proc.out.splitlines()])
        expect_unique([r["url"] for r in recs], "record across stopped nodes")
        expect(any(r["fate"] == "pending" for r in recs), "nothing was left pending")
        # with --state the same stop pauses the job, and `crawl --state DIR` on every node goes
        # on with it (the stop asked before does not stop it again) to the end
        web = Web(tmp, hosts=12, pages=60, links=6, seed=5)
        dirs = [os.path.join(tmp, f"paused{i}") for i in range(3)]
        procs = nodes_run([[CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w",
                            "0.3", "-d", "1000", "--jsonl", "--state", dirs[i], "--cluster",
                            redis.url("pause"), "--nodes", "3", "--node", str(i), web.url()]
                           for i in range(3)], interrupt)
        for i, proc in enumerate(procs):
            expect(proc.returncode == 130, f"node {i} paused: exit {proc.returncode}: "
                   f"{proc.err[-300:]}")
        continued = nodes_run([[CRAWL, "-w", "0", "--state", d] for d in dirs])
        log = web.stop()
        for i, proc in enumerate(continued):
            expect(proc.returncode == 0, f"node {i} continued: exit {proc.returncode}: "
                   f"{proc.err[-300:]}")
        recs = inside([json.loads(line) for proc in (*procs, *continued) for line in proc.out.splitlines()])
        expect_breadth_first(recs, [e for e in log if e[3] != "/robots.txt"],
                             web.truth(web.url()), "paused and continued nodes")
        # a process with other options than the job's first is refused, naming the difference
        # (the job stopped above, which has not ended)
        # (the job stopped above, which has not ended): every option of the job's, each alone
        web = Web(tmp, hosts=2, pages=5)
        node1 = ["--nodes", "3", "--node", "1", "-w", "0.3", "-d", "1000", "--jsonl"]
        for args, differs in ((["--nodes", "2", "--node", "1"], "'nodes 2' here, 'nodes 3'"),
                              (node1 + ["-d", "2"], "'depth 2' here"),
                              (node1 + ["-n", "5"], "'max-pages 5' here"),
                              (node1 + ["--max-pages-per-host", "5"], "'max-pages-per-host 5'"),
                              (node1 + ["--scope", "any"], "'scope "),
                              (node1 + ["--no-parent"], "'no-parent 1' here"),
                              (node1 + ["--no-robots"], "'robots 0' here"),
                              (node1 + ["--sitemaps"], "'sitemaps 1' here"),
                              (node1 + ["--max-url-length", "100"], "'max-url-length 100'"),
                              (node1 + ["--max-redirs", "2"], "'max-redirs 2' here"),
                              (node1 + ["--match", "a,b"], "'match a,b' here"),
                              (node1 + ["--exclude", "c"], "'exclude c' here"),
                              (node1 + ["--max-path-repeat", "5"], "'max-path-repeat 5'"),
                              (node1 + ["--max-path-segments", "9"], "'max-path-segments 9'"),
                              (node1 + ["--max-query-variants", "7"], "'max-query-variants 7'"),
                              (node1 + ["--max-sitemaps", "3"], "'max-sitemaps 3' here"),
                              (node1 + ["--sitemap-depth", "1"], "'sitemap-depth 1' here"),
                              (node1 + ["--max-size", "1M"], "'max-size 1048576' here"),
                              (node1 + ["--max-size", "3k"], "'max-size 3072' here"),
                              (node1 + ["--max-size", "2G"], "'max-size 2147483648' here"),
                              (node1 + ["--max-size", "5g"], "'max-size 5368709120' here"),
                              (node1 + ["--js"], "'js 1' here"),
                              (node1 + ["--check-skipped"], "'check-skipped 1' here"),
                              (node1 + ["--check-outside"], "'check-outside 1' here"),
                              (node1 + ["--allow-private"], "'allow-private 1' here"),
                              (node1 + ["-U", "otherbot/2.0"], "'product-token otherbot' here"),
                              (node1 + ["-D", "x.test"], "'scope 3' here"),  # -D: a scope of its own
                              (node1 + ["--exclude-domains", "y.test"], "'exclude-domains y.test'"),
                              (node1 + ["-A", "pdf"], "'accept pdf' here"),
                              (node1 + ["-R", "png"], "'reject png' here"),
                              (node1 + ["--skip-ext", "zip"], "'skip-ext zip")):
            p = crawl(web, "--cluster", redis.url("stop"), *args, web.url(), check=False)
            expect(p.returncode == 1 and differs in p.stderr and not p.stdout,
                   f"{args} on a job begun otherwise: exit {p.returncode}, {p.stderr!r}")
        web.stop()
    finally:
        redis.stop()
    port = free_port()
    web = Web(tmp, hosts=2, pages=5)
    started = time.monotonic()
    p = crawl(web, "--cluster", f"redis://127.0.0.1:{port}/j", "--nodes", "2", "--node", "0",
              "--cluster-wait", "0.6", web.url(), check=False)
    took = time.monotonic() - started
    web.stop()
    expect(p.returncode == 1 and f"Redis at 127.0.0.1:{port}: cannot connect" in p.stderr
           and p.stderr.count("waiting for it up to 0.6 s") == 1 and 0.5 < took < 5,
           f"no Redis, waited for 0.6 s: exit {p.returncode} after {took:.1f} s, {p.stderr!r}")
    for args, word in [(["--cluster", "redis://h/a b", "--nodes", "2", "--node", "0"], "--cluster"),
                       (["--cluster", "http://h/j", "--nodes", "2", "--node", "0"], "--cluster"),
                       (["--cluster", "redis://h/j", "--nodes", "3", "--node", "3"], "--node"),
                       (["--cluster", "redis://h/j", "--nodes", "3"], "--node"),
                       (["--nodes", "3", "--node", "1"], "--cluster"),
                       (["--cluster", "redis://h/j", "--nodes", "0", "--node", "0"], "--nodes")]:
        p = subprocess.run([CRAWL, *args, "a.test"], capture_output=True, text=True, timeout=10)
        err = p.stderr.splitlines()
        expect(p.returncode == 2 and err and word in err[0] and not p.stdout,
               f"{args}: exit {p.returncode}, {p.stderr!r}")


class Netns:
    """Network namespaces of the case's own on one bridge, with addresses in 10.77.0.0/24 and
    no route out: the bridge lives in a namespace of its own too, so nothing is added to the
    machine's network. run() starts a process in one; close() kills every process in them and
    removes them."""

    def __init__(self, members):
        self.prefix = f"crawlsoak{os.getpid()}-"
        self.names = [self.prefix + "hub"] + [self.prefix + m for m in members]
        self.address = {m: f"10.77.0.{i + 1}" for i, m in enumerate(members)}
        hub = self.names[0]
        steps = [["ip", "netns", "add", hub],
                 ["ip", "netns", "exec", hub, "ip", "link", "add", "br0", "type", "bridge"],
                 ["ip", "netns", "exec", hub, "ip", "link", "set", "br0", "up"]]
        for i, m in enumerate(members):
            ns = self.prefix + m
            steps += [["ip", "netns", "add", ns],
                      ["ip", "netns", "exec", hub, "ip", "link", "add", f"v{i}", "type", "veth",
                       "peer", "name", "eth0", "netns", ns],
                      ["ip", "netns", "exec", hub, "ip", "link", "set", f"v{i}", "master", "br0",
                       "up"],
                      ["ip", "netns", "exec", ns, "ip", "addr", "add",
                       self.address[m] + "/24", "dev", "eth0"],
                      ["ip", "netns", "exec", ns, "ip", "link", "set", "eth0", "up"],
                      ["ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up"]]
        try:
            for step in steps:
                subprocess.run(step, check=True, capture_output=True, timeout=10)
        except Exception:
            self.close()
            raise

    def run(self, member, cmd, **kwargs):
        return subprocess.Popen(["ip", "netns", "exec", self.prefix + member, *cmd], **kwargs)

    def close(self):
        for ns in self.names:
            pids = subprocess.run(["ip", "netns", "pids", ns], capture_output=True,
                                  text=True).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)
        time.sleep(0.2)
        for ns in reversed(self.names):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def case_cluster_soak_netns(tmp):
    """The cluster under churn across machines, as network namespaces make them: Redis, nginx and
    three --state nodes, each in a namespace of its own on one bridge (10.77.0.0/24, no route
    out, names given with --resolve). A node is killed with kill -9 every 3 s and continued at
    once with `crawl --state DIR`, Redis is killed once and started again from its append-only
    file, and nobody waits for anybody. Every node ends by itself with exit 0, the union of
    their outputs is the single-process truth, and the URLs printed twice stay within what the
    killed runs printed after their last checkpoint."""
    needed = [shutil.which(p) for p in ("ip", "nginx", "redis-server")]
    if os.geteuid() != 0 or not all(needed):
        print("skip: needs root (network namespaces), ip, nginx and redis-server")
        sys.exit(77)
    hosts, pages, port = 6, 120, 8080
    os.chmod(tmp, 0o755)  # nginx's workers read the web as another user
    root = os.path.join(tmp, "web")
    args = ["--hosts", str(hosts), "--pages", str(pages), "--links", "4", "--seed", "11"]
    subprocess.run([TESTWEB, "export", *args, "--port", str(port), root], check=True)
    seed = f"http://s0.web.test:{port}/"
    truth_out = subprocess.run([TESTWEB, "truth", *args, "--port", str(port), seed], check=True,
                               capture_output=True, text=True).stdout
    truth = {line.split()[0] for line in truth_out.splitlines()}
    net = Netns(["redis", "web", "node0", "node1", "node2"])
    try:
        conf = os.path.join(tmp, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
  access_log {tmp}/access.log;
  client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi; uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;
  server {{
    listen {net.address['web']}:{port};
    root {root}/$host;
    location ~ ^/r/0$ {{ return 301 /; }}
    location ~ ^/r/(\\d+)$ {{ return 301 /p/$1.html; }}
  }}
}}
""")
        # nginx runs until net.close() kills what its namespace holds
        net.run("web", ["nginx", "-c", conf, "-p", tmp], stderr=subprocess.DEVNULL)
        redis_dir = os.path.join(tmp, "redis")
        os.mkdir(redis_dir)
        redis_cmd = ["redis-server", "--bind", net.address["redis"], "--port", "6379",
                     "--protected-mode", "no", "--save",
                     "", "--appendonly", "yes", "--appendfsync", "always", "--dir", redis_dir]
        redis = net.run("redis", redis_cmd, stdout=subprocess.DEVNULL)
        resolve = [a for h in range(hosts)
                   for a in ("--resolve", f"s{h}.web.test:{port}:{net.address['web']}")]
        dirs = [os.path.join(tmp, f"node{i}") for i in range(3)]
        runs = [[] for _ in range(3)]  # each node's runs: (process, its output file)

        def start(i, cmd):
            out = open(os.path.join(tmp, f"node{i}-{len(runs[i])}.jsonl"), "w")
            err = open(os.path.join(tmp, f"node{i}-{len(runs[i])}.err"), "w")
            runs[i].append((net.run(f"node{i}", cmd, stdout=out, stderr=err), out.name,
                            err.name))

        for i in range(3):
            start(i, [CRAWL, "--no-progress", *resolve, "-w", "0.1", "-d", "1000",
                      "--checkpoint", "1", "--jsonl", "--state", dirs[i], "--cluster",
                      f"redis://{net.address['redis']}:6379/soak", "--nodes", "3", "--node",
                      str(i), seed])
        began, kills = time.monotonic(), 0
        for turn in range(8):  # churn for about 24 s
            time.sleep(3)
            if turn == 2:  # Redis killed, and started again from its file at once
                redis.kill()
                redis.wait()
                redis = net.run("redis", redis_cmd, stdout=subprocess.DEVNULL)
            i = turn % 3
            proc = runs[i][-1][0]
            if proc.poll() is None:
                proc.kill()
                proc.wait()
                kills += 1
            start(i, [CRAWL, "--state", dirs[i]])
        for i in range(3):  # then every node ends by itself
            proc, _, err = runs[i][-1]
            try:
                proc.wait(timeout=max(1, began + 85 - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise AssertionError(f"node {i} did not end within 85 s")
            with open(err) as f:
                expect(proc.returncode == 0, f"node {i}'s last run exited {proc.returncode}: "
                       f"{f.read()[-400:]!r}")
        printed = Counter()
        for i in range(3):
            for _, out, _ in runs[i]:
                with open(out) as f:
                    for line in f:
                        with contextlib.suppress(ValueError):
                            r = json.loads(line)
                            if r["fate"] != "outside":
                                printed[r["url"]] += 1
        missing = sorted(truth - set(printed))
        expect(not missing, f"{len(missing)} URLs lost under churn, e.g. {missing[:5]}")
        extra = sorted(set(printed) - truth)
        expect(not extra, f"URLs printed that the truth lacks: {extra[:5]}")
        # a run killed prints again what it printed after its last checkpoint (1 s): a node
        # prints about 30 URLs a second here (two hosts at -w 0.1, and the links they find)
        twice = sum(n - 1 for n in printed.values())
        expect(twice <= kills * 60, f"{twice} URLs printed twice over {kills} kills")
    finally:
        net.close()
