/* crawl/schedule.c: scheduling: what starts next, and when a shard is done. What it offers the
 * other files of the engine. */
#ifndef CRAWL_SCHEDULE_H
#define CRAWL_SCHEDULE_H

#include "crawl/crawl-int.h"

/* -n is reached: every page it allows was started (with --cluster, in the whole job). */
bool crawl__pages_exhausted(const struct shard *c);
/* A request began (it takes the slot pop_and_start holds) or ended. */
void crawl__request_began(struct shard *c);
void crawl__request_ended(struct shard *c);
const char *crawl__path_of(const char *url); /* the path and query of a printed URL */
void crawl__schedule(struct shard *c);       /* starts what may start now, or waits for it */
bool crawl__finished(const struct shard *c); /* nothing queued, in flight or held */

#endif
