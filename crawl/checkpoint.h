/* crawl/checkpoint.c: --seen and --state: saving and loading what is left to do. What it offers the
 * other files of the engine. */
#ifndef CRAWL_CHECKPOINT_H
#define CRAWL_CHECKPOINT_H

#include "crawl/crawl-int.h"

/* --seen and --state */
core_rc crawl__checkpoint_open_seen(struct shard *c);
void crawl__checkpoint_on_timer(void *arg);
void crawl__checkpoint_final(struct shard *c);
/* The run's cookie jar (doc/network.md, Cookies): *out NULL with --no-cookies; else filled from
 * --load-cookies, then from a continued --state crawl's DIR/cookies. CORE_ESYS or CORE_ENOMEM
 * with err saying why. */
core_rc crawl__checkpoint_cookies_open(const struct crawl_config *cfg, fetch_cookies **out,
                                       char *err, size_t err_size);
/* A continued --state crawl: -o FILE cut back to its length at the checkpoint continued from,
 * before anything is written to it. */
void crawl__checkpoint_cut_output(struct shard *c);

/* A shard's saves (struct shard_save, c->save): made before the shard opens, let go at its close.
 */
core_rc crawl__checkpoint_prepare(struct shard *c);
void crawl__checkpoint_close(struct shard *c);
/* Their timer: made on the shard's loop as it opens, started when its loop begins (the first
 * shard saves for all, when there are saves), stopped before the final save. */
core_rc crawl__checkpoint_timer_open(struct shard *c);
void crawl__checkpoint_timer_start(struct shard *c);
void crawl__checkpoint_timer_stop(struct shard *c);
#endif
