/* crawl/intake.c: the intake: every URL found, admitted, checked against the seen filter and
 * settled. What it offers the other files of the engine. */
#ifndef CRAWL_INTAKE_H
#define CRAWL_INTAKE_H

#include "crawl/crawl-int.h"

/* Resolves href (found in rq's page, encoded in charset, NULL for UTF-8) against base and holds
 * the result in rq's batch: call crawl__intake_flush after each chunk parsed. Each link is
 * then printed when new and in scope, and queued or given its fate. */
void crawl__intake_offer_link(struct request *rq, const struct url *base, const char *href,
                              size_t len, const char *charset, int depth, struct link_how how);
void crawl__intake_flush(struct request *rq);
/* An admitted URL this shard owns, after its journey (see offer). */
void crawl__intake_offer_owned(struct shard *c, const struct url *u, const char *from, int depth,
                               int redirects, enum offer_kind kind, struct link_how how);
/* The crawl_take_fn of every shard. */
void crawl__intake_take_owned(struct shard *c, enum link_kind kind, const struct url *u,
                              const char *page, int depth, int redirects, struct link_how how);
extern const struct link_how crawl__intake_seed_how; /* how a seed is found: VIA_SEED, followed */
/* Whether a URL found (not a seed) passes the scope and the user's filters. */
bool crawl__intake_admitted(const struct shard *c, const struct url *u, enum offer_kind kind);
/* -A: whether a URL is printed and recorded (in scope or out of it). */
bool crawl__intake_printable(const struct shard *c, const struct url *u);
/* A URL found, this shard's or another's: another shard's goes to it, which decides. */
void crawl__intake_offer(struct shard *c, const struct url *u, const char *from, int depth,
                         int redirects, enum offer_kind kind, struct link_how how);
/* An owned URL the seen filter has answered for (fresh: new to it): printed and queued, or given
 * its fate at once. */
void crawl__intake_settle(struct shard *c, const struct url *u, bool fresh, const char *from,
                          int depth, int redirects, enum offer_kind kind, struct link_how how);
/* Resolves href against base into *u (the caller frees it); false, with the reason counted, when
 * it is no link to follow. */
bool crawl__intake_resolve_href(struct shard *c, const struct url *base, const char *href,
                                size_t len, const char *charset, const char *from, struct url *u);
/* The fate of a queued page settled without a request: robots when its host's robots.txt, at hand,
 * excludes it, else fate. */
crawl_fate crawl__intake_unfetched_fate(struct shard *c, struct host_data *hd,
                                        const struct frontier_item *item, crawl_fate fate);
/* A page a limit keeps from being fetched (hd NULL: its host was never made): its record, and
 * left for a later run. Frees item. */
void crawl__intake_settle_over_limit(struct shard *c, struct host_data *hd,
                                     struct frontier_item *item);

/* Offers the links of pages done ahead of their level once it has come (all: every one). */
void crawl__intake_replay_held(struct shard *c, bool all);

#endif
