/* frontier/: what its files share and no one else sees. frontier.c keeps the queues, the heap of
 * hosts, the depth gate, the spill file and the index of pages; park.c the hosts parked on disk. */
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

/* One allocation with its origin, fields ordered so that none pads: a broad crawl keeps a
 * million of them (doc/design.md, Memory). */
struct frontier_host {
  void *data;
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
  size_t pages_in_memory;
  size_t heap_index; /* SIZE_MAX when not in the heap */
  unsigned in_flight;
  unsigned setup_in_flight; /* RESOLVE or ROBOTS in flight: pages wait */
  int spill_head_depth, spill_tail_depth;
  int split_depth;
  bool split_known;
  bool page_turn; /* a sitemap went last: a page goes next, when one may */
  /* its pages are out of depth order (one had to be queued between spilled pages of smaller
   * and larger depth): the depth gate leaves it alone until its queue empties */
  bool unsorted;
  char origin[];
};

struct frontier {
  struct frontier_options opts;
  uint64_t random; /* --random-wait's generator (splitmix64) state */
  void (*free_data)(void *);
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
};

/* Puts h, made again from its record, in the table of hosts in memory. */
void frontier__host_link(frontier *f, struct frontier_host *h, uint64_t hash);
/* Takes h out of the heap, when it is there. */
void frontier__heap_leave(frontier *f, struct frontier_host *h);

/* park.c: the host of origin (its hash given) brought back from the host file, linked into the
 * table of hosts; NULL when it is not parked (or did not read back: then it is forgotten, and
 * counted). CORE_ENOMEM in *rc when memory ran out (it stays parked). */
struct frontier_host *frontier__unpark(frontier *f, const char *origin, uint64_t hash, core_rc *rc);
/* Visits each parked host as a copy made for the call (frontier_visit). */
core_rc frontier__visit_parked(frontier *f, frontier_host_visitor on_host, void *arg);
void frontier__parked_free(frontier *f);

#endif
