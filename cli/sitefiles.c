/* Files a site keeps for crawlers: robots.txt (RFC 9309), fetched before anything else on a
 * host and obeyed. */
#include "cli/crawl-int.h"

#include <math.h>
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
  core_buf_add(&rq->body, data, len < room ? len : room);
}

/* 5xx, a network error or too many redirects: everything is disallowed until a retry succeeds. */
static void robots_unavailable(struct crawl *c, struct request *rq) {
  struct host_data *hd = frontier_host_data(rq->host);
  struct frontier_item *item = rq->item;
  if (hd->robots_attempts < c->cfg->retries && !c->stop) {
    hd->robots_attempts++;
    c->stats->retries++;
    char url[1100];
    snprintf(url, sizeof(url), "%s/robots.txt", frontier_host_origin(rq->host));
    struct frontier_item *again = frontier_item_new(FRONTIER_ROBOTS, url, NULL, 0);
    if (!again) {
      cli__fatal(c, "out of memory");
      return;
    }
    again->not_before = core_now() + cli__backoff(c->cfg, hd->robots_attempts);
    frontier_push(c->fr, rq->host, again);
    return;
  }
  (void)item;
  hd->robots_state = ROBOTS_DISALLOW_ALL;
}

static void robots_done(void *arg, const struct fetch_result *res) {
  struct request *rq = arg;
  struct crawl *c = rq->crawl;
  struct host_data *hd = frontier_host_data(rq->host);
  c->requests_in_flight--;
  frontier_end(c->fr, rq->host, FRONTIER_ROBOTS, core_now(), res->seconds);
  long status = res->head.status;
  cli__note(c, "%s -> %s", rq->item->url, res->error == FETCH_OK ? "received" : res->error_text);
  if (res->error != FETCH_OK || status >= 500 || status < 100) {
    robots_unavailable(c, rq);
  } else if (status >= 300 && status < 400 && res->head.location) {
    /* RFC 9309 2.3.1.2: follow at least five redirects, possibly to another host */
    struct core_url next;
    if (rq->item->redirects >= 5 ||
        core_url_resolve(&rq->url, res->head.location, strlen(res->head.location),
                         c->cfg->max_url_length, &next) != CORE_OK) {
      robots_unavailable(c, rq);
    } else {
      struct frontier_item *hop = frontier_item_new(FRONTIER_ROBOTS, next.text, NULL, 0);
      core_url_free(&next);
      if (!hop) {
        cli__fatal(c, "out of memory");
      } else {
        hop->redirects = rq->item->redirects + 1;
        frontier_push(c->fr, rq->host, hop);
      }
    }
  } else if (status >= 400 || status < 200 || status >= 300) {
    hd->robots_state = ROBOTS_KNOWN; /* 4xx: no robots.txt, everything is allowed */
  } else {
    parse_robots *robots;
    if (parse_robots_create(rq->body.data ? rq->body.data : "", rq->body.len, c->cfg->product_token,
                            &robots) != CORE_OK) {
      cli__fatal(c, "out of memory");
    } else {
      parse_robots_destroy(hd->robots);
      hd->robots = robots;
      hd->robots_state = ROBOTS_KNOWN;
      double delay = parse_robots_crawl_delay(robots);
      if (delay >= 0)
        frontier_host_set_crawl_delay(rq->host, fmin(delay, c->cfg->max_delay));
    }
  }
  cli__request_free(rq);
}

const struct fetch_handler cli__robots_handler = {robots_head, robots_body, robots_done};

void cli__start_robots(struct crawl *c, frontier_host *fh, struct frontier_item *item) {
  struct request *rq = cli__request_new(c, fh, item);
  if (!rq) {
    frontier_cancel(c->fr, fh, FRONTIER_ROBOTS);
    frontier_item_free(item);
    cli__fatal(c, "out of memory");
    return;
  }
  if (core_url_resolve(NULL, item->url, strlen(item->url), SIZE_MAX / 4, &rq->url) != CORE_OK) {
    /* a redirect to something we cannot fetch counts as unreachable */
    c->requests_in_flight++;
    cli__request_failed_to_start(rq, "unusable robots.txt redirect");
    return;
  }
  cli__start_request(c, rq);
}
