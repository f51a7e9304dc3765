/* crawl/bridge.c: --cluster: the first shard's link to Redis. What it offers the other files of the
 * engine. */
#ifndef CRAWL_BRIDGE_H
#define CRAWL_BRIDGE_H

#include "crawl/crawl-int.h"

core_rc crawl__bridge_open(struct shard *c);
/* Appends what the shards found for other processes, publishes this one's state and asks for the
 * run's; returns the longest the loop may wait before the next turn. */
double crawl__bridge_turn(struct shard *c);
void crawl__bridge_close(struct shard *c);
/* A checkpoint (--seen, --state) of a --cluster crawl: before it is written, a mark naming every
 * entry Redis gave so far; the links Redis has not confirmed, as transit lines; once it is safe,
 * crawl__bridge_saved acknowledges the entries the checkpoint before it held (should this one be
 * torn, the next run loads that one). */
unsigned long crawl__bridge_mark(struct shard *c);
void crawl__bridge_write_transit(struct shard *c, FILE *out);
void crawl__bridge_saved(struct shard *c, unsigned long mark);

#endif
