/* crawl/shard.c: a shard's life. What it offers the other files of the engine. */
#ifndef CRAWL_SHARD_H
#define CRAWL_SHARD_H

#include "crawl/crawl-int.h"

struct crawl_progress crawl__shard_own_progress(struct shard *c); /* elapsed left 0 */
void crawl__shard_open(struct shard *c);  /* its loop, engine, frontier, scope; c->fatal on error */
void crawl__shard_close(struct shard *c); /* frees what crawl__shard_open made */
void *crawl__shard_main(void *arg);       /* a shard's whole crawl, on its own thread */

#endif
