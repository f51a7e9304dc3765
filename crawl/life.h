/* crawl/life.c: how a shard goes and ends. What it offers the other files of the engine. */
#ifndef CRAWL_LIFE_H
#define CRAWL_LIFE_H

#include "crawl/crawl-int.h"

#include <stdarg.h>

/* The shard's life (c->life), from start (core_now's clock), its fatal error to be written to
 * err (err_size bytes, the run's to read); let go of by crawl__life_close. */
core_rc crawl__life_open(struct shard *c, char *err, size_t err_size, double start);
void crawl__life_close(struct shard *c);

/* How far it is from stopping; raised by the shard's own limits and errors and by the other
 * shards' (crawl__mesh_sync_stop), never lowered. */
enum shard_stop crawl__life_stop(const struct shard *c);
void crawl__life_set_stop(struct shard *c, enum shard_stop stop);
/* How it ends: CRAWL_END_DONE until something else ends it. */
crawl_end crawl__life_end(const struct shard *c);
void crawl__life_set_end(struct shard *c, crawl_end end);

/* A fatal error, the first one only (printf-style, its text in err): the shard stops at once. */
void crawl__life_fail(struct shard *c, const char *fmt, va_list ap);
bool crawl__life_fatal(const struct shard *c);
const char *crawl__life_err(const struct shard *c);

/* When the crawl began (a continued --state crawl's first run, as its checkpoint says), and when
 * this run did (--max-time counts from it). */
double crawl__life_start(const struct shard *c);
void crawl__life_set_start(struct shard *c, double start);
double crawl__life_run_start(const struct shard *c);

/* Another shard could not open: this one's loop never begins. */
bool crawl__life_refused(const struct shard *c);
void crawl__life_set_refused(struct shard *c, bool refused);
/* Its seeds are queued or its part of the checkpoint restored: a save may be made. */
bool crawl__life_begun(const struct shard *c);
void crawl__life_set_begun(struct shard *c, bool begun);

#endif
