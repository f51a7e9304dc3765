/* crawl/checkpoint.c: --seen and --state: saving and loading what is left to do. What it offers the
 * other files of the engine. */
#ifndef CRAWL_CHECKPOINT_H
#define CRAWL_CHECKPOINT_H

#include "crawl/crawl-int.h"

/* --seen and --state */
/* The counters of crawl_stats by name (as a checkpoint keeps them): *n of them. */
struct crawl_stats_counter {
  char name[32];
  uint64_t *at;
};
#define CRAWL_STATS_COUNTERS_MAX (16 + CRAWL_FATE_COUNT + CRAWL_CAUSE_COUNT)
void crawl__stats_counters(struct crawl_stats *s, struct crawl_stats_counter *out, size_t *n);
core_rc crawl__open_seen(struct shard *c);
void crawl__on_save_timer(void *arg);
void crawl__final_save(struct shard *c);
/* The run's cookie jar (doc/network.md, Cookies): *out NULL with --no-cookies; else filled from
 * --load-cookies, then from a continued --state crawl's DIR/cookies. CORE_ESYS or CORE_ENOMEM
 * with err saying why. */
core_rc crawl__cookies_open(const struct crawl_config *cfg, fetch_cookies **out, char *err,
                            size_t err_size);
/* A URL that failed: forgotten before the last save when the filter can remove. */
void crawl__remember_to_forget(struct shard *c, const char *url);
/* A page a limit kept from being fetched: kept in the save for the next run. */
void crawl__leave_for_next_run(struct shard *c, const struct frontier_item *item);
/* One line of a save (checkpoint.c tells the layout). */
enum saved_kind {
  SAVED_PAGE,
  SAVED_SITEMAP,
  SAVED_HELD,
  SAVED_LINK,
  SAVED_HOST,
  SAVED_STAT,
  SAVED_BROKEN,
  SAVED_TRANSIT,
  SAVED_CUT
};
struct saved {
  enum saved_kind kind;
  int depth, attempts, redirects;
  unsigned flags; /* or a transit link's kind */
  struct link_how how;
  double wait;      /* seconds */
  long long value;  /* a counter, a host's pages started, a broken link's status */
  const char *from; /* NULL for none */
  const char *url;  /* or a host's origin, or a counter's name */
};
/* The next line of in, read into *line (a getline buffer, which out's strings point into); false
 * past the last. */
bool crawl__next_saved(FILE *in, char **line, size_t *cap, struct saved *out);
/* One saved line (text, changed in place) read into *out; false when it is none. */
bool crawl__parse_saved(char *text, struct saved *out);
/* DIR/NAME, allocated; NULL when memory runs out. */
char *crawl__path_in(const char *dir, const char *name);
/* An unlinked temporary file for lines too many to keep in memory; NULL on failure. */
FILE *crawl__temp_stream(const char *name);
/* A continued --state crawl: -o FILE cut back to its length at the checkpoint continued from,
 * before anything is written to it. */
void crawl__cut_output(struct shard *c);

#endif
