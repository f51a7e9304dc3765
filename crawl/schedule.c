/* Scheduling: which queued item starts next, within -c, --rate, -n and each host's politeness,
 * and when the shard has nothing left to do. */
#include "crawl/budget.h"
#include "crawl/life.h"
#include "crawl/depthcut.h"
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/intake.h"
#include "crawl/mail.h"
#include "crawl/notes.h"
#include "crawl/report.h"
#include "crawl/request.h"
#include "crawl/saved.h"
#include "crawl/schedule.h"
#include "crawl/seed.h"
#include "crawl/sitefiles.h"
#include "crawl/speculate.h"

#include <string.h>

static void release_page(struct shard *c, const struct frontier_item *item);

/* -n with --cluster: a page waits while this process has no page leased and the run may still
 * lease it one (another process may give back what it will not use). */
static bool wait_for_lease(struct shard *c, frontier_host *fh, struct frontier_item *item) {
  if (!crawl__budget_pages_leased(c->run) || crawl__budget_pages_final(c->run) ||
      crawl__budget_lease_left(c->run) > 0)
    return false;
  frontier_cancel(c->fr, fh, item);
  release_page(c, item); /* and pending again once pushed back */
  item->not_before = core_now() + LEASE_WAIT;
  frontier_push(c->fr, fh, item);
  return true;
}

/* A popped page settled here, without a request: it no longer holds its depth. */
static void release_page(struct shard *c, const struct frontier_item *item) {
  if (item->kind == FRONTIER_PAGE)
    frontier_release(c->fr, item->depth);
}

static void start_page(struct shard *c, frontier_host *fh, struct frontier_item *item) {
  struct host_data *hd = frontier_host_data(fh);
  const struct crawl_config *cfg = c->cfg;
  if (hd->dead) {
    frontier_cancel(c->fr, fh, item);
    release_page(c, item);
    char why[HOST_DNS_ERROR_MAX];
    crawl__report_item(c, item, CRAWL_FATE_FAILED, CRAWL_CAUSE_DNS,
                       crawl__host_dns_error(hd->dead, why, sizeof(why)));
    frontier_item_free(item);
    return;
  }
  if (item->kind == FRONTIER_PAGE && wait_for_lease(c, fh, item))
    return;
  /* -n and --max-pages-per-host count pages: a sitemap is never one of them, and is of no use
   * once no page may be fetched */
  bool page = item->kind == FRONTIER_PAGE;
  if (crawl__budget_pages_exhausted(c->run, c->cfg->max_pages) ||
      (page && cfg->max_pages_per_host >= 0 && hd->pages_started >= cfg->max_pages_per_host)) {
    frontier_cancel(c->fr, fh, item);
    release_page(c, item);
    crawl__intake_settle_over_limit(c, hd, item);
    return;
  }
  if (cfg->robots && hd->robots_state == ROBOTS_KNOWN)
    (void)crawl__host_rules(c, hd); /* rules an idle spell put on disk, back before they decide */
  if (cfg->robots && hd->robots_state != ROBOTS_PENDING &&
      crawl__host_robots_stale(hd, core_now())) {
    /* the cached robots.txt is too old: fetch it again before this page, which waits behind */
    frontier_cancel(c->fr, fh, item);
    release_page(c, item); /* and pending again once pushed back */
    hd->robots_state = ROBOTS_PENDING;
    hd->robots_attempts = 0;
    if (crawl__host_queue_robots(c, fh, 0))
      frontier_push(c->fr, fh, item);
    else
      frontier_item_free(item);
    return;
  }
  struct request *rq = crawl__request_new(c, fh, item);
  if (rq && (item->flags & ITEM_SPEC) && (rq->spec = crawl__speculate_find(c, item->url)))
    rq->spec->rq = rq;
  core_rc rc =
      rq ? url_resolve(NULL, item->url, strlen(item->url), SIZE_MAX / 4, &rq->url) : CORE_ENOMEM;
  if (rc) {
    frontier_cancel(c->fr, fh, item);
    if (rc == CORE_ENOMEM) {
      crawl__notes_fatal(c, "out of memory");
    } else {
      /* a printed URL always parses again (fuzzed); should one not, it fails alone */
      crawl__report_item(c, item, CRAWL_FATE_FAILED, CRAWL_CAUSE_OTHER, "unusable URL");
    }
    if (rq) {
      crawl__request_free(rq);
    } else {
      release_page(c, item);
      frontier_item_free(item);
    }
    return;
  }
  const char *path = rq->url.text + rq->url.path_off;
  if (hd->robots_state == ROBOTS_DISALLOW_ALL) {
    /* not a rule: the host's robots.txt could not be fetched, which is a failure to report */
    frontier_cancel(c->fr, fh, item);
    crawl__report_item(c, item, CRAWL_FATE_FAILED, hd->robots_cause, hd->robots_error);
    crawl__request_free(rq);
    return;
  }
  bool allowed;
  if (parse_robots_check(hd->robots, path, &allowed) != CORE_OK) {
    frontier_cancel(c->fr, fh, item); /* as any lack of memory here: the crawl ends */
    crawl__notes_fatal(c, "out of memory");
    crawl__request_free(rq);
    return;
  }
  if (!allowed) {
    frontier_cancel(c->fr, fh, item);
    crawl__report_item(c, item, CRAWL_FATE_ROBOTS, 0, NULL);
    crawl__request_free(rq);
    return;
  }
  if (page && !crawl__budget_take_page(c->run, cfg->max_pages)) {
    /* another shard took the last page -n allowed (or leased) since the check above */
    frontier_cancel(c->fr, fh, item);
    if (!crawl__budget_pages_exhausted(
            c->run, c->cfg->max_pages)) { /* --cluster: it waits for the next lease */
      rq->item = NULL;
      crawl__request_free(rq); /* its depth is no longer pending ... */
      item->not_before = core_now() + LEASE_WAIT;
      frontier_push(c->fr, fh, item); /* ... until pushed back */
      return;
    }
    crawl__saved_leave(c, item);
    crawl__report_item(c, item, CRAWL_FATE_LIMIT, 0, NULL);
    crawl__request_free(rq);
    return;
  }
  if (page)
    hd->pages_started++;
  crawl__request_start(c, rq);
}

static void pop_and_start(struct shard *c);

static bool idle(const struct shard *c) {
  return !crawl__seed_waiting(c) && crawl__request_in_flight(c) == 0 &&
         crawl__host_lookups(c) == 0 && frontier_queued(c->fr) == 0;
}

/* Whether replay_held has links to offer now. */
static bool replay_due(const struct shard *c) {
  return crawl__held_pages(c) && (crawl__held_min(c) <= frontier_gate(c->fr) || idle(c));
}

void crawl__schedule(struct shard *c) {
  /* pages settled without a request (robots.txt rules, limits) can move the gate or leave the
   * crawl idle: their held links are offered in the same turn, not after a wait */
  for (int round = 0; round < 8; round++) {
    crawl__seed_feed(c);
    pop_and_start(c);
    if (crawl__life_stop(c) || crawl__life_fatal(c) || !replay_due(c))
      break;
  }
  if (crawl__depthcut_pending(c) && frontier_gate(c->fr) > c->cfg->depth)
    crawl__depthcut_settle(c);
  if (frontier_error(c->fr) != CORE_OK)
    crawl__notes_fatal(c, "cannot read queued URLs back from their temporary file: %s",
                       core_rc_str(frontier_error(c->fr)));
}

/* Offers the held links whose level has come, then starts what the frontier has ready. */
static void pop_and_start(struct shard *c) {
  double now = core_now();
  /* -n across processes reached: what pages fetched ahead found goes to its owners now, while
   * every process still runs (see finished) */
  crawl__intake_replay_held(
      c, (idle(c) && !crawl__mail_shared(c)) ||
             (crawl__budget_pages_leased(c->run) && crawl__budget_pages_final(c->run)));
  /* a burst of queries overflows a resolver's socket, and each lost one costs a timeout: at most
   * the shard's bound of lookups run at once, and those past it wait in the frontier, out of
   * turn, until one in flight ends */
  size_t lookups = crawl__host_lookups(c), lookups_max = crawl__budget_lookups_max(c);
  frontier_set_lookup_slots(c->fr, lookups < lookups_max ? lookups_max - lookups : 0, now);
  /* a slot of -c (shared by the shards) is held for each item popped, and kept by the request
   * it starts */
  while (!crawl__life_stop(c) && crawl__budget_take_slot(c->run, c->cfg->concurrency)) {
    crawl__request_hold_slot(c);
    /* --rate: a turn is taken before the pop (so no item goes back to its queue out of order)
     * and given back when what was popped makes no request */
    double rate_next;
    if (!crawl__budget_take_rate(c->run, now, &rate_next)) {
      crawl__request_give_slot_back(c);
      break;
    }
    frontier_host *fh;
    struct frontier_item *item = frontier_pop(c->fr, now, &fh);
    if (!item || item->kind == FRONTIER_RESOLVE)
      crawl__budget_give_rate(c->run, rate_next);
    if (!item) {
      crawl__request_give_slot_back(c);
      break;
    }
    switch (item->kind) {
      case FRONTIER_RESOLVE:
        if (crawl__budget_pages_exhausted(
                c->run, c->cfg->max_pages)) { /* no page of it will be fetched: its pages settle */
          frontier_cancel(c->fr, fh, item);
          frontier_item_free(item);
        } else if (!crawl__host_lookup_room(c)) {
          /* the frontier popped past the bound (its queue of waiting hosts could not grow):
           * the lookup tries again in a moment */
          frontier_cancel(c->fr, fh, item);
          item->not_before = now + 0.005;
          frontier_push(c->fr, fh, item);
        } else {
          crawl__host_start_lookup(c, fh, item);
        }
        break;
      case FRONTIER_ROBOTS:
        if (crawl__budget_pages_exhausted(c->run, c->cfg->max_pages)) {
          frontier_cancel(c->fr, fh, item);
          frontier_item_free(item);
        } else {
          crawl__sitefiles_start_robots(c, fh, item);
        }
        break;
      case FRONTIER_PAGE:
      case FRONTIER_SITEMAP:
        start_page(c, fh, item);
        break;
    }
    crawl__request_give_slot_back(c); /* no request began: a lookup, or settled without one */
  }
}

bool crawl__schedule_finished(const struct shard *c) {
  if (crawl__life_stop(c) == STOP_NOW)
    return true;
  if (crawl__request_in_flight(c))
    return false;
  if (crawl__life_stop(c))
    return true;
  if (crawl__budget_pages_exhausted(
          c->run, c->cfg->max_pages)) /* with --cluster, once the links held back went their way */
    return !crawl__budget_pages_leased(c->run) || !crawl__held_pages(c);
  return !crawl__seed_waiting(c) && frontier_queued(c->fr) == 0 && crawl__host_lookups(c) == 0 &&
         !crawl__held_pages(c);
}
