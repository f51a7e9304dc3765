/* What the shards of a run count together: -n (pages started, and with --cluster the lease of them
 * from Redis), -c (requests in flight), --rate, and whether a spill file's or the stash's failure
 * was said; and each shard's part of the run's bounds. */
#include "crawl/run-int.h"
#include "crawl/budget.h"
#include "crawl/mesh.h"

#include <stdlib.h>

/* A shard's part of the bounds the run shares out (crawl__budget_bounds_prepare). */
struct shard_bounds {
  uint64_t queue_memory; /* of --queue-memory (0: no limit) */
  uint64_t queue_disk;   /* of --queue-disk, for its spill file (0: no limit) */
  uint64_t seen_expect;  /* of --expect */
  size_t lookups_max;    /* of LOOKUPS_MAX */
  bool disk_full_noted;  /* -v has said the spill file is full */
};

/* Its part of a total shared among n shards (shard i of them), at least 1. */
static uint64_t part_of(uint64_t total, int n, int i) {
  uint64_t part = total / (uint64_t)n + ((uint64_t)i < total % (uint64_t)n);
  return part ? part : 1;
}

core_rc crawl__budget_bounds_prepare(struct shard *c, int n, int i) {
  const struct crawl_config *cfg = c->cfg;
  struct shard_bounds *b = calloc(1, sizeof(*b));
  if (!b)
    return CORE_ENOMEM;
  b->lookups_max = n > 1 ? (size_t)part_of(LOOKUPS_MAX, n, i) : LOOKUPS_MAX;
  b->queue_memory = cfg->queue_memory ? part_of(cfg->queue_memory, n, i) : 0;
  b->queue_disk = cfg->queue_disk ? part_of(cfg->queue_disk, n, i) : 0;
  /* with --seen or --state the shards share one filter (checkpoint.c) */
  b->seen_expect =
      n > 1 && !cfg->seen_file && !cfg->state_dir ? part_of(cfg->expect, n, i) : cfg->expect;
  c->bounds = b;
  return CORE_OK;
}

void crawl__budget_bounds_close(struct shard *c) {
  free(c->bounds);
  c->bounds = NULL;
}

uint64_t crawl__budget_queue_memory(const struct shard *c) {
  return c->bounds ? c->bounds->queue_memory : c->cfg->queue_memory;
}

uint64_t crawl__budget_queue_disk(const struct shard *c) {
  return c->bounds ? c->bounds->queue_disk : c->cfg->queue_disk;
}

uint64_t crawl__budget_seen_expect(const struct shard *c) {
  return c->bounds ? c->bounds->seen_expect : c->cfg->expect;
}

size_t crawl__budget_lookups_max(const struct shard *c) {
  return c->bounds ? c->bounds->lookups_max : LOOKUPS_MAX;
}

bool crawl__budget_disk_full_once(struct shard *c) {
  if (!c->bounds || c->bounds->disk_full_noted)
    return !c->bounds;
  c->bounds->disk_full_noted = true;
  return true;
}

bool crawl__budget_warn_spill_once(struct crawl *r) {
  return !atomic_exchange(&r->spill_warned, true);
}

bool crawl__budget_warn_stash_once(struct crawl *r) {
  return !atomic_exchange(&r->stash_warned, true);
}

long crawl__budget_pages_started(const struct crawl *r) {
  return atomic_load_explicit(&r->pages_started, memory_order_relaxed);
}

void crawl__budget_set_pages_started(struct crawl *r, long pages) {
  atomic_store(&r->pages_started, pages);
}

/* One more on counter unless it is at limit (< 0: none), whatever the other threads do. */
static bool take_one(atomic_long *counter, long limit) {
  long now = atomic_load_explicit(counter, memory_order_relaxed);
  do {
    if (limit >= 0 && now >= limit)
      return false;
  } while (!atomic_compare_exchange_weak(counter, &now, now + 1));
  return true;
}

bool crawl__budget_take_page(struct crawl *r, long max_pages) {
  if (!r->pages_leased)
    return take_one(&r->pages_started, max_pages);
  long left = atomic_load_explicit(&r->pages_lease, memory_order_relaxed);
  do {
    if (left <= 0)
      return false;
  } while (!atomic_compare_exchange_weak(&r->pages_lease, &left, left - 1));
  atomic_fetch_add(&r->pages_started, 1);
  return true;
}

bool crawl__budget_pages_leased(const struct crawl *r) {
  return r->pages_leased;
}

bool crawl__budget_pages_final(const struct crawl *r) {
  return atomic_load(&r->pages_final);
}

long crawl__budget_lease_left(const struct crawl *r) {
  return atomic_load(&r->pages_lease);
}

void crawl__budget_lease_add(struct crawl *r, long pages) {
  atomic_fetch_add(&r->pages_lease, pages);
  if (pages > 0 && r->count > 1)
    crawl__mesh_wake_others(r, 0);
}

long crawl__budget_lease_take_back(struct crawl *r) {
  return atomic_exchange(&r->pages_lease, 0);
}

void crawl__budget_set_pages_final(struct crawl *r) {
  if (!atomic_exchange(&r->pages_final, true) && r->count > 1)
    crawl__mesh_wake_others(r, 0);
}

bool crawl__budget_take_slot(struct crawl *r, long limit) {
  return take_one(&r->in_flight, limit);
}

bool crawl__budget_take_rate(struct crawl *r, double now, double *next) {
  double rate = r->cfg->rate;
  *next = 0; /* no --rate: what is given back is never read (crawl__budget_give_rate) */
  if (rate <= 0)
    return true;
  pthread_mutex_lock(&r->lock);
  bool ok = now >= r->rate_next;
  if (ok) /* strict spacing: a burst after a pause starts no faster */
    r->rate_next = now + 1.0 / rate;
  *next = r->rate_next;
  pthread_mutex_unlock(&r->lock);
  return ok;
}

double crawl__budget_rate_next(struct crawl *r) {
  if (r->cfg->rate <= 0)
    return 0;
  pthread_mutex_lock(&r->lock);
  double next = r->rate_next;
  pthread_mutex_unlock(&r->lock);
  return next;
}

void crawl__budget_give_rate(struct crawl *r, double taken) {
  if (r->cfg->rate <= 0)
    return;
  pthread_mutex_lock(&r->lock);
  if (r->rate_next == taken) /* no other turn was taken since: the next may start at once */
    r->rate_next = taken - 1.0 / r->cfg->rate;
  pthread_mutex_unlock(&r->lock);
}

void crawl__budget_give_slot(struct crawl *r, long limit, int self) {
  /* from full to not: another shard may be waiting for a slot */
  if (atomic_fetch_sub(&r->in_flight, 1) >= limit && r->count > 1)
    crawl__mesh_wake_others(r, self);
}

void crawl__budget_count_slot(struct crawl *r) {
  atomic_fetch_add(&r->in_flight, 1);
}

bool crawl__budget_slots_full(struct crawl *r, long limit) {
  return atomic_load_explicit(&r->in_flight, memory_order_relaxed) >= limit;
}

bool crawl__budget_pages_exhausted(const struct crawl *r, long max_pages) {
  if (crawl__budget_pages_leased(r)) /* the whole run's -n, which the bridge reads */
    return crawl__budget_pages_final(r);
  return max_pages >= 0 && crawl__budget_pages_started(r) >= max_pages;
}
