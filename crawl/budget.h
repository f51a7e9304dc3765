/* crawl/budget.c: what the shards of a run count together (-n, -c, --rate), and each shard's
 * part of the run's bounds. What it offers the other files of the engine. */
#ifndef CRAWL_BUDGET_H
#define CRAWL_BUDGET_H

#include "crawl/crawl-int.h"

long crawl__budget_pages_started(const struct crawl *r);
/* True for the first shard that asks: one warning for the run, whichever spill file failed. */
bool crawl__budget_warn_spill_once(struct crawl *r);
/* The same for the stash of links fetched ahead (stash.c). */
bool crawl__budget_warn_stash_once(struct crawl *r);
void crawl__budget_set_pages_started(struct crawl *r, long pages);
/* One page more under -n (max_pages, < 0 for none) across all shards; false when none is left
 * (with --cluster: none leased, which the run may still lease or not, crawl__budget_pages_final).
 */
bool crawl__budget_take_page(struct crawl *r, long max_pages);
/* -n with --cluster (bridge.c): pages are leased from the whole run's limit in Redis. */
bool crawl__budget_pages_leased(const struct crawl *r);
bool crawl__budget_pages_final(const struct crawl *r);
void crawl__budget_set_pages_final(struct crawl *r);
long crawl__budget_lease_left(const struct crawl *r);
void crawl__budget_lease_add(struct crawl *r, long pages);
/* What the lease still allows, taken back (0 left): to give back to the run. */
long crawl__budget_lease_take_back(struct crawl *r);
/* -c across shards: a slot for one more request (false when limit are in flight), given back
 * when it ends (waking the others when all were taken). */
bool crawl__budget_take_slot(struct crawl *r, long limit);
/* --rate: whether a request may start now (taking its turn), else false with *next the moment
 * the next one may. Always true without --rate. */
bool crawl__budget_take_rate(struct crawl *r, double now, double *next);
/* --rate: the moment the next request may start (0 without --rate); a shard's loop waits for it
 * rather than waking to be refused. */
double crawl__budget_rate_next(struct crawl *r);
/* Gives back the turn crawl__budget_take_rate took (taken: the *next it gave), when no request
 * followed. */
void crawl__budget_give_rate(struct crawl *r, double taken);
void crawl__budget_give_slot(struct crawl *r, long limit, int self);
bool crawl__budget_slots_full(struct crawl *r, long limit);
/* -n is reached: every page it allows (max_pages, < 0 for none) was started (with --cluster, in
 * the whole job). */
bool crawl__budget_pages_exhausted(const struct crawl *r, long max_pages);
/* One more in flight whatever the limit (a request that began without a slot). */
void crawl__budget_count_slot(struct crawl *r);

/* Shard i's part of the run's bounds among n shards (c->bounds, let go of by
 * crawl__budget_bounds_close): --queue-memory, --queue-disk, --expect (whole with --seen or
 * --state, whose filter the shards share) and the DNS lookups in flight (LOOKUPS_MAX). Before
 * it, or when it could not be made, a shard is bound by the whole of each. */
core_rc crawl__budget_bounds_prepare(struct shard *c, int n, int i);
void crawl__budget_bounds_close(struct shard *c);
uint64_t crawl__budget_queue_memory(const struct shard *c); /* 0: no limit */
uint64_t crawl__budget_queue_disk(const struct shard *c);   /* 0: no limit */
uint64_t crawl__budget_seen_expect(const struct shard *c);
size_t crawl__budget_lookups_max(const struct shard *c);
/* True the first time the shard's spill file is found full: -v says so once. */
bool crawl__budget_disk_full_once(struct shard *c);

#endif
