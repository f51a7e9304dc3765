"""Integration cases: Installing: meson install's kit, and the README's Install commands as written."""
from harness import *  # noqa: F401,F403 (the shared harness)


def case_install_kit(tmp):
    """The kit a wget user expects: `meson install` puts crawl, its man page and its bash
    completion under the prefix; --help fits 80 columns and ends saying where the documentation
    is; the man page and the completion name every option --help names; the completion completes
    an option and a --scope value; --version names the libraries in use, libxml2 2.14 or newer."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(BUILT_CRAWL)))
    dest = os.path.join(tmp, "dest")
    p = subprocess.run(["meson", "install", "-C", build, "--destdir", dest, "--no-rebuild",
                        "--quiet"], capture_output=True, text=True, timeout=120)
    expect(p.returncode == 0, f"meson install failed: {p.stdout[-300:]} {p.stderr[-300:]}")
    found = {}
    for root, _, files in os.walk(dest):
        for f in files:
            found[os.path.relpath(os.path.join(root, f), dest)] = os.path.join(root, f)
    want = {"bin/crawl", "share/man/man1/crawl.1", "share/bash-completion/completions/crawl"}
    paths = {w: next((full for rel, full in found.items() if rel.endswith(w)), None) for w in want}
    expect(all(paths.values()), f"installed: {sorted(found)}")
    help_text = subprocess.run([CRAWL, "--help"], capture_output=True, text=True).stdout
    options = set(re.findall(r"--[a-z][a-z-]+", help_text))
    # a terminal's width, ending with where the rest is
    wide = [line for line in help_text.splitlines() if len(line) > 80]
    expect(not wide and "man crawl" in help_text.splitlines()[-2], f"--help: {wide[:3]}")
    with open(paths["share/man/man1/crawl.1"]) as f:
        man = f.read().replace("\\-", "-")
    with open(paths["share/bash-completion/completions/crawl"]) as f:
        completion = f.read()
    expect(not [o for o in options if o not in man], f"man page lacks {[o for o in options if o not in man]}")
    expect(not [o for o in options if o not in completion],
           f"completion lacks {[o for o in options if o not in completion]}")
    # the man page's RECORDS names every field a --jsonl record can hold, and --help lists them
    records_part = man.split(".SH RECORDS", 1)[-1].split(".SH ", 1)[0] if ".SH RECORDS" in man else ""
    fields = ("url", "from", "via", "depth", "fate", "status", "type", "bytes", "ms", "location",
              "error", "linked_from", "time")
    expect(not [f for f in fields if f"\\fB{f}\\fR" not in records_part
                and f".B {f}" not in records_part],
           f"man page RECORDS lacks {[f for f in fields if f not in records_part]}")
    jsonl_help = help_text.split("      --jsonl ")[1][:400]
    expect(not [f for f in fields if not re.search(rf"\b{f}\b", jsonl_help)],
           f"--help does not list the record fields: {jsonl_help!r}")
    # --state completes a directory, --warc a file, -T nothing (a value of its own)
    os.mkdir(os.path.join(tmp, "state-dir"))
    open(os.path.join(tmp, "state-file"), "w").close()
    script = (f"source '{paths['share/bash-completion/completions/crawl']}'; "
              "COMP_WORDS=(crawl --no-pa); COMP_CWORD=1; _crawl; echo \"${COMPREPLY[*]}\"; "
              "COMP_WORDS=(crawl --scope do); COMP_CWORD=2; _crawl; echo \"${COMPREPLY[*]}\"; "
              "COMP_WORDS=(crawl --state state-); COMP_CWORD=2; _crawl; echo \"${COMPREPLY[*]}\"; "
              "COMP_WORDS=(crawl --warc state-); COMP_CWORD=2; _crawl; echo \"${COMPREPLY[*]}\"; "
              "COMP_WORDS=(crawl -T -); COMP_CWORD=2; COMPREPLY=(); _crawl; echo \"${COMPREPLY[*]}\"")
    out = subprocess.run(["bash", "--norc", "-c", script], capture_output=True, text=True,
                         cwd=tmp).stdout
    lines = out.split("\n")
    expect(lines[:3] == ["--no-parent", "domain", "state-dir"] and
           sorted(lines[3].split()) == ["state-dir", "state-file"] and lines[4] == "",
           f"completion gave {out!r}")
    version = subprocess.run([CRAWL, "--version"], capture_output=True, text=True).stdout
    for lib in ("libcurl", "c-ares", "libxml2", "libpsl"):
        expect(re.search(lib + r" \d+\.\d+", version), f"--version lacks {lib}: {version!r}")
    xml = re.search(r"libxml2 (\d+)\.(\d+)", version)
    expect(xml and (int(xml[1]), int(xml[2])) >= (2, 14),
           f"--version names a libxml2 older than the build allows: {version!r}")


def case_install_as_the_readme_says(tmp):
    """The README's Install commands, as written there (with a --destdir, so nothing leaves the
    case's directory): the build guided by a profile (scripts/build-pgo.sh: built instrumented,
    trained on the test web, built again, linked with -flto), without the tests, a prefix given
    at setup, and meson install, which puts crawl, its man page and its completion under that
    prefix. The build is made twice into the same directory, as a user does again after a pull:
    each is trained anew."""
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(source, "README.md")) as f:
        readme = f.read()
    block = readme.split("## Install", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    setup = next(line for line in block.splitlines() if line.startswith("bash scripts/build-pgo"))
    install = next(line for line in block.splitlines() if line.startswith("meson install"))
    args = setup.split("#")[0].split()[2:]  # after "bash scripts/build-pgo.sh"
    build = os.path.join(tmp, "build")
    args = [build if a == "build-release" else a for a in args]
    args = [a for a in args if not a.startswith("--prefix")] + ["--prefix", "/opt/crawl-test"]
    profile = os.path.join(build, "cli", "crawl.p", "main.c.gcda")
    # twice: into a new directory, then into the same one again, as after a git pull (meson 1.0
    # kept the first run's b_pgo on a reconfigure, and the second build had no profile)
    for run in ("first", "second"):
        began = time.time()
        # a bound for a hung build, not a pace: a loaded machine builds slowly
        p = subprocess.run(["bash", "scripts/build-pgo.sh", *args], cwd=source,
                           capture_output=True, text=True, timeout=600)
        expect(p.returncode == 0, f"{setup} ({run} run): {p.stdout[-500:]} {p.stderr[-500:]}")
        expect(os.path.exists(profile) and os.path.getmtime(profile) >= began - 1,
               f"{setup} ({run} run): the training wrote no profile")
        with open(os.path.join(build, "meson-info", "intro-buildoptions.json")) as f:
            options = {o["name"]: o["value"] for o in json.load(f)}
        expect(options["tests"] is False and options["b_pgo"] == "use" and
               options["b_lto"] is True,
               f"{setup} ({run} run): the final build has tests={options['tests']}, "
               f"b_pgo={options['b_pgo']}, b_lto={options['b_lto']}")
    expect(install.split("#")[0].split()[:3] == ["meson", "install", "-C"], f"{install}")
    dest = os.path.join(tmp, "dest")
    p = subprocess.run(["meson", "install", "-C", build, "--destdir", dest, "--quiet"],
                       capture_output=True, text=True, timeout=600)
    expect(p.returncode == 0, f"{install}: {p.stdout[-500:]} {p.stderr[-500:]}")
    for path in ("bin/crawl", "share/man/man1/crawl.1", "share/bash-completion/completions/crawl"):
        expect(os.path.exists(os.path.join(dest, "opt/crawl-test", path)), f"not installed: {path}")
    p = subprocess.run([os.path.join(dest, "opt/crawl-test/bin/crawl"), "--version"],
                       capture_output=True, text=True)
    expect(p.returncode == 0 and "crawl" in p.stdout, f"the installed crawl: {p.stdout!r}")
