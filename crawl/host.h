/* crawl/host.c: hosts: their state and their one DNS lookup, and the sitemaps queued. What it
 * offers the other files of the engine. */
#ifndef CRAWL_HOST_H
#define CRAWL_HOST_H

#include "crawl/crawl-int.h"

enum robots_state { ROBOTS_PENDING, ROBOTS_KNOWN, ROBOTS_DISALLOW_ALL };

/* A host costs what its state needs, as hosts may be a million: it lives in its frontier host's
 * allocation (below), fields ordered so that none pads (doc/design.md, Memory). */
struct host_data {
  const char *addr;     /* NULL until resolved; unused for IP literals. The frontier's table of
                         * addresses keeps it, once for all the hosts of one address */
  char *robots_error;   /* the error its pages fail with (owned; NULL until then) */
  parse_robots *robots; /* NULL: everything allowed */
  struct query_counts *queries; /* --max-query-variants: per path, its query strings; NULL: none */
  /* its lookups all failed, after every retry: why, in the resolver's words (static text, see
   * fetch_resolve_cb); NULL: alive */
  const char *dead;
  double robots_time; /* when robots_state was last settled */
  /* where robots is kept in the rules file while the host is idle (crawl__host_let_idle_go):
   * its offset << 24 | its length; 0: not there */
  uint64_t robots_kept;
  long pages_started;
  unsigned port;
  uint32_t sitemaps_queued; /* --max-sitemaps counts them (it stops at UINT32_MAX) */
  /* the small ones in a byte each (doc/design.md, Memory) */
  enum robots_state robots_state : 8;
  crawl_cause robots_cause : 8; /* ROBOTS_DISALLOW_ALL: why robots.txt could not be fetched */
  /* the first URL settled for it came by a redirect from this kind of address (URL_ADDR_NONE:
   * not by a redirect, or none yet): its robots.txt is asked only where the redirect may lead */
  url_addr_kind redirected_from : 8;
  uint8_t dns_attempts;    /* up to --retries, at most 100 */
  uint8_t robots_attempts; /* the same */
  bool host_is_ip : 1;
  bool reached : 1;        /* a URL of it was settled */
  bool sitemaps_noted : 1; /* a note has said that --max-sitemaps or --sitemap-depth cut some */
  bool trap_noted : 1;     /* -v has named a trap rule for this host */
  bool resolving : 1;      /* its lookup runs (its shard keeps the rest: host.c, host_lookup) */
};
/* It lives inside its frontier host (frontier_options.host_data_size), which names it by its
 * origin (frontier_host_of_data finds it). A field more would put a broad web's host (an origin of
 * 29 bytes with its NUL) in the next malloc chunk: 272 bytes, where the two allocations of a host
 * took 192 + 128. */
_Static_assert(FRONTIER_HOST_FIELDS + sizeof(struct host_data) + 29 + 8 <= 272,
               "host_data outgrew its chunk");

/* hd's host name, as its URLs give it (an IPv6 address without its brackets), in the origin its
 * frontier host keeps: *len bytes, not NUL-terminated. */
const char *crawl__host_name(const struct host_data *hd, size_t *len);
/* Whether hd is the host named name (as a URL gives it) at port. */
bool crawl__host_is(const struct host_data *hd, const char *name, unsigned port);

/* Whether hd's robots.txt was settled more than ROBOTS_MAX_AGE before now: start_page fetches it
 * again before the host's next page, and nothing is decided by the old rules in the meantime
 * (crawl__host_robots_excludes). */
static inline bool crawl__host_robots_stale(const struct host_data *hd, double now) {
  return now - hd->robots_time > ROBOTS_MAX_AGE;
}

/* The error of a page whose host could not be looked up, "DNS lookup failed: " and why (a dead
 * host's dead, a lookup's answer), in buf. */
const char *crawl__host_dns_error(const char *why, char *buf, size_t size);
#define HOST_DNS_ERROR_MAX 160
/* The host (queue and state) of u, created with its setup steps on first sight. */
struct host_data *crawl__host_for(struct shard *c, const struct url *u);
/* Lets go of what a host's data holds, as its frontier host leaves memory (frontier_create). */
void crawl__host_release(void *p);
/* Whether u goes through a proxy that looks its host up: then the crawl does not. */
bool crawl__host_proxy_resolves(const struct shard *c, const struct url *u);
/* Every HOST_SWEEP_EVERY seconds at most, while the shard has more hosts in memory than its
 * share of --queue-memory: the hosts idle for HOST_IDLE_AFTER and HOST_IDLE_GAPS gaps, with nothing
 * queued or in flight, keep their robots.txt rules in the shard's rules file, not in memory, and
 * are parked (frontier_park_idle: the rest of the host goes to the frontier's host file); should
 * such a host come back, the frontier brings it back and crawl__host_rules reads its rules back.
 * Where the rules file cannot be written, the rules are let go and fetched again before the
 * host's next page, as after their 24 hours; where the host file cannot, hosts stay in memory. */
#define HOST_SWEEP_EVERY 10.0
#define HOST_IDLE_AFTER 30.0
#define HOST_IDLE_GAPS 30
void crawl__host_let_idle_go(struct shard *c, double now);
/* Lets the shard's frontier park idle hosts (above): after frontier_create. With sitemaps, also
 * the table of the sitemap URLs queued, so that none is fetched twice. */
core_rc crawl__host_open(struct shard *c);
/* A sitemap URL queued again from a save: its second finding queues nothing. */
void crawl__host_sitemap_restored(struct shard *c, const char *url);
/* DNS lookups in flight (a host's, crawl__host_start_lookup, or a request's to another host):
 * began, ended, how many, and whether another may begin (the shard's share of LOOKUPS_MAX). */
void crawl__host_lookup_began(struct shard *c);
void crawl__host_lookup_ended(struct shard *c);
size_t crawl__host_lookups(const struct shard *c);
bool crawl__host_lookup_room(const struct shard *c);
/* hd's robots.txt rules (NULL: none, everything allowed), read back from the rules file when an
 * idle spell put them there. Should they not read back, they are stale (crawl__host_robots_stale):
 * fetched again before the host's next page, and nothing is decided by them meanwhile. */
const parse_robots *crawl__host_rules(struct shard *c, struct host_data *hd);
/* The rules of a robots.txt just fetched (taken; NULL: everything allowed), in place of hd's. */
void crawl__host_set_rules(struct host_data *hd, parse_robots *robots);
/* hd's rules, their Sitemap lines read, shared with the hosts whose rules are the same (the
 * shard's first SHARED_RULES_MAX sets of rules are kept for that; host.c). */
void crawl__host_share_rules(struct shard *c, struct host_data *hd);
void crawl__host_close(struct shard *c); /* the rules file, at the shard's end */
/* Starts the one lookup of fh's host for item (a RESOLVE item), which it takes. */
void crawl__host_start_lookup(struct shard *c, frontier_host *fh, struct frontier_item *item);

/* Whether path, on hd, is excluded by a robots.txt at hand (fetched and not yet past its age). */
bool crawl__host_robots_excludes(struct shard *c, struct host_data *hd, const char *path);
/* The wait before a retry after attempts failed: 0.5 s, 1 s, 2 s, ... capped by --max-delay. */
double crawl__host_backoff(const struct crawl_config *cfg, int attempts);

/* Queues a fetch of the host's robots.txt, ahead of its pages, not before not_before. False (with
 * the crawl ended as fatal) when memory runs out. */
bool crawl__host_queue_robots(struct shard *c, frontier_host *fh, double not_before);
/* With --sitemaps: queues the host's sitemaps (robots.txt Sitemap lines and /sitemap.xml). */
void crawl__host_queue_sitemaps(struct shard *c, struct host_data *hd);
/* Queues one sitemap URL (resolved against base) unless it is out of scope or queued before;
 * depth: the index levels above it. */
void crawl__host_queue_sitemap(struct shard *c, const struct url *base, const char *loc, int depth);
/* A sitemap URL this shard owns, queued unless it was before, or past --max-sitemaps for its host
 * or --sitemap-depth (depth: index levels above it; a note says what was left). */
void crawl__host_queue_sitemap_url(struct shard *c, const struct url *u, int depth);

#endif
