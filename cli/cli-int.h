/* Shared inside cli/: options, output and the crawl driver. */
#ifndef CRAWL_CLI_INT_H
#define CRAWL_CLI_INT_H

#include "core/core.h"
#include <stdio.h>

/* ---- options ---- */
typedef enum { CLI_RUN, CLI_EXIT_OK, CLI_USAGE } cli_parse_result;
/* Fills cfg from argv. On CLI_USAGE a one-line message is in err. */
cli_parse_result cli_parse_options(int argc, char **argv, struct crawl_config *cfg, char *err,
                                   size_t err_size);
void cli_config_free(struct crawl_config *cfg);
void cli_print_help(FILE *out);
/* crawl's version and those of libcurl, c-ares, libxml2 and libpsl in use. */
void cli_print_version(FILE *out);

/* ---- --state DIR ---- */
/* A new crawl kept in dir: makes dir when missing, refuses one that holds a crawl already
 * (CORE_EINVAL), and keeps the command line's arguments (argv[0] left out) for a later run. */
core_rc cli_state_begin(const char *dir, int argc, char **argv, char *why, size_t why_size);
/* The arguments kept in dir: CORE_ENOTFOUND when it holds none. Freed with cli_state_args_free. */
core_rc cli_state_load_args(const char *dir, char ***args, size_t *count, char *why,
                            size_t why_size);
void cli_state_args_free(char **args, size_t count);

/* ---- fates (CLI.md, --jsonl) ---- */
/* One list gives the enum, the names the records print and the summary's counters. */
#define CLI_FATE_MAP(X)                                                                            \
  X(FETCHED, "fetched")                                                                            \
  X(FAILED, "failed")                                                                              \
  X(ROBOTS, "robots")                                                                              \
  X(DEPTH, "depth")                                                                                \
  X(SKIPPED, "skipped")                                                                            \
  X(LIMIT, "limit")                                                                                \
  X(PENDING, "pending")
typedef enum {
#define CLI_FATE_ENUM(name, text) CLI_FATE_##name,
  CLI_FATE_MAP(CLI_FATE_ENUM)
#undef CLI_FATE_ENUM
      CLI_FATE_COUNT
} cli_fate;
const char *cli_fate_name(cli_fate fate);

/* Why a URL failed, as the summary counts it. */
#define CLI_CAUSE_MAP(X)                                                                           \
  X(DNS, "dns")                                                                                    \
  X(CONNECT, "connect")                                                                            \
  X(TIMEOUT, "timeout")                                                                            \
  X(TLS, "tls")                                                                                    \
  X(HTTP, "http")                                                                                  \
  X(OTHER, "other")
typedef enum {
#define CLI_CAUSE_ENUM(name, text) CLI_CAUSE_##name,
  CLI_CAUSE_MAP(CLI_CAUSE_ENUM)
#undef CLI_CAUSE_ENUM
      CLI_CAUSE_COUNT
} cli_cause;
const char *cli_cause_name(cli_cause cause);

/* ---- the status line (--progress) ---- */
/* A line on standard error redrawn in place. When standard output is the same terminal, the
 * output hides it before writing URLs and shows it again after, so no line mixes the two. */
typedef struct cli_status cli_status;
/* out_fd is the output's descriptor, to tell whether it shares standard error's terminal. */
core_rc cli_status_create(bool enabled, int out_fd, cli_status **out);
void cli_status_destroy(cli_status *status);
bool cli_status_enabled(const cli_status *status);
/* Draws text (one line, no newline) in place of the last one. */
void cli_status_set(cli_status *status, const char *text);
/* Clears the line from the screen, when shown, so that other text can start at column 0. */
void cli_status_hide(cli_status *status);
/* Draws the last text again after cli_status_hide. */
void cli_status_show(cli_status *status);
/* Whether output to out_fd must hide the line first. */
bool cli_status_shares_terminal(const cli_status *status);
/* Draws text and leaves it on the screen, ending the line. */
void cli_status_finish(cli_status *status, const char *text);

/* ---- output ---- */
typedef struct cli_output cli_output;
/* fd is borrowed (stdout or the -o file); name ("standard output", or the file) is borrowed for
 * messages; status may be NULL and is borrowed. */
core_rc cli_output_create(int fd, const char *name, bool jsonl, cli_status *status,
                          cli_output **out);
/* Another output to first's descriptor, with its own buffer (one per shard): each flush writes
 * whole lines, never between another's, and a write error ends them all. Destroyed before first. */
core_rc cli_output_create_sibling(cli_output *first, cli_output **out);
void cli_output_destroy(cli_output *out);
/* Draws the status line (cli_status_set, or cli_status_finish when final), never in the middle of
 * a flush. */
void cli_output_set_status(cli_output *out, const char *text, bool final);
int cli_output_fd(const cli_output *out);
const char *cli_output_name(const cli_output *out);
/* Plain mode: one URL per line. */
core_rc cli_output_url(cli_output *out, const char *url);

struct cli_record {
  const char *url;
  const char *from; /* NULL for seeds */
  int depth;
  cli_fate fate;
  cli_cause cause;      /* failed */
  long status;          /* the URL's own HTTP status, when a response came */
  const char *type;     /* with status: Content-Type or NULL */
  uint64_t bytes;       /* with status */
  double ms;            /* with status */
  const char *location; /* a redirect's target, or NULL */
  const char *error;    /* failed */
};
core_rc cli_output_record(cli_output *out, const struct cli_record *rec);
/* Writes what is buffered. CORE_ESYS on a write error: cli_output_errno says which. */
core_rc cli_output_flush(cli_output *out);
/* The reader went away (seen by the loop before any write failed): like EPIPE from write(). */
void cli_output_reader_gone(cli_output *out);
/* The reader went away (EPIPE): a quiet end, unlike any other write error. */
bool cli_output_closed(const cli_output *out);
/* The errno of the write that failed, or 0. */
int cli_output_errno(const cli_output *out);

/* ---- the crawl ---- */
enum { CLI_BROKEN_SHOWN = 10 }; /* broken links the summary lists */
struct cli_broken_link {
  char *url, *from; /* owned; from is NULL for a seed */
  long status;
};
struct cli_stats {
  uint64_t pages;                     /* responses to page requests */
  uint64_t discovered;                /* unique in-scope URLs */
  uint64_t fates[CLI_FATE_COUNT];     /* URLs settled this run, by fate */
  uint64_t failures[CLI_CAUSE_COUNT]; /* of the failed ones, by cause */
  uint64_t seeds, seeds_unreached;    /* seeds settled, and those that got no response at all */
  uint64_t too_long, unparsable, retries;
  uint64_t spilled;    /* queued URLs that waited in the temporary file */
  uint64_t resumed;    /* --seen: URLs the last run left queued, queued again */
  uint64_t left;       /* --seen: URLs this run leaves queued for the next */
  uint64_t speculated; /* pages fetched before their depth was known (speculate.c) */
  uint64_t bytes;
  uint64_t broken;                                       /* pages that failed with an HTTP error */
  struct cli_broken_link broken_links[CLI_BROKEN_SHOWN]; /* the first of them */
  double seconds;
};
/* Frees the broken links' strings. */
void cli_stats_free(struct cli_stats *stats);

typedef enum { CLI_END_DONE, CLI_END_SIGINT, CLI_END_SIGTERM, CLI_END_PIPE, CLI_END_FATAL } cli_end;
/* Runs the whole crawl; returns how it ended. Fatal errors are described in err. */
/* status is borrowed; stats is filled (free with cli_stats_free). */
cli_end cli_crawl(const struct crawl_config *cfg, cli_output *out, cli_status *status,
                  struct cli_stats *stats, char *err, size_t err_size);

#endif
