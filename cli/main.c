/* crawl: a polite web crawler for the command line. */
#include "cli/cli-int.h"
#include "fetch/fetch.h"

#include <ares.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <libxml/parser.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* ---- the crawl's sink: standard output (or -o) and the status line ---- */

struct sink_state {
  cli_output *out;    /* shard 0's writer; the others write through siblings of it */
  cli_report *report; /* --report, or NULL */
};

static core_rc sink_open(void *arg, int shard, void **writer) {
  struct sink_state *s = arg;
  if (shard == 0) {
    *writer = s->out;
    return CORE_OK;
  }
  cli_output *sibling;
  core_rc rc = cli_output_create_sibling(s->out, &sibling);
  *writer = rc == CORE_OK ? sibling : NULL;
  return rc;
}

static void sink_close(void *arg, void *writer) {
  struct sink_state *s = arg;
  if (writer != s->out)
    cli_output_destroy(writer);
}

static core_rc sink_url(void *writer, const char *url) {
  return cli_output_url(writer, url);
}

static core_rc sink_record(void *writer, const struct crawl_record *rec) {
  return cli_output_record(writer, rec);
}

static core_rc sink_broken(void *arg, const struct crawl_record *rec) {
  struct sink_state *s = arg;
  return cli_report_add(s->report, rec);
}

static core_rc sink_flush(void *writer, bool durable) {
  core_rc rc = cli_output_flush(writer);
  struct stat st;
  int fd = cli_output_fd(writer);
  /* before a --state checkpoint: what it says was printed is on the disk */
  if (rc == CORE_OK && durable && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && fsync(fd) != 0)
    rc = CORE_ESYS;
  return rc;
}

static bool is_pipe(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

static core_rc sink_kept(void *arg, uint64_t *bytes) {
  struct sink_state *s = arg;
  struct stat st;
  if (fstat(cli_output_fd(s->out), &st) != 0)
    return CORE_ESYS;
  *bytes = (uint64_t)st.st_size;
  return CORE_OK;
}

static core_rc sink_cut_back(void *arg, uint64_t bytes) {
  struct sink_state *s = arg;
  int fd = cli_output_fd(s->out);
  struct stat st;
  if (fstat(fd, &st) != 0)
    return CORE_ESYS;
  if ((uint64_t)st.st_size > bytes && ftruncate(fd, (off_t)bytes) != 0)
    return CORE_ESYS;
  return CORE_OK;
}

static int sink_error(void *arg) {
  return cli_output_errno(((struct sink_state *)arg)->out);
}

static void sink_reader_gone(void *arg) {
  cli_output_reader_gone(((struct sink_state *)arg)->out);
}

static void sink_note(void *arg, const char *text) {
  cli_output_note(((struct sink_state *)arg)->out, text);
}

static void sink_status(void *arg, const struct crawl_progress *progress, bool final) {
  char text[256];
  cli_status_text(progress, text, sizeof(text));
  cli_output_set_status(((struct sink_state *)arg)->out, text, final);
}

/* A pipe's or socket's reader may go away before anything is written: the crawl watches it. */
static int reader_fd(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) ? fd : -1;
}

/* ---- signals: a thread of their own turns SIGINT, SIGTERM and SIGHUP into crawl_stop ---- */

/* How long a crawl stopped at once by a second signal has to end before the process ends
 * without it: a main thread blocked writing to a reader that reads nothing (`crawl | sleep
 * 40`) would never see the stop (doc/behaviour.md, Signals). */
#define STOP_NOW_GRACE_SECONDS 2

struct signal_watch {
  pthread_t thread;
  sigset_t set; /* SIGINT, SIGTERM, SIGHUP, and SIGUSR1, which ends the watch once ending is set */
  atomic_bool ending;
  crawl *crawl;
};

static crawl_end end_of(int sig) {
  return sig == SIGINT ? CRAWL_END_SIGINT : sig == SIGHUP ? CRAWL_END_SIGHUP : CRAWL_END_SIGTERM;
}

/* The process ends now, with the first signal's status; the last checkpoint and --seen save
 * stand, as after kill -9. Told on standard error only when that cannot block too. */
static void end_now(int first) {
  static const char told[] = "crawl: stopped at once (a second signal; the output was stalled)\n";
  struct pollfd err = {.fd = STDERR_FILENO, .events = POLLOUT};
  if (poll(&err, 1, 0) == 1 && (err.revents & POLLOUT))
    (void)!write(STDERR_FILENO, told, sizeof(told) - 1);
  _exit(128 + first);
}

static void *watch_signals(void *arg) {
  struct signal_watch *w = arg;
  int first = 0;
  for (;;) {
    int sig;
    if (sigwait(&w->set, &sig) != 0)
      continue;
    if (sig == SIGUSR1) {
      if (atomic_load(&w->ending))
        return NULL;
      continue; /* someone else's: the watch goes on */
    }
    if (!first) {
      first = sig;
      crawl_stop(w->crawl, end_of(sig));
      continue;
    }
    crawl_stop(w->crawl, end_of(sig)); /* the second: at once */
    struct timespec grace = {STOP_NOW_GRACE_SECONDS, 0};
    for (;;) {
      sig = sigtimedwait(&w->set, NULL, &grace);
      if (sig == SIGUSR1 && atomic_load(&w->ending))
        return NULL; /* the crawl ended in time, as it does when nothing blocks it */
      if (sig < 0 && errno == EINTR)
        continue;
      if (sig != SIGUSR1)
        end_now(first); /* the grace is over, or a third signal came */
    }
  }
}

/* Runs the crawl with SIGINT, SIGTERM and SIGHUP blocked in every thread but the watch's. */
/* The user asked to check links (doc/behaviour.md, Exit status): then any broken one, in scope
 * or not, fails the run, as wget's --spider does. */
static bool checks_links(const struct crawl_config *cfg) {
  return cfg->check_skipped || cfg->check_outside || cfg->check_fragments || cfg->fail_on_broken;
}

static crawl_end run_crawl(const struct crawl_config *cfg, const struct crawl_sink *sink,
                           struct crawl_stats *stats, char *err, size_t err_size) {
  crawl *cr;
  if (crawl_create(cfg, sink, &cr) != CORE_OK) {
    snprintf(err, err_size, "cannot start: out of memory");
    memset(stats, 0, sizeof(*stats));
    return CRAWL_END_FATAL;
  }
  struct signal_watch w = {.crawl = cr};
  atomic_init(&w.ending, false);
  sigset_t old;
  sigemptyset(&w.set);
  sigaddset(&w.set, SIGINT);
  sigaddset(&w.set, SIGTERM);
  sigaddset(&w.set, SIGHUP);
  sigaddset(&w.set, SIGUSR1);
  /* blocked before any thread starts: the shards' threads inherit the mask */
  bool watching = pthread_sigmask(SIG_BLOCK, &w.set, &old) == 0 &&
                  pthread_create(&w.thread, NULL, watch_signals, &w) == 0;
  crawl_end end = crawl_run(cr, stats, err, err_size);
  if (watching) {
    atomic_store(&w.ending, true);
    pthread_kill(w.thread, SIGUSR1);
    pthread_join(w.thread, NULL);
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  crawl_destroy(cr);
  return end;
}

/* "2 dns, 10 http": the causes that occurred, or "" */
static void failure_causes(const struct crawl_stats *s, char *out, size_t size) {
  size_t len = 0;
  out[0] = '\0';
  for (int i = 0; i < CRAWL_CAUSE_COUNT && len < size; i++)
    if (s->failures[i])
      len += (size_t)snprintf(out + len, size - len, "%s%llu %s", len ? ", " : "",
                              (unsigned long long)s->failures[i], crawl_cause_name((crawl_cause)i));
}

/* One line of the summary: "crawl: " and the text, wrapped within width columns (0: not at all)
 * after a ", " or "; ", never inside a count and its words, each further row indented under the
 * text; one row as it is when no such place is near enough. On a terminal the summary fits
 * it; in a log or a pipe each line stays whole, for grep. */
static void say(int width, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(int width, const char *fmt, ...) {
  char text[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof(text), fmt, ap);
  va_end(ap);
  size_t len = strlen(text);
  if (len && text[len - 1] == '\n')
    text[--len] = '\0';
  const size_t indent = 7; /* "crawl: " */
  const char *p = text;
  fputs("crawl: ", stderr);
  while (width > (int)indent + 20 && strlen(p) > (size_t)width - indent) {
    const char *cut = NULL;
    for (const char *q = p; q + 1 < p + (size_t)width - indent && q[1]; q++)
      if ((q[0] == ',' || q[0] == ';') && q[1] == ' ')
        cut = q + 1;
    if (!cut)
      break;
    fprintf(stderr, "%.*s\n%*s", (int)(cut - p), p, (int)indent, "");
    p = cut + 1;
  }
  fprintf(stderr, "%s\n", p);
}

/* The columns the summary may take: standard error's terminal's, at most 80; 0 when it is no
 * terminal. */
static int summary_width(void) {
  struct winsize ws;
  if (!isatty(STDERR_FILENO) || ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0)
    return 0;
  return ws.ws_col < 80 ? ws.ws_col : 80;
}

static void print_summary(const struct crawl_stats *s, const struct crawl_config *cfg, int width) {
  double rate = s->seconds > 0 ? (double)s->pages / s->seconds : 0;
  const uint64_t *f = s->fates;
  char causes[160];
  failure_causes(s, causes, sizeof(causes));
  if (s->complete)
    say(width, "this crawl was complete already: nothing was asked; its counts:\n");
  char runs[48] = ""; /* a continued crawl's counts and time are all its runs' */
  if (s->runs > 1)
    snprintf(runs, sizeof(runs), " over %llu runs", (unsigned long long)s->runs);
  say(width, "%llu pages fetched, %llu URLs discovered, %.1f MB in %.2f s%s (%.1f pages/s)\n",
      (unsigned long long)s->pages, (unsigned long long)s->discovered, (double)s->bytes / 1e6,
      s->seconds, runs, rate);
  say(width,
      "%llu fetched, %llu failed%s%s%s, %llu robots exclusions, %llu cut by depth, "
      "%llu skipped, %llu over a limit, %llu pending\n",
      (unsigned long long)f[CRAWL_FATE_FETCHED], (unsigned long long)f[CRAWL_FATE_FAILED],
      causes[0] ? " (" : "", causes, causes[0] ? ")" : "", (unsigned long long)f[CRAWL_FATE_ROBOTS],
      (unsigned long long)f[CRAWL_FATE_DEPTH], (unsigned long long)f[CRAWL_FATE_SKIPPED],
      (unsigned long long)f[CRAWL_FATE_LIMIT], (unsigned long long)f[CRAWL_FATE_PENDING]);
  if (f[CRAWL_FATE_OUTSIDE])
    say(width,
        "%llu links out of scope (--print-outside prints them, --check-outside checks "
        "them)\n",
        (unsigned long long)f[CRAWL_FATE_OUTSIDE]);
  if (f[CRAWL_FATE_TRAP])
    say(width,
        "%llu URLs not followed as spider traps (--max-path-repeat, "
        "--max-path-segments, --max-query-variants)\n",
        (unsigned long long)f[CRAWL_FATE_TRAP]);
  say(width, "%llu retries; %llu too long; %llu not http(s) (mailto:, file:...)\n",
      (unsigned long long)s->retries, (unsigned long long)s->too_long,
      (unsigned long long)s->unparsable);
  if (s->speculated)
    say(width, "%llu pages fetched ahead of their level, before their depth was known\n",
        (unsigned long long)s->speculated);
  if (s->ahead_stops)
    say(width,
        "fetching ahead of the level being finished stopped %llu times, its links "
        "held at --queue-memory's budget, and hosts then waited for each level (a larger "
        "--queue-memory raises it)\n",
        (unsigned long long)s->ahead_stops);
  if (s->spilled)
    say(width, "%llu queued URLs waited on disk (past --queue-memory)\n",
        (unsigned long long)s->spilled);
  if (s->spill_refused)
    say(width,
        "%llu queued URLs stayed in memory past --queue-memory: the temporary file in "
        "%s could not take them (%s)\n",
        (unsigned long long)s->spill_refused, core_temp_dir(),
        strerror(s->spill_error ? s->spill_error : EIO));
  if (s->queue_full)
    say(width,
        "%llu URLs not queued, their fate limit: the queue's spill file was at "
        "--queue-disk (a larger --queue-disk, or 0, raises it)\n",
        (unsigned long long)s->queue_full);
  if (s->resumed)
    say(width, "%llu URLs the last run left queued were queued again\n",
        (unsigned long long)s->resumed);
  if (s->left)
    say(width, "%llu queued URLs left for the next run: %s%s%s\n", (unsigned long long)s->left,
        cfg->state_dir ? "'crawl --state " : "run it again with --seen '",
        cfg->state_dir ? cfg->state_dir : cfg->seen_file, cfg->state_dir ? "' goes on" : "'");
  if (s->broken) {
    /* as wget --spider ends: how many, and which, with the page that links each */
    say(width, "%llu broken link%s:\n", (unsigned long long)s->broken, s->broken == 1 ? "" : "s");
    for (size_t i = 0; i < CRAWL_BROKEN_SHOWN && i < s->broken; i++) {
      const struct crawl_broken_link *b = &s->broken_links[i];
      if (b->status)
        fprintf(stderr, "crawl:   %s (HTTP %ld), linked from %s\n", b->url, b->status,
                b->from ? b->from : "(a seed)");
      else
        fprintf(stderr, "crawl:   %s (%s), linked from %s\n", b->url, crawl_cause_name(b->cause),
                b->from ? b->from : "(a seed)");
    }
    if (s->broken > CRAWL_BROKEN_SHOWN)
      fprintf(stderr, "crawl:   and %llu more (each shown with -v, or in --jsonl)\n",
              (unsigned long long)(s->broken - CRAWL_BROKEN_SHOWN));
  }
  const char *proxy = cfg->proxy_http ? cfg->proxy_http : cfg->proxy_https;
  if (s->seeds && s->seeds_unreached == s->seeds && proxy && s->failures[CRAWL_CAUSE_CONNECT]) {
    char shown[256]; /* a dead proxy is named, as wget names it */
    fetch_proxy_shown(proxy, shown, sizeof(shown));
    say(width,
        "no seed could be fetched: is the proxy %s running? (-v names each "
        "failure)\n",
        shown);
  } else if (s->seeds && s->seeds_unreached == s->seeds) {
    say(width, "no seed could be fetched\n");
  }
  /* an empty result says why, when filters made it so */
  if (!s->printed && cfg->accept_ext.count && s->discovered)
    say(width,
        "no URL found was printed: none of the %llu found has an extension -A names "
        "(--no-parent, the scope and --depth decide which pages are read)\n",
        (unsigned long long)s->discovered);
  else if (!s->printed && cfg->match.count && s->match_dropped)
    say(width, "no URL found was printed: --match turned away every link (%llu)\n",
        (unsigned long long)s->match_dropped);
}

/* -c N keeps up to N connections busy and curl keeps more idle for reuse (fetch/engine.c): with
 * the usual soft limit of 1,024 descriptors, transfers past it would fail to connect. The soft
 * limit goes up to what that needs beside the process's other files and each shard's engine's
 * fewest idle connections, as far as the hard limit allows. Where even that leaves too few for N
 * transfers, -c comes down to what fits, with a note: a transfer with no descriptor for its
 * socket would fail to connect and wait for a retry (doc/behaviour.md, DNS). */
static void fit_descriptor_limit(struct crawl_config *cfg, bool quiet) {
  struct rlimit rl;
  rlim_t reserve =
      FETCH_ENGINE_OTHER_FILES + (rlim_t)crawl_shard_count(cfg) * FETCH_ENGINE_KEEP_LEAST;
  rlim_t want = (rlim_t)cfg->concurrency * 5 + 128 + reserve;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
    return;
  if (rl.rlim_cur < want) {
    rlim_t was = rl.rlim_cur;
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
      rl.rlim_cur = was;
  }
  if (rl.rlim_cur == RLIM_INFINITY)
    return;
  rlim_t room = rl.rlim_cur > reserve ? rl.rlim_cur - reserve : 0;
  if ((rlim_t)cfg->concurrency <= room)
    return;
  long fits = room > 0 ? (long)room : 1;
  if (!quiet)
    fprintf(stderr,
            "crawl: note: -c %ld needs more descriptors than the %llu this process may open "
            "(ulimit -n): -c %ld instead\n",
            cfg->concurrency, (unsigned long long)rl.rlim_cur, fits);
  cfg->concurrency = fits;
}

/* --state DIR: a run with seeds begins a crawl there, keeping its options (the configuration
 * file's among them: given, the arguments with it); one without continues the crawl kept there,
 * with its options, and those of the command line (argc, argv) read after them, so they win: the
 * configuration file is not read again. Returns the exit status to end with, or -1 to run. */
static int state_options(const struct cli_args *given, int argc, char **argv,
                         struct crawl_config *cfg, struct cli_settings *own, char *err,
                         size_t err_size) {
  char why[512] = "";
  if (cfg->seed_count) {
    /* the files a later run writes to or reads, kept as absolute paths: a run continued from
     * another directory appends to the same -o and --warc (options given later win, so the
     * absolute ones go after the command line) */
    enum { KEPT = 5 };
    const char *names[KEPT] = {"--output", "--warc", "--cacert", "--load-cookies",
                               "--save-cookies"};
    const char *paths[KEPT] = {own->output_file, cfg->warc_file, cfg->cacert, cfg->load_cookies,
                               cfg->save_cookies};
    char *absolute[KEPT] = {NULL};
    char **args = calloc((size_t)given->argc + 2 * KEPT, sizeof(*args));
    int n = 0;
    for (int i = 1; args && i < given->argc; i++)
      args[n++] = given->argv[i];
    char cwd[4096];
    bool ok = args && getcwd(cwd, sizeof(cwd));
    for (int i = 0; i < KEPT && ok; i++) {
      if (!paths[i] || paths[i][0] == '/')
        continue;
      ok = asprintf(&absolute[i], "%s/%s", cwd, paths[i]) >= 0;
      if (!ok)
        absolute[i] = NULL;
      else {
        args[n++] = (char *)names[i];
        args[n++] = absolute[i];
      }
    }
    core_rc rc = ok ? crawl_state_begin(cfg->state_dir, n, args, cfg->seeds, cfg->seed_count, why,
                                        sizeof(why))
                    : CORE_ESYS;
    if (!ok)
      snprintf(why, sizeof(why), "cannot keep its files' paths: %s", strerror(errno));
    for (int i = 0; i < KEPT; i++)
      free(absolute[i]);
    free(args);
    if (rc == CORE_OK)
      return -1;
    fprintf(stderr, "crawl: --state '%s': %s\n", cfg->state_dir, why);
    if (rc == CORE_EINVAL)
      fprintf(stderr, "Try 'crawl --help' for more information.\n");
    return rc == CORE_EINVAL ? 2 : 1;
  }
  struct crawl_state_kept kept;
  core_rc rc = crawl_state_load_args(cfg->state_dir, &kept, why, sizeof(why));
  if (rc == CORE_ENOTFOUND) {
    fprintf(stderr,
            "crawl: no seed URL given, and --state '%s' holds no crawl to continue\nTry 'crawl "
            "--help' for more information.\n",
            cfg->state_dir);
    return 2;
  }
  if (rc != CORE_OK) {
    fprintf(stderr, "crawl: --state '%s': %s\n", cfg->state_dir, why);
    return 1;
  }
  char **all = malloc((kept.count + (size_t)argc + 1) * sizeof(*all));
  if (!all) {
    crawl_state_kept_free(&kept);
    fprintf(stderr, "crawl: out of memory\n");
    return 1;
  }
  size_t n = 0;
  all[n++] = argv[0];
  for (size_t i = 0; i < kept.count; i++)
    all[n++] = kept.args[i];
  for (int i = 1; i < argc; i++)
    all[n++] = argv[i];
  all[n] = NULL;
  cli_config_free(cfg, own);
  /* the seeds as the crawl began with them: an -i file is not read again */
  cli_parse_result parsed =
      cli_parse_options((int)n, all, NULL, kept.seed_count > 0, cfg, own, NULL, err, err_size);
  free(all);
  if (parsed == CLI_RUN && kept.seed_count) {
    /* they replace the seed arguments read again, which are among them */
    core_strs_free(cfg->seeds, cfg->seed_count);
    cfg->seeds = kept.seeds; /* cfg owns them now */
    cfg->seed_count = kept.seed_count;
    kept.seeds = NULL;
    kept.seed_count = 0;
  }
  crawl_state_kept_free(&kept);
  if (parsed == CLI_NOMEM) {
    fprintf(stderr, "crawl: out of memory\n");
    return 1;
  }
  if (parsed != CLI_RUN) {
    fprintf(stderr, "crawl: the options kept in '%s' no longer hold: %s\n",
            cfg->state_dir ? cfg->state_dir : "--state", err);
    return 2;
  }
  cfg->state_resume = true;
  return -1;
}

/* The queue spills to $TMPDIR (core_temp_fd): when less than --queue-disk is free there, the disk
 * may fill before the budget does, and the user is told at the start (unless -q). */
static void check_queue_disk(const struct crawl_config *cfg, bool quiet) {
  const char *dir = core_temp_dir();
  struct statvfs vfs;
  if (quiet || !cfg->queue_disk || statvfs(dir, &vfs) != 0)
    return;
  uint64_t free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
  if (free_bytes < cfg->queue_disk)
    fprintf(stderr,
            "crawl: note: %s has %.1f MB free, less than --queue-disk (%.1f MB): a queue that "
            "spills may fill it first\n",
            dir, (double)free_bytes / 1e6, (double)cfg->queue_disk / 1e6);
}

/* crawl_lock_take for path, the value of option, saying why on standard error when refused. */
static bool take_lock(const char *path, const char *option, bool dir, int *fd) {
  char why[512];
  if (crawl_lock_take(path, dir, fd, why, sizeof(why)) == CORE_OK)
    return true;
  fprintf(stderr, "crawl: %s '%s' %s\n", option, path, why);
  return false;
}

/* Whether text, a seed as given, has an '@' in its authority (after "://"): a userinfo,
 * perhaps with a password. ("mailto:x@a.example" has none: it names no authority.) */
static bool has_userinfo(const char *text) {
  const char *start = strstr(text, "://");
  return start && memchr(start + 3, '@', strcspn(start + 3, "/?#")) != NULL;
}

/* --user USER without a password: asked on the terminal (/dev/tty, so that seeds may come on
 * standard input), without echo, as curl -u does. false when there is no terminal to ask. */
static bool ask_password(struct crawl_config *cfg) {
  int tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
  if (tty < 0) {
    fprintf(stderr,
            "crawl: --user %s: no password given, and no terminal to ask for it on "
            "(give --user USER:PASSWORD, or --netrc)\n",
            cfg->user);
    return false;
  }
  struct termios was, quiet;
  bool echo_off = tcgetattr(tty, &was) == 0;
  quiet = was;
  quiet.c_lflag &= ~(tcflag_t)ECHO;
  echo_off = echo_off && tcsetattr(tty, TCSAFLUSH, &quiet) == 0;
  dprintf(tty, "Enter password for %s: ", cfg->user);
  char line[1024];
  size_t len = 0;
  char ch;
  while (len + 1 < sizeof(line) && read(tty, &ch, 1) == 1 && ch != '\n')
    line[len++] = ch;
  line[len] = '\0';
  if (echo_off)
    tcsetattr(tty, TCSAFLUSH, &was);
  dprintf(tty, "\n");
  close(tty);
  cfg->password = strdup(line);
  explicit_bzero(line, sizeof(line));
  if (!cfg->password)
    fprintf(stderr, "crawl: out of memory\n");
  return cfg->password != NULL;
}

/* One crawl per --state directory and per --seen file: a second is refused before it reads or
 * writes anything there. A new crawl makes its directory first and locks it before it writes a
 * file in it, so that of two begun at once on one new directory, one is refused and the other's
 * options are the ones kept. A directory others may write to is refused before anything is read
 * from it (they could have planted links there). A crawl continued takes its options from its
 * directory (state_options). Frees args (cfg holds copies); returns -1 to crawl, with
 * *state_lock the directory's lock (-1: none), else the exit status. The --seen file's lock is
 * held until the process ends. */
static int take_state(struct cli_args *args, int argc, char **argv, struct crawl_config *cfg,
                      struct cli_settings *own, int *state_lock, char *err, size_t err_size) {
  int seen_lock = -1;
  struct stat st;
  if (cfg->state_dir && cfg->seed_count && mkdir(cfg->state_dir, 0700) != 0 && errno != EEXIST) {
    fprintf(stderr, "crawl: --state '%s': cannot make the directory: %s\n", cfg->state_dir,
            strerror(errno));
    cli_args_free(args);
    return 1;
  }
  const char *unsafe = cfg->state_dir ? core_dir_unsafe(cfg->state_dir) : NULL;
  if (unsafe || (cfg->state_dir && stat(cfg->state_dir, &st) == 0 && S_ISDIR(st.st_mode) &&
                 !take_lock(cfg->state_dir, "--state", true, state_lock))) {
    if (unsafe)
      fprintf(stderr, "crawl: --state '%s': %s\n", cfg->state_dir, unsafe);
    cli_args_free(args);
    return 1;
  }
  int status = cfg->state_dir ? state_options(args, argc, argv, cfg, own, err, err_size) : -1;
  cli_args_free(args);
  if (status < 0 && cfg->state_dir && *state_lock < 0 &&
      !take_lock(cfg->state_dir, "--state", true, state_lock))
    status = 1;
  if (status < 0 && cfg->seen_file && !take_lock(cfg->seen_file, "--seen", false, &seen_lock))
    status = 1;
  return status;
}

/* A seed that is not a URL is a bad value, so a usage error: 0 when every seed is one, else the
 * exit status (said on standard error). */
static int check_seeds(const struct crawl_config *cfg) {
  for (size_t i = 0; i < cfg->seed_count; i++) {
    struct url u;
    core_rc rc = url_seed(cfg->seeds[i], cfg->max_url_length, &u);
    if (rc == CORE_ENOMEM) {
      fprintf(stderr, "crawl: out of memory\n");
      return 1;
    }
    if (rc) {
      /* a seed with a userinfo may hold a password: it is not quoted */
      fprintf(
          stderr, "crawl: invalid seed URL '%s': %s\nTry 'crawl --help' for more information.\n",
          has_userinfo(cfg->seeds[i]) ? "(one with a user:password@, not shown)" : cfg->seeds[i],
          core_rc_str(rc));
      return 2;
    }
    url_free(&u);
  }
  return 0;
}

/* Whether the status line is shown when neither --progress nor --no-progress is given: on a
 * terminal that can redraw a line (not a dumb one, nor one TERM does not name), when the URLs
 * (written to fd) go to a file or to that same terminal (they scroll above the line, which is
 * cleared before each write of them and drawn again after: cli_status_hide); not down a pipe,
 * whose reader (grep) may write to the terminal between our writes. */
static bool progress_by_default(int fd) {
  const char *term = getenv("TERM");
  bool redraws = isatty(STDERR_FILENO) && term && *term && strcmp(term, "dumb") != 0;
  return redraws && !is_pipe(fd) && (!isatty(fd) || cli_same_terminal(fd, STDERR_FILENO));
}

/* The exit status of a crawl that ended so (doc/behaviour.md, Exit status), saying on standard
 * error what a user should know of the end: a --max-time reached, a fatal error (err). */
static int end_status(crawl_end end, const struct crawl_stats *stats,
                      const struct crawl_config *cfg, bool quiet, const char *err) {
  switch (end) {
    case CRAWL_END_DONE:
      /* as wget's network failure: the crawl ran, but no seed got any response */
      return stats->seeds && stats->seeds_unreached == stats->seeds ? 4
             : stats->seeds_http_failed || (checks_links(cfg) && stats->fates[CRAWL_FATE_FAILED])
                 ? 8
                 : 0;
    case CRAWL_END_PIPE:
      return 0; /* `crawl ... | head` is a normal way to end */
    case CRAWL_END_SIGINT:
      return 130;
    case CRAWL_END_TIME: /* the time it was given: what is left is pending, or kept */
      if (!quiet)
        fprintf(stderr, "crawl: --max-time reached: the crawl stopped there%s\n",
                cfg->state_dir ? "; 'crawl --state DIR' goes on" : "");
      return 0;
    case CRAWL_END_SIGTERM:
      return 143;
    case CRAWL_END_SIGHUP:
      return 129;
    case CRAWL_END_FATAL:
      fprintf(stderr, "crawl: %s\n", err);
      return 1;
  }
  return 1;
}

int main(int argc, char **argv) {
  /* curl converts IDN host names through the locale: it must be able to read UTF-8 */
  if (!setlocale(LC_CTYPE, "C.UTF-8"))
    setlocale(LC_CTYPE, "");
  struct crawl_config cfg;
  struct cli_settings own;
  char err[512] = "";
  struct cli_notes notes = {0};
  /* the configuration file's options go first: the command line's, after them, win */
  struct cli_args args;
  cli_parse_result parsed = cli_args_with_config(argc, argv, &args, err, sizeof(err));
  if (parsed != CLI_RUN) {
    if (parsed == CLI_USAGE)
      fprintf(stderr, "crawl: %s\nTry 'crawl --help' for more information.\n", err);
    else
      fprintf(stderr, "crawl: out of memory\n");
    return parsed == CLI_USAGE ? 2 : 1;
  }
  parsed =
      cli_parse_options(args.argc, args.argv, &args, false, &cfg, &own, &notes, err, sizeof(err));
  for (size_t i = 0; i < notes.count && !(parsed == CLI_RUN && own.quiet); i++)
    fprintf(stderr, "crawl: %s\n", notes.lines[i]);
  cli_notes_free(&notes);
  if (parsed != CLI_RUN) {
    if (parsed == CLI_USAGE)
      fprintf(stderr, "crawl: %s\nTry 'crawl --help' for more information.\n", err);
    else if (parsed == CLI_NOMEM)
      fprintf(stderr, "crawl: out of memory\n");
    cli_config_free(&cfg, &own);
    cli_args_free(&args);
    return parsed == CLI_USAGE ? 2 : parsed == CLI_NOMEM ? 1 : 0;
  }
  int seeds_status = check_seeds(&cfg);
  if (seeds_status) {
    cli_config_free(&cfg, &own);
    cli_args_free(&args);
    return seeds_status;
  }
  int state_lock = -1;
  int state_status = take_state(&args, argc, argv, &cfg, &own, &state_lock, err, sizeof(err));
  if (state_status >= 0) {
    if (state_lock >= 0)
      close(state_lock);
    cli_config_free(&cfg, &own);
    return state_status;
  }
  /* a --state crawl begun by this run and refused before it starts leaves no crawl in its
   * directory (crawl_state_unbegin), taken away while the lock is held */
  const char *begun = cfg.state_dir && !cfg.state_resume ? cfg.state_dir : NULL;
  bool started = false;
  int status = 1;
  int fd = STDOUT_FILENO;
  bool libraries = false;
  cli_output *out = NULL;
  cli_status *progress = NULL;
  cli_report *report = NULL;
  struct crawl_stats stats;
  if (cfg.user && !cfg.password && !ask_password(&cfg)) {
    status = 2;
    goto done;
  }
  fit_descriptor_limit(&cfg, own.quiet);
  check_queue_disk(&cfg, own.quiet);
  /* a reader that goes away shows up as EPIPE from write(), not as a signal */
  signal(SIGPIPE, SIG_IGN);
  if (own.output_file) {
    /* a crawl continued writes on after what it wrote before */
    fd = open(own.output_file,
              O_WRONLY | O_CREAT | O_CLOEXEC | (cfg.state_resume ? O_APPEND : O_TRUNC), 0644);
    if (fd < 0) {
      fprintf(stderr, "crawl: cannot open '%s': %s\n", own.output_file, strerror(errno));
      fd = STDOUT_FILENO;
      goto done;
    }
  }
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || ares_library_init(ARES_LIB_INIT_ALL)) {
    fprintf(stderr, "crawl: cannot initialise libcurl or c-ares\n");
    goto done;
  }
  xmlInitParser();
  libraries = true;
  if (own.report_file && cli_report_create(own.report_file, &report, err, sizeof(err)) != CORE_OK) {
    fprintf(stderr, "crawl: %s\n", err);
    goto done;
  }
  bool show_progress =
      !own.quiet && (own.progress < 0 ? progress_by_default(fd) : own.progress != 0);
  if (cli_status_create(show_progress, fd, &progress) != CORE_OK ||
      cli_output_create(fd, own.output_file ? own.output_file : "standard output", cfg.jsonl,
                        progress, &out) != CORE_OK) {
    fprintf(stderr, "crawl: out of memory\n");
    goto done;
  }
  started = true;
  struct sink_state state = {out, report};
  struct crawl_sink sink = {.arg = &state,
                            .open = sink_open,
                            .close = sink_close,
                            .url = sink_url,
                            .record = sink_record,
                            .broken = report ? sink_broken : NULL,
                            .flush = sink_flush,
                            .error = sink_error,
                            .kept = own.output_file && cfg.state_dir ? sink_kept : NULL,
                            .cut_back = own.output_file && cfg.state_dir ? sink_cut_back : NULL,
                            .reader_gone = sink_reader_gone,
                            .watch_fd = reader_fd(fd),
                            .name = own.output_file ? own.output_file : "standard output",
                            .note = own.quiet ? NULL : sink_note,
                            .status = cli_status_enabled(progress) ? sink_status : NULL};
  crawl_end end = run_crawl(&cfg, &sink, &stats, err, sizeof(err));
  status = end_status(end, &stats, &cfg, own.quiet, err);
  if (!own.quiet && end != CRAWL_END_PIPE && end != CRAWL_END_FATAL)
    print_summary(&stats, &cfg, summary_width());
  /* written at the end and when stopped by a signal: what was found so far */
  if (report && end != CRAWL_END_PIPE && end != CRAWL_END_FATAL &&
      (cli_output_flush(out) != CORE_OK ||
       cli_report_write(report, &stats, end != CRAWL_END_DONE) != CORE_OK)) {
    fprintf(stderr, "crawl: cannot write --report '%s': %s\n", cli_report_name(report),
            strerror(errno));
    status = 1;
  }
  crawl_stats_free(&stats);
done:
  if (begun && !started)
    crawl_state_unbegin(begun);
  if (state_lock >= 0)
    close(state_lock);
  cli_output_destroy(out);
  cli_status_destroy(progress);
  cli_report_destroy(report);
  if (fd != STDOUT_FILENO && close(fd) != 0 && status == 0) {
    fprintf(stderr, "crawl: cannot write '%s': %s\n", own.output_file, strerror(errno));
    status = 1;
  }
  if (libraries) {
    xmlCleanupParser();
    ares_library_cleanup();
    curl_global_cleanup();
  }
  cli_config_free(&cfg, &own);
  return status;
}
