/* frontier/frontier.c: per-host queues and the depth gate (the table of hosts is hosts.c's, an
 * item's allocation item.c's). A host's key in the heap (heap.c) is the earliest time its next
 * item may start; keys that other hosts make stale (a shared IP address, ip.c) are corrected
 * lazily at pop time.
 *
 * Memory stays bounded however many URLs are queued: past --queue-memory pages in memory, a
 * host's further pages go to the spill file (spill.c) and come back, its share at a time
 * (host_share), when its pages in memory run out; a host past the budget waits with all of
 * them on disk. The pages in memory are also in an index by URL (index.c), and hosts idle long
 * enough wait in the host file (park.c). */
#include "frontier/frontier-int.h"
#include "seen/seen.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

/* Pages a host may keep in memory whatever the budget, and how many come back at a time, while
 * hosts are few (host_share). */
#define SPILL_REFILL 64

core_rc frontier_create(const struct frontier_options *opts, seen_filter *seen,
                        void (*release_data)(void *), frontier **out) {
  if (opts->host_data_size > FRONTIER_HOST_DATA_MAX)
    return CORE_EINVAL;
  frontier *f = calloc(1, sizeof(*f));
  if (!f)
    return CORE_ENOMEM;
  f->opts = *opts;
  if (getrandom(&f->random, sizeof(f->random), 0) != (ssize_t)sizeof(f->random))
    f->random = (uint64_t)(uintptr_t)f ^ (uint64_t)time(NULL); /* varied enough for a gap */
  f->release_data = release_data;
  f->data_words = (uint8_t)((opts->host_data_size + 7) / 8);
  f->seen = seen;
  f->spill_fd = -1;
  f->parked.fd = -1;
  f->gate = INT_MAX;
  f->outside = INT_MAX;
  f->lookups.slots = SIZE_MAX;
  f->host_buckets = 1024;
  f->hosts = calloc(f->host_buckets, sizeof(*f->hosts));
  f->ips = opts->ip_table;
  f->own_ips = !f->ips;
  if (!f->hosts || (f->own_ips && frontier_ip_table_create(&f->ips) != CORE_OK)) {
    free(f->hosts);
    free(f);
    return CORE_ENOMEM;
  }
  *out = f;
  return CORE_OK;
}

void frontier_destroy(frontier *f) {
  if (!f)
    return;
  for (size_t b = 0; b < f->host_buckets; b++) {
    while (f->hosts[b]) {
      struct frontier_host *h = f->hosts[b];
      f->hosts[b] = h->next;
      while (h->head) {
        struct frontier_item *it = h->head;
        h->head = it->next;
        frontier_item_free(it);
      }
      while (h->sitemap_head) {
        struct frontier_item *it = h->sitemap_head;
        h->sitemap_head = it->next;
        frontier_item_free(it);
      }
      frontier__host_free(f, h);
    }
  }
  frontier__parked_free(f);
  frontier__lookups_free(f);
  if (f->own_ips)
    frontier_ip_table_destroy(f->ips);
  free(f->hosts);
  free(f->heap);
  free(f->pending);
  free(f->index);
  if (f->spill_fd >= 0)
    close(f->spill_fd);
  free(f);
}

core_rc frontier_mark_seen(frontier *f, const char *url, bool *was_new) {
  return seen_add(f->seen, url, strlen(url), was_new);
}

core_rc frontier_mark_seen_batch(frontier *f, size_t n, const char *const urls[],
                                 const size_t lens[], bool was_new[]) {
  return seen_add_batch(f->seen, n, urls, lens, was_new);
}

/* A host's setup steps: at the front of its queue, and they hold everything else back. (Its
 * queue holds these and pages; sitemaps have a queue of their own.) */
static bool is_setup(frontier_kind kind) {
  return kind == FRONTIER_RESOLVE || kind == FRONTIER_ROBOTS;
}

static int effective_gate(const frontier *f) {
  return f->gate < f->outside ? f->gate : f->outside;
}

/* When may host start a request due at not_before, of a page of depth (LONG_MIN: no page, which
 * no gate holds), once nothing of the host itself holds it back? */
static double turn_key(const frontier *f, const struct frontier_host *h, long depth,
                       double not_before) {
  if (depth > (long)effective_gate(f) + f->lookahead && !h->unsorted && !f->gate_off)
    return INFINITY; /* a level of smaller depth is not done */
  double key = fmax(h->next_time, not_before);
  if (h->ip)
    key = fmax(key, fmax(frontier__ip_next_time(h->ip), h->ip_retry));
  return key;
}

/* When may host start item, its front item or its first sitemap? INFINITY when it may not at
 * all for now. */
static double item_key(const frontier *f, const struct frontier_host *h,
                       const struct frontier_item *item) {
  if (!item || h->setup_in_flight)
    return INFINITY;
  if (item->kind == FRONTIER_RESOLVE) /* a DNS query is no request to the host */
    return h->in_flight || h->lookup_waiting ? INFINITY : item->not_before;
  if (is_setup(item->kind) ? h->in_flight > 0 : h->in_flight >= (unsigned)f->opts.per_host)
    return INFINITY;
  return turn_key(f, h, item->kind == FRONTIER_PAGE ? item->depth : LONG_MIN, item->not_before);
}

/* When may host start its first spilled page, with none of its pages in memory (past the budget
 * a host's share may be none: host_share)? As for a page of the spilled head's depth; the page's
 * own not_before is read with it, when this key comes (frontier_pop). */
static double spilled_key(const frontier *f, const struct frontier_host *h) {
  if (!h->spilled || f->spill_error || h->setup_in_flight ||
      h->in_flight >= (unsigned)f->opts.per_host)
    return INFINITY;
  return turn_key(f, h, h->spill_head_depth, -INFINITY);
}

/* The item host's next turn at now is for (one that may start by now: frontier_pop asks when
 * the host's key has come): a setup step first of all; else its front page or its first
 * sitemap, whichever may start, and when both may, the one whose turn it is (they alternate). */
static struct frontier_item *next_of(const frontier *f, const struct frontier_host *h, double now) {
  struct frontier_item *front = h->head, *sitemap = h->sitemap_head;
  if (!sitemap || (front && is_setup(front->kind)))
    return front;
  double page_key = item_key(f, h, front), sitemap_key = item_key(f, h, sitemap);
  if (page_key <= now && sitemap_key <= now)
    return h->page_turn ? front : sitemap;
  return page_key <= sitemap_key ? front : sitemap;
}

/* When host's next turn may come: the earlier of its page's and its sitemap's. */
static double host_key(const frontier *f, const struct frontier_host *h) {
  const struct frontier_item *front = h->head;
  double key = front ? item_key(f, h, front) : spilled_key(f, h);
  if (h->sitemap_head && !(front && is_setup(front->kind)))
    key = fmin(key, item_key(f, h, h->sitemap_head));
  return key;
}

static void update(frontier *f, struct frontier_host *h) {
  frontier__heap_place(f, h, host_key(f, h));
}

/* ---- the depth gate ----
 * Pages go a depth at a time, as a breadth-first crawl does: a page counts as pending from its
 * push until frontier_release (its links offered), and a page of depth d starts only when no
 * page of smaller depth is pending, or, with the lookahead, of depth smaller than d - 1 (the
 * owner then holds back its links until its level comes). So every URL is first found at its
 * smallest depth, and --depth cuts where a single-threaded breadth-first crawl (wget) would,
 * however the hosts' delays interleave their pages. A host's pages are kept in depth order, so
 * its front page is its shallowest. */

static void gate_moved(frontier *f) {
  for (size_t b = 0; b < f->host_buckets; b++)
    for (struct frontier_host *h = f->hosts[b]; h; h = h->next)
      update(f, h);
}

/* One more (delta 1) or one fewer (-1) page of depth pending. */
static void gate_count(frontier *f, int depth, int delta) {
  if (f->gate_off || depth < 0)
    return;
  if (depth >= f->pending_cap) {
    int cap = f->pending_cap ? f->pending_cap : 16;
    while (cap <= depth && cap < INT_MAX / 2)
      cap *= 2;
    size_t *grown = cap > depth ? realloc(f->pending, (size_t)cap * sizeof(*grown)) : NULL;
    if (!grown) {
      f->gate_off = true;
      gate_moved(f);
      return;
    }
    memset(grown + f->pending_cap, 0, (size_t)(cap - f->pending_cap) * sizeof(*grown));
    f->pending = grown;
    f->pending_cap = cap;
  }
  int old = effective_gate(f);
  if (delta > 0) {
    f->pending[depth]++;
    if (depth < f->gate)
      f->gate = depth;
  } else if (f->pending[depth] && --f->pending[depth] == 0 && depth == f->gate) {
    while (f->gate < f->pending_cap && f->pending[f->gate] == 0)
      f->gate++;
    if (f->gate == f->pending_cap)
      f->gate = INT_MAX;
  }
  if (effective_gate(f) != old)
    gate_moved(f);
}

/* ---- hosts ---- */

frontier_host *frontier_host_find(frontier *f, const char *origin) {
  uint64_t hash = XXH3_64bits(origin, strlen(origin));
  struct frontier_host *h = frontier__host_in_memory(f, origin, hash);
  core_rc rc;
  return h || !f->parked.count ? h : frontier__unpark(f, origin, hash, &rc);
}

core_rc frontier_host_get(frontier *f, const char *origin, frontier_host **out, bool *created) {
  size_t origin_len = strlen(origin);
  uint64_t hash = XXH3_64bits(origin, origin_len);
  struct frontier_host *h = frontier__host_in_memory(f, origin, hash);
  core_rc rc = CORE_OK;
  if (!h && f->parked.count && !(h = frontier__unpark(f, origin, hash, &rc)) && rc)
    return rc;
  if (h) {
    *out = h;
    *created = false;
    return CORE_OK;
  }
  if (!(h = frontier__host_new(f, origin, origin_len)))
    return CORE_ENOMEM;
  h->heap_index = HEAP_NONE;
  h->crawl_delay = -1;
  frontier__host_link(f, h, hash);
  *out = h;
  *created = true;
  return CORE_OK;
}

const char *frontier_host_origin(const frontier_host *host) {
  return frontier__origin(host);
}

void *frontier_host_data(const frontier_host *host) {
  return host->data_words ? frontier__host_data(host) : NULL;
}

frontier_host *frontier_host_of_data(void *data) {
  return (frontier_host *)((char *)data - HOST_DATA_AT);
}

core_rc frontier_host_set_ip(frontier *f, frontier_host *host, const char *addr) {
  struct ip_slot *s = frontier__ip_slot(f->ips, addr);
  if (!s)
    return CORE_ENOMEM;
  host->ip = s;
  update(f, host);
  return CORE_OK;
}

const char *frontier_host_addr(const frontier_host *host) {
  return host->ip ? frontier__ip_addr(host->ip) : NULL;
}

void frontier_host_set_crawl_delay(frontier_host *host, double seconds) {
  host->crawl_delay = seconds;
}

void frontier_host_defer(frontier *f, frontier_host *host, double until) {
  if (until > host->next_time)
    host->next_time = until;
  update(f, host);
}

/* ---- queues ---- */

/* Links item into host's queue before at (at the end when at is NULL). */
static void link_before(struct frontier_host *h, struct frontier_item *at,
                        struct frontier_item *item) {
  item->next = at;
  item->prev = at ? at->prev : h->tail;
  if (item->prev)
    item->prev->next = item;
  else
    h->head = item;
  if (at)
    at->prev = item;
  else
    h->tail = item;
}

static void unlink_item(struct frontier_host *h, struct frontier_item *item) {
  if (h->split == item) /* the next is deeper still, or none is */
    h->split = item->next;
  if (item->prev)
    item->prev->next = item->next;
  else
    h->head = item->next;
  if (item->next)
    item->next->prev = item->prev;
  else
    h->tail = item->prev;
  item->next = item->prev = NULL;
}

/* Queues item among host's pages in memory, behind every page no deeper than it. */
static void append_page(frontier *f, struct frontier_host *h, struct frontier_item *item) {
  struct frontier_item *at = NULL;
  bool behind = h->tail && !is_setup(h->tail->kind) && h->tail->depth > item->depth;
  if (behind && h->split_known && h->split_depth == item->depth) {
    at = h->split;
  } else if (behind) {
    /* a retry or redirect of the current depth, behind deeper pages: it goes before them */
    at = h->head;
    while (is_setup(at->kind) || at->depth <= item->depth)
      at = at->next;
  }
  /* a page deeper than split_depth queued before the first such page is the first now */
  if (h->split_known && item->depth > h->split_depth && at == h->split)
    h->split = item;
  link_before(h, at, item);
  if (behind) {
    h->split = at;
    h->split_depth = item->depth;
    h->split_known = true;
  }
  frontier__index_add(f, item);
  h->pages_in_memory++;
  f->pages_in_memory++;
}

/* The pages a host keeps in memory past the budget, and brings back at a time: SPILL_REFILL
 * while hosts are few, the budget shared among them when they are many, and none when they are
 * more than its pages: then each of them waits wholly on disk, keyed in the heap by its first
 * spilled page (spilled_key), which comes back at its turn. 64 pages for each of 100,000 hosts
 * of a broad crawl held its whole queue in memory, whatever --queue-memory said, and one page a
 * host still held a page of every host known (doc/design.md, Memory). */
static size_t host_share(const frontier *f) {
  uint64_t budget = f->opts.queue_memory;
  if (!budget || f->host_count == 0)
    return SPILL_REFILL;
  uint64_t share = budget / f->host_count;
  return share >= SPILL_REFILL ? SPILL_REFILL : (size_t)share;
}

/* Brings host's first spilled page back into memory; false when it could not be read (the crawl
 * cannot go on without losing pages: it stops). */
static bool take_back(frontier *f, struct frontier_host *h) {
  struct frontier_item *item;
  core_rc rc = frontier__spill_take(f, h, &item);
  if (rc) {
    f->spill_error = rc;
    return false;
  }
  append_page(f, h, item);
  return true;
}

/* Brings host's spilled pages back once its pages in memory are gone, up to its share. */
static void refill(frontier *f, struct frontier_host *h) {
  size_t share = host_share(f);
  for (size_t n = 0; n < share && h->spilled && h->pages_in_memory < share; n++)
    if (!take_back(f, h))
      return;
}

/* Whether a page pushed now goes to the spill file: behind pages already spilled (when no
 * shallower than the last of them), or past the budget once the host has its share in memory. */
static bool goes_to_spill(const frontier *f, const struct frontier_host *host,
                          const struct frontier_item *item) {
  uint64_t budget = f->opts.queue_memory;
  const struct frontier_item *last = host->tail && !is_setup(host->tail->kind) ? host->tail : NULL;
  if (item->stays_in_memory)
    return false;
  return host->spilled
             ? item->depth >= host->spill_tail_depth
             : budget && f->pages_in_memory >= budget && host->pages_in_memory >= host_share(f) &&
                   (!last || last->depth <= item->depth);
}

core_rc frontier_push_new(frontier *f, frontier_host *host, struct frontier_item *item) {
  if (!is_setup(item->kind) && f->opts.queue_disk && goes_to_spill(f, host, item)) {
    if (f->spill_end + frontier__spill_size(item) > f->opts.queue_disk)
      return CORE_ETOOLONG;
  }
  frontier_push(f, host, item);
  return CORE_OK;
}

void frontier_push(frontier *f, frontier_host *host, struct frontier_item *item) {
  item->next = item->prev = NULL;
  if (item->kind == FRONTIER_SITEMAP) { /* first in, first out, beside the pages */
    item->prev = host->sitemap_tail;
    if (host->sitemap_tail)
      host->sitemap_tail->next = item;
    else
      host->sitemap_head = item;
    host->sitemap_tail = item;
  } else if (is_setup(item->kind)) {
    /* setup steps keep their own order ahead of every page, but a lookup goes first: nothing
     * else of the host can be fetched without its address (a lookup retried after robots.txt
     * was queued must not fall behind it) */
    struct frontier_item *at = host->head;
    while (item->kind != FRONTIER_RESOLVE && at && is_setup(at->kind))
      at = at->next;
    link_before(host, at, item);
  } else {
    gate_count(f, item->depth, 1);
    /* if the file fails, the page stays in memory: memory grows, nothing is lost */
    bool spill = goes_to_spill(f, host, item);
    if (spill && frontier__spill_append(f, host, item) == CORE_OK) {
      frontier_item_free(item);
    } else {
      if (spill && !f->spill_refused++)
        f->spill_errno = errno ? errno : EIO;
      if (host->spilled && item->depth > host->spill_head_depth)
        host->unsorted = true; /* it belongs between spilled pages */
      append_page(f, host, item);
    }
  }
  f->queued++;
  update(f, host);
}

/* A page of h has left memory (popped, or taken to be fetched ahead or moved up): its spilled
 * pages come back when it was the last, or the host would hold pages that nothing brings back
 * (with one page a host in memory, a page fetched ahead stalled a broad crawl). */
static void left_memory(frontier *f, struct frontier_host *h) {
  h->pages_in_memory--;
  f->pages_in_memory--;
  if (h->pages_in_memory == 0 && h->spilled)
    refill(f, h);
}

/* A page's origin is its host's: the index spans every host. */
static bool in_host(const struct frontier_host *h, const char *url) {
  const char *origin = frontier__origin(h);
  size_t len = strlen(origin);
  return strncmp(url, origin, len) == 0 && (url[len] == '/' || url[len] == '\0');
}

struct frontier_item *frontier_take_deeper(frontier *f, frontier_host *host, const char *url,
                                           int depth) {
  struct frontier_item *it = frontier__index_find(f, url);
  if (!it) {
    if (!(it = frontier__spill_take_deeper(f, host, url, depth)))
      return NULL;
  } else if (it->depth <= depth || !in_host(host, url)) {
    return NULL;
  } else {
    frontier__index_remove(f, it);
    unlink_item(host, it);
    left_memory(f, host);
  }
  f->queued--;
  gate_count(f, it->depth, -1); /* deeper than the level that asks: the gate stays */
  update(f, host);
  return it;
}

static struct frontier_item *unlink_front(frontier *f, struct frontier_host *h) {
  struct frontier_item *item = h->head;
  if (!item)
    return NULL;
  unlink_item(h, item);
  f->queued--;
  if (!is_setup(item->kind)) {
    frontier__index_remove(f, item);
    left_memory(f, h);
  }
  if (!h->head && !h->spilled)
    h->unsorted = false;
  return item;
}

static struct frontier_item *unlink_sitemap(frontier *f, struct frontier_host *h) {
  struct frontier_item *item = h->sitemap_head;
  if (!item)
    return NULL;
  h->sitemap_head = item->next;
  if (h->sitemap_head)
    h->sitemap_head->prev = NULL;
  else
    h->sitemap_tail = NULL;
  item->next = item->prev = NULL;
  f->queued--;
  return item;
}

/* Whether a request of this kind to host takes its address (--ip-delay): a DNS lookup does not. */
static bool claims_ip(const frontier *f, const struct frontier_host *h, frontier_kind kind) {
  return f->opts.ip_delay > 0 && h->ip && kind != FRONTIER_RESOLVE;
}

struct frontier_item *frontier_pop(frontier *f, double now, frontier_host **host) {
  struct frontier_host *h;
  while ((h = frontier__heap_top(f)) && h->key <= now) {
    double key = host_key(f, h);
    if (key > h->key) {
      update(f, h); /* a stale key: another host moved the shared IP's time */
      continue;
    }
    if (!h->head && h->spilled && spilled_key(f, h) <= now) {
      take_back(f, h); /* its first page is read now: its not_before and depth are known */
      continue;
    }
    struct frontier_item *next = next_of(f, h, now);
    if (next->kind == FRONTIER_RESOLVE && f->lookups.slots == 0 &&
        frontier__lookup_wait(f, h) == CORE_OK) {
      update(f, h); /* out of the heap until a slot comes (lookups.c) */
      continue;
    }
    if (next->kind == FRONTIER_RESOLVE && f->lookups.slots && f->lookups.slots != SIZE_MAX)
      f->lookups.slots--;
    if (claims_ip(f, h, next->kind) && !frontier__ip_claim(f->ips, h->ip, now)) {
      /* the address is busy: free at the earliest one gap from now */
      h->ip_retry = now + f->opts.ip_delay;
      update(f, h);
      continue;
    }
    struct frontier_item *item =
        next->kind == FRONTIER_SITEMAP ? unlink_sitemap(f, h) : unlink_front(f, h);
    if (h->sitemap_head || item->kind == FRONTIER_SITEMAP)
      h->page_turn = item->kind == FRONTIER_SITEMAP;
    h->in_flight++;
    if (is_setup(item->kind))
      h->setup_in_flight++;
    update(f, h);
    *host = h;
    return item;
  }
  return NULL;
}

void frontier_set_lookup_slots(frontier *f, size_t slots, double now) {
  f->lookups.slots = slots;
  /* as many go back as may start, due by now, pages due before them still ahead of them; each a
   * hair after the one before it, the last at now, so that the heap keeps their order */
  size_t waiting = frontier_lookups_waiting(f), back = slots < waiting ? slots : waiting;
  double due = now;
  for (size_t n = 1; n < back; n++)
    due = nextafter(due, -INFINITY);
  for (size_t n = 0; n < back; n++) {
    struct frontier_host *h = frontier__lookup_next(f);
    if (h->head && h->head->not_before < due)
      h->head->not_before = due;
    due = nextafter(due, INFINITY);
    update(f, h);
  }
}

/* The popped item is done with its host (a page still holds its depth until released). */
static void popped_done(struct frontier_host *host, const struct frontier_item *item) {
  if (host->in_flight)
    host->in_flight--;
  if (is_setup(item->kind) && host->setup_in_flight)
    host->setup_in_flight--;
}

void frontier_release(frontier *f, int depth) {
  gate_count(f, depth, -1);
}

int frontier_gate(const frontier *f) {
  return f->gate_off ? INT_MAX : effective_gate(f);
}

int frontier_local_gate(const frontier *f) {
  return f->gate_off ? INT_MAX : f->gate;
}

size_t frontier_pending(const frontier *f, int depth) {
  return depth >= 0 && depth < f->pending_cap ? f->pending[depth] : 0;
}

void frontier_set_outside_gate(frontier *f, int depth) {
  if (f->outside == depth)
    return;
  int old = effective_gate(f);
  f->outside = depth;
  if (effective_gate(f) != old)
    gate_moved(f);
}

void frontier_move_pending(frontier *f, int from_depth, int to_depth) {
  gate_count(f, to_depth, 1); /* first: the gate never passes a level still pending */
  gate_count(f, from_depth, -1);
}

void frontier_set_lookahead(frontier *f, int levels) {
  if (f->lookahead != levels) {
    f->lookahead = levels;
    gate_moved(f);
  }
}

void frontier_cancel(frontier *f, frontier_host *host, const struct frontier_item *item) {
  if (claims_ip(f, host, item->kind))
    frontier__ip_release(f->ips, host->ip, 0); /* no request was made: no gap */
  popped_done(host, item);
  update(f, host);
}

/* splitmix64: uniform 64-bit numbers, one per call. */
static uint64_t next_random(frontier *f) {
  uint64_t z = (f->random += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void frontier_end(frontier *f, frontier_host *host, const struct frontier_item *item, double now,
                  double response_seconds) {
  const struct frontier_options *opts = &f->opts;
  frontier_kind kind = item->kind;
  popped_done(host, item);
  if (kind != FRONTIER_RESOLVE) {
    /* the gap runs from the end of this request to the start of the next one (doc/behaviour.md,
     * Politeness) */
    double gap = opts->delay;
    if (opts->random_wait) /* 0.5 to 1.5 times: Crawl-delay and the adaptive delay stay floors */
      gap *= 0.5 + (double)(next_random(f) >> 11) / 9007199254740992.0;
    if (host->crawl_delay > gap)
      gap = fmin(host->crawl_delay, opts->max_delay);
    if (opts->delay_factor > 0)
      gap = fmax(gap, fmin(opts->delay_factor * response_seconds, opts->max_delay));
    host->next_time = fmax(host->next_time, now + gap);
    if (claims_ip(f, host, kind))
      frontier__ip_release(f->ips, host->ip, now + opts->ip_delay);
  }
  update(f, host);
}

double frontier_next_ready(frontier *f) {
  const struct frontier_host *h = frontier__heap_top(f);
  return h ? h->key : INFINITY;
}

struct frontier_item *frontier_drain_host(frontier *f, frontier_host *host) {
  if (!host->head && host->spilled)
    take_back(f, host);
  struct frontier_item *item = unlink_front(f, host);
  if (!item)
    item = unlink_sitemap(f, host);
  else if (item->kind == FRONTIER_PAGE)
    gate_count(f, item->depth, -1);
  update(f, host);
  return item;
}

struct frontier_item *frontier_drain(frontier *f, frontier_host **host) {
  for (; f->drain_bucket < f->host_buckets && f->queued; f->drain_bucket++) {
    for (struct frontier_host *h = f->hosts[f->drain_bucket]; h; h = h->next) {
      if (h->head || h->sitemap_head || h->spilled) {
        *host = h;
        return frontier_drain_host(f, h);
      }
    }
  }
  f->drain_bucket = 0;
  return NULL;
}

size_t frontier_queued(const frontier *f) {
  return f->queued;
}

size_t frontier_spilled(const frontier *f) {
  return f->spilled;
}

uint64_t frontier_spilled_ever(const frontier *f) {
  return f->spilled_ever;
}

uint64_t frontier_spill_refused(const frontier *f, int *error) {
  if (error)
    *error = f->spill_errno;
  return f->spill_refused;
}

core_rc frontier_error(const frontier *f) {
  return f->spill_error;
}

double frontier_busiest(const frontier *f, const char **origin) {
  double most = 0;
  *origin = NULL;
  long per_host = f->opts.per_host > 0 ? f->opts.per_host : 1;
  for (size_t b = 0; b < f->host_buckets; b++)
    for (const struct frontier_host *h = f->hosts[b]; h; h = h->next) {
      size_t pages = h->pages_in_memory + h->spilled;
      double gap = fmax(f->opts.delay, fmin(h->crawl_delay, f->opts.max_delay));
      double seconds = (double)pages * gap / (double)per_host;
      if (pages && seconds > most) {
        most = seconds;
        *origin = frontier__origin(h);
      }
    }
  return most;
}

size_t frontier_host_count(const frontier *f) {
  return f->host_count + f->parked.count;
}

size_t frontier_hosts_in_memory(const frontier *f) {
  return f->host_count;
}

double frontier_host_next_time(const frontier_host *host) {
  return host->next_time;
}

void frontier_hold(frontier *f, int depth) {
  gate_count(f, depth, 1);
}

core_rc frontier_visit(frontier *f, frontier_host_visitor on_host, frontier_item_visitor on_item,
                       void *arg) {
  for (size_t b = 0; b < f->host_buckets; b++) {
    for (struct frontier_host *h = f->hosts[b]; h; h = h->next) {
      core_rc rc = on_host ? on_host(arg, h) : CORE_OK;
      if (!on_item) {
        if (rc)
          return rc;
        continue;
      }
      for (const struct frontier_item *it = h->head; it && !rc; it = it->next)
        rc = on_item(arg, h, it);
      for (const struct frontier_item *it = h->sitemap_head; it && !rc; it = it->next)
        rc = on_item(arg, h, it);
      if (!rc)
        rc = frontier__spill_visit(f, h, on_item, arg);
      if (rc)
        return rc;
    }
  }
  return on_host ? frontier__visit_parked(f, on_host, arg) : CORE_OK;
}
