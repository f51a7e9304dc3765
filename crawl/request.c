/* Requests: made from a queued item, started once the host's address is known (refused when a
 * redirect would lead into a private address), retried with backoff, their failures given a
 * cause. */
#include "crawl/budget.h"
#include "crawl/life.h"
#include "crawl/fragments.h"
#include "crawl/held.h"
#include "crawl/host.h"
#include "crawl/intake.h"
#include "crawl/logins.h"
#include "crawl/referrers.h"
#include "crawl/request.h"
#include "crawl/speculate.h"

#include <arpa/inet.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A shard's requests in flight and what they hold together. */
struct shard_requests {
  struct request *active;     /* a list, newest first */
  size_t in_flight;           /* begun and not ended (crawl__request_began, _ended) */
  bool slot_held;             /* the scheduler holds a slot of -c for the item it pops */
  size_t long_held;           /* what their long pages hold whole (crawl__request_hold_long) */
  parse_html_pool *html_pool; /* their pages' parsers, kept from one page to the next */
};

core_rc crawl__request_open(struct shard *c) {
  struct shard_requests *r = calloc(1, sizeof(*r));
  if (!r)
    return CORE_ENOMEM;
  core_rc rc = parse_html_pool_create(&r->html_pool);
  if (rc != CORE_OK) {
    free(r);
    return rc;
  }
  c->requests = r;
  return CORE_OK;
}

void crawl__request_close(struct shard *c) {
  if (!c->requests)
    return;
  /* its requests were ended with the crawl (crawl__seed_settle_leftovers): every parser went
   * back to the pool */
  parse_html_pool_destroy(c->requests->html_pool);
  free(c->requests);
  c->requests = NULL;
}

parse_html_pool *crawl__request_html_pool(const struct shard *c) {
  return c->requests->html_pool;
}

struct request *crawl__request_next(const struct shard *c, const struct request *rq) {
  if (rq)
    return rq->next;
  return c->requests ? c->requests->active : NULL;
}

size_t crawl__request_in_flight(const struct shard *c) {
  return c->requests ? c->requests->in_flight : 0;
}

bool crawl__request_hold_long(struct request *rq, size_t want, size_t room) {
  struct shard_requests *r = rq->shard->requests;
  if (want <= room - r->long_held + rq->long_hold) {
    r->long_held += want - rq->long_hold;
    rq->long_hold = want;
    return true;
  }
  r->long_held -= rq->long_hold;
  rq->long_hold = 0;
  return false;
}

double crawl__request_retry_at(struct shard *c, frontier_host *host, int attempts,
                               double retry_after) {
  double now = core_now();
  double wait = crawl__host_backoff(c->cfg, attempts);
  if (retry_after >= 0) {
    /* the server asked the whole host to wait, not only this URL (never past --max-delay: the
     * callers give up on a longer wait, crawl__request_retry_after_too_long) */
    frontier_host_defer(c->fr, host, now + retry_after);
    wait = fmax(wait, retry_after);
  }
  return now + wait;
}

struct request *crawl__request_new(struct shard *c, frontier_host *host,
                                   struct frontier_item *item) {
  struct request *rq = calloc(1, sizeof(*rq));
  if (!rq)
    return NULL;
  rq->shard = c;
  rq->host = host;
  rq->item = item;
  rq->gate_depth = item->kind == FRONTIER_PAGE ? item->depth : -1;
  rq->addr_kind = URL_ADDR_NONE; /* until it is sent */
  core_buf_init(&rq->body, PARSE_ROBOTS_MAX_BYTES);
  rq->next = c->requests->active;
  if (rq->next)
    rq->next->prev = rq;
  c->requests->active = rq;
  return rq;
}

void crawl__request_free(struct request *rq) {
  struct shard *c = rq->shard;
  crawl__intake_flush(rq); /* empty unless a parser was cut short: its links still count */
  crawl__referrers_page_done(rq);
  if (rq->held)
    crawl__held_seal(rq->held);
  if (rq->spec)
    crawl__speculate_request_ended(c, rq);
  if (rq->held) { /* its depth stays pending until its links are offered */
    crawl__held_append(c, rq->held);
  } else if (rq->gate_depth >= 0) {
    frontier_release(c->fr, rq->gate_depth);
  }
  if (rq->prev)
    rq->prev->next = rq->next;
  else
    c->requests->active = rq->next;
  if (rq->next)
    rq->next->prev = rq->prev;
  parse_html_destroy(rq->html);
  free(rq->anchors.hash);
  crawl__fragments_hand_over(rq); /* the links its page had, whatever became of it */
  crawl__fragments_forget(rq);
  c->requests->long_held -= rq->long_hold;
  parse_css_destroy(rq->css);
  parse_js_destroy(rq->js);
  parse_sitemap_destroy(rq->sitemap);
  url_free(&rq->url);
  url_free(&rq->base);
  core_buf_free(&rq->body);
  frontier_item_free(rq->item);
  free(rq);
}

static const char *addr_kind_name(url_addr_kind kind) {
  switch (kind) {
    case URL_ADDR_PUBLIC:
      return "public";
    case URL_ADDR_PRIVATE:
      return "private";
    case URL_ADDR_LINK_LOCAL:
      return "link-local";
    case URL_ADDR_LOOPBACK:
      return "loopback";
    default:
      return "unknown";
  }
}

/* The kind of address of the host whose redirect led to rq (a robots.txt's hop: the host's own;
 * a robots.txt: the one that led to its host first; a page: the one its via keeps), or
 * URL_ADDR_NONE when rq is no redirect's or it is not known. */
static url_addr_kind redirected_from(const struct request *rq) {
  const struct frontier_item *item = rq->item;
  unsigned via = ITEM_VIA(item->flags);
  const struct host_data *hd = frontier_host_data(rq->host);
  if (item->kind == FRONTIER_ROBOTS && item->redirects > 0) {
    char literal[INET6_ADDRSTRLEN];
    const char *ip = hd->addr;
    if (hd->host_is_ip) { /* the host's name is its address */
      size_t len;
      const char *name = crawl__host_name(hd, &len);
      snprintf(literal, sizeof(literal), "%.*s", (int)len, name);
      ip = literal;
    }
    return ip ? url_addr_kind_of(ip) : URL_ADDR_NONE;
  }
  if (item->kind == FRONTIER_ROBOTS)
    return hd->redirected_from;
  if (item->kind == FRONTIER_PAGE && via >= VIA_REDIRECT && via < VIA_PAGE)
    return (url_addr_kind)(via - VIA_REDIRECT);
  return URL_ADDR_NONE;
}

/* A redirect into a machine's own networks (a private, link-local or loopback address) from a
 * host outside that kind of network is refused unless --allow-private (doc/network.md, Private
 * addresses): a public site cannot make the crawler ask a router, a cloud's metadata service or
 * a local admin page. */
static bool refused_inside(const struct request *rq, const char *ip, char *why, size_t size) {
  if (rq->shard->cfg->allow_private || rq->addr_kind == URL_ADDR_PUBLIC ||
      rq->addr_kind == URL_ADDR_NONE)
    return false;
  url_addr_kind from = redirected_from(rq);
  if (from == URL_ADDR_NONE || from == rq->addr_kind)
    return false;
  snprintf(why, size,
           "redirected from a %s address to the %s address %s (--allow-private allows it)",
           addr_kind_name(from), addr_kind_name(rq->addr_kind), ip);
  return true;
}

/* Whether rq follows a redirect to another origin than the one that sent it: it gets none of
 * the user's -H headers then (doc/network.md, Private addresses). */
static bool crosses_origin(const struct request *rq) {
  const struct frontier_item *item = rq->item;
  if (item->kind == FRONTIER_ROBOTS)
    return item->redirects > 0 && strcmp(rq->url.origin, frontier_host_origin(rq->host)) != 0;
  unsigned via = ITEM_VIA(item->flags);
  if (item->kind != FRONTIER_PAGE || via < VIA_REDIRECT || via >= VIA_PAGE || !item->from)
    return false;
  size_t n = strlen(rq->url.origin); /* a printed URL starts with its origin */
  return strncmp(item->from, rq->url.origin, n) != 0 || item->from[n] != '/';
}

/* Whether rq is its host's first page (counted as it was started, schedule.c). */
static bool first_page(const struct request *rq) {
  const struct host_data *hd = frontier_host_data(rq->host);
  return hd && hd->pages_started <= 1;
}

static void launch(struct request *rq, const char *addr) {
  struct shard *c = rq->shard;
  frontier_kind kind = rq->item->kind;
  const char *ip = rq->url.host_is_ip ? rq->url.host : addr;
  rq->addr_kind = ip ? url_addr_kind_of(ip) : URL_ADDR_NONE;
  char why[192];
  if (refused_inside(rq, ip, why, sizeof(why))) {
    crawl__request_failed_to_start(rq, FETCH_EOTHER, why);
    return;
  }
  struct fetch_request fr = {
      .url = rq->url.text,
      .host = rq->url.host,
      .port = rq->url.port,
      .addr = rq->url.host_is_ip ? NULL : addr,
      .max_size = kind == FRONTIER_ROBOTS    ? PARSE_ROBOTS_MAX_BYTES
                  : kind == FRONTIER_SITEMAP ? PARSE_SITEMAP_MAX_BYTES
                                             : c->cfg->max_size,
      .head_only = (rq->item->flags & (ITEM_HEAD | ITEM_GET)) == ITEM_HEAD,
      .no_user_headers = crosses_origin(rq),
      /* a host's last page closes its connection: kept, it would take the room of one that is
       * used again (the engine keeps few, doc/design.md, Connections). A host's first page
       * mostly links to its own: its connection is kept; so is one that other requests to the
       * host share (--per-host above 1: their pages' links come, and HTTP/2 runs them all as
       * streams of it, which a close would end for the next ones). */
      .more_for_host = frontier_host_has_queued(rq->host) ||
                       frontier_host_in_flight(rq->host) > 1 ||
                       (kind == FRONTIER_PAGE && first_page(rq)),
      .handler = rq->shard->hooks.handlers[kind],
      .arg = rq,
      .login = crawl__logins_for(c, rq->url.https, rq->url.host, rq->url.port),
  };
  core_rc rc = fetch_start(c->engine, &fr);
  if (rc == CORE_ENOMEM) /* the crawl ends, and the URL is kept (page_done) */
    crawl__request_failed_to_start(rq, FETCH_ENOMEM, "out of memory");
  else if (rc != CORE_OK)
    crawl__request_failed_to_start(rq, FETCH_EOTHER, "cannot start the transfer");
}

static void on_request_resolved(void *arg, core_rc rc, const char *addr) {
  struct request *rq = arg;
  crawl__host_lookup_ended(rq->shard);
  char why[HOST_DNS_ERROR_MAX];
  if (rc)
    crawl__request_failed_to_start(rq, FETCH_EDNS, crawl__host_dns_error(addr, why, sizeof(why)));
  else
    launch(rq, addr);
}

/* Starts rq, looking its host up first when it is not the queue's own (a redirected robots.txt). */
void crawl__request_start(struct shard *c, struct request *rq) {
  struct host_data *hd = frontier_host_data(rq->host);
  crawl__request_began(c);
  if (crawl__host_proxy_resolves(c, &rq->url)) {
    launch(rq, NULL);
    return;
  }
  if (rq->url.host_is_ip || crawl__host_is(hd, rq->url.host, rq->url.port)) {
    launch(rq, hd->addr);
    return;
  }
  const char *addr_now;
  crawl__host_lookup_began(c);
  core_rc rc =
      fetch_resolve(c->engine, rq->url.host, rq->url.port, on_request_resolved, rq, &addr_now);
  if (rc) {
    on_request_resolved(rq, CORE_EDNS, core_rc_str(rc)); /* which counts the lookup ended */
  } else if (addr_now) {
    crawl__host_lookup_ended(c);
    launch(rq, addr_now);
  }
}

bool crawl__request_transient_status(long status) {
  return status == 408 || status == 429 || status == 500 || status == 502 || status == 503 ||
         status == 504;
}

void crawl__request_http_error(const struct shard *c, long status, double retry_after, char *out,
                               size_t size) {
  if (retry_after > c->cfg->max_delay)
    snprintf(out, size, "HTTP %ld, Retry-After %.0f s beyond --max-delay", status, retry_after);
  else
    snprintf(out, size, "HTTP %ld", status);
}

bool crawl__request_retry_after_too_long(struct shard *c, frontier_host *host, double retry_after) {
  if (retry_after <= c->cfg->max_delay)
    return false;
  /* the server asks for longer than --max-delay: asking again sooner would be rude, waiting
   * that long is more than the user allows; the URL is given up, and its host still rests what
   * it may */
  frontier_host_defer(c->fr, host, core_now() + c->cfg->max_delay);
  return true;
}

bool crawl__request_retry(struct shard *c, struct request *rq, double retry_after) {
  struct frontier_item *item = rq->item;
  if (item->attempts >= c->cfg->retries || crawl__life_stop(c) ||
      (rq->spec && rq->spec->cancelled) ||
      crawl__request_retry_after_too_long(c, rq->host, retry_after))
    return false;
  item->attempts++;
  c->stats->retries++;
  item->not_before = crawl__request_retry_at(c, rq->host, item->attempts, retry_after);
  frontier_push(c->fr, rq->host, item);
  rq->item = NULL;
  return true;
}

crawl_cause crawl__request_cause_of(fetch_error error) {
  switch (error) {
    case FETCH_EDNS:
      return CRAWL_CAUSE_DNS;
    case FETCH_ECONNECT:
      return CRAWL_CAUSE_CONNECT;
    case FETCH_ETIMEOUT:
      return CRAWL_CAUSE_TIMEOUT;
    case FETCH_ETLS:
      return CRAWL_CAUSE_TLS;
    case FETCH_EPROTOCOL:
      return CRAWL_CAUSE_PROTOCOL;
    default:
      return CRAWL_CAUSE_OTHER;
  }
}

bool crawl__request_transient_error(fetch_error error) {
  return error == FETCH_EDNS || error == FETCH_ECONNECT || error == FETCH_ETIMEOUT;
}

void crawl__request_hold_slot(struct shard *c) {
  c->requests->slot_held = true;
}

void crawl__request_give_slot_back(struct shard *c) {
  if (!c->requests->slot_held)
    return;
  c->requests->slot_held = false;
  crawl__budget_give_slot(c->run, c->cfg->concurrency, c->shard);
}

void crawl__request_began(struct shard *c) {
  c->requests->in_flight++;
  if (c->requests->slot_held)
    c->requests->slot_held = false; /* the request has it now */
  else
    crawl__budget_count_slot(
        c->run); /* begun elsewhere: counted all the same, so its end balances */
}

void crawl__request_ended(struct shard *c) {
  c->requests->in_flight--;
  crawl__budget_give_slot(c->run, c->cfg->concurrency, c->shard);
}

bool crawl__request_cut_short(struct request *rq) {
  /* its parser's links were dropped since the crawl began stopping at once (a fatal error ends
   * one turn of the loop in which this answer came too): reported fetched, it would take them
   * along. It stays among the requests cut short, which a --state save keeps to be made again,
   * and the end reports as pending */
  return crawl__life_stop(rq->shard) == STOP_NOW;
}

void crawl__request_failed_to_start(struct request *rq, fetch_error error, const char *why) {
  struct fetch_result res = {.error = error, .error_text = why};
  rq->shard->hooks.handlers[rq->item->kind]->on_done(rq, &res);
}
