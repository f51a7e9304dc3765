"""Integration cases: The terminal: the status line beside the printed URLs, on screens of several widths (tmux)."""
from harness import *  # noqa: F401,F403 (the shared harness)


def tmux_screen(tmp, command, width, name=""):
    """What a terminal width columns wide (a tmux pane, 50 rows, its history too) shows of command
    run in bash, and whether command ended within 60 s. A mark echoed after it ends is waited for
    on the screen itself, so that the rows are all drawn however busy the machine, and left out."""
    tmux = ["tmux", "-S", os.path.join(tmp, f"tmux{width}{name}.sock"), "-f", "/dev/null"]
    mark = "=end="
    subprocess.run(tmux + ["new-session", "-d", "-x", str(width), "-y", "50", "-s", "crawl",
                           "bash", "--norc", "--noprofile", "-c",
                           f"{command}; echo {mark}; sleep 60"], check=True, timeout=10)
    try:
        deadline = time.monotonic() + 60
        while True:
            rows = subprocess.run(tmux + ["capture-pane", "-p", "-J", "-S", "-", "-t", "crawl"],
                                  capture_output=True, text=True, check=True).stdout.splitlines()
            ended = [i for i, row in enumerate(rows) if row.strip() == mark]
            if ended or time.monotonic() > deadline:
                break
            time.sleep(0.05)
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)
    return "\n".join(rows[:ended[0]] if ended else rows) + "\n", bool(ended)


def case_clean_terminal(tmp):
    """Standard output and standard error on one terminal (tmux): the status line is cleared
    before URLs are written and drawn again after, so every URL is a whole line of the screen."""
    expect(shutil.which("tmux"), "tmux is not installed (scripts/install-deps.sh installs it)")
    web = Web(tmp, hosts=3, pages=60)
    try:
        screen, ended = tmux_screen(tmp, f"'{CRAWL}' --progress --dns-server 127.0.0.1:{web.dns} "
                                    f"-w 0.03 -d 1000 '{web.url()}'", 250)
    finally:
        web.stop()
    expect(ended, "the crawl did not end under tmux")
    rows = [row.rstrip() for row in screen.splitlines() if row.strip()]
    mixed = [row for row in rows if "http://" in row and not re.fullmatch(r"http://\S+", row)
             and not row.startswith("crawl:")]
    expect(not mixed, f"lines mixing the status line and URLs: {mixed[:3]}")
    printed = [row for row in rows if row.startswith("http://")]
    expect_same_set(printed, web.truth(web.url()), "URLs on the screen")
    # the time first, then the counts, singular for one
    def status_row(row):
        return re.match(r"\d+:\d\d \d+ pages?, ", row)
    expect([row for row in rows if status_row(row)], f"no status line: {rows[-5:]}")
    ones = [row for row in rows if status_row(row) and re.search(r"\b1 (pages|hosts|errors)\b", row)]
    expect(not ones, f"plural for one: {ones[:3]}")


def case_status_line_places(tmp):
    """The status line never garbles output (tmux): with `crawl ... | grep ...` on a terminal it
    is not drawn unless --progress asks; in a 40-column pane it is cut to the width, so a redraw
    never wraps and leaves rows behind; the summary is wrapped within 80 columns on a terminal.
    When the URLs go to the same terminal, they scroll above it: every row is a whole URL, the summary or the line itself, left at the bottom. A polite
    crawl's line says how long its busiest host's queue takes at least, and which host."""
    expect(shutil.which("tmux"), "tmux is not installed (scripts/install-deps.sh installs it)")
    web = Web(tmp, hosts=3, pages=60)
    status = re.compile(r"\d+:\d\d \d+ pages?")

    def screen_of(command, width, name=""):
        return tmux_screen(tmp, command, width, name)[0]

    base = f"'{CRAWL}' --dns-server 127.0.0.1:{web.dns} -w 0.03 -d 1000 '{web.url()}'"
    piped = screen_of(f"{base} | grep s1.web.test", 250)
    rows = [row.rstrip() for row in piped.splitlines() if row.strip()]
    expect(any(row.startswith("http://s1.") for row in rows), f"grep printed nothing: {rows[:5]}")
    expect(not [row for row in rows if status.search(row)],
           f"a status line beside a pipe: {[row for row in rows if status.search(row)][:3]}")
    narrow = screen_of(f"{base} --progress -o '{os.path.join(tmp, 'out.txt')}'", 40)
    rows = [row.rstrip() for row in narrow.splitlines() if row.strip()]
    drawn = [row for row in rows if status.match(row)]
    expect(drawn and all(len(row) <= 39 for row in drawn), f"status rows: {drawn[-3:]}")
    # the URLs on the line's own terminal: each row whole, the same URLs as a crawl to a file
    want = sorted(lines(crawl(web, "-w", "0", "-d", "1", web.url())))
    shared = screen_of(f"{base} -d 1 2>&1", 250, "shared")
    rows = [row.rstrip() for row in shared.splitlines() if row.strip()]
    urls = [row for row in rows if row.startswith("http://")]
    odd = [row for row in rows if not row.startswith(("http://", "crawl: ", "       ")) and not
           status.match(row)]
    expect(sorted(urls) == want and not odd, f"rows beside the URLs: {odd[:3]}, "
           f"{len(urls)} URL rows for {len(want)}")
    above_summary = [r for r in rows if not r.startswith(("crawl: ", "       "))]
    expect(status.match(above_summary[-1]), f"the line is not left below the URLs: {rows[-5:]}")
    # the summary fits an 80-column terminal: wrapped after a comma, each row within the width
    # (capture-pane -J would join rows the terminal wrapped itself)
    summary = screen_of(f"{base} -d 1 -o '{os.path.join(tmp, 'out80.txt')}'", 80, "summary")
    rows = [row.rstrip() for row in summary.splitlines() if row.strip()]
    told = [row for row in rows if row.startswith("crawl: ") or row.startswith("       ")]
    expect(told and all(len(row) <= 80 for row in rows) and
           any(row.startswith("       ") for row in told) and
           "robots exclusions" in " ".join(told), f"the summary on 80 columns: {told}")
    # a polite crawl's estimate, on a terminal (the raw stream: the line is redrawn in place)
    stream = on_pty([CRAWL, "--dns-server", f"127.0.0.1:{web.dns}", "-w", "0.25", "-d", "2",
                     web.url()], dict(os.environ, TERM="xterm"), stdout_too=True)
    web.stop()
    host = web.url().rstrip("/").encode()
    expect(re.search(rb"\d+:\d\d left at least \(" + re.escape(host) + rb"\)", stream),
           f"no estimate on the line: {stream[-300:]!r}")
