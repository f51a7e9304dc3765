/* frontier/: what its files share and no one else sees. frontier.c keeps the queues, the table
 * of hosts and the depth gate; heap.c the heap of hosts by key; lookups.c the hosts waiting for a
 * lookup; ip.c the table of addresses
 * (--ip-delay); spill.c the spill file; index.c the pages in memory by URL; park.c the hosts
 * parked on disk. */
#ifndef CRAWL_FRONTIER_INT_H
#define CRAWL_FRONTIER_INT_H

#include "frontier/frontier.h"

#include <stddef.h>
#include <stdint.h>

/* The hosts parked in the host file (park.c): an index from each one's origin hash to its record,
 * open addressing with linear probing, a power of two of slots at most three quarters full. */
struct frontier_parked {
  struct frontier_parking ops; /* set: parking is on */
  bool on;
  bool broken; /* the file could not be made or written: no more parking this run */
  int fd;      /* -1 until the first host parks */
  uint64_t end;
  struct parked_slot {
    uint64_t hash;
    uint64_t at; /* offset << 16 | size of its record; 0: empty */
  } * slots;
  size_t slot_count, count;
  uint64_t lost;       /* records that did not read back: their hosts were made anew */
  struct core_buf buf; /* one record */
};

/* One allocation a host: these fields, then its owner's data (frontier_options.host_data_size,
 * at HOST_DATA_AT), then its origin with its NUL, so that a host of a broad crawl takes one malloc
 * chunk, not two; the fields are ordered so that none pads, as a broad crawl keeps a million of
 * them (doc/design.md, Memory). */
struct frontier_host {
  struct frontier_item *head, *tail;
  /* its sitemaps, in a queue of their own: they and its pages take turns (next_of), so that
   * an index of 50,000 sitemaps does not keep the host's pages waiting behind it */
  struct frontier_item *sitemap_head, *sitemap_tail;
  /* where its pages deeper than split_depth begin (NULL: none), while split_known: a page of
   * that depth queued behind deeper ones goes there, and a level's redirects come in a row */
  struct frontier_item *split;
  struct ip_slot *ip;
  struct frontier_host *next; /* hash chain */
  double next_time;           /* earliest start of the next request */
  double ip_retry;            /* its address was busy: not before this */
  double crawl_delay;
  double key;
  uint64_t spill_head, spill_tail; /* offsets + 1 of its first and last spilled page; 0: none */
  uint64_t parked_at; /* its last record in the host file (park.c): offset << 16 | size; 0: none */
  size_t spilled;
  /* 32 bits where that is room enough, so that a host of a broad crawl (an origin of some 30
   * bytes) fits a 192-byte malloc chunk, not a 208-byte one (doc/design.md, Memory): pages in
   * memory and hosts in the heap are bounded by memory, at 50 bytes and more each */
  uint32_t pages_in_memory;
  uint32_t heap_index; /* HEAP_NONE when not in the heap */
  unsigned in_flight;
  int spill_head_depth, spill_tail_depth;
  int split_depth;
  uint8_t setup_in_flight; /* RESOLVE or ROBOTS in flight (one at a time): pages wait */
  uint8_t data_words;      /* the owner's data, in 8-byte words (frontier.data_words) */
  bool split_known : 1;
  bool page_turn : 1; /* a sitemap went last: a page goes next, when one may */
  /* its pages are out of depth order (one had to be queued between spilled pages of smaller
   * and larger depth): the depth gate leaves it alone until its queue empties */
  bool unsorted : 1;
  bool lookup_waiting : 1; /* in the queue of hosts waiting for a lookup (lookups.c), out of the
                            * heap */
  char rest[];             /* the owner's data and the origin */
};
#define HEAP_NONE UINT32_MAX
/* where the owner's data begins: past the fields, 8-byte aligned for its pointers and doubles */
#define HOST_DATA_AT ((offsetof(struct frontier_host, rest) + 7) & ~(size_t)7)
/* a field more would move the owner's data, and with it a broad web's host, into the next chunk
 * (frontier.h, FRONTIER_HOST_FIELDS) */
_Static_assert(HOST_DATA_AT == FRONTIER_HOST_FIELDS, "frontier_host outgrew its fields");

static inline void *frontier__host_data(const struct frontier_host *h) {
  return (char *)h + HOST_DATA_AT;
}
static inline char *frontier__origin(const struct frontier_host *h) {
  return (char *)h + HOST_DATA_AT + (size_t)h->data_words * 8;
}

struct frontier {
  struct frontier_options opts;
  uint64_t random;              /* --random-wait's generator (splitmix64) state */
  void (*release_data)(void *); /* lets go of what a host's data holds */
  uint8_t data_words;           /* of each host's data */
  seen_filter *seen;            /* borrowed */
  struct frontier_host **hosts; /* hash table */
  size_t host_buckets, host_count;
  frontier_ip_table *ips; /* opts.ip_table, or one of its own */
  bool own_ips;
  struct frontier_host **heap;
  size_t heap_len, heap_cap;
  size_t queued;
  size_t drain_bucket; /* where frontier_drain resumes its scan */
  size_t pages_in_memory;
  int spill_fd; /* -1 until the first page spills */
  uint64_t spill_end;
  size_t spilled;
  uint64_t spilled_ever;
  uint64_t spill_refused; /* pages kept in memory because the spill file could not take them */
  int spill_errno;        /* why, the first time */
  core_rc spill_error;    /* a spilled page could not be read back: it would be lost */
  /* the depth gate: pending[d] pages of depth d are queued, or popped and not yet released */
  size_t *pending;
  int pending_cap;
  int gate;      /* the smallest depth pending (INT_MAX: none); deeper pages wait */
  int outside;   /* the smallest depth pending elsewhere (other shards); INT_MAX: none */
  int lookahead; /* pages this many levels deeper may start too (their links held back) */
  bool gate_off; /* its counts could not grow: no gate, rather than a stalled crawl */
  /* the pages in memory by URL: open addressing, linear probing, a power of two of slots at most
   * three quarters full (frontier_take_deeper); index_off when it could not grow. Each slot keeps
   * its URL's hash: probes and the shift after a removal compare hashes, not the items' URLs,
   * which they would have to read (a cache miss each) and hash again */
  struct index_slot {
    struct frontier_item *item; /* NULL: empty */
    uint64_t hash;
  } * index;
  size_t index_cap, index_count;
  bool index_off;
  struct frontier_parked parked;
  /* lookups.c: how many lookups may be popped before the owner says again (SIZE_MAX: any), and
   * the hosts waiting for one, a ring, oldest at head */
  struct frontier_lookups {
    size_t slots;
    struct frontier_host **hosts;
    size_t head, len, cap;
  } lookups;
};

/* item.c: an item and its strings in one allocation: url_len and from_len bytes of room, each with
 * its
 * '\0'; from is NULL when has_from is false. */
struct frontier_item *frontier__item_alloc(size_t url_len, bool has_from, size_t from_len);
/* hosts.c: puts h (new, or made again from its record) in the table of hosts in memory; the host
 * of origin (of hash hash) there, or NULL. */
void frontier__host_link(frontier *f, struct frontier_host *h, uint64_t hash);
/* A host of origin (origin_len bytes) with its fields and data zeroed, in no table; NULL when
 * memory runs out. */
struct frontier_host *frontier__host_new(const frontier *f, const char *origin, size_t origin_len);
/* Lets go of h (its queues empty or freed), what its data holds first. */
void frontier__host_free(const frontier *f, struct frontier_host *h);
struct frontier_host *frontier__host_in_memory(const frontier *f, const char *origin,
                                               uint64_t hash);

/* lookups.c: h, whose next item is its lookup, waits out of the heap for a lookup slot (the
 * queue could not grow: CORE_ENOMEM, nothing changed); the host that has waited longest, out
 * of the queue, or NULL when none waits; the queue freed. */
core_rc frontier__lookup_wait(frontier *f, struct frontier_host *h);
struct frontier_host *frontier__lookup_next(frontier *f);
void frontier__lookups_free(frontier *f);

/* heap.c: h at key (INFINITY: out of the heap), wherever it was; h out of the heap, when it is
 * there; the host with the smallest key, NULL when none. */
void frontier__heap_place(frontier *f, struct frontier_host *h, double key);
void frontier__heap_leave(frontier *f, struct frontier_host *h);
struct frontier_host *frontier__heap_top(const frontier *f);

/* ip.c: the slot of addr, made on first sight (NULL when memory runs out); takes the address
 * for one request at now (false when one is in flight or its gap runs); gives it back, none to
 * start before until; when it may be asked next (read without the lock); its text. */
struct ip_slot *frontier__ip_slot(frontier_ip_table *t, const char *addr);
bool frontier__ip_claim(frontier_ip_table *t, struct ip_slot *s, double now);
void frontier__ip_release(frontier_ip_table *t, struct ip_slot *s, double until);
double frontier__ip_next_time(const struct ip_slot *s);
const char *frontier__ip_addr(const struct ip_slot *s);

/* spill.c: appends item to the back of h's chain on disk (on success the item is no longer
 * needed); reads h's first spilled page back; takes url out of h's spilled pages when it is
 * deeper than depth (NULL when not there; a read error is kept in f->spill_error); the bytes
 * item takes on disk. */
core_rc frontier__spill_append(frontier *f, struct frontier_host *h,
                               const struct frontier_item *item);
core_rc frontier__spill_take(frontier *f, struct frontier_host *h, struct frontier_item **out);
struct frontier_item *frontier__spill_take_deeper(frontier *f, struct frontier_host *h,
                                                  const char *url, int depth);
uint64_t frontier__spill_size(const struct frontier_item *item);
/* Hands on_item each of h's spilled pages still in turn, read back for the call. */
core_rc frontier__spill_visit(frontier *f, struct frontier_host *h, frontier_item_visitor on_item,
                              void *arg);

/* index.c: the pages in memory by URL (an index that cannot grow turns itself off: redirect
 * targets then keep their links' depth, and nothing is lost). */
void frontier__index_add(frontier *f, struct frontier_item *item);
void frontier__index_remove(frontier *f, const struct frontier_item *item);
struct frontier_item *frontier__index_find(const frontier *f, const char *url);

/* park.c: the host of origin (its hash given) brought back from the host file, linked into the
 * table of hosts; NULL when it is not parked (or did not read back: then it is forgotten, and
 * counted). CORE_ENOMEM in *rc when memory ran out (it stays parked). */
struct frontier_host *frontier__unpark(frontier *f, const char *origin, uint64_t hash, core_rc *rc);
/* Visits each parked host as a copy made for the call (frontier_visit). */
core_rc frontier__visit_parked(frontier *f, frontier_host_visitor on_host, void *arg);
void frontier__parked_free(frontier *f);

#endif
