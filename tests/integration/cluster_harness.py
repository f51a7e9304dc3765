"""What the --cluster cases share beside the harness: a redis-server of their own, and nodes of
one crawl run together and read back."""
import tempfile

from harness import *  # noqa: F401,F403 (the shared harness)


class Redis:
    """A redis-server of the case's own on a free loopback port: nothing saved to disk, or with
    aof, every write in its append-only file (fsync'd before each answer) that a restart reads."""

    def __init__(self, tmp, aof=False):
        self.port, self.tmp, self.aof = free_port(), tmp, aof
        self.start()

    def start(self):
        persist = ["--appendonly", "yes", "--appendfsync", "always"] if self.aof else [
            "--appendonly", "no"]
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             *persist, "--dir", self.tmp], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        for _ in range(500):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.01)
        self.stop()
        raise AssertionError("redis-server did not start (scripts/install-deps.sh installs it)")

    def url(self, job):
        return f"redis://127.0.0.1:{self.port}/{job}"

    def command(self, *words):
        """One command, as redis-cli would send it. Its reply: a status, error or integer as its
        line (\":0\", \"+OK\"), a string as itself, an array as a list of those."""
        wire = f"*{len(words)}\r\n" + "".join(f"${len(w)}\r\n{w}\r\n" for w in words)
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as conn:
            conn.sendall(wire.encode())
            reader = conn.makefile("rb")

            def reply():
                line = reader.readline().decode().rstrip("\r\n")
                if line.startswith("$"):
                    return None if line == "$-1" else reader.read(int(line[1:]) + 2)[:-2].decode()
                if line.startswith("*"):
                    return [reply() for _ in range(int(line[1:]))]
                return line
            return reply()

    def stop(self):
        self.proc.kill()
        self.proc.wait()

def cluster_run(web, redis, job, per_node, *args):
    """Three processes share one crawl; node i runs with the extra arguments per_node[i] (its
    -j). Returns each node's finished process."""
    return nodes_run([[CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", *extra,
                       "--cluster", redis.url(job), "--nodes", str(len(per_node)), "--node",
                       str(i), *args] for i, extra in enumerate(per_node)])

def nodes_run(cmds, interrupt=None):
    """Runs the commands at once, their output in files (a node blocked on a full pipe would
    hold the others back); interrupt(procs) runs while they do. Each process gets .out, .err."""
    procs, files = [], []
    for i, cmd in enumerate(cmds):
        # kept beside the case's files with CRAWL_TEST_KEEP (see the end of this file)
        out, err = (tempfile.NamedTemporaryFile("w+", prefix=f"node{i}-", suffix=s, delete=not KEEP)
                    for s in (".out", ".err"))
        files.append((out, err))
        procs.append(subprocess.Popen(cmd, stdout=out, stderr=err, text=True))
    if interrupt:
        interrupt(procs)
    for proc, (out, err) in zip(procs, files):
        try:
            proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            raise AssertionError(f"a node did not end in 90 s: {' '.join(proc.args)}")
        out.seek(0)
        err.seek(0)
        proc.out, proc.err = out.read(), err.read()
        out.close()
        err.close()
    return procs

def state_nodes(tmp, web, redis, job, *args):
    """Three processes of one polite crawl, each with its own --state directory: the
    directories and the commands that begin it (with args too)."""
    dirs = [os.path.join(tmp, f"{job}{i}") for i in range(3)]
    return dirs, [[CRAWL, "--no-progress", "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.05",
                   "-d", "1000", "--checkpoint", "1", "--jsonl", "--state", dirs[i], "--cluster",
                   redis.url(job), "--nodes", "3", "--node", str(i), *args, web.url()]
                  for i in range(3)]

def expect_truth_records(procs, truth, what):
    """The --jsonl records of all the runs: every URL of the truth, and each record (one printed
    again after a kill says what the first said) with the truth's fate and depth: a link lost on
    its way would show as a URL found later, deeper."""
    recs = inside([json.loads(line) for proc in procs for line in proc.out.splitlines()])
    expect_truth(recs, truth, what)
    return recs
