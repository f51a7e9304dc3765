/* crawl/request.c: requests: made, started once the address is known, retried, their failures given
 * a cause. What it offers the other files of the engine. */
#ifndef CRAWL_REQUEST_H
#define CRAWL_REQUEST_H

#include "crawl/crawl-int.h"

/* When the next try of a transient failure may start: the backoff for its attempts, or the
 * server's Retry-After (seconds, < 0 for none; at most --max-delay, see below) when longer, which
 * also holds back the whole host. */
double crawl__request_retry_at(struct shard *c, frontier_host *host, int attempts,
                               double retry_after);
/* Whether a Retry-After (seconds, < 0 for none) asks for longer than --max-delay: then the
 * request is not tried again (its host waits --max-delay). */
bool crawl__request_retry_after_too_long(struct shard *c, frontier_host *host, double retry_after);
/* A failed response's error: "HTTP 503", or with a Retry-After past --max-delay, which is why it
 * was not tried again, "HTTP 503, Retry-After 120 s beyond --max-delay". */
void crawl__request_http_error(const struct shard *c, long status, double retry_after, char *out,
                               size_t size);
/* A request for item on host; it takes ownership of item. Freed with crawl__request_free. */
struct request *crawl__request_new(struct shard *c, frontier_host *host,
                                   struct frontier_item *item);
void crawl__request_free(struct request *rq);
void crawl__request_start(struct shard *c, struct request *rq);
crawl_cause crawl__request_cause_of(fetch_error error);
/* DNS, connection and timeouts: retried under --retries (doc/behaviour.md, Failures). */
bool crawl__request_transient_error(fetch_error error);
/* Puts a request's item back at the end of its host queue after a transient failure, or returns
 * false when its retries are spent. */
bool crawl__request_retry(struct shard *c, struct request *rq, double retry_after);
bool crawl__request_transient_status(long status);
/* The shard's requests: made ready before any request, let go at its close, when every request
 * has been freed. */
core_rc crawl__request_open(struct shard *c);
void crawl__request_close(struct shard *c);
/* Where the shard's pages take their HTML parsers from (page.c). */
parse_html_pool *crawl__request_html_pool(const struct shard *c);
/* The requests in flight after rq (NULL: the first); NULL after the last. */
struct request *crawl__request_next(const struct shard *c, const struct request *rq);
size_t crawl__request_in_flight(const struct shard *c);
/* A slot of -c taken by the scheduler for the item it pops: the request that item begins takes it
 * over; when none does, give_slot_back returns it to the run's budget. */
void crawl__request_hold_slot(struct shard *c);
void crawl__request_give_slot_back(struct shard *c);
/* Grows rq's share of the room its shard's long pages may hold whole (room bytes for all, page.c)
 * to want bytes; false, with its share given back, when the room has not that much left. */
bool crawl__request_hold_long(struct request *rq, size_t want, size_t room);
/* A request began (it takes the slot crawl__request_hold_slot holds) or ended. */
void crawl__request_began(struct shard *c);
void crawl__request_ended(struct shard *c);
/* At a transfer's end: whether the crawl stops at once, the request then left cut short. */
bool crawl__request_cut_short(struct request *rq);
/* Ends rq through its handler as a transfer that failed with error before any response. */
void crawl__request_failed_to_start(struct request *rq, fetch_error error, const char *why);

#endif
