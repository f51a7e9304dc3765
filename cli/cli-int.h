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

/* ---- output ---- */
typedef struct cli_output cli_output;
/* fd is borrowed (stdout or the -o file). */
core_rc cli_output_create(int fd, bool jsonl, cli_output **out);
void cli_output_destroy(cli_output *out);
/* Plain mode: one URL per line. */
core_rc cli_output_url(cli_output *out, const char *url);

struct cli_record {
  const char *url;
  const char *from; /* NULL for seeds */
  int depth;
  const char *fate;
  long status;       /* fetched: HTTP status */
  const char *type;  /* fetched: Content-Type or NULL */
  uint64_t bytes;    /* fetched */
  double ms;         /* fetched */
  const char *error; /* failed */
};
core_rc cli_output_record(cli_output *out, const struct cli_record *rec);
/* Writes what is buffered. CORE_ESYS with errno EPIPE when the reader has gone. */
core_rc cli_output_flush(cli_output *out);
bool cli_output_closed(const cli_output *out);

/* ---- the crawl ---- */
struct cli_stats {
  uint64_t pages;      /* responses to page requests */
  uint64_t discovered; /* unique in-scope URLs */
  uint64_t failed_dns, failed_connect, failed_timeout, failed_tls, failed_http, failed_other;
  uint64_t robots_excluded;
  uint64_t too_long, unparsable, retries;
  uint64_t spilled; /* queued URLs that waited in the temporary file */
  uint64_t resumed; /* --seen: URLs the last run left queued, queued again */
  uint64_t left;    /* --seen: URLs this run leaves queued for the next */
  uint64_t bytes;
  double seconds;
};

typedef enum { CLI_END_DONE, CLI_END_SIGINT, CLI_END_SIGTERM, CLI_END_PIPE, CLI_END_FATAL } cli_end;
/* Runs the whole crawl; returns how it ended. Fatal errors are described in err. */
cli_end cli_crawl(const struct crawl_config *cfg, cli_output *out, struct cli_stats *stats,
                  char *err, size_t err_size);

#endif
