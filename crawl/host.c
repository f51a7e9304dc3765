/* Hosts: each host's state (its address, robots.txt, counts) made when its first URL is queued,
 * and its one DNS lookup, retried with backoff ahead of robots.txt; a host whose lookups all
 * failed has its queue drained as failed. */
#include "crawl/host.h"
#include "crawl/life.h"
#include "crawl/budget.h"
#include "crawl/mail.h"
#include "crawl/mesh.h"
#include "crawl/notes.h"
#include "crawl/queries.h"
#include "crawl/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

/* Rules shared by the hosts whose robots.txt says the same (doc/design.md, Memory), found by the
 * hash of their saved bytes: rules met a second time are kept by the table (the first
 * SHARED_RULES_MAX such sets), and every host that has them from then on holds a reference to
 * that copy; rules met once are only remembered by their hash (the first SHARED_ONCE_MAX), and
 * stay their host's own. A host of shared rules names their slot in its robots_kept
 * (KEPT_SHARED), so that idle it lets go of its reference and takes it again on coming back,
 * with nothing written to the rules file. */
#define SHARED_RULES_MAX 4096
#define SHARED_ONCE_MAX 16384
struct shared_rules {
  struct {
    uint64_t hash;
    parse_robots *rules; /* the table's reference */
  } * entries;
  size_t count, cap;             /* cap doubles up to SHARED_RULES_MAX */
  uint32_t *index;               /* by hash, open addressing over 2 * cap: an entry + 1, 0 empty */
  uint64_t *once;                /* hashes met once (| 1, so never 0, an empty slot) */
  size_t once_count, once_slots; /* once_slots doubles up to 2 * SHARED_ONCE_MAX */
};

/* Room for one more hash in the set of those met once (false: it is full, or memory ran out). */
static bool once_room(struct shared_rules *t) {
  if (t->once_count < t->once_slots / 2)
    return true;
  if (t->once_slots >= 2 * SHARED_ONCE_MAX)
    return false;
  size_t slots = t->once_slots ? 2 * t->once_slots : 256;
  uint64_t *once = calloc(slots, sizeof(*once));
  if (!once)
    return false;
  for (size_t i = 0; i < t->once_slots; i++) {
    if (!t->once[i])
      continue;
    size_t at = (size_t)(t->once[i] % slots);
    while (once[at])
      at = (at + 1) % slots;
    once[at] = t->once[i];
  }
  free(t->once);
  t->once = once;
  t->once_slots = slots;
  return true;
}

/* Whether rules of this hash were met before; remembered now when they were not. */
static bool met_before(struct shared_rules *t, uint64_t hash) {
  uint64_t key = hash | 1;
  for (size_t at = t->once_slots ? (size_t)(key % t->once_slots) : 0; t->once_slots && t->once[at];
       at = (at + 1) % t->once_slots)
    if (t->once[at] == key)
      return true;
  if (once_room(t)) {
    size_t at = (size_t)(key % t->once_slots);
    while (t->once[at])
      at = (at + 1) % t->once_slots;
    t->once[at] = key;
    t->once_count++;
  }
  return false;
}

/* Room for one more set of shared rules, the index made again at twice the entries (false: the
 * table is full, or memory ran out). */
static bool shared_room(struct shared_rules *t) {
  if (t->count < t->cap)
    return true;
  if (t->cap >= SHARED_RULES_MAX)
    return false;
  size_t cap = t->cap ? 2 * t->cap : 16;
  void *entries = realloc(t->entries, cap * sizeof(*t->entries));
  if (!entries)
    return false;
  t->entries = entries;
  uint32_t *index = calloc(2 * cap, sizeof(*index));
  if (!index)
    return false;
  for (size_t k = 0; k < t->count; k++) {
    size_t at = (size_t)(t->entries[k].hash % (2 * cap));
    while (index[at])
      at = (at + 1) % (2 * cap);
    index[at] = (uint32_t)(k + 1);
  }
  free(t->index);
  t->index = index;
  t->cap = cap;
  return true;
}

/* The rules of idle hosts, kept in a temporary file while their hosts wait. */
struct shard_hosts {
  seen_filter *sitemaps_seen; /* sitemap URLs queued, so none is fetched twice (--sitemaps) */
  double swept;               /* when crawl__host_let_idle_go last looked */
  double idle_since;   /* its look: a host whose next turn could have come before this is idle */
  uint64_t end;        /* the rules file's length */
  uint64_t lost_noted; /* parked hosts that did not read back, said so far */
  size_t kept, let_go; /* its look: rules put in the rules file, or let go */
  struct core_buf buf; /* its look: one host's rules, saved */
  struct shared_rules *shared;    /* made at the first rules */
  struct core_buf saved, other;   /* rules saved to be shared, and the one compared with them */
  struct host_lookup *looking_up; /* the hosts' lookups in flight */
  int fd;
  bool open;   /* fd is the file's */
  bool broken; /* it could not be made or written: rules are let go, fetched again */
  bool broken_noted;
  size_t lookups; /* DNS lookups in flight: of hosts, and of requests to another host */
};

/* A host's lookup in flight (crawl__host_start_lookup): what the resolver's answer needs, the
 * shard, the host and its RESOLVE item, so that the host keeps none of it. Listed in the shard's
 * hosts: a lookup the resolver never answers (the shard ending first) is let go with them. */
struct host_lookup {
  struct shard *c;
  struct host_data *hd;
  struct frontier_item *item;
  struct host_lookup *prev, *next;
};

void crawl__host_release(void *p) {
  struct host_data *hd = p;
  crawl__queries_free(hd->queries);
  free(hd->robots_error);
  parse_robots_destroy(hd->robots);
}

const char *crawl__host_name(const struct host_data *hd, size_t *len) {
  const char *origin = frontier_host_origin(frontier_host_of_data((void *)hd));
  const char *name = strstr(origin, "://") + 3, *end;
  if (*name == '[') /* an IPv6 address: its URLs' host is what the brackets hold */
    end = strchr(++name, ']');
  else if (!(end = strchr(name, ':')))
    end = name + strlen(name);
  *len = (size_t)(end - name);
  return name;
}

bool crawl__host_is(const struct host_data *hd, const char *name, unsigned port) {
  size_t len;
  const char *own = crawl__host_name(hd, &len);
  return port == hd->port && strlen(name) == len && memcmp(name, own, len) == 0;
}

/* Whether a request to u goes through a proxy that looks its host up: then the crawl does not
 * (doc/network.md, Proxies). */
bool crawl__host_proxy_resolves(const struct shard *c, const struct url *u) {
  struct fetch_proxies proxies = {c->cfg->proxy_http, c->cfg->proxy_https, c->cfg->noproxy};
  const char *proxy = fetch_proxy_for(&proxies, u->https, u->host);
  return proxy && fetch_proxy_resolves(proxy);
}

struct host_data *crawl__host_for(struct shard *c, const struct url *u) {
  frontier_host *fh;
  bool created;
  if (frontier_host_get(c->fr, u->origin, &fh, &created) != CORE_OK) {
    crawl__notes_fatal(c, "out of memory");
    return NULL;
  }
  if (!created)
    return frontier_host_data(fh);
  struct host_data *hd = frontier_host_data(fh); /* zeroed */
  hd->port = u->port;
  hd->host_is_ip = u->host_is_ip;
  hd->redirected_from = URL_ADDR_NONE;
  hd->robots_state = c->cfg->robots ? ROBOTS_PENDING : ROBOTS_KNOWN;
  bool looked_up = !hd->host_is_ip && !crawl__host_proxy_resolves(c, u);
  if (!looked_up) {
    /* an address, or a name only its proxy looks up: the host is its own --ip-delay group */
    frontier_host_set_ip(c->fr, fh, u->host);
  } else {
    /* no text of its own: the lookup is of the host's name, and a broad crawl's new hosts wait for
     * theirs by the thousand */
    struct frontier_item *resolve = frontier_item_new(FRONTIER_RESOLVE, "", NULL, 0);
    if (!resolve) {
      crawl__notes_fatal(c, "out of memory");
      return NULL;
    }
    frontier_push(c->fr, fh, resolve);
  }
  /* robots.txt is queued once the address is known (host_resolved): a host waiting for its
   * lookup holds one item, not two, as a crawl of many seed hosts holds them all at once */
  if (c->cfg->robots && !looked_up && !crawl__host_queue_robots(c, fh, 0))
    return NULL;
  if (!c->cfg->robots)
    crawl__host_queue_sitemaps(c, hd); /* with robots.txt, they wait for its Sitemap lines */
  return hd;
}

const char *crawl__host_dns_error(const char *why, char *buf, size_t size) {
  snprintf(buf, size, "DNS lookup failed: %s", why);
  return buf;
}

static void drain_dead_host(struct shard *c, struct host_data *hd) {
  char why[HOST_DNS_ERROR_MAX];
  crawl__host_dns_error(hd->dead, why, sizeof(why));
  struct frontier_item *item;
  while ((item = frontier_drain_host(c->fr, frontier_host_of_data(hd)))) {
    if (item->kind == FRONTIER_PAGE)
      crawl__report_item(c, item, CRAWL_FATE_FAILED, CRAWL_CAUSE_DNS, why);
    frontier_item_free(item);
  }
}

/* The answer to hd's lookup, which item stood for. */
static void host_resolved(struct shard *c, struct host_data *hd, struct frontier_item *item,
                          core_rc rc, const char *addr) {
  frontier_host *fh = frontier_host_of_data(hd);
  hd->resolving = false;
  c->hosts->lookups--;
  frontier_end(c->fr, fh, item, core_now(), 0);
  size_t name_len;
  const char *name = crawl__host_name(hd, &name_len);
  if (rc == CORE_OK) {
    frontier_item_free(item);
    if (frontier_host_set_ip(c->fr, fh, addr) != CORE_OK)
      crawl__notes_fatal(c, "out of memory");
    else if (!(hd->addr = frontier_host_addr(fh)))
      crawl__notes_fatal(c, "the address of %.*s was not kept", (int)name_len, name);
    else if (c->cfg->robots && hd->robots_state == ROBOTS_PENDING)
      crawl__host_queue_robots(c, fh, 0);
    return;
  }
  crawl__notes_verbose(c, "%.*s: DNS lookup failed: %s", (int)name_len, name, addr);
  if (hd->dns_attempts < c->cfg->retries && !crawl__life_stop(c)) {
    hd->dns_attempts++;
    c->stats->retries++;
    item->not_before = core_now() + crawl__host_backoff(c->cfg, hd->dns_attempts);
    frontier_push(c->fr, fh, item);
    return;
  }
  frontier_item_free(item);
  hd->dead = addr;
  drain_dead_host(c, hd);
}

/* The rules file: a host's rules are appended once and read back as often as it comes back;
 * rules fetched again take a new place (every 24 hours at most), so the file grows with the
 * hosts, as the spill file does with the URLs. */
#define KEPT_LEN_BITS 24 /* the saved rules of a 500 KiB robots.txt take 1.5 MiB at most */
#define KEPT_AT_MAX (1ull << (63 - KEPT_LEN_BITS))
#define KEPT_SHARED (1ull << 63) /* with the slot of its shared rules, not a place in the file */

static void rules_file_broke(struct shard *c, const char *why) {
  struct shard_hosts *h = c->hosts;
  h->broken = true;
  if (!h->broken_noted)
    crawl__notes_verbose(
        c,
        "the rules file of idle hosts in %s cannot be used (%s): their robots.txt is "
        "let go and fetched again should they come back",
        core_temp_dir(), why);
  h->broken_noted = true;
}

/* Puts hd's rules in the rules file (once: rules read back from it are there already). */
static bool keep_rules(struct shard *c, struct host_data *hd, struct core_buf *buf) {
  struct shard_hosts *h = c->hosts;
  if (hd->robots_kept)
    return true;
  if (h->broken)
    return false;
  if (!h->open) {
    h->fd = core_temp_fd("rules");
    if (h->fd < 0) {
      rules_file_broke(c, strerror(errno));
      return false;
    }
    h->open = true;
  }
  buf->len = 0;
  core_rc rc = parse_robots_save(hd->robots, buf);
  if (rc || buf->len >= (1u << KEPT_LEN_BITS) || h->end + buf->len >= KEPT_AT_MAX)
    return false; /* kept in memory: a rare file this large, or no memory to save it */
  if ((rc = core_write_at(h->fd, buf->data, buf->len, h->end))) {
    rules_file_broke(c, strerror(errno));
    return false;
  }
  hd->robots_kept = h->end << KEPT_LEN_BITS | buf->len;
  h->end += buf->len;
  return true;
}

const parse_robots *crawl__host_rules(struct shard *c, struct host_data *hd) {
  if (hd->robots || !hd->robots_kept)
    return hd->robots;
  if (hd->robots_kept & KEPT_SHARED) { /* the table keeps them all along */
    hd->robots =
        parse_robots_share(c->hosts->shared->entries[hd->robots_kept & ~KEPT_SHARED].rules);
    return hd->robots;
  }
  size_t len = (size_t)(hd->robots_kept & ((1u << KEPT_LEN_BITS) - 1));
  uint64_t at = hd->robots_kept >> KEPT_LEN_BITS;
  char *bytes = malloc(len);
  core_rc rc = bytes ? core_read_at(c->hosts->fd, bytes, len, at) : CORE_ENOMEM;
  if (!rc)
    rc = parse_robots_load(bytes, len, &hd->robots);
  free(bytes);
  if (rc) {
    if (rc != CORE_ENOMEM)
      rules_file_broke(c, rc == CORE_ESYS ? strerror(errno) : "rules that do not read back");
    hd->robots_kept = 0;
    hd->robots_time = -INFINITY; /* stale: they are fetched again */
  }
  return hd->robots;
}

void crawl__host_set_rules(struct host_data *hd, parse_robots *robots) {
  parse_robots_destroy(hd->robots);
  hd->robots = robots;
  hd->robots_kept = 0; /* the file's copy is of the old rules */
}

/* Whether the saved bytes of entry k are those in saved. */
static bool shared_same(struct shard_hosts *h, size_t k, const struct core_buf *saved) {
  h->other.len = 0;
  return parse_robots_save(h->shared->entries[k].rules, &h->other) == CORE_OK &&
         h->other.len == saved->len && memcmp(h->other.data, saved->data, saved->len) == 0;
}

void crawl__host_share_rules(struct shard *c, struct host_data *hd) {
  struct shard_hosts *h = c->hosts;
  if (!hd->robots || (hd->robots_kept & KEPT_SHARED) ||
      parse_robots_sitemap_count(hd->robots)) /* only rules alone are the same for all */
    return;
  if (!h->shared) {
    if (!(h->shared = calloc(1, sizeof(*h->shared))))
      return; /* the host keeps its own: they cost their bytes, nothing else */
    core_buf_init(&h->saved, 4 * PARSE_ROBOTS_MAX_BYTES);
    core_buf_init(&h->other, 4 * PARSE_ROBOTS_MAX_BYTES);
  }
  struct shared_rules *t = h->shared;
  h->saved.len = 0;
  if (parse_robots_save(hd->robots, &h->saved) != CORE_OK)
    return;
  uint64_t hash = XXH3_64bits(h->saved.data, h->saved.len);
  for (size_t at = t->cap ? (size_t)(hash % (2 * t->cap)) : 0; t->cap && t->index[at];
       at = (at + 1) % (2 * t->cap)) {
    size_t k = t->index[at] - 1u;
    if (t->entries[k].hash == hash && shared_same(h, k, &h->saved)) {
      parse_robots_destroy(hd->robots);
      hd->robots = parse_robots_share(t->entries[k].rules);
      hd->robots_kept = KEPT_SHARED | k;
      return;
    }
  }
  /* rules met once stay their host's own (the rules file takes them when it is idle); met
   * again, the table keeps them for the hosts to come (the first host keeps its copy) */
  if (!met_before(t, hash) || !shared_room(t))
    return;
  size_t k = t->count++;
  t->entries[k].hash = hash;
  t->entries[k].rules = parse_robots_share(hd->robots);
  size_t at = (size_t)(hash % (2 * t->cap));
  while (t->index[at])
    at = (at + 1) % (2 * t->cap);
  t->index[at] = (uint32_t)(k + 1);
  hd->robots_kept = KEPT_SHARED | k;
}

void crawl__host_sitemap_restored(struct shard *c, const char *url) {
  bool fresh;
  if (c->hosts && c->hosts->sitemaps_seen)
    seen_add(c->hosts->sitemaps_seen, url, strlen(url), &fresh);
}

void crawl__host_close(struct shard *c) {
  struct shard_hosts *h = c->hosts;
  if (!h)
    return;
  if (h->open)
    close(h->fd);
  for (size_t k = 0; h->shared && k < h->shared->count; k++)
    parse_robots_destroy(h->shared->entries[k].rules); /* the hosts' references end theirs */
  if (h->shared) {
    free(h->shared->entries);
    free(h->shared->index);
    free(h->shared->once);
  }
  free(h->shared);
  while (h->looking_up) {
    struct host_lookup *lk = h->looking_up;
    h->looking_up = lk->next;
    frontier_item_free(lk->item);
    free(lk);
  }
  seen_destroy(h->sitemaps_seen);
  core_buf_free(&h->saved);
  core_buf_free(&h->other);
  free(h);
  c->hosts = NULL;
}

/* Whether hd, idle since before the sweep's idle_since, leaves memory: its rules first go to the
 * rules file (or are let go, when it cannot be used); then the whole host is parked
 * (save_host). */
static bool leaves_if_idle(void *arg, frontier_host *fh) {
  struct shard *c = arg;
  struct shard_hosts *h = c->hosts;
  struct host_data *hd = frontier_host_data(fh);
  if (!hd || frontier_host_next_time(fh) >= h->idle_since)
    return false;
  if (hd->robots) {
    if (hd->robots_kept & KEPT_SHARED) {
      /* the table keeps them: the host lets go of its reference, nothing is written */
    } else if (keep_rules(c, hd, &h->buf)) {
      h->kept++;
    } else if (h->broken) {
      hd->robots_time = -INFINITY; /* stale: fetched again before the host's next page */
      h->let_go++;
    } else {
      return false;
    }
    parse_robots_destroy(hd->robots);
    hd->robots = NULL;
  }
  return !hd->queries && !hd->resolving;
}

/* A parked host's data: the struct as it is (its pointers are to what lives as long as the shard:
 * its address in the table of addresses, the resolver's static text of a dead host)
 * and the error of its robots.txt, empty when it has none. A host with rules in memory, or
 * counts of --max-query-variants, is not saved (leaves_if_idle). */
static bool save_host(void *arg, const void *data, struct core_buf *out) {
  (void)arg;
  const struct host_data *hd = data;
  if (hd->robots || hd->queries || hd->resolving)
    return false;
  const char *error = hd->robots_error ? hd->robots_error : "";
  return !core_buf_add(out, hd, sizeof(*hd)) && !core_buf_add(out, error, strlen(error) + 1);
}

/* The record is the frontier's, checked whole as it reads back: save_host wrote these bytes. */
static bool load_host(void *arg, frontier_host *fh, void *data, const void *bytes, size_t len) {
  (void)arg;
  (void)fh;
  struct host_data *hd = data;
  const char *error = (const char *)bytes + sizeof(*hd);
  if (len <= sizeof(*hd) || !memchr(error, '\0', len - sizeof(*hd)))
    return false;
  memcpy(hd, bytes, sizeof(*hd));
  hd->robots_error = NULL;
  return !*error || (hd->robots_error = strdup(error));
}

void crawl__host_lookup_began(struct shard *c) {
  c->hosts->lookups++;
}

void crawl__host_lookup_ended(struct shard *c) {
  c->hosts->lookups--;
}

size_t crawl__host_lookups(const struct shard *c) {
  return c->hosts ? c->hosts->lookups : 0;
}

bool crawl__host_lookup_room(const struct shard *c) {
  return c->hosts->lookups < crawl__budget_lookups_max(c);
}

core_rc crawl__host_open(struct shard *c) {
  if (!(c->hosts = calloc(1, sizeof(*c->hosts))))
    return CORE_ENOMEM;
  core_rc rc =
      c->cfg->sitemaps ? seen_create(SEEN_EXACT, 1024, 0.5, 0, &c->hosts->sitemaps_seen) : CORE_OK;
  if (rc != CORE_OK)
    return rc; /* crawl__host_close lets go of the rest */
  struct frontier_parking parking = {c, leaves_if_idle, save_host, load_host};
  frontier_set_parking(c->fr, &parking);
  return CORE_OK;
}

/* A broad crawl is done with most of its hosts long before it ends: they go to disk, their rules
 * to the rules file and the rest to the frontier's host file, so that the hosts count against
 * --queue-memory as the URLs do (doc/design.md, Memory). A look at every host in memory, some
 * nanoseconds each, every HOST_SWEEP_EVERY seconds; a crawl of fewer hosts than its budget never
 * lets go. */
void crawl__host_let_idle_go(struct shard *c, double now) {
  struct shard_hosts *h = c->hosts;
  uint64_t queue_memory = crawl__budget_queue_memory(c);
  if (!queue_memory || now - h->swept < HOST_SWEEP_EVERY)
    return;
  h->swept = now;
  if (frontier_hosts_in_memory(c->fr) <= queue_memory)
    return;
  h->idle_since = now - HOST_IDLE_AFTER - HOST_IDLE_GAPS * c->cfg->delay;
  h->kept = h->let_go = 0;
  core_buf_init(&h->buf, 4 * PARSE_ROBOTS_MAX_BYTES);
  size_t parked;
  core_rc rc = frontier_park_idle(c->fr, &parked);
  int why = errno;
  core_buf_free(&h->buf);
  if (h->kept)
    crawl__notes_verbose(c,
                         "kept the robots.txt rules of %zu idle hosts on disk: more hosts than "
                         "--queue-memory's share",
                         h->kept);
  if (h->let_go)
    crawl__notes_verbose(c,
                         "let go of the robots.txt rules of %zu idle hosts: more hosts than "
                         "--queue-memory's share (fetched again should they come back)",
                         h->let_go);
  if (parked)
    crawl__notes_verbose(c, "parked %zu idle hosts on disk: more hosts than --queue-memory's share",
                         parked);
  if (rc == CORE_ENOMEM)
    crawl__notes_fatal(c, "out of memory");
  else if (rc)
    crawl__notes_verbose(
        c,
        "the host file of idle hosts in %s cannot be used (%s): idle hosts stay in "
        "memory",
        core_temp_dir(), strerror(why));
  uint64_t lost = frontier_parked_lost(c->fr);
  if (lost > h->lost_noted) {
    crawl__notes_verbose(
        c,
        "%llu parked hosts did not read back from the host file: they were made anew "
        "(robots.txt fetched again)",
        (unsigned long long)(lost - h->lost_noted));
    h->lost_noted = lost;
  }
}

static void on_host_resolved(void *arg, core_rc rc, const char *addr) {
  struct host_lookup *lk = arg;
  struct shard_hosts *h = lk->c->hosts;
  if (lk->prev)
    lk->prev->next = lk->next;
  else
    h->looking_up = lk->next;
  if (lk->next)
    lk->next->prev = lk->prev;
  struct host_lookup done = *lk;
  free(lk);
  host_resolved(done.c, done.hd, done.item, rc, addr);
}

void crawl__host_start_lookup(struct shard *c, frontier_host *fh, struct frontier_item *item) {
  struct host_data *hd = frontier_host_data(fh);
  struct shard_hosts *h = c->hosts;
  hd->resolving = true;
  h->lookups++;
  size_t name_len;
  const char *name = crawl__host_name(hd, &name_len);
  char *name_text = strndup(name, name_len); /* the resolver keeps its own copy */
  struct host_lookup *lk = name_text ? malloc(sizeof(*lk)) : NULL;
  if (!lk) {
    free(name_text);
    host_resolved(c, hd, item, CORE_EDNS, core_rc_str(CORE_ENOMEM));
    return;
  }
  *lk = (struct host_lookup){c, hd, item, NULL, h->looking_up};
  if (h->looking_up)
    h->looking_up->prev = lk;
  h->looking_up = lk;
  const char *addr_now;
  core_rc rc = fetch_resolve(c->engine, name_text, hd->port, on_host_resolved, lk, &addr_now);
  free(name_text);
  if (rc || addr_now)
    on_host_resolved(lk, rc ? CORE_EDNS : CORE_OK, rc ? core_rc_str(rc) : addr_now);
}

bool crawl__host_robots_excludes(struct shard *c, struct host_data *hd, const char *path) {
  /* rules past their age are fetched again before the host's next page (start_page), which
   * checks that page then */
  bool allowed = true; /* lack of memory: queued, and start_page asks again */
  if (!c->cfg->robots || hd->robots_state != ROBOTS_KNOWN)
    return false;
  const parse_robots *rules = crawl__host_rules(c, hd); /* first: rules that do not read back
                                                         * are stale */
  return !crawl__host_robots_stale(hd, core_now()) &&
         parse_robots_check(rules, path, &allowed) == CORE_OK && !allowed;
}

double crawl__host_backoff(const struct crawl_config *cfg, int attempts) {
  /* 0.5 s, 1 s, 2 s, ... capped by --max-delay */
  return fmin(cfg->max_delay, 0.5 * ldexp(1.0, attempts - 1));
}

/* A URL on the host's origin ("http://a.example:8080" + "/robots.txt"); caller frees. */
static char *origin_url(frontier_host *fh, const char *path) {
  const char *origin = frontier_host_origin(fh);
  size_t size = strlen(origin) + strlen(path) + 1;
  char *url = malloc(size);
  if (url)
    snprintf(url, size, "%s%s", origin, path);
  return url;
}

bool crawl__host_queue_robots(struct shard *c, frontier_host *fh, double not_before) {
  char *url = origin_url(fh, "/robots.txt");
  struct frontier_item *item = url ? frontier_item_new(FRONTIER_ROBOTS, url, NULL, 0) : NULL;
  free(url);
  if (!item) {
    crawl__notes_fatal(c, "out of memory");
    return false;
  }
  item->not_before = not_before;
  frontier_push(c->fr, fh, item);
  return true;
}

void crawl__host_queue_sitemap(struct shard *c, const struct url *base, const char *loc,
                               int depth) {
  struct url u;
  core_rc rc = url_resolve(base, loc, strlen(loc), c->cfg->max_url_length, &u);
  if (rc == CORE_ENOMEM) {
    crawl__notes_fatal(c, "out of memory"); /* the sitemap would be lost without a word */
    return;
  }
  if (rc != CORE_OK) {
    crawl__notes_verbose(c, "sitemap '%s' is not a usable URL", loc);
    return;
  }
  /* a sitemap of another shard's host is its owner's to fetch, once */
  if (url_scope_contains(crawl__mesh_scope(c->run), u.host) &&
      !crawl__mail_send_if_foreign(c, &u, NULL, depth, 0, LINK_SITEMAP,
                                   (struct link_how){VIA_NONE, true}))
    crawl__host_queue_sitemap_url(c, &u, depth);
  url_free(&u);
}

/* Sitemaps are bounded per host and in nesting (doc/behaviour.md, Sitemaps): an index of
 * indexes for ever, or of 50,000 sitemaps, would take the host's turns for good. */
void crawl__host_queue_sitemap_url(struct shard *c, const struct url *u, int depth) {
  bool first = false;
  if (seen_add(c->hosts->sitemaps_seen, u->text, strlen(u->text), &first) != CORE_OK) {
    crawl__notes_fatal(c, "out of memory");
    return;
  }
  if (!first)
    return;
  struct host_data *hd = crawl__host_for(c, u);
  bool too_deep = depth > c->cfg->sitemap_depth;
  if (hd && (too_deep || hd->sitemaps_queued >= c->cfg->max_sitemaps)) {
    if (!hd->sitemaps_noted)
      crawl__notes_warn(
          c,
          "%s: sitemaps past %s %ld left unfetched (this one: %s); the option raises the "
          "bound",
          u->host, too_deep ? "--sitemap-depth" : "--max-sitemaps",
          too_deep ? c->cfg->sitemap_depth : c->cfg->max_sitemaps, u->text);
    hd->sitemaps_noted = true;
    return;
  }
  struct frontier_item *item =
      hd ? frontier_item_new(FRONTIER_SITEMAP, u->text, NULL, depth) : NULL;
  if (hd && item && hd->sitemaps_queued < UINT32_MAX)
    hd->sitemaps_queued++;
  if (!hd || !item) {
    frontier_item_free(item);
    crawl__notes_fatal(c, "out of memory");
  } else {
    frontier_push(c->fr, frontier_host_of_data(hd), item);
  }
}

void crawl__host_queue_sitemaps(struct shard *c, struct host_data *hd) {
  if (!c->cfg->sitemaps)
    return;
  for (size_t i = 0; i < parse_robots_sitemap_count(hd->robots); i++)
    crawl__host_queue_sitemap(c, NULL, parse_robots_sitemap(hd->robots, i), 0);
  char *url = origin_url(frontier_host_of_data(hd), "/sitemap.xml");
  if (!url) {
    crawl__notes_fatal(c, "out of memory");
    return;
  }
  crawl__host_queue_sitemap(c, NULL, url, 0);
  free(url);
}
