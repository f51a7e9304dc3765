/* Hosts: each host's state (its address, robots.txt, counts) made when its first URL is queued,
 * and its one DNS lookup, retried with backoff ahead of robots.txt; a host whose lookups all
 * failed has its queue drained as failed. */
#include "crawl/host.h"
#include "crawl/intake.h"
#include "crawl/notes.h"
#include "crawl/report.h"
#include "crawl/request.h"
#include "crawl/sitefiles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void crawl__free_host_data(void *p) {
  struct host_data *hd = p;
  crawl__query_counts_free(hd->queries);
  free(hd->robots_error);
  parse_robots_destroy(hd->robots);
  frontier_item_free(hd->resolving);
  free(hd);
}

/* Whether a request to u goes through a proxy that looks its host up: then the crawl does not
 * (doc/network.md, Proxies). */
bool crawl__proxy_resolves(const struct shard *c, const struct url *u) {
  struct fetch_proxies proxies = {c->cfg->proxy_http, c->cfg->proxy_https, c->cfg->noproxy};
  const char *proxy = fetch_proxy_for(&proxies, u->https, u->host);
  return proxy && fetch_proxy_resolves(proxy);
}

struct host_data *crawl__host_for(struct shard *c, const struct url *u) {
  frontier_host *fh;
  bool created;
  if (frontier_host_get(c->fr, u->origin, &fh, &created) != CORE_OK) {
    crawl__fatal(c, "out of memory");
    return NULL;
  }
  if (!created)
    return frontier_host_data(fh);
  size_t host_len = strlen(u->host);
  struct host_data *hd = calloc(1, sizeof(*hd) + host_len + 1);
  if (!hd) {
    crawl__fatal(c, "out of memory");
    return NULL;
  }
  memcpy(hd->host, u->host, host_len + 1);
  hd->port = u->port;
  hd->host_is_ip = u->host_is_ip;
  hd->redirected_from = URL_ADDR_NONE;
  hd->shard = c;
  hd->fhost = fh;
  hd->robots_state = c->cfg->robots ? ROBOTS_PENDING : ROBOTS_KNOWN;
  frontier_host_set_data(fh, hd);
  bool looked_up = !hd->host_is_ip && !crawl__proxy_resolves(c, u);
  if (!looked_up) {
    /* an address, or a name only its proxy looks up: the host is its own --ip-delay group */
    frontier_host_set_ip(c->fr, fh, hd->host);
  } else {
    struct frontier_item *resolve = frontier_item_new(FRONTIER_RESOLVE, u->origin, NULL, 0);
    if (!resolve) {
      crawl__fatal(c, "out of memory");
      return NULL;
    }
    frontier_push(c->fr, fh, resolve);
  }
  /* robots.txt is queued once the address is known (on_host_resolved): a host waiting for its
   * lookup holds one item, not two, as a crawl of many seed hosts holds them all at once */
  if (c->cfg->robots && !looked_up && !crawl__queue_robots(c, fh, 0))
    return NULL;
  if (!c->cfg->robots)
    crawl__queue_sitemaps(c, hd); /* with robots.txt, they wait for its Sitemap lines */
  return hd;
}

static void drain_dead_host(struct shard *c, struct host_data *hd) {
  struct frontier_item *item;
  while ((item = frontier_drain_host(c->fr, hd->fhost))) {
    if (item->kind == FRONTIER_PAGE)
      crawl__record_item(c, item, CRAWL_FATE_FAILED, CRAWL_CAUSE_DNS, "DNS lookup failed");
    frontier_item_free(item);
  }
}

static void on_host_resolved(void *arg, core_rc rc, const char *addr) {
  struct host_data *hd = arg;
  struct shard *c = hd->shard;
  struct frontier_item *item = hd->resolving;
  hd->resolving = NULL;
  c->req.lookups--;
  frontier_end(c->fr, hd->fhost, item, core_now(), 0);
  if (rc == CORE_OK) {
    frontier_item_free(item);
    if (frontier_host_set_ip(c->fr, hd->fhost, addr) != CORE_OK)
      crawl__fatal(c, "out of memory");
    else if (!(hd->addr = frontier_host_addr(hd->fhost)))
      crawl__fatal(c, "the address of %s was not kept", hd->host);
    else if (c->cfg->robots && hd->robots_state == ROBOTS_PENDING)
      crawl__queue_robots(c, hd->fhost, 0);
    return;
  }
  crawl__note(c, "%s: DNS lookup failed", hd->host);
  if (hd->dns_attempts < c->cfg->retries && !c->stop) {
    hd->dns_attempts++;
    c->stats->retries++;
    item->not_before = core_now() + crawl__backoff(c->cfg, hd->dns_attempts);
    frontier_push(c->fr, hd->fhost, item);
    return;
  }
  frontier_item_free(item);
  hd->dead = true;
  drain_dead_host(c, hd);
}

struct idle_sweep {
  double idle_since; /* a host whose next turn could have come before this is idle */
  size_t let_go;
};

static core_rc let_go_if_idle(void *arg, frontier_host *fh) {
  struct idle_sweep *sweep = arg;
  struct host_data *hd = frontier_host_data(fh);
  if (hd && hd->robots && frontier_host_idle(fh) &&
      frontier_host_next_time(fh) < sweep->idle_since) {
    parse_robots_destroy(hd->robots);
    hd->robots = NULL;
    hd->robots_time = -INFINITY; /* stale: fetched again before the host's next page */
    sweep->let_go++;
  }
  return CORE_OK;
}

/* A broad crawl is done with most of its hosts long before it ends: their rules, the largest
 * part of a host's state, are let go, so that the hosts count against --queue-memory as the
 * URLs do (doc/design.md, Memory). A look at every host, some nanoseconds each, every
 * HOST_SWEEP_EVERY seconds; a crawl of fewer hosts than its budget never lets go. */
void crawl__let_idle_hosts_go(struct shard *c, double now) {
  if (!c->cfg->robots || !c->queue_memory || now - c->hosts_swept < HOST_SWEEP_EVERY)
    return;
  c->hosts_swept = now;
  if (frontier_host_count(c->fr) <= c->queue_memory)
    return;
  struct idle_sweep sweep = {now - HOST_IDLE_AFTER - 30 * c->cfg->delay, 0};
  frontier_visit(c->fr, let_go_if_idle, NULL, &sweep);
  if (sweep.let_go)
    crawl__note(c,
                "let go of the robots.txt rules of %zu idle hosts: more hosts than "
                "--queue-memory's share (fetched again should they come back)",
                sweep.let_go);
}

void crawl__start_lookup(struct shard *c, frontier_host *fh, struct frontier_item *item) {
  struct host_data *hd = frontier_host_data(fh);
  hd->resolving = item;
  c->req.lookups++;
  const char *addr_now;
  core_rc rc = fetch_resolve(c->engine, hd->host, hd->port, on_host_resolved, hd, &addr_now);
  if (rc || addr_now)
    on_host_resolved(hd, rc ? CORE_EDNS : CORE_OK, addr_now);
}
