/* A shard for the engine's unit programs (tests/crawl/): what run.c gives a shard before it opens
 * (its configuration, its sink, its counters, a run of one shard and room for its fatal error),
 * and what the programs read back (the records the sink was handed, the pages queued). */
#ifndef TESTS_CRAWL_WORLD_H
#define TESTS_CRAWL_WORLD_H

#include "crawl/crawl-int.h"
#include "crawl/depthcut.h"
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/intake.h"
#include "crawl/mesh.h"
#include "crawl/report.h"
#include "crawl/speculate.h"
#include "crawl/stash.h"

#include <stdlib.h>

struct world_base {
  struct crawl_config cfg;
  struct crawl_sink sink;
  struct crawl_stats stats;
  struct crawl *run;
  struct shard shard;
  char err[256];
};
/* Wires base's shard to its configuration, sink (whose writer is writer), counters, error and a
 * run of one shard (crawl__mesh_create); the caller sets the configuration and the sink. */
void world_base_open(struct world_base *base, void *writer);
/* Lets the run go and the broken links the counters list, once the shard met no fatal error. */
void world_base_close(struct world_base *base);

/* The engine's parts below the intake, made as run.c and shard.c make them: a frontier of opts
 * over seen (NULL: its own), the hosts and the held links, and the shard attached to its run with
 * take (a program that fetches ahead calls crawl__speculate_prepare next). Inline, so that a
 * program that uses neither links none of those files. */
static inline void world_parts_open(struct shard *c, const struct frontier_options *opts,
                                    seen_filter *seen, crawl_take_fn *take) {
  struct frontier_options with_hosts = *opts; /* each host carries the crawl's data (shard.c) */
  with_hosts.host_data_size = sizeof(struct host_data);
  if (frontier_create(&with_hosts, seen, crawl__host_release, &c->fr) != CORE_OK ||
      crawl__host_open(c) != CORE_OK)
    abort();
  crawl__held_prepare(c);
  crawl__mesh_attach(c->run, 0, c, take);
}
/* Lets them go (a program that fetches ahead calls crawl__speculate_close and crawl__stash_close
 * first): what is still held, the depth cut, the hosts and the frontier. */
static inline void world_parts_close(struct shard *c) {
  struct held_page *hp;
  while ((hp = crawl__held_take(c)))
    crawl__held_free(c, hp);
  crawl__held_free_all(c);
  crawl__depthcut_close(c);
  crawl__host_close(c);
  frontier_destroy(c->fr);
}

/* The parts a page's links meet, as a shard has them: world_parts_open with the intake taking
 * the links that reach their owner, fetching ahead prepared and the held links replayed once
 * (how far ahead pages may start); and their close (fetching ahead's entries may hold held
 * pages: they go first). */
static inline void world_intake_open(struct shard *c, const struct frontier_options *opts,
                                     seen_filter *seen) {
  world_parts_open(c, opts, seen, crawl__intake_take_owned);
  crawl__speculate_prepare(c);
  crawl__held_replayed(c);
}
static inline void world_intake_close(struct shard *c) {
  crawl__speculate_close(c);
  crawl__stash_close(c);
  world_parts_close(c);
}

/* A page fetched ahead of its level (queued by crawl__speculate_consider), as request.c fetches
 * one: taken from its host's queue, reported fetched (a 301 to redirect, kept, when given; else a
 * 200 of HTML), its links (NULL-ended; NULL: it found none, and so holds no page of links) held at
 * the next level, found by how, and its request ended. Inline: only a program that fetches ahead
 * links report.c and speculate.c. */
static inline void world_fetch_ahead(struct shard *c, const char *url, const char *const *links,
                                     const char *redirect, struct link_how how) {
  struct spec *e = crawl__speculate_find(c, url);
  if (!e)
    abort();
  struct request rq = {.shard = c, .spec = e, .host = e->host};
  if (!(rq.item = frontier_take_deeper(c->fr, e->host, url, -1)))
    abort();
  rq.gate_depth = rq.item->depth;
  int depth = rq.gate_depth;
  size_t pending = frontier_pending(c->fr, depth);
  frontier_hold(c->fr, rq.gate_depth); /* popped: pending at its depth until released */
  e->rq = &rq;
  struct crawl_record rec = {.url = url,
                             .depth = rq.item->depth,
                             .fate = CRAWL_FATE_FETCHED,
                             .status = redirect ? 301 : 200,
                             .type = "text/html",
                             .bytes = 512,
                             .location = redirect};
  crawl__report(c, rq.item->flags, &rec);
  if (redirect)
    crawl__speculate_keep_redirect(c, url, redirect, 1, (struct link_how){VIA_REDIRECT, true});
  if (links) {
    rq.held = crawl__held_new(c, url, rq.gate_depth);
    for (size_t i = 0; links[i]; i++)
      crawl__held_add(c, rq.held, links[i], rq.gate_depth + 1, how);
    crawl__held_seal(rq.held);
  }
  crawl__speculate_request_ended(c, &rq);
  /* its links went with its entry, and its depth was released */
  if (rq.held || rq.gate_depth != -1 || frontier_pending(c->fr, depth) != pending)
    abort();
  frontier_item_free(rq.item);
}

/* seed.c's hook (hooks.seed_found) for a program without seeds: no link is a seed not offered
 * yet. */
bool world_no_seed_found(struct shard *c, const struct url *u);

/* The shard's filters: a scope of the hosts named (NULL-ended) and an exact seen filter; let go
 * of by world_filters_close. */
void world_filters_open(struct shard *c, const char *const *hosts);
void world_filters_close(struct shard *c);

/* report.c's hooks as run.c hands them over, for programs without referrers.c: a failed URL's
 * record is written at once; a speculative page's record goes to its entry (inline: only a
 * program that links speculate.c uses it). */
bool world_failed_record_at_once(struct shard *c, const struct crawl_record *rec, unsigned flags);
static inline void world_spec_record(struct shard *c, const struct crawl_record *rec) {
  crawl__speculate_keep_record(c, rec);
}

/* A record as the sink was handed it, its strings copied ("-" for none). */
struct world_record {
  char url[128], from[128], via[32], type[64], error[128];
  int depth;
  long status;
  crawl_fate fate;
  crawl_cause cause;
};
void world_record_copy(struct world_record *r, const struct crawl_record *rec);
/* The records a sink was handed, in order, each copied; at most WORLD_RECORDS_MOST. */
enum { WORLD_RECORDS_MOST = 16 };
struct world_records {
  struct world_record at[WORLD_RECORDS_MOST];
  size_t count;
};
void world_records_add(struct world_records *list, const struct crawl_record *rec);
/* The record of url, or NULL. */
const struct world_record *world_records_find(const struct world_records *list, const char *url);

/* The pages queued in a frontier, in its order (lookups, robots.txt and sitemaps left out). */
enum { WORLD_QUEUED_MOST = 16 };
struct world_queued {
  char urls[WORLD_QUEUED_MOST][128], from[WORLD_QUEUED_MOST][128];
  int depth[WORLD_QUEUED_MOST];
  unsigned flags[WORLD_QUEUED_MOST];
  size_t count;
};
struct world_queued world_queued_pages(frontier *f);
/* The index of url among q's pages (hosts are visited in no set order), or -1. */
int world_queued_at(const struct world_queued *q, const char *url);

#endif
