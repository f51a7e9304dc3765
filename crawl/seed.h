/* crawl/seed.c: seeds fed a window at a time, and what a run leaves queued. What it offers the
 * other files of the engine. */
#ifndef CRAWL_SEED_H
#define CRAWL_SEED_H

#include "crawl/crawl-int.h"

/* Calls fn with each seed this shard owns and has not offered yet (a crawl stopped
 * while seeds were fed a window at a time), in the order given. */
void crawl__seed_unfed_each(struct shard *c, void (*fn)(struct shard *, const struct url *, void *),
                            void *arg);
core_rc
crawl__seed_open_scope(struct shard *c);  /* the scope, made by the first shard, read by all */
core_rc crawl__seed_all(struct shard *c); /* the set of seeds this shard owns, to be fed */
bool crawl__seed_waiting(const struct shard *c); /* seeds this shard owns not offered yet */
/* The first seed this shard has not offered yet (cfg->seed_count: every one was): a save's mark
 * of where the next run goes on. */
size_t crawl__seed_next(const struct shard *c);
void crawl__seed_feed(struct shard *c); /* offers seeds while fewer than a window are pending */
/* A link to a seed not offered yet makes it a seed now (true), as if it had come first. */
bool crawl__seed_found_early(struct shard *c, const struct url *u);
/* Whether an earlier run (--seen) recorded a seed not offered yet, and owes no record of it. */
bool crawl__seed_recorded_before(const struct shard *c, const struct url *u);
/* Whether a seed some earlier run saw still owes its record (a kill lost it): true once. */
bool crawl__seed_owed(struct shard *c, const struct url *u);
/* Settles what is queued or in flight at the end: pending (or limit) records, or leftovers. */
void crawl__seed_settle_leftovers(struct shard *c, bool with_records);

/* Lets go of the seeds' state at the shard's close. */
void crawl__seed_close(struct shard *c);
/* A crawl that ended with -n spent and pages still queued: each gets its record now, as a page
 * the limit stopped at its turn would (robots when its host's rules exclude it, else limit), and
 * those of the limit are left for the next run as that page would be, before the last save
 * (doc/behaviour.md, Keeping a crawl). */
void crawl__seed_leave_queued(struct shard *c);

#endif
