/* crawl: the crawl engine. It takes the program's options and a sink for what it finds, runs the
 * crawl as -j shards (one thread and event loop each), and returns how it ended with its counts.
 * The command line (cli/) is one caller: it parses options, owns standard output and the status
 * line behind the sink, and turns signals into crawl_stop. */
#ifndef CRAWL_CRAWL_H
#define CRAWL_CRAWL_H

#include "core/core.h"
#include "crawl/config.h"

/* ---- --state DIR ---- */
/* A new crawl kept in dir: makes dir when missing, refuses one that holds a crawl already
 * (CORE_EINVAL), and keeps the command line's arguments (argv[0] left out) and the seeds, however
 * they were given, for a later run. */
core_rc crawl_state_begin(const char *dir, int argc, char **argv, char *const *seeds,
                          size_t seed_count, char *why, size_t why_size);
/* A crawl begun in dir (crawl_state_begin, by this run) and refused before it starts (an -o that
 * cannot be opened, say) leaves nothing to continue: its options go, so that the same command,
 * mended, begins it again. */
void crawl_state_unbegin(const char *dir);
/* What dir keeps: the arguments, and the seeds (none for a directory begun by an older crawl,
 * which kept the arguments alone: its -i files are read again). */
struct crawl_state_kept {
  char **args;
  size_t count;
  char **seeds;
  size_t seed_count;
};
/* What dir keeps: CORE_ENOTFOUND when it holds no crawl. Freed with crawl_state_kept_free. */
core_rc crawl_state_load_args(const char *dir, struct crawl_state_kept *kept, char *why,
                              size_t why_size);
void crawl_state_kept_free(struct crawl_state_kept *kept);

/* ---- one crawl per --state directory or --seen file ---- */
/* Takes the advisory lock (flock) that says a crawl uses path: DIR/lock for a --state directory
 * (dir true; DIR must exist), FILE.lock for a --seen file, made when missing, holding the PID of
 * the process that has it. *fd keeps it for the whole run: closing it, or the process ending in
 * any way (kill -9 included), gives it back, so a stale lock never blocks. CORE_EINVAL with "is
 * in use by process PID" in why when another process holds it; CORE_ESYS when it cannot be had.
 * why reads on after the path: "crawl: --state 'DIR' <why>". */
core_rc crawl_lock_take(const char *path, bool dir, int *fd, char *why, size_t why_size);

/* ---- fates (doc/behaviour.md, Records) ---- */
/* One list gives the enum, the names the records print and the summary's counters. */
#define CRAWL_FATE_MAP(X)                                                                          \
  X(FETCHED, "fetched")                                                                            \
  X(FAILED, "failed")                                                                              \
  X(ROBOTS, "robots")                                                                              \
  X(DEPTH, "depth")                                                                                \
  X(SKIPPED, "skipped")                                                                            \
  X(LIMIT, "limit")                                                                                \
  X(TRAP, "trap")                                                                                  \
  X(PENDING, "pending")                                                                            \
  X(OUTSIDE, "outside")
typedef enum {
#define CRAWL_FATE_ENUM(name, text) CRAWL_FATE_##name,
  CRAWL_FATE_MAP(CRAWL_FATE_ENUM)
#undef CRAWL_FATE_ENUM
      CRAWL_FATE_COUNT
} crawl_fate;
const char *crawl_fate_name(crawl_fate fate);

/* Why a URL failed, as the summary counts it. */
#define CRAWL_CAUSE_MAP(X)                                                                         \
  X(DNS, "dns")                                                                                    \
  X(CONNECT, "connect")                                                                            \
  X(TIMEOUT, "timeout")                                                                            \
  X(TLS, "tls")                                                                                    \
  X(HTTP, "http")                                                                                  \
  X(PROTOCOL, "protocol")                                                                          \
  X(OTHER, "other")                                                                                \
  X(FRAGMENT, "fragment")
typedef enum {
#define CRAWL_CAUSE_ENUM(name, text) CRAWL_CAUSE_##name,
  CRAWL_CAUSE_MAP(CRAWL_CAUSE_ENUM)
#undef CRAWL_CAUSE_ENUM
      CRAWL_CAUSE_COUNT
} crawl_cause;
const char *crawl_cause_name(crawl_cause cause);

struct crawl_record {
  const char *url;
  const char *from; /* NULL for seeds */
  int depth;
  crawl_fate fate;
  crawl_cause cause;    /* failed */
  long status;          /* the URL's own HTTP status, when a response came */
  const char *type;     /* with status: Content-Type or NULL */
  uint64_t bytes;       /* with status */
  double ms;            /* with status */
  const char *location; /* a redirect's target, or NULL */
  const char *error;    /* failed */
  const char *via;      /* where it was found ("seed", "a", "redirect"...), or NULL: not known */
  /* failed, with --jsonl: pages that link to it, the first CRAWL_REFERRERS_SHOWN of them, and the
   * count of all; linked_known false when they are not known (no file could keep the links) */
  bool linked_known;
  const char *const *linked_from;
  size_t linked_from_n;
  uint64_t linked_count;
  double settled; /* when its fate was settled, seconds since the epoch; 0: now */
};
enum { CRAWL_REFERRERS_SHOWN = 10 };
enum { CRAWL_BROKEN_SHOWN = 10 }; /* broken links the summary lists */
struct crawl_broken_link {
  char *url, *from; /* owned; from is NULL for a seed */
  long status;      /* its HTTP status, or 0: no response, for cause */
  crawl_cause cause;
};
struct crawl_stats {
  uint64_t pages;                       /* responses to page requests */
  uint64_t discovered;                  /* unique in-scope URLs */
  uint64_t fates[CRAWL_FATE_COUNT];     /* URLs settled this run, by fate */
  uint64_t failures[CRAWL_CAUSE_COUNT]; /* of the failed ones, by cause */
  uint64_t seeds, seeds_unreached;      /* seeds settled, and those that got no response at all */
  uint64_t seeds_http_failed;           /* seeds that answered with an HTTP error (exit 8) */
  uint64_t too_long, unparsable, retries;
  uint64_t printed;       /* URLs found (seeds aside) printed, or recorded: -A left them in */
  uint64_t runs;          /* of a --state crawl, this one included (1 otherwise) */
  bool complete;          /* a --state crawl continued that had ended: nothing was done */
  uint64_t match_dropped; /* links --match turned away (each time one was found) */
  uint64_t spilled;       /* queued URLs that waited in the temporary file */
  uint64_t resumed;       /* --seen: URLs the last run left queued, queued again */
  uint64_t left;          /* --seen: URLs this run leaves queued for the next */
  uint64_t speculated;    /* pages fetched before their depth was known (speculate.c) */
  uint64_t ahead_stops;   /* times fetching ahead stopped at --queue-memory's budget (held.c) */
  uint64_t queue_full;    /* new URLs not queued: the spill file was at --queue-disk */
  uint64_t spill_refused; /* queued URLs kept in memory: the spill file could not be written */
  int spill_error;        /* errno of the first such failure */
  uint64_t bytes;
  uint64_t broken; /* pages that failed with an HTTP error */
  struct crawl_broken_link broken_links[CRAWL_BROKEN_SHOWN]; /* the first of them */
  double seconds;
};
/* Frees the broken links' strings. */
void crawl_stats_free(struct crawl_stats *stats);

typedef enum {
  CRAWL_END_DONE,
  CRAWL_END_SIGINT,
  CRAWL_END_SIGTERM,
  CRAWL_END_PIPE,
  CRAWL_END_FATAL,
  CRAWL_END_TIME,  /* --max-time ran out: stopped as by a signal, yet a normal end (exit 0) */
  CRAWL_END_SIGHUP /* the terminal went away: as SIGTERM */
} crawl_end;

/* The counts of the status line: all shards', as of their last turn. */
struct crawl_progress {
  double elapsed; /* seconds since the crawl began (this run's) */
  uint64_t pages, failed;
  size_t queued, spilled, hosts;
  /* what the queue holds, at its hosts' pace: the busiest host's pages times its gap (a floor:
   * pages found later add to it), and that host's origin ("" when none) */
  double left;
  char left_host[128];
};

/* Where the crawl's output goes, shaped like fetch_handler: each shard writes through a writer of
 * its own, and whole lines of one never split another's. Every call but note and status comes
 * from the writer's own shard, or (flush, for a save) from the first shard while the writer's
 * own is paused; note and status may come from any shard at any time. */
struct crawl_sink {
  void *arg;
  /* A writer for shard (0 first; every shard has one). */
  core_rc (*open)(void *arg, int shard, void **writer);
  void (*close)(void *arg, void *writer);
  /* Plain output (without --jsonl): a URL printed when it is first found. */
  core_rc (*url)(void *writer, const char *url);
  /* --jsonl: a URL's record, written when its fate is settled. */
  core_rc (*record)(void *writer, const struct crawl_record *rec);
  /* --report (cfg->report): a failed URL's record with its linked_from, from any shard's thread;
   * what rec points to is borrowed for the call. */
  core_rc (*broken)(void *arg, const struct crawl_record *rec);
  /* Writes what the writer holds: at the end of every turn of the loop, and before a save (then
   * durable: also to the disk, when the output is a file). */
  core_rc (*flush)(void *writer, bool durable);
  /* The errno of the write that failed (EPIPE: the reader went away), or 0. */
  int (*error)(void *arg);
  /* -o FILE of a --state crawl (NULL otherwise): how many bytes the file holds, flushed, which
   * each checkpoint keeps; and cutting it back to that many, as a continued run does first: the
   * lines after its checkpoint (perhaps a torn one) are written again. */
  core_rc (*kept)(void *arg, uint64_t *bytes);
  core_rc (*cut_back)(void *arg, uint64_t bytes);
  /* The output's reader went away, seen on watch_fd before any write failed. */
  void (*reader_gone)(void *arg);
  int watch_fd;     /* a pipe or socket whose reader may go away, or -1 */
  const char *name; /* for messages: "standard output", or the file */
  /* A -v note (one line, no newline). */
  void (*note)(void *arg, const char *text);
  /* The counts of the status line, every half second (final: the last ones, to be left on the
   * screen); NULL for none. The sink words them. */
  void (*status)(void *arg, const struct crawl_progress *progress, bool final);
};

typedef struct crawl crawl;
/* How many shards a crawl of cfg runs (-j, within its bounds), one thread each. */
int crawl_shard_count(const struct crawl_config *cfg);
/* Cfg and sink are borrowed until crawl_destroy. */
core_rc crawl_create(const struct crawl_config *cfg, const struct crawl_sink *sink, crawl **out);
/* Runs the whole crawl; returns how it ended. stats is filled (free with crawl_stats_free); a
 * fatal error is described in err. */
crawl_end crawl_run(crawl *cr, struct crawl_stats *stats, char *err, size_t err_size);
/* Stops the crawl from any thread (a signal's handler thread): the first call lets what is in
 * flight finish, a second stops at once. end is why (CRAWL_END_SIGINT, _SIGTERM or _SIGHUP). */
void crawl_stop(crawl *cr, crawl_end end);
void crawl_destroy(crawl *cr);

#endif
