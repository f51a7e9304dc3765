#!/usr/bin/env python3
"""Random mutants (tests/README.md, Measuring the suite): the suite's strength measured on
changes nobody chose.

  mutants.py map                      which tests run which lines (gcov), into build-cov/
  mutants.py sample N [--seed S] [--out FILE] [FILES...]
                                      N random mutants of the project's C sources (or FILES),
                                      each built in build-sample/ (ASan and UBSan) and
                                      run against the tests that run its line, stopping
                                      at the first failure

A mutant is one small change of one line, as mull or universalmutator make them: a relational
operator or its boundary, && for || and back, one operand of a condition dropped, a negation
dropped, an integer constant +1, -1 or x2, a condition taken as always true or always false, a
call's statement removed, a returned truth or constant changed. Sites are drawn uniformly over
every mutant the sources allow; one that does not build is set aside and another drawn. A
mutant of a line no test runs survives at once ("not run by any test"). A mutant listed in
tests/equivalent-mutants.tsv (file, old line, new line, reason) is counted apart: it cannot
change what the program does, and the reason says why.
"""
import argparse
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = ["core", "url", "seen", "parse", "fetch", "frontier", "crawl", "warc", "cluster", "cli"]
COV = os.path.join(ROOT, "build-cov")
# the mutants are built with AddressSanitizer and UndefinedBehaviorSanitizer, as CI runs the suite
# once: a mutant that only leaks or overruns a buffer is caught there too
MUTANT = os.path.join(ROOT, "build-sample")
# the out-of-memory cases need a build without sanitizers (their allocator cannot be interposed,
# and the cases skip): a survivor whose line they run is tried with them in this build too
PLAIN = os.path.join(ROOT, "build-sample-plain")
NEEDS_PLAIN = ("out_of_memory_anywhere", "out_of_memory_at_every_site", "logins")
SANITIZE = ["-Db_sanitize=address,undefined", "-Db_lundef=false"]
SANITIZER_ENV = {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0",
                 "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
MAP = os.path.join(COV, "lines.json")
THREADED = ("crawl", "seen")
# programs meson runs at build, and the tests that read what they wrote
AT_BUILD = {"cli/completion.c": ("install_kit-j1",)}
EQUIVALENT = os.path.join(ROOT, "tests", "equivalent-mutants.tsv")


def sources():
    """The project's C sources: its modules' .c and .h files (not tests/, bench/, subprojects/)."""
    found = []
    for m in MODULES:
        folder = os.path.join(ROOT, m)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith((".c", ".h")):
                found.append(f"{m}/{name}")
    return found


def sources_digest(files):
    h = hashlib.sha256()
    for f in files:
        h.update(f.encode())
        with open(os.path.join(ROOT, f), "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


# ---- which tests run which lines ----

def start(cmd, **kw):
    """A child in a session of its own, so that stop() reaches everything it started."""
    return subprocess.Popen(cmd, cwd=ROOT, start_new_session=True, **kw)


def stop(proc):
    """Ends a child and what it started. meson test puts each test in a process group of its own
    and kills those groups when it is sent SIGTERM, so it gets the chance first; then its own
    group is killed, whatever is left of it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def run(cmd, **kw):
    proc = start(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    try:
        out, _ = proc.communicate()
    finally:  # stopped by a signal (sys.exit in its handler) or anything else: nothing is left
        stop(proc)
    return subprocess.CompletedProcess(cmd, proc.returncode, out)


def test_names(builddir):
    p = run(["meson", "test", "-C", builddir, "--list", "--no-rebuild"])
    names = [line.split(" / ")[-1].strip() for line in p.stdout.splitlines() if " / " in line]
    if not names:
        sys.exit(f"mutants: no tests listed in {builddir}:\n{p.stdout[-2000:]}")
    return names


def covered_lines(prefix, instrumented=None):
    """{source file: set of line numbers run} from the .gcda files under prefix; instrumented,
    when given, gets every line gcov counts, run or not."""
    gcdas = []
    for dirpath, _, names in os.walk(prefix):
        gcdas += [os.path.join(dirpath, n) for n in names if n.endswith(".gcda")]
    by_dir = {}
    for gcda in gcdas:
        by_dir.setdefault(os.path.dirname(gcda), []).append(gcda)
    lines = {}
    for objdir, found in by_dir.items():
        if not objdir.startswith(prefix + ROOT + "/"):
            continue
        built = os.path.join(ROOT, os.path.relpath(objdir, prefix + ROOT))
        # gcov wants each .gcno beside its .gcda
        found = [g for g in found if os.path.exists(os.path.join(built, os.path.basename(g)[:-5]
                                                                 + ".gcno"))]
        for g in found:
            shutil.copy(os.path.join(built, os.path.basename(g)[:-5] + ".gcno"), objdir)
        if not found:
            continue
        p = subprocess.run(["gcov", "--json-format", "--stdout", "-o", objdir] + found,
                           cwd=COV, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for doc in p.stdout.splitlines():
            if not doc.startswith("{"):
                continue
            for f in json.loads(doc).get("files", []):
                path = os.path.relpath(os.path.normpath(os.path.join(COV, f["file"])), ROOT)
                if path.split("/")[0] not in MODULES:
                    continue
                ran = lines.setdefault(path, set())
                ran.update(ln["line_number"] for ln in f["lines"] if ln["count"] > 0)
                if instrumented is not None:
                    instrumented.setdefault(path, set()).update(
                        ln["line_number"] for ln in f["lines"])
    return lines


def make_map(files):
    digest = sources_digest(files)  # of what is built now: an edit during the map makes it stale
    if not os.path.exists(os.path.join(COV, "build.ninja")):
        p = run(["meson", "setup", COV, "-Db_coverage=true"])
        if p.returncode:
            sys.exit(p.stdout)
    p = run(["meson", "compile", "-C", COV])
    if p.returncode:
        sys.exit(p.stdout[-3000:])
    # an integration case runs at -j 1 and at -j 4 (tests/integration/crawl_cases.py): both runs
    # are mapped, since what a crawl of several shards alone runs (sharing a turn, mail between
    # shards) a -j 1 run never reaches; the -j 4 runs go last, the -j 1 map's order kept
    listed = test_names(COV)
    names = [t for t in listed if not t.endswith("-j4")] + [t for t in listed if t.endswith("-j4")]
    started = time.monotonic()
    by_line, durations, instrumented = {}, {}, {}
    work = tempfile.mkdtemp(prefix="mutants-map.")
    # two tests at a time, each writing its counters under a prefix of its own
    pending, running = list(enumerate(names)), []
    while pending or running:
        while pending and len(running) < 2:
            i, name = pending.pop(0)
            prefix = os.path.join(work, str(i))
            env = dict(os.environ, GCOV_PREFIX=prefix, GCOV_PREFIX_STRIP="0")
            proc = start(["meson", "test", "-C", COV, "--no-rebuild", name], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            running.append((i, name, prefix, proc, time.monotonic()))
        try:
            time.sleep(0.05)
        except BaseException:
            for entry in running:
                stop(entry[3])
            raise
        for entry in list(running):
            i, name, prefix, proc, t0 = entry
            if proc.poll() is None:
                continue
            running.remove(entry)
            durations[name] = round(time.monotonic() - t0, 2)
            for path, ran in covered_lines(prefix, instrumented).items():
                per = by_line.setdefault(path, {})
                for ln in ran:
                    per.setdefault(str(ln), []).append(i)
            shutil.rmtree(prefix, ignore_errors=True)
            print(f"map: {len(durations)}/{len(names)} {name} {durations[name]} s", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    data = {"sources": digest, "tests": names, "durations": durations,
            "lines": by_line,
            "instrumented": {path: sorted(found) for path, found in instrumented.items()}}
    with open(MAP, "w") as f:
        json.dump(data, f)
    print(f"map: {len(names)} tests in {time.monotonic() - started:.0f} s, in {MAP}")
    return data


def load_map(files, rebuild):
    if not rebuild and os.path.exists(MAP):
        with open(MAP) as f:
            data = json.load(f)
        if data["sources"] == sources_digest(files):
            return data
        print("mutants: the sources changed since the map was made: making it again")
    return make_map(files)


# ---- mutants ----

def code_of(text):
    """The text with comments, string and character literals blanked (same length), and the
    lines of preprocessor directives other than #define blanked too."""
    out, i, n = [], 0, len(text)
    state = None
    while i < n:
        c = text[i]
        if state is None:
            if text.startswith("/*", i):
                state = "block"
                out.append("  ")
                i += 2
                continue
            if text.startswith("//", i):
                state = "line"
                out.append("  ")
                i += 2
                continue
            if c in "\"'":
                state = c
                out.append(" ")
                i += 1
                continue
            out.append(c)
        elif state == "block":
            if text.startswith("*/", i):
                state = None
                out.append("  ")
                i += 2
                continue
            out.append("\n" if c == "\n" else " ")
        elif state == "line":
            if c == "\n":
                state = None
                out.append(c)
            else:
                out.append(" ")
        else:  # inside a literal
            if c == "\\":
                out.append("  ")
                i += 2
                continue
            if c == state or c == "\n":
                state = None
            out.append("\n" if c == "\n" else " ")
        i += 1
    lines = "".join(out).split("\n")
    for k, line in enumerate(lines):
        s = line.lstrip()
        if s.startswith("#") and not s.startswith("#define"):
            lines[k] = " " * len(line)
    return lines


RELATIONAL = {"<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"],
              "==": ["!="], "!=": ["=="]}


ASSIGN = re.compile(r"(?<![=!<>])=(?!=)")


def right_operand_end(code, start):
    """Where the operand after && or || (from start) ends on this line, or None."""
    depth = 0
    for i in range(start, len(code)):
        c = code[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and (code[i:i + 2] in ("&&", "||") or c in ";,?:"):
            return i
    return None


def left_operand_start(code, end):
    """Where the operand before && or || (ending at end) starts on this line, or None."""
    depth = 0
    for i in range(end - 1, -1, -1):
        c = code[i]
        if c in ")]":
            depth += 1
        elif c in "([":
            if depth == 0:
                return i + 1
            depth -= 1
        elif depth == 0 and (code[i - 1:i + 1] in ("&&", "||") or c in ";,?:" or
                             ASSIGN.match(code, i)):
            return i + 1
    return None


def mutants_of_line(line, code):
    """Every mutant of one line: (new line, what) pairs."""
    found = []

    def put(a, b, new, what):
        found.append((line[:a] + new + line[b:], what))

    if not code.strip():
        return found
    for m in re.finditer(r"<=|>=|==|!=|<<|>>|->|<|>", code):
        op = m.group()
        if op in RELATIONAL:
            for alt in RELATIONAL[op]:
                put(m.start(), m.end(), alt, f"{op} -> {alt}")
    for m in re.finditer(r"&&|\|\|", code):
        op = m.group()
        put(m.start(), m.end(), "||" if op == "&&" else "&&", f"{op} swapped")
        right = right_operand_end(code, m.end())
        if right is not None and code[m.end():right].strip():
            put(m.start(), right, "", f"right operand of {op} dropped")
        left = left_operand_start(code, m.start())
        if left is not None and code[left:m.start()].strip():
            put(left, m.end(), "", f"left operand of {op} dropped")
    for m in re.finditer(r"!(?!=)\s*(?=[A-Za-z_(])", code):
        put(m.start(), m.end(), "", "! dropped")
    for m in re.finditer(r"(?<![\w.])(\d+)(?:[uUlL]*)(?![\w.])", code):
        n = int(m.group(1))
        for alt in sorted({n + 1, n - 1, 2 * n} - {n}):
            if alt >= 0:
                put(m.start(1), m.end(1), str(alt), f"{n} -> {alt}")
    m = re.match(r"(\s*)(?:\}\s*else\s+)?(if|while)\s*\(", code)
    if m:
        open_at = code.index("(", m.end(2))
        depth, close = 0, None
        for i in range(open_at, len(code)):
            if code[i] == "(":
                depth += 1
            elif code[i] == ")":
                depth -= 1
                if depth == 0:
                    close = i
                    break
        if close is not None:
            cond = line[open_at + 1:close]
            put(open_at + 1, close, "1", "condition always true")
            put(open_at + 1, close, "0", "condition always false")
            put(open_at + 1, close, f"!({cond})", "condition negated")
    m = re.match(r"(\s*)[A-Za-z_][\w.>-]*\(.*\);\s*$", code)
    if m and not re.match(r"\s*(return|if|while|for|switch|sizeof)\b", code):
        put(len(m.group(1)), len(line), "(void)0;", "call removed")
    m = re.match(r"(\s*)return\s+(true|false|NULL|-?\d+|CORE_OK)\s*;", code)
    if m:
        alt = {"true": "false", "false": "true", "NULL": "(void *)1", "CORE_OK": "CORE_ENOMEM"}
        value = m.group(2)
        new = alt.get(value, "0" if value != "0" else "1")
        put(m.start(2), m.end(2), new, f"return {value} -> {new}")
    return found


def all_mutants(files):
    every = []
    for f in files:
        with open(os.path.join(ROOT, f)) as fh:
            text = fh.read()
        lines = text.split("\n")
        codes = code_of(text)
        for k, (line, code) in enumerate(zip(lines, codes)):
            for new, what in mutants_of_line(line, code):
                if new != line:
                    every.append((f, k + 1, line, new, what))
    return every


def equivalents():
    known = {}
    if os.path.exists(EQUIVALENT):
        for row in open(EQUIVALENT):
            if row.startswith("#") or not row.strip():
                continue
            parts = row.rstrip("\n").split("\t")
            if len(parts) == 4:  # the lines as the sample prints them, indentation aside
                known[(parts[0], parts[1].strip(), parts[2].strip())] = parts[3]
    return known


def apply(f, lineno, new):
    path = os.path.join(ROOT, f)
    with open(path) as fh:
        lines = fh.read().split("\n")
    lines[lineno - 1] = new
    with open(path, "w") as fh:
        fh.write("\n".join(lines))


def kill_strays(builddir):
    """Kills every process still running a program of builddir. A test stopped midway (the run
    ends at the first failure) can leave what it started: meson ends its process group, but a
    crawl that a mutant keeps from ending at SIGTERM, started in a session of its own or left
    behind by a harness already gone, runs on and takes the CPU every later mutant and any
    benchmark needs (four crawls spun for half an hour after one sample)."""
    prefix = os.path.realpath(builddir) + os.sep
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            exe = os.readlink(f"/proc/{pid}/exe")
        except OSError:  # gone already, or not ours to read
            continue
        if exe.startswith(prefix):
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass


def first_failure(names, processes, builddir=None, env=None):
    """Runs the tests, stopping at the first that does not pass; returns its name, or None.
    meson's --maxfail does not count a test it ended for its time (meson 1.0), and a mutant that
    makes crawls hang would have every one of its tests run out its time: meson's log is read
    as tests end, and the run stopped at the first result that is not a pass."""
    builddir = builddir or MUTANT
    log = os.path.join(builddir, "meson-logs", "testlog.json")
    if os.path.exists(log):
        os.unlink(log)
    proc = start(["meson", "test", "-C", builddir, "--no-rebuild", "--maxfail", "1",
                  "--num-processes", str(processes), "--timeout-multiplier", "0.5"] + names,
                 env=dict(os.environ, **(SANITIZER_ENV if env is None else env)),
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            done = proc.poll() is not None
            try:
                with open(log) as fh:
                    rows = fh.read().split("\n")
            except FileNotFoundError:
                rows = []
            for row in rows:
                try:
                    r = json.loads(row)
                except ValueError:  # empty, or a line meson is still writing
                    continue
                if r["result"] not in ("OK", "SKIP"):
                    return r["name"].split(" / ")[-1]
            if done:
                return None if proc.returncode == 0 else "meson test"
            time.sleep(0.5)
    finally:
        stop(proc)
        kill_strays(builddir)


def try_mutant(data, mutant, processes):
    """'caught' with the test, 'survived', 'unrun' or 'unbuilt'."""
    f, lineno, old, new, what = mutant
    # gcov counts a statement on its first line: a line inside one that spans several (an
    # operand of a long condition) takes the tests of the statement's first line above it
    counted = set(data.get("instrumented", {}).get(f, []))
    at = lineno
    while at not in counted and at > 1 and lineno - at < 8 and counted:
        at -= 1
    covering = data["lines"].get(f, {}).get(str(at if at in counted else lineno), [])
    define = re.match(r"\s*#\s*define\s+(\w+)", old)
    if define:  # a macro runs where it is used: the tests of every line of the file naming it
        uses = re.compile(r"\b%s\b" % define.group(1))
        with open(os.path.join(ROOT, f)) as fh:
            for n, text in enumerate(fh, 1):
                if n != lineno and uses.search(text):
                    covering = covering + data["lines"].get(f, {}).get(str(n), [])
        covering = sorted(set(covering))
    if f in AT_BUILD:  # its run at build leaves no counts: the tests of what it wrote
        names = list(AT_BUILD[f])
    else:
        names = sorted({data["tests"][i] for i in covering},
                       key=lambda t: data["durations"].get(t, 0))
    # the modules that run shards or that they share are tried at -j 4 as well, after; a mutant
    # elsewhere acts the same in each shard, so a case's -j 4 run is left out where its -j 1 run
    # is in (it would double a survivor's time)
    if f.split("/")[0] in THREADED:
        ones = [t for t in names if not t.endswith("-j4")]
        fours = [t for t in names if t.endswith("-j4")]
        fours += [t[:-3] + "-j4" for t in ones if t.endswith("-j1") and
                  t[:-3] + "-j4" in data["runnable"] and t[:-3] + "-j4" not in fours]
        names = ones + fours
    else:
        names = [t for t in names if not (t.endswith("-j4") and t[:-3] + "-j1" in names)]
    path = os.path.join(ROOT, f)
    saved = open(path).read()
    try:
        apply(f, lineno, new)
        if run(["meson", "compile", "-C", MUTANT]).returncode:
            return "unbuilt", ""
        if not names:  # built first: a line no test runs may still be one the compiler checks
            return "unrun", ""
        failed = first_failure(names, processes)
        plain = [t for t in names if t.rsplit("-j", 1)[0] in NEEDS_PLAIN]
        if not failed and plain:  # memory running out, which only a plain build can try
            if run(["meson", "compile", "-C", PLAIN]).returncode:
                return "unbuilt", ""
            failed = first_failure(plain, processes, PLAIN, {})
        return ("caught", failed) if failed else ("survived", f"{len(names)} tests")
    finally:
        with open(path, "w") as fh:
            fh.write(saved)
        os.utime(path)  # newer than the mutant's object, so the next build recompiles it


def sample(args):
    files = sources()
    chosen = args.files or files
    for f in chosen:
        if f not in files:
            sys.exit(f"mutants: {f} is not one of the project's C sources")
    data = load_map(files, False)
    if not os.path.exists(os.path.join(MUTANT, "build.ninja")):
        p = run(["meson", "setup", MUTANT] + SANITIZE)
        if p.returncode:
            sys.exit(p.stdout)
    if run(["meson", "compile", "-C", MUTANT]).returncode:
        sys.exit("mutants: build-sample does not build before any mutant")
    if not os.path.exists(os.path.join(PLAIN, "build.ninja")):
        p = run(["meson", "setup", PLAIN])
        if p.returncode:
            sys.exit(p.stdout)
    if run(["meson", "compile", "-C", PLAIN]).returncode:
        sys.exit("mutants: build-sample-plain does not build before any mutant")
    data["runnable"] = set(test_names(MUTANT))  # a case run once has no -j 4 test
    every = all_mutants(chosen)
    rng = random.Random(args.seed)
    order = list(range(len(every)))
    rng.shuffle(order)
    known = equivalents()
    print(f"sample: seed {args.seed}, {args.n} of {len(every)} mutants of {len(chosen)} files")
    # a sample stopped part way goes on where it stopped (--resume): its file keeps each result
    # as it comes, and a mutant found there is not run again
    done = {}
    header = f"# seed {args.seed} of {' '.join(chosen) if args.files else 'every file'}\n"
    if args.resume and args.out and os.path.exists(args.out):
        with open(args.out) as fh:
            if fh.readline() == header:
                for row in fh:
                    if not row.startswith("#"):
                        r = row.rstrip("\n").split("\t")
                        done[(r[1], int(r[2]), r[5])] = (r[0], r[6] if len(r) > 6 else "")
    results, started = [], time.monotonic()
    for k in order:
        if len(results) == args.n:
            break
        m = every[k]
        f, lineno, old, new, what = m
        # a mutant marked equivalent is not run: no test can catch it, and all of them would run
        reason = known.get((f, old.strip(), new.strip()))
        if reason:
            outcome, detail = "equivalent", reason
        else:
            outcome, detail = (done.get((f, lineno, new.strip())) or
                               try_mutant(data, m, args.processes))
        if outcome == "unbuilt":
            continue
        results.append((outcome, f, lineno, what, old.strip(), new.strip(), detail))
        print(f"{len(results):3}/{args.n} {outcome:10} {f}:{lineno}: {what}: {new.strip()}"
              + (f"  [{detail}]" if detail else ""), flush=True)
        if args.out:
            with open(args.out, "w") as fh:
                fh.write(header + "# outcome\tfile\tline\tmutation\told\tnew\tdetail\n")
                for r in results:
                    fh.write("\t".join(str(x) for x in r) + "\n")
    counts = {}
    for r in results:
        counts[r[0]] = counts.get(r[0], 0) + 1
    print(f"sample: seed {args.seed}: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
          + f" in {time.monotonic() - started:.0f} s")
    for r in results:
        if r[0] in ("survived", "unrun"):
            print(f"SURVIVED ({r[0]}) {r[1]}:{r[2]}: {r[3]}\n    - {r[4]}\n    + {r[5]}")
    return 0 if not any(r[0] in ("survived", "unrun") for r in results) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("map")
    sp = sub.add_parser("sample")
    sp.add_argument("n", type=int)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--out")
    sp.add_argument("--resume", action="store_true",
                    help="go on with the sample whose results --out holds")
    # more tests than cores at once: many cases spend their time waiting on delays
    sp.add_argument("--processes", type=int, default=3, help="tests at once (3)")
    sp.add_argument("files", nargs="*")
    sub.add_parser("list").add_argument("files", nargs="*")
    args = ap.parse_args()
    # stopped by a signal, the tests running are stopped (run's and make_map's handlers) and a
    # mutant in place is put back (try_mutant's finally) before it ends
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, lambda number, frame: sys.exit(128 + number))
    if args.command == "map":
        make_map(sources())
    elif args.command == "list":
        for f, lineno, old, new, what in all_mutants(args.files or sources()):
            print(f"{f}:{lineno}: {what}: {new.strip()}")
    else:
        sys.exit(sample(args))


if __name__ == "__main__":
    main()
