/* crawl/run.c: the run: its shards as threads. What it offers the other files of the engine. */
#ifndef CRAWL_RUN_H
#define CRAWL_RUN_H

#include "crawl/crawl-int.h"

/* How many shards cfg asks for. */
int crawl__run_shard_count(const struct crawl_config *cfg);

#endif
