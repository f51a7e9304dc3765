/* crawl/saved.c: the lines of a save, the files they go to, and the pages left for the next run.
 * What it offers the other files of the engine. */
#ifndef CRAWL_SAVED_H
#define CRAWL_SAVED_H

#include "crawl/crawl-int.h"

#include <stdio.h>

/* One line of a save (saved.c tells the layout). */
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
bool crawl__saved_next(FILE *in, char **line, size_t *cap, struct saved *out);
/* One saved line (text, changed in place) read into *out; false when it is none. */
bool crawl__saved_parse(char *text, struct saved *out);
/* DIR/NAME, allocated; NULL when memory runs out. */
char *crawl__saved_path_in(const char *dir, const char *name);
/* An unlinked temporary file for lines too many to keep in memory; NULL on failure. */
FILE *crawl__saved_temp_stream(const char *name);
/* The counters of crawl_stats by name (as a checkpoint keeps them): *n of them. */
struct crawl_stats_counter {
  char name[32];
  uint64_t *at;
};
#define CRAWL_STATS_COUNTERS_MAX (16 + CRAWL_FATE_COUNT + CRAWL_CAUSE_COUNT)
void crawl__saved_counters(struct crawl_stats *s, struct crawl_stats_counter *out, size_t *n);
/* A page a limit kept from being fetched: kept in the save for the next run. */
void crawl__saved_leave(struct shard *c, const struct frontier_item *item);
/* Appends the pages left for the next run (crawl__saved_leave) to out; false on a write error. */
bool crawl__saved_copy_left(struct shard *c, FILE *out);
/* --seen: a failed URL whose record waits for its referrers until the run's end (referrers.c).
 * A kill loses that record, and by then the URL is seen: so the saves before the end keep it as
 * a page to fetch, whose record the next run writes (doc/behaviour.md, Resuming). flags are its
 * item's. */
void crawl__saved_record_waits(struct shard *c, const struct crawl_record *rec, unsigned flags);
/* Appends those pages (crawl__saved_record_waits) to out; false on a write error. */
bool crawl__saved_copy_waiting(struct shard *c, FILE *out);
/* Pages left for the next run so far. */
uint64_t crawl__saved_left_count(const struct shard *c);
/* Whether a page left for the next run was lost (its file could not be made). */
bool crawl__saved_left_lost(const struct shard *c);
void crawl__saved_left_close(struct shard *c);
/* A page's line (page or sitemap; from NULL: found on no page), to start wait seconds later. */
void crawl__saved_put_page(FILE *out, frontier_kind kind, int depth, int attempts, int redirects,
                           unsigned flags, double wait, const char *from, const char *url);
/* The same of a queued item, with the given flags, its wait measured from now. */
void crawl__saved_put_item(FILE *out, const struct frontier_item *item, unsigned flags, double now);

#endif
