/* crawl/schedule.c: scheduling: what starts next, and when a shard is done. What it offers the
 * other files of the engine. */
#ifndef CRAWL_SCHEDULE_H
#define CRAWL_SCHEDULE_H

#include "crawl/crawl-int.h"

void crawl__schedule(struct shard *c); /* starts what may start now, or waits for it */
bool crawl__schedule_finished(const struct shard *c); /* nothing queued, in flight or held */

#endif
