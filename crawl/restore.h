/* crawl/restore.c: continuing a kept crawl. What it offers the other files of the engine. */
#ifndef CRAWL_RESTORE_H
#define CRAWL_RESTORE_H

#include "crawl/crawl-int.h"

/* --state: puts the loaded checkpoint (c->save.resumable) back: queues, held links, hosts,
 * counters. */
void crawl__restore(struct shard *c);
/* Before crawl__restore: from which seed on this shard offers seeds (save.seeds_fed), as the
 * checkpoint says (a checkpoint of several shards gave each its value when it was split). */
void crawl__restore_seeds_fed(struct shard *c);
/* With several shards: hands each line of the first shard's loaded save to the shard that owns it
 * (each shard's own c->save.resumable), whatever the number of shards that wrote it. */
core_rc crawl__restore_split(struct shard *shards, int n);

#endif
