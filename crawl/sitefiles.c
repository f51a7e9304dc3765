/* Files a site keeps for crawlers: robots.txt (RFC 9309), fetched before anything else on a
 * host and obeyed, and with --sitemaps its sitemaps (sitemaps.org), whose entries are seeds. */
#include "crawl/host.h"
#include "crawl/life.h"
#include "crawl/intake.h"
#include "crawl/notes.h"
#include "crawl/request.h"
#include "crawl/sitefiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- robots.txt ---- */

static bool robots_head(void *arg, const struct fetch_head *head) {
  struct request *rq = arg;
  rq->status = head->status;
  return head->status >= 200 && head->status < 300;
}

static void robots_body(void *arg, const char *data, size_t len) {
  struct request *rq = arg;
  /* RFC 9309 2.5: parse at least the first 500 KiB; the rest is ignored */
  size_t room = rq->body.max - rq->body.len;
  /* rules cut short would allow what the rest disallows: the crawl ends instead */
  if (core_buf_add(&rq->body, data, len < room ? len : room) != CORE_OK)
    crawl__notes_fatal(rq->shard, "out of memory");
}

/* 5xx, a network error or too many redirects: everything is disallowed until a retry succeeds.
 * After the last retry the host's pages fail with the cause, which names robots.txt. */
static void robots_unavailable(struct shard *c, struct request *rq, crawl_cause cause,
                               const char *why, double retry_after) {
  struct host_data *hd = frontier_host_data(rq->host);
  if (hd->robots_attempts < c->cfg->retries && !crawl__life_stop(c) &&
      !crawl__request_retry_after_too_long(c, rq->host, retry_after)) {
    hd->robots_attempts++;
    c->stats->retries++;
    crawl__host_queue_robots(
        c, rq->host, crawl__request_retry_at(c, rq->host, hd->robots_attempts, retry_after));
    return;
  }
  hd->robots_state = ROBOTS_DISALLOW_ALL;
  hd->robots_cause = cause;
  free(hd->robots_error);
  if (asprintf(&hd->robots_error, "robots.txt: %s", why) < 0)
    hd->robots_error = NULL; /* out of memory: its pages fail with no error text */
}

static void robots_done(void *arg, const struct fetch_result *res) {
  struct request *rq = arg;
  struct shard *c = rq->shard;
  struct host_data *hd = frontier_host_data(rq->host);
  crawl__request_ended(c);
  if (res->error == FETCH_ENOMEM ||
      crawl__life_stop(c) == STOP_NOW) { /* the crawl ends (robots_body's
                                          * lack of memory, say) */
    if (res->error == FETCH_ENOMEM)
      crawl__notes_fatal(c, "out of memory");
    frontier_end(c->fr, rq->host, rq->item, core_now(), res->seconds);
    crawl__request_free(rq);
    return;
  }
  bool was_pending = hd->robots_state == ROBOTS_PENDING;
  long status = res->head.status;
  char why[96];
  if (res->error == FETCH_OK) /* its status says what it means: 404 allows all, 5xx and 429 none */
    crawl__notes_verbose(c, "%s -> HTTP %ld, %llu B", rq->item->url, res->head.status,
                         (unsigned long long)res->bytes);
  else
    crawl__notes_verbose(c, "%s -> %s", rq->item->url, res->error_text);
  if (res->error != FETCH_OK) {
    robots_unavailable(c, rq, crawl__request_cause_of(res->error), res->error_text, -1);
  } else if (status >= 500 || status < 100 || status == 429) {
    /* unreachable (RFC 9309 2.3.1.4); 429 too, though a 4xx: the server asks for fewer
     * requests, and allowing everything then would answer it with more */
    crawl__request_http_error(c, status, res->head.retry_after, why, sizeof(why));
    robots_unavailable(c, rq, CRAWL_CAUSE_HTTP, why, res->head.retry_after);
  } else if (status >= 300 && status < 400 && res->head.location) {
    /* RFC 9309 2.3.1.2: follow at least five redirects, possibly to another host */
    struct url next;
    core_rc resolved = CORE_OK;
    if (rq->item->redirects >= 5) {
      robots_unavailable(c, rq, CRAWL_CAUSE_OTHER, "too many redirects", -1);
    } else if ((resolved = url_resolve(&rq->url, res->head.location, strlen(res->head.location),
                                       c->cfg->max_url_length, &next)) == CORE_ENOMEM) {
      crawl__notes_fatal(c, "out of memory"); /* not the host's robots.txt's fault */
    } else if (resolved != CORE_OK) {
      robots_unavailable(c, rq, CRAWL_CAUSE_OTHER, "unusable redirect", -1);
    } else {
      struct frontier_item *hop = frontier_item_new(FRONTIER_ROBOTS, next.text, NULL, 0);
      url_free(&next);
      if (!hop) {
        crawl__notes_fatal(c, "out of memory");
      } else {
        hop->redirects = rq->item->redirects + 1;
        frontier_push(c->fr, rq->host, hop);
      }
    }
  } else if (status < 200 || status >= 300) {
    /* 4xx, or a redirect with no Location (5xx and 429 went above): no robots.txt, all allowed,
     * whatever an earlier fetch of it said */
    crawl__host_set_rules(hd, NULL);
    hd->robots_state = ROBOTS_KNOWN;
  } else {
    parse_robots *robots;
    if (parse_robots_create(rq->body.data ? rq->body.data : "", rq->body.len, c->cfg->product_token,
                            &robots) != CORE_OK) {
      crawl__notes_fatal(c, "out of memory");
    } else {
      crawl__host_set_rules(hd, robots);
      hd->robots_state = ROBOTS_KNOWN;
      double delay = parse_robots_crawl_delay(robots);
      if (delay >= 0) /* the frontier caps it by --max-delay, where every gap is made */
        frontier_host_set_crawl_delay(rq->host, delay);
    }
  }
  if (hd->robots_state != ROBOTS_PENDING)
    hd->robots_time = core_now();
  if (was_pending && hd->robots_state == ROBOTS_KNOWN)
    crawl__host_queue_sitemaps(c, hd);
  /* the Sitemap lines are read: a host keeps its rules alone, shared with the hosts whose rules
   * are the same (doc/design.md, Memory) */
  hd->robots = parse_robots_without_sitemaps(hd->robots);
  crawl__host_share_rules(c, hd);
  /* only now: the gap to the host's next request follows the Crawl-delay just read */
  frontier_end(c->fr, rq->host, rq->item, core_now(), res->seconds);
  crawl__request_free(rq);
}

const struct fetch_handler crawl__sitefiles_robots_handler = {robots_head, robots_body,
                                                              robots_done};

void crawl__sitefiles_start_robots(struct shard *c, frontier_host *fh, struct frontier_item *item) {
  struct request *rq = crawl__request_new(c, fh, item);
  if (!rq) {
    frontier_cancel(c->fr, fh, item);
    frontier_item_free(item);
    crawl__notes_fatal(c, "out of memory");
    return;
  }
  if (url_resolve(NULL, item->url, strlen(item->url), SIZE_MAX / 4, &rq->url) != CORE_OK) {
    /* a redirect to something we cannot fetch counts as unreachable */
    crawl__request_began(c);
    crawl__request_failed_to_start(rq, FETCH_EOTHER, "unusable redirect");
    return;
  }
  crawl__request_start(c, rq);
}

/* ---- sitemaps ---- */

/* An entry is a seed (depth 0) found on the sitemap; an index entry is one more sitemap. */
static void on_sitemap_entry(void *arg, parse_sitemap_event event, const char *loc) {
  struct request *rq = arg;
  struct shard *c = rq->shard;
  if (crawl__life_stop(c) == STOP_NOW)
    return;
  if (event == PARSE_SITEMAP_INDEX) /* one level below the index */
    crawl__host_queue_sitemap(c, &rq->url, loc, rq->item->depth + 1);
  else
    crawl__intake_offer_link(rq, &rq->url, loc, strlen(loc), NULL, 0,
                             (struct link_how){VIA_SITEMAP, true});
}

static bool sitemap_head(void *arg, const struct fetch_head *head) {
  struct request *rq = arg;
  rq->status = head->status;
  if (head->status < 200 || head->status >= 300)
    return false;
  core_rc rc = parse_sitemap_create(on_sitemap_entry, rq, &rq->sitemap);
  if (rc != CORE_OK) {
    rq->sitemap = NULL;
    if (rc == CORE_ENOMEM) /* its entries would be lost without a word: the crawl ends */
      crawl__notes_fatal(rq->shard, "out of memory");
    return false;
  }
  return true;
}

static void sitemap_body(void *arg, const char *data, size_t len) {
  struct request *rq = arg;
  if (!rq->sitemap)
    return;
  core_rc rc = parse_sitemap_feed(rq->sitemap, data, len);
  crawl__intake_flush(rq);
  if (rc == CORE_ENOMEM) {
    crawl__notes_fatal(rq->shard, "out of memory"); /* its entries would be lost: the crawl ends */
    parse_sitemap_destroy(rq->sitemap);
    rq->sitemap = NULL;
  } else if (rc == CORE_EFORMAT) {
    crawl__notes_verbose(rq->shard, "%s: corrupt gzip data", rq->item->url);
    parse_sitemap_destroy(rq->sitemap); /* entries before the damage were kept */
    rq->sitemap = NULL;
  }
}

static void sitemap_done(void *arg, const struct fetch_result *res) {
  struct request *rq = arg;
  struct shard *c = rq->shard;
  crawl__request_ended(c);
  frontier_end(c->fr, rq->host, rq->item, core_now(), res->seconds);
  if (res->error == FETCH_ENOMEM) /* ends the crawl at once: the sitemap is asked again */
    crawl__notes_fatal(c, "out of memory");
  if (crawl__request_cut_short(rq))
    return;
  if (res->error != FETCH_OK) {
    if (!(crawl__request_transient_error(res->error) && crawl__request_retry(c, rq, -1)))
      crawl__notes_verbose(c, "%s: %s", rq->item->url, res->error_text);
    crawl__request_free(rq);
    return;
  }
  c->stats->pages++;
  c->stats->bytes += res->bytes;
  if (crawl__request_transient_status(res->head.status) &&
      crawl__request_retry(c, rq, res->head.retry_after)) {
    crawl__request_free(rq);
    return;
  }
  if (rq->sitemap) {
    if (parse_sitemap_finish(rq->sitemap) == CORE_ENOMEM)
      crawl__notes_fatal(c, "out of memory");
    crawl__intake_flush(rq);
    int line = 0;
    const char *why = parse_sitemap_error(rq->sitemap, &line);
    const char *cut = parse_sitemap_truncated(rq->sitemap) ? " (cut at the protocol's limits)" : "";
    if (why) /* the entries before the error are kept (doc/behaviour.md, Sitemaps) */
      crawl__notes_verbose(c, "%s -> %zu entries%s; not well-formed XML, line %d: %s",
                           rq->item->url, parse_sitemap_count(rq->sitemap), cut, line, why);
    else
      crawl__notes_verbose(c, "%s -> %zu entries%s", rq->item->url,
                           parse_sitemap_count(rq->sitemap), cut);
  } else {
    crawl__notes_verbose(c, "%s -> %ld", rq->item->url, res->head.status);
  }
  crawl__request_free(rq);
}

const struct fetch_handler crawl__sitefiles_sitemap_handler = {sitemap_head, sitemap_body,
                                                               sitemap_done};
