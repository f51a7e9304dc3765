/* frontier: per-host queues and when each host may be contacted next. Pages go a depth at a
 * time (breadth first across all hosts); within a host and a depth, first in, first out. A host's
 * setup steps (DNS lookup, robots.txt) are items at the front of its queue, so one scheduler times
 * them all. Its sitemaps wait in a queue of their own and take turns with its pages. The seen
 * filter guards it: no URL is queued twice. */
#ifndef CRAWL_FRONTIER_H
#define CRAWL_FRONTIER_H

#include "core/core.h"
#include "seen/seen.h"

typedef struct frontier frontier;
typedef struct frontier_host frontier_host;

typedef enum {
  FRONTIER_PAGE,    /* a URL to fetch */
  FRONTIER_RESOLVE, /* look up the host's address */
  FRONTIER_ROBOTS,  /* fetch the host's robots.txt */
  FRONTIER_SITEMAP  /* fetch a sitemap: timed like a page, after robots.txt, in turn with pages */
} frontier_kind;

/* One allocation with its strings (a broad crawl queues hundreds of thousands): the fields
 * ordered so that none pads, the URL last. */
struct frontier_item {
  struct frontier_item *next, *prev; /* the frontier's: its place in its host's queue */
  char *from; /* page it was found on, NULL for seeds; in the item's allocation, after url */
  double not_before;
  frontier_kind kind;
  int depth;
  int attempts;   /* transient failures so far */
  int redirects;  /* hops so far in its redirect chain */
  unsigned flags; /* the owner's bits, kept as they are */
  /* never goes to the spill file: its owner will look for it with frontier_take_deeper, which
   * finds pages in memory only (a page fetched ahead of its level waits so until confirmed) */
  bool stays_in_memory;
  char url[]; /* printed form */
};

/* url and from are copied. Caller frees with frontier_item_free, or hands it to frontier_push. */
struct frontier_item *frontier_item_new(frontier_kind kind, const char *url, const char *from,
                                        int depth);
void frontier_item_free(struct frontier_item *item);

/* The clocks of --ip-delay, by address: one table may serve several frontiers, on any threads
 * (the shards of a crawl), so hosts of one address in different frontiers take turns too. */
typedef struct frontier_ip_table frontier_ip_table;
core_rc frontier_ip_table_create(frontier_ip_table **out);
/* After every frontier that uses it. */
void frontier_ip_table_destroy(frontier_ip_table *t);

/* How the frontier times hosts and how much it keeps in memory. */
struct frontier_options {
  double delay;        /* seconds from the end of one request to a host to the next's start */
  double delay_factor; /* adaptive: this times the last response time, when longer; 0 off */
  double max_delay;    /* cap of Crawl-delay and of the adaptive delay */
  double ip_delay;     /* the same gap per IP address, across hosts, one request at a time; 0 off */
  bool random_wait;    /* delay times a random factor in [0.5, 1.5] at each gap (wget's) */
  frontier_ip_table *ip_table; /* borrowed, shared with other frontiers; NULL: one of its own */
  long per_host;               /* requests in flight to one host */
  uint64_t queue_memory; /* pages kept in memory; the rest wait in a spill file (0: no limit) */
  uint64_t queue_disk;   /* bytes the spill file may hold (0: no limit); see frontier_push_new */
  /* bytes of the owner's data each host carries in its own allocation (frontier_host_data),
   * zeroed when the host is made; at most FRONTIER_HOST_DATA_MAX */
  size_t host_data_size;
};
#define FRONTIER_HOST_DATA_MAX (255 * 8)
/* A host takes one allocation: FRONTIER_HOST_FIELDS bytes of the frontier's, then its owner's
 * data, then its origin with its NUL (an owner may hold its data to a malloc chunk with this). */
#define FRONTIER_HOST_FIELDS 152

/* opts is copied; seen is borrowed until frontier_destroy. release_data lets go of what a host's
 * data holds (not the data itself, which is the host's) as the host leaves memory: at
 * frontier_destroy, and as it parks (may be NULL). CORE_EINVAL: host_data_size too large. */
core_rc frontier_create(const struct frontier_options *opts, seen_filter *seen,
                        void (*release_data)(void *), frontier **out);
void frontier_destroy(frontier *f);

/* Records url in the seen filter; *was_new says whether it was not there before. */
core_rc frontier_mark_seen(frontier *f, const char *url, bool *was_new);
/* The same for n URLs in order, checked together (seen_add_batch). */
core_rc frontier_mark_seen_batch(frontier *f, size_t n, const char *const urls[],
                                 const size_t lens[], bool was_new[]);

/* Finds or creates the host of origin ("http://a.example:8080"); *created tells which. A parked
 * host is brought back as it was (its data made again by its owner, struct frontier_parking). */
core_rc frontier_host_get(frontier *f, const char *origin, frontier_host **host, bool *created);
/* The host of origin, brought back when parked, or NULL when there is none yet (or memory ran
 * out bringing it back). */
frontier_host *frontier_host_find(frontier *f, const char *origin);
const char *frontier_host_origin(const frontier_host *host);
/* The owner's data of host (frontier_options.host_data_size bytes, 8-byte aligned; NULL when
 * that is 0), and the host whose data that is. */
void *frontier_host_data(const frontier_host *host);
frontier_host *frontier_host_of_data(void *data);
/* Hosts sharing an address share the --ip-delay gap. */
core_rc frontier_host_set_ip(frontier *f, frontier_host *host, const char *addr);
/* The address frontier_host_set_ip gave host, NULL before: borrowed from the table of addresses,
 * which keeps it until frontier_ip_table_destroy (or the frontier's, when it has its own). */
const char *frontier_host_addr(const frontier_host *host);
/* robots.txt Crawl-delay in seconds (capped by --max-delay). */
void frontier_host_set_crawl_delay(frontier_host *host, double seconds);
/* No request to host starts before until (Retry-After, backoff). */
void frontier_host_defer(frontier *f, frontier_host *host, double until);

/* Takes ownership of item. Setup items go to the front and hold the host's pages back: a lookup
 * first of all, the others in the order they come. Sitemaps queue apart, first in, first out:
 * when a sitemap and a page of the host may both start, they take turns (one of each). */
void frontier_push(frontier *f, frontier_host *host, struct frontier_item *item);
/* Removes and returns host's queued page url when its depth is more than depth (a redirect target
 * found before as a deeper link, which is to take the redirect's depth), or NULL. Finds it among
 * the pages in memory, by an index of them (whatever the queue's length), never in the spill
 * file. */
struct frontier_item *frontier_take_deeper(frontier *f, frontier_host *host, const char *url,
                                           int depth);
/* The next item whose host may be contacted at now, or NULL. Counts as a request in flight
 * until frontier_end. Caller owns the item. */
struct frontier_item *frontier_pop(frontier *f, double now, frontier_host **host);
/* At most slots lookups (FRONTIER_RESOLVE items) may be popped from now on (each pop takes one),
 * until the owner says again: past them, a host whose turn is its lookup waits out of turn, first
 * come first served, and at each call as many as there are slots go back to their turn, due at
 * now. Without a call, any number may. */
void frontier_set_lookup_slots(frontier *f, size_t slots, double now);
/* Hosts waiting for a lookup slot. */
size_t frontier_lookups_waiting(const frontier *f);
/* The request for item, popped from host, ended at now after response_seconds. */
void frontier_end(frontier *f, frontier_host *host, const struct frontier_item *item, double now,
                  double response_seconds);
/* The popped item was settled without a request (robots, limits): no politeness gap follows. */
void frontier_cancel(frontier *f, frontier_host *host, const struct frontier_item *item);
/* A popped page of depth is done: its links have been offered (or it has none). Until then it
 * holds deeper pages back. Every popped page is released once, also one pushed back. */
void frontier_release(frontier *f, int depth);
/* The smallest depth of a page pending (queued, or popped and not released), here or elsewhere
 * (frontier_set_outside_gate); INT_MAX for none. */
int frontier_gate(const frontier *f);
/* The same, of this frontier's own pages only. */
int frontier_local_gate(const frontier *f);
/* How many of this frontier's pages of depth are pending (queued, popped and not released, or
 * held by frontier_hold). */
size_t frontier_pending(const frontier *f, int depth);
/* The smallest depth pending outside this frontier (the other shards of a crawl, and the links
 * on their way between them): its pages deeper than it wait as for its own. INT_MAX: none. */
void frontier_set_outside_gate(frontier *f, int depth);
/* How many levels below the gate pages may start as well (0: none); their owner must hold back
 * their links until frontier_gate reaches their depth. */
void frontier_set_lookahead(frontier *f, int levels);
/* A popped page that counted as pending at from_depth counts at to_depth from now on (a page
 * whose depth turned out smaller); frontier_release then takes to_depth. */
void frontier_move_pending(frontier *f, int from_depth, int to_depth);
/* frontier_push for a page new to the crawl: CORE_ETOOLONG, the item left to the caller, when it
 * would go to the spill file and take it past opts.queue_disk. (Pages queued again, a retry or
 * a page taken back, always go in: they were accepted.) */
core_rc frontier_push_new(frontier *f, frontier_host *host, struct frontier_item *item);
/* Earliest time frontier_pop may return something (INFINITY when nothing is queued). */
double frontier_next_ready(frontier *f);
/* Removes and returns any queued item (for the end of a crawl), or NULL when all are gone. */
struct frontier_item *frontier_drain(frontier *f, frontier_host **host);
/* Removes and returns the next queued item of one host, or NULL. */
struct frontier_item *frontier_drain_host(frontier *f, frontier_host *host);
size_t frontier_queued(const frontier *f);
/* Of those, how many wait in the spill file (past cfg->queue_memory pages in memory). */
size_t frontier_spilled(const frontier *f);
/* How many pages went through the spill file in all. */
uint64_t frontier_spilled_ever(const frontier *f);
/* How many pages stayed in memory past queue_memory because the spill file could not be made or
 * written (nothing is lost: memory grows instead), and in *error (may be NULL) the errno of the
 * first failure. */
uint64_t frontier_spill_refused(const frontier *f, int *error);
/* CORE_OK, or why a spilled page could not be read back; the crawl must stop then. */
core_rc frontier_error(const frontier *f);
/* The hosts known: in memory and parked. */
size_t frontier_host_count(const frontier *f);
/* Of those, the ones in memory. */
size_t frontier_hosts_in_memory(const frontier *f);
/* The host whose queue takes longest at its pace: its pages times its gap (--delay, or its
 * Crawl-delay up to --max-delay), over the requests it may have in flight. Its seconds, and its
 * origin in *origin (borrowed until the host goes); 0 and NULL when no host has a page queued.
 * It looks at every host: for the status line, twice a second, not for every turn. */
double frontier_busiest(const frontier *f, const char **origin);
/* Whether host has anything queued (pages, in memory or spilled, or sitemaps). */
bool frontier_host_has_queued(const frontier_host *host);
/* Requests to host in flight (popped and not yet ended), its setup steps included. */
unsigned frontier_host_in_flight(const frontier_host *host);
/* Whether host has nothing queued and nothing in flight. */
bool frontier_host_idle(const frontier_host *host);
/* When host may next be contacted (core_now's clock), as its politeness gaps have it. */
double frontier_host_next_time(const frontier_host *host);
/* One more page of depth pending, as if popped and not yet released: a page restored from a
 * checkpoint with its links still held back. frontier_release ends it. */
void frontier_hold(frontier *f, int depth);
/* Visits every host (on_host, may be NULL) and then each of its queued items in order, those in
 * the spill file included (read back into a temporary copy; on_item NULL: the hosts alone, and
 * nothing is read). Parked hosts, which have nothing queued, are visited last, each as a copy
 * made for the call: what on_host changes of it is not kept. Stops at, and returns, the first
 * result that is not CORE_OK. Nothing of the queues is changed (on_host may change the data of
 * a host in memory). */
typedef core_rc (*frontier_host_visitor)(void *arg, frontier_host *host);
typedef core_rc (*frontier_item_visitor)(void *arg, frontier_host *host,
                                         const struct frontier_item *item);
core_rc frontier_visit(frontier *f, frontier_host_visitor on_host, frontier_item_visitor on_item,
                       void *arg);

/* Parking (doc/design.md, Memory): a broad crawl is done with most of its hosts long before it
 * ends. An idle host (nothing queued or in flight) may leave memory for the frontier's host file,
 * an unlinked temporary file, keeping only its place there in an index by its origin (some 20
 * bytes); frontier_host_get and frontier_host_find bring it back as it was, its politeness
 * (next_time, Crawl-delay, address) included. Its data goes with it: the owner saves it as bytes
 * and makes it again from them. */
struct frontier_parking {
  void *arg;
  /* Whether host, idle, leaves memory now (the owner may put its data in a form save takes). */
  bool (*leaves)(void *arg, frontier_host *host);
  /* Appends the bytes of data to out; false when it cannot be saved (then the host stays). The
   * frontier lets go of it (release_data) once the host is parked. */
  bool (*save)(void *arg, const void *data, struct core_buf *out);
  /* Makes host's data (zeroed) again from the bytes save gave; false when memory runs out. */
  bool (*load)(void *arg, frontier_host *host, void *data, const void *bytes, size_t len);
};
/* Turns parking on (parking is copied; its arg is borrowed). */
void frontier_set_parking(frontier *f, const struct frontier_parking *parking);
/* Parks each idle host in memory that parking's leaves lets go; *parked counts them. CORE_ESYS
 * (errno set), once, when the host file cannot be made or written: no host parks for the rest of
 * the run (leaves is still asked), and those parked stay so. CORE_ENOMEM when the index cannot
 * grow (the host stays). */
core_rc frontier_park_idle(frontier *f, size_t *parked);
/* How many parked hosts did not read back (a damaged file): each was made anew, as unknown. */
uint64_t frontier_parked_lost(const frontier *f);

#endif
