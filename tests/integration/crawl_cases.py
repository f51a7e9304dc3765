#!/usr/bin/env python3
"""Integration tests: crawl the loopback test web and real servers, and compare with the truth.

Each case starts its own servers (on ports the kernel picks), runs crawl with a command line, and
checks what a user relies on: the printed set, the fates, what the server saw. The cases live in
one file per feature (cases_*.py) on a shared harness (harness.py); every case_NAME function of
them is a test, which tests/meson.build lists with --list.
Usage: crawl_cases.py CRAWL TESTWEB CASE
       crawl_cases.py --list
With CRAWL_TEST_THREADS=N in the environment, every crawl the case runs gets -j N first: the
suite runs each case with -j 1 and with -j 4, and each must give the same results.
"""
import contextlib
import glob
import importlib
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

FEATURES = sorted(os.path.basename(p)[:-3] for p in
                  glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases_*.py")))


def cases():
    """Every case of every feature file, by name; imported only now, so that each file's copy of
    the harness's CRAWL is the one the run set."""
    found = {}
    for feature in FEATURES:
        module = importlib.import_module(feature)
        for name, fn in vars(module).items():
            if name.startswith("case_") and callable(fn):
                if name[5:] in found:
                    sys.exit(f"case {name[5:]} is defined twice")
                found[name[5:]] = fn
    return found


if __name__ == "__main__" and sys.argv[1:] == ["--list"]:
    print("\n".join(cases()))  # tests/meson.build makes a test of each
elif __name__ == "__main__":
    name = sys.argv[3]
    # crawl reads seeds from standard input when given none: the cases' crawls read nothing
    # unless a case hands them input
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    # CRAWL_TEST_KEEP=1 keeps the case's directory (printed) to look into after a failure
    with (contextlib.nullcontext(tempfile.mkdtemp()) if harness.KEEP else
          tempfile.TemporaryDirectory()) as tmp:
        if harness.KEEP:
            print(f"{name}: kept in {tmp}")
            tempfile.tempdir = tmp
        # no configuration file of the machine's user reaches a case's crawls: each case that
        # wants one writes its own (config_file)
        os.environ["XDG_CONFIG_HOME"] = os.path.join(tmp, "no-config-home")
        threads = os.environ.get("CRAWL_TEST_THREADS")
        if threads:
            wrapper = os.path.join(tmp, "crawl-j" + threads)
            with open(wrapper, "w") as f:
                f.write(f'#!/bin/sh\nexec "{os.path.abspath(harness.CRAWL)}" -j {threads} "$@"\n')
            os.chmod(wrapper, 0o755)
            harness.CRAWL = wrapper
        case = cases().get(name)
        if not case:
            sys.exit(f"no case named {name}")
        try:
            case(tmp)
        except AssertionError as e:
            print(f"FAIL {name}: {e}")
            sys.exit(1)
    print(f"ok {name}")
