/* cli/table.c: every option crawl takes, once, with what options.c, help.c and completion.c
 * make from it. */
#ifndef CRAWL_CLI_TABLE_H
#define CRAWL_CLI_TABLE_H

#include <stdbool.h>
#include <stddef.h>

/* What getopt_long gives for an option that has no letter of its own (one with a letter gives
 * the letter). */
enum cli_option_id {
  OPT_SITEMAPS = 256,
  OPT_SCOPE,
  OPT_EXCLUDE_DOMAINS,
  OPT_SKIP_EXT,
  OPT_MATCH,
  OPT_EXCLUDE,
  OPT_MAX_PAGES_PER_HOST,
  OPT_MAX_URL_LENGTH,
  OPT_MAX_PATH_REPEAT,
  OPT_MAX_PATH_SEGMENTS,
  OPT_MAX_QUERY_VARIANTS,
  OPT_DELAY_FACTOR,
  OPT_MAX_DELAY,
  OPT_IP_DELAY,
  OPT_PER_HOST,
  OPT_NO_ROBOTS,
  OPT_CONNECT_TIMEOUT,
  OPT_RETRIES,
  OPT_MAX_SIZE,
  OPT_MAX_REDIRS,
  OPT_MAX_SITEMAPS,
  OPT_SITEMAP_DEPTH,
  OPT_NO_PARENT,
  OPT_CACERT,
  OPT_CHECK_SKIPPED,
  OPT_RESOLVE,
  OPT_DNS_SERVER,
  OPT_PROXY,
  OPT_NOPROXY,
  OPT_NO_COOKIES,
  OPT_USER,
  OPT_RATE,
  OPT_JS,
  OPT_ALLOW_PRIVATE,
  OPT_FAIL_ON_BROKEN,
  OPT_PRINT_OUTSIDE,
  OPT_CHECK_OUTSIDE,
  OPT_RANDOM_WAIT,
  OPT_MAX_TIME,
  OPT_NETRC,
  OPT_NETRC_FILE,
  OPT_LOAD_COOKIES,
  OPT_SAVE_COOKIES,
  OPT_EXPECT,
  OPT_QUEUE_MEMORY,
  OPT_QUEUE_DISK,
  OPT_SEEN,
  OPT_STATE,
  OPT_WARC,
  OPT_CLUSTER,
  OPT_NODES,
  OPT_NODE,
  OPT_CLUSTER_WAIT,
  OPT_CHECKPOINT,
  OPT_DEDUPE,
  OPT_FP_RATE,
  OPT_JSONL,
  OPT_PROGRESS,
  OPT_NO_PROGRESS,
  OPT_WGET_NOTHING,
  OPT_CONFIG,
  OPT_NO_CONFIG,
  OPT_REPORT,
  OPT_CHECK_FRAGMENTS,
};
/* --help's headings, the man page's OPTIONS subsections. */
enum cli_section_id {
  CLI_SEEDS,
  CLI_SCOPE,
  CLI_POLITENESS,
  CLI_FETCHING,
  CLI_DEDUPE,
  CLI_STATE,
  CLI_SCALE,
  CLI_OUTPUT,
  CLI_SECTIONS
};
struct cli_section {
  const char *name; /* "Seeds" */
  const char *note; /* said after it in --help, or NULL */
};
extern const struct cli_section cli_sections[CLI_SECTIONS];
/* How bash completes an option's value. */
enum cli_complete { CLI_COMPLETE_NONE, CLI_COMPLETE_FILE, CLI_COMPLETE_DIR, CLI_COMPLETE_WORDS };
/* Where --help shows the default --skip-ext list, in a row's help. */
#define CLI_HELP_SKIP_EXT "{skip-ext}"
/* One spelling of an option. Several rows may share an id (--delay and --wait): the switch of
 * options.c takes each id once. */
struct cli_option {
  const char *name; /* the long name, without "--" */
  int id;           /* getopt_long's answer: a letter, or an enum cli_option_id */
  bool letter_too;  /* -LETTER (the id) is a spelling of it as well */
  enum cli_section_id section;
  const char *value; /* the value's name in --help and the man page; NULL: it takes none */
  enum cli_complete complete;
  const char *words; /* CLI_COMPLETE_WORDS: the words bash offers, space-separated */
  const char *help;  /* --help's text, wrapped there; NULL: not shown (another row's text or
                      * --help's last lines name it) */
  bool joined;       /* shown on the line of the row before it, which says what both do */
};
extern const struct cli_option cli_options[];
extern const size_t cli_option_count;

#endif
