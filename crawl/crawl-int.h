/* Shared by the files of the crawl engine (doc/design.md, The engine): a shard's state and the
 * steps one file hands to another. */
#ifndef CRAWL_CRAWL_INT_H
#define CRAWL_CRAWL_INT_H

#include "crawl/crawl.h"
#include "fetch/fetch.h"
#include "frontier/frontier.h"
#include "parse/parse.h"
#include "warc/warc.h"

#include <pthread.h>
#include <stdio.h>

#define ITEM_QUIET 1u /* not printed (-A, or a seed an earlier run recorded): no record */
#define ITEM_SEED 2u  /* a seed: when no seed gets a response, the exit status says so */
#define ITEM_HEAD 4u  /* --check-skipped: a HEAD request for a URL in --skip-ext */
#define ITEM_SPEC 8u  /* a speculative page (speculate.c): not accepted yet */
/* left by a limit in a --state crawl, its limit record written: the same limit met again in a
 * later run writes no second record */
#define ITEM_LEFT 16u
/* with ITEM_HEAD: asked again with GET, as the server refused HEAD (405, 501) */
#define ITEM_GET 32u
/* Where the URL was found (enum via) rides in an item's flags from here up. */
#define ITEM_VIA_SHIFT 8
#define ITEM_VIA_MASK (0x1fu << ITEM_VIA_SHIFT)
#define ITEM_VIA(flags) (((flags)&ITEM_VIA_MASK) >> ITEM_VIA_SHIFT)
#define SAVE_EVERY 60.0              /* seconds between saves of --seen during a long crawl */
#define ROBOTS_MAX_AGE (24 * 3600.0) /* RFC 9309 2.4: a cached robots.txt serves 24 hours */
#define LOOKUPS_MAX 64               /* DNS lookups in flight at once */
#define SPEC_LEVELS (1 << 20)        /* levels below the gate speculative pages may run */
#define LEASE_WAIT 0.01 /* seconds a page waits for a lease of -n with --cluster (bridge.c) */

enum robots_state { ROBOTS_PENDING, ROBOTS_KNOWN, ROBOTS_DISALLOW_ALL };

struct host_data {
  char *host;
  unsigned port;
  char *addr; /* NULL until resolved; unused for IP literals */
  bool host_is_ip;
  enum robots_state robots_state;
  double robots_time;       /* when robots_state was last settled */
  crawl_cause robots_cause; /* ROBOTS_DISALLOW_ALL: why robots.txt could not be fetched */
  char *robots_error;       /* and the error its pages fail with (owned; NULL until then): a
                             * host costs what its state needs, as hosts may be a million */
  parse_robots *robots;     /* NULL: everything allowed */
  int dns_attempts;
  int robots_attempts;
  bool dead; /* DNS failed after every retry */
  /* the first URL settled for it came by a redirect from this kind of address (URL_ADDR_NONE:
   * not by a redirect, or none yet): its robots.txt is asked only where the redirect may lead */
  url_addr_kind redirected_from;
  bool reached; /* a URL of it was settled */
  long pages_started;
  struct query_counts *queries; /* --max-query-variants: per path, its query strings; NULL: none */
  bool trap_noted;              /* -v has named a trap rule for this host */
  struct frontier_item *resolving; /* the RESOLVE item while its lookup runs */
  struct shard *crawl;
  frontier_host *fhost;
};

/* Links found on one page or sitemap, held until the seen filter checks them together: one
 * batch lets the filter's cache misses overlap (seen_add_batch). Flushed after every chunk
 * parsed, so nothing waits on the network. */
enum { LINK_BATCH = 32 };

/* Where a URL was found, as --jsonl's via names it (crawl__via_name): VIA_NONE when not known (a
 * link an older version saved); a redirect, VIA_REDIRECT plus the url_addr_kind of the host that
 * redirected (URL_ADDR_NONE: not known, a proxy connected), checked where its target is fetched
 * (doc/network.md, Private addresses); or past VIA_PAGE one of a page's parse_via. The number
 * rides in an item's flags and in the lines between shards and in saves (crawl__how_code): values
 * are only ever appended. */
enum via {
  VIA_NONE,
  VIA_SEED,
  VIA_SITEMAP,
  VIA_REDIRECT,
  VIA_PAGE = VIA_REDIRECT + URL_ADDR_NONE + 1
};
#define VIA_COUNT (VIA_PAGE + PARSE_VIA_COUNT)
/* How a link was found, carried with it to its fate: where, and whether it may be followed (not
 * when its page said nofollow). */
struct link_how {
  unsigned char via;
  bool follow;
};
const char *crawl__via_name(unsigned via);
/* One letter for a link_how in a line: upper case when followed, the letter the via; "0" and "1"
 * of older lines read as followed or not, via unknown. */
char crawl__how_code(struct link_how how);
bool crawl__how_parse(char code, struct link_how *how);

struct link_batch {
  struct url urls[LINK_BATCH];
  int depth[LINK_BATCH];
  struct link_how how[LINK_BATCH];
  size_t count;
};

/* The links of a page fetched ahead of its level (see frontier_set_lookahead), held back until
 * the level comes: offered earlier, they could be found first at a depth too deep. They may be
 * many (up to --queue-memory), so each keeps only its printed form, in one buffer per page, and
 * is parsed again when offered. */
struct held_link {
  size_t text; /* offset of its printed form in the page's texts */
  int depth;
  struct link_how how;
};
struct held_page {
  struct held_page *next;
  char *from; /* the page */
  int depth;  /* the page's */
  struct held_link *links;
  size_t count, cap;
  struct core_buf texts; /* the links' printed forms, each ending in '\0' */
};

struct spec;
struct crawl; /* mesh.c: what the shards of a crawl share */

/* Links for one other shard, sent once per turn (mesh.c). */
struct shard_outbox {
  struct core_buf buf;
  int min; /* the smallest depth its links count at; INT_MAX: none */
};

struct request {
  struct shard *crawl;
  struct spec *spec; /* a speculative page's entry, until it is confirmed */
  frontier_host *host;
  struct frontier_item *item;
  struct url url;
  struct url base; /* <base href>, when the page has one */
  parse_html *html;
  parse_css *css; /* a style sheet's links */
  parse_js *js;   /* --js: a script's links */
  parse_sitemap *sitemap;
  bool nofollow;
  bool sniffing;           /* a body of no known type: its first bytes wait in body (page_body) */
  url_addr_kind addr_kind; /* of the address it was sent to (URL_ADDR_NONE: a proxy's) */
  long status;
  char type[128];
  struct core_buf body; /* robots.txt, or the first bytes of a body being sniffed */
  struct link_batch links;
  int gate_depth;         /* a page's depth, which it holds in the frontier until freed; or -1 */
  struct held_page *held; /* its links so far, when it runs ahead of its level */
  struct request *prev, *next;
};

/* What a link on its way between shards (or processes, or in a save's transit line) is. The
 * values are the letters that start its line, so they are only ever appended. */
enum link_kind {
  LINK_FOUND = 'L',    /* a link on a page */
  LINK_REDIRECT = 'R', /* a redirect's target */
  LINK_SITEMAP = 'S',  /* a sitemap to queue */
  LINK_AHEAD = 'P'     /* a held link, for its owner to fetch ahead (speculate.c) */
};

/* How far a shard (or the run) is from stopping; the larger wins when shards share theirs. */
enum shard_stop {
  STOP_NONE,      /* running */
  STOP_FINISHING, /* no new request: what is in flight finishes (a first signal, a limit) */
  STOP_NOW        /* at once: a fatal error, a second signal, the output gone */
};

/* Seeds enter the frontier a window at a time (seed.c), so a million seeds on a million hosts do
 * not make a million hosts at once: cfg->seeds before next were offered, each by the shard that
 * owns it; while some wait (unfed), depth 0 stays pending in the gate. */
struct shard_seeds {
  size_t next;
  /* the seeds this shard owns not offered yet (exact); a link to one makes it a seed at once, as
   * if it had been offered first. NULL once every seed was offered. */
  seen_filter *unfed;
  char **dirs; /* --no-parent: each seed's origin and directory ("http://a.example/docs/") */
  size_t dir_count;
};

/* --seen and --state (checkpoint.c). */
struct shard_save {
  const char *path;             /* --seen FILE or --state's DIR/checkpoint; NULL for neither */
  char *state_path, *prev_path; /* --state: DIR/checkpoint and the one before it */
  double every;                 /* seconds between saves */
  loop_timer *timer;
  bool restored;   /* a --state crawl continued from its checkpoint */
  bool complete;   /* and that crawl had ended with nothing left: no request is made */
  bool final;      /* the save at the run's end is being written */
  bool begun;      /* its seeds queued or its part of the checkpoint restored: a save may be made */
  FILE *resumable; /* what the last save holds, as loaded (a temporary file) */
  FILE *leftovers; /* pages a limit kept from being fetched, for the next run (made when needed) */
  uint64_t leftover_count;
  bool leftovers_lost;  /* that file could not be made */
  uint64_t warc_keep;   /* --warc's length at the checkpoint continued from (UINT64_MAX: all) */
  uint64_t output_keep; /* the same for -o FILE (crawl__cut_output) */
};

/* Pages done ahead of their level (held.c), by their depth, each level first in first out: a level
 * is offered when the gate reaches it, whatever deeper pages were done before. */
struct shard_held {
  struct held_level {
    struct held_page *head, *tail;
  } * levels;
  int level_count; /* entries of levels */
  int min;         /* the smallest depth with a held page; INT_MAX for none */
  size_t pages;
  size_t links;
};

/* URLs one level beyond --depth (depthcut.c): their fate waits until no page within it is pending,
 * as a redirect of the last level may still reach one (which is then fetched at its depth). */
struct shard_cut {
  seen_filter *all;     /* every one of them (a Bloom filter) */
  seen_filter *rescued; /* those a redirect reached */
  FILE *records;        /* their records, to settle when the last level is done */
  uint64_t pending;
};

/* Speculative fetches (speculate.c). */
struct shard_spec {
  bool on;             /* made in this crawl */
  bool ahead;          /* and they may be made now, within their budget */
  size_t links;        /* of held.links, those kept with fetched speculative pages */
  struct spec **table; /* their entries by URL */
  size_t buckets, count;
};

struct shard {
  const struct crawl_config *cfg;
  struct crawl *run;             /* shared with the other shards */
  int shard;                     /* this one's index */
  struct shard_outbox *outboxes; /* one per shard; NULL for a crawl of one */
  struct shard_outbox *remotes;  /* --cluster: one per process (this one's stays empty) */
  struct bridge *bridge;         /* --cluster, the first shard: its link to Redis (bridge.c) */
  bool slot_held;                /* pop_and_start holds a slot of -c for the item it pops */
  size_t lookups_max;            /* DNS lookups in flight at once */
  uint64_t queue_memory;         /* its part of --queue-memory (0: no limit) */
  uint64_t queue_disk;           /* its part of --queue-disk, for its spill file (0: no limit) */
  bool queue_disk_noted;         /* -v has said the spill file is full */
  uint64_t seen_expect;          /* its part of --expect */
  const struct crawl_sink *sink;
  void *writer; /* this shard's, from sink->open */
  struct crawl_stats *stats;
  event_loop *loop;
  fetch_engine *engine;
  fetch_cookies *cookies;    /* the run's one jar (crawl_run owns it); NULL: --no-cookies */
  double rate_until;         /* --rate: no request of this shard starts before (its last refusal) */
  struct seed_login *logins; /* the seeds' hosts this shard owns, by key (logins.c) */
  size_t login_count;
  frontier *fr;
  url_scope *scope;           /* the first shard's, read by all */
  bool scope_borrowed;        /* it is: the first shard frees it */
  seen_filter *seen;          /* with --seen or --state and several shards, the first's (shared) */
  bool seen_borrowed;         /* it is: the first shard frees it */
  seen_filter *sitemaps_seen; /* sitemap URLs queued, so none is fetched twice */
  warc_writer *warc;          /* --warc */
  bool warc_shared;           /* another shard's, which closes it */
  loop_timer *progress_timer;
  loop_watch *output_watch; /* a pipe's reader going away, seen before any write */
  size_t requests_in_flight;
  size_t lookups_in_flight;
  struct request *active;
  bool ahead; /* pages one level below the gate may start (their links held) */
  struct shard_seeds seeds;
  struct shard_save save;
  struct shard_held held;
  struct shard_cut cut;
  struct shard_spec spec;
  enum shard_stop stop;
  crawl_end end;
  double start;
  double run_start; /* when this run began (--max-time), whatever the crawl took before */
  bool fatal;
  char *err;
  size_t err_size;
};

/* OFFER_RESUME: a URL an earlier run left queued (--seen), recorded and printed already */
enum offer_kind { OFFER_SEED, OFFER_LINK, OFFER_REDIRECT, OFFER_RESUME };

void crawl__fatal(struct shard *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void crawl__note(struct shard *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line on standard error, unless -q: what the user must know while the crawl runs. */
void crawl__warn(struct shard *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
double crawl__backoff(const struct crawl_config *cfg, int attempts);
/* When the next try of a transient failure may start: the backoff for its attempts, or the
 * server's Retry-After (seconds, < 0 for none; at most --max-delay, see below) when longer, which
 * also holds back the whole host. */
double crawl__retry_at(struct shard *c, frontier_host *host, int attempts, double retry_after);
/* Whether a Retry-After (seconds, < 0 for none) asks for longer than --max-delay: then the
 * request is not tried again (its host waits --max-delay). */
bool crawl__retry_after_too_long(struct shard *c, frontier_host *host, double retry_after);
/* A failed response's error: "HTTP 503", or with a Retry-After past --max-delay, which is why it
 * was not tried again, "HTTP 503, Retry-After 120 s beyond --max-delay". */
void crawl__http_error(const struct shard *c, long status, double retry_after, char *out,
                       size_t size);
bool crawl__pages_exhausted(const struct shard *c);
/* The host (queue and state) of u, created with its setup steps on first sight. */
struct host_data *crawl__host_for(struct shard *c, const struct url *u);
/* Resolves href (found in rq's page, encoded in charset, NULL for UTF-8) against base and holds
 * the result in rq's batch: call crawl__offer_links_flush after each chunk parsed. Each link is
 * then printed when new and in scope, and queued or given its fate. */
void crawl__offer_link(struct request *rq, const struct url *base, const char *href, size_t len,
                       const char *charset, int depth, struct link_how how);
void crawl__offer_links_flush(struct request *rq);
/* A request for item on host; it takes ownership of item. Freed with crawl__request_free. */
struct request *crawl__request_new(struct shard *c, frontier_host *host,
                                   struct frontier_item *item);
void crawl__request_free(struct request *rq);
/* At a transfer's end: whether the crawl stops at once, the request then left cut short
 * (page.c). */
bool crawl__cut_short(struct request *rq);
void crawl__start_request(struct shard *c, struct request *rq);
/* Ends rq through its handler as a transfer that failed with error before any response. */
void crawl__request_failed_to_start(struct request *rq, fetch_error error, const char *why);
crawl_cause crawl__cause_of(fetch_error error);
/* DNS, connection and timeouts: retried under --retries (doc/behaviour.md, Failures). */
bool crawl__is_transient_error(fetch_error error);
/* Puts a request's item back at the end of its host queue after a transient failure, or returns
 * false when its retries are spent. */
bool crawl__retry(struct shard *c, struct request *rq, double retry_after);
bool crawl__is_transient_status(long status);

/* sitefiles.c: robots.txt and sitemaps */
extern const struct fetch_handler crawl__robots_handler;
extern const struct fetch_handler crawl__sitemap_handler;
void crawl__start_robots(struct shard *c, frontier_host *fh, struct frontier_item *item);
/* Queues a fetch of the host's robots.txt, ahead of its pages, not before not_before. False (with
 * the crawl ended as fatal) when memory runs out. */
bool crawl__queue_robots(struct shard *c, frontier_host *fh, double not_before);
/* With --sitemaps: queues the host's sitemaps (robots.txt Sitemap lines and /sitemap.xml). */
void crawl__queue_sitemaps(struct shard *c, struct host_data *hd);

/* mesh.c: the shards of a crawl */
core_rc crawl__run_create(int shards, struct crawl **out);
/* run.c: how many shards cfg asks for. */
int crawl__shard_count(const struct crawl_config *cfg);
const struct crawl_config *crawl__run_config(const struct crawl *r);
const struct crawl_sink *crawl__run_sink(const struct crawl *r);
/* --ip-delay's clocks, which every shard's frontier shares; NULL without it. */
frontier_ip_table *crawl__run_ip_table(const struct crawl *r);
/* Whether the shards' loops exist (crawl_stop wakes them only then). */
void crawl__run_set_running(struct crawl *r, bool running);
void crawl__run_destroy(struct crawl *r);
int crawl__run_shards(const struct crawl *r);
/* Where a link that reached its owner goes, given at attach (intake.c's crawl__take_owned): a link
 * or a redirect target is offered, a sitemap queued, a held link considered for fetching ahead. */
typedef void crawl_take_fn(struct shard *c, enum link_kind kind, const struct url *u,
                           const char *page, int depth, int redirects, struct link_how how);
void crawl__run_attach(struct crawl *r, int shard, struct shard *c, crawl_take_fn *take);
/* Shard i (NULL until attached). */
struct shard *crawl__run_shard(const struct crawl *r, int i);
/* --seen and --state with several shards: every shard but the first runs holding its turn, from
 * crawl__run_take_turn (on its thread, its loop made) to crawl__run_give_turn, and lets go of it
 * only where it waits (its loop's wait, the barriers). */
void crawl__run_set_pausable(struct crawl *r);
void crawl__run_take_turn(struct shard *c);
void crawl__run_give_turn(struct shard *c);
/* From the first shard only: takes every other shard's turn, so none runs until crawl__run_resume
 * and what each holds may be read. False (nothing taken) while a shard has not begun. */
bool crawl__run_pause(struct crawl *r);
void crawl__run_resume(struct crawl *r);
/* While paused: the links on their way between shards (inboxes and outboxes) and to other
 * processes (--cluster), as saved lines "transit KH DEPTH REDIRECTS FROM URL". */
void crawl__run_write_transit(struct crawl *r, FILE *out);
/* Each line of text (len bytes of lines ending in '\n') as "transit LINE". */
void crawl__put_transit(FILE *out, const char *text, size_t len);
/* A link on its way, taken up by this shard (its host's owner); page NULL for none. */
void crawl__take_link(struct shard *c, enum link_kind kind, struct link_how how, int depth,
                      int redirects, const char *page, const char *url);
/* The same for a link a save kept on its way: one for another process's host (--cluster) goes
 * on to that process. */
void crawl__take_saved_link(struct shard *c, enum link_kind kind, struct link_how how, int depth,
                            int redirects, const char *page, const char *url);
long crawl__run_pages_started(const struct crawl *r);
/* True for the first shard that asks: one warning for the run, whichever spill file failed. */
bool crawl__run_warn_spill_once(struct crawl *r);
void crawl__run_set_pages_started(struct crawl *r, long pages);
/* One page more under -n (max_pages, < 0 for none) across all shards; false when none is left
 * (with --cluster: none leased, which the run may still lease or not, crawl__run_pages_final). */
bool crawl__run_take_page(struct crawl *r, long max_pages);
/* -n with --cluster (bridge.c): pages are leased from the whole run's limit in Redis. */
bool crawl__run_pages_leased(const struct crawl *r);
bool crawl__run_pages_final(const struct crawl *r);
void crawl__run_set_pages_final(struct crawl *r);
long crawl__run_lease_left(const struct crawl *r);
void crawl__run_lease_add(struct crawl *r, long pages);
/* What the lease still allows, taken back (0 left): to give back to the run. */
long crawl__run_lease_take_back(struct crawl *r);
/* -c across shards: a slot for one more request (false when limit are in flight), given back
 * when it ends (waking the others when all were taken). */
bool crawl__run_take_slot(struct crawl *r, long limit);
/* --rate: whether a request may start now (taking its turn), else false with *next the moment
 * the next one may. Always true without --rate. */
bool crawl__run_take_rate(struct crawl *r, double now, double *next);
/* Gives back the turn crawl__run_take_rate took (taken: the *next it gave), when no request
 * followed. */
void crawl__run_give_rate(struct crawl *r, double taken);
/* --max-time ran out: the run stops as an interrupt stops it, once (CRAWL_END_TIME). */
void crawl__run_time_up(struct crawl *r);
void crawl__run_give_slot(struct crawl *r, long limit, int self);
bool crawl__run_slots_full(struct crawl *r, long limit);
/* One more in flight whatever the limit (a request that began without a slot). */
void crawl__run_count_slot(struct crawl *r);
/* schedule.c: a request began (it takes the slot pop_and_start holds) or ended. */
void crawl__request_began(struct shard *c);
void crawl__request_ended(struct shard *c);
/* The shard that owns host in its process (always 0 for a crawl of one). */
int crawl__owner(struct shard *c, const char *host);
/* The process of a --cluster crawl that owns host (0 without --cluster). */
int crawl__node_of(const struct crawl *r, const char *host);
bool crawl__run_is_cluster(const struct crawl *r);
/* --cluster, from the first shard (bridge.c): takes the links found for other processes, each
 * batch with the smallest depth it holds back; they count as sent until a view asked for after
 * them is read. */
void crawl__run_take_remote(struct crawl *r,
                            void (*fn)(void *arg, int node, const char *lines, size_t len, int min),
                            void *arg);
void crawl__run_view_asked(struct crawl *r);
/* A view of the run came: gate, what other processes hold back; done, the whole run's end. */
void crawl__run_view_read(struct crawl *r, int gate, bool done);
/* Lines from another process for shard to (its inbox; min as in an outbox). */
void crawl__run_deliver(struct crawl *r, int to, const char *lines, size_t len, int min);
/* This process's smallest pending depth (links for other processes included) and whether every
 * shard is idle with nothing on its way. */
void crawl__run_node_state(struct crawl *r, int *gate, bool *idle);
/* bridge.c: the first shard's link to Redis for --cluster. */
core_rc crawl__bridge_open(struct shard *c);
/* Appends what the shards found for other processes, publishes this one's state and asks for the
 * run's; returns the longest the loop may wait before the next turn. */
double crawl__bridge_turn(struct shard *c);
void crawl__bridge_close(struct shard *c);
/* A checkpoint (--seen, --state) of a --cluster crawl: before it is written, a mark naming every
 * entry Redis gave so far; the links Redis has not confirmed, as transit lines; once it is safe,
 * crawl__bridge_saved acknowledges the entries the checkpoint before it held (should this one be
 * torn, the next run loads that one). */
unsigned long crawl__bridge_mark(struct shard *c);
void crawl__bridge_write_transit(struct shard *c, FILE *out);
void crawl__bridge_saved(struct shard *c, unsigned long mark);
/* Sends u to its owner when that is another shard and returns true; false when it is this shard's
 * own. */
bool crawl__send_if_foreign(struct shard *c, const struct url *u, const char *from, int depth,
                            int redirects, enum link_kind kind, struct link_how how);
/* The depth a link on its way holds back (INT_MAX: none): kind and depth as in its line. */
int crawl__line_holds(enum link_kind kind, int depth);
/* Hands the outboxes to their owners. */
void crawl__shard_flush(struct shard *c);
bool crawl__shard_outbox_empty(const struct shard *c);
/* Offers what other shards sent. */
void crawl__shard_receive(struct shard *c);
/* Publishes the shard's pending depths and counts (after crawl__shard_flush); returns the smallest
 * depth pending elsewhere. */
int crawl__shard_publish(struct shard *c, const struct crawl_progress *progress);
/* The shard has nothing left to do: true when no shard has (the crawl is over). */
bool crawl__shard_idle(struct shard *c);
bool crawl__run_done(struct shard *c);
/* Shares this shard's stop with all, or takes up one another shard asked for. */
void crawl__shard_sync_stop(struct shard *c);
crawl_end crawl__run_end(struct crawl *r);
void crawl__run_progress(struct crawl *r, struct crawl_progress *sum);
/* Waits until every shard has called it (nothing to wait for with one shard); self, the caller,
 * lets go of its turn meanwhile. */
void crawl__run_barrier(struct crawl *r, int self);
/* Around each write to the --warc file, which the shards share. */
void crawl__run_warc_lock(struct crawl *r);
void crawl__run_warc_unlock(struct crawl *r);
/* A shard that never ran (its thread could not start): the barriers stop waiting for it. */
void crawl__run_leave(struct crawl *r);
/* A barrier that also tells whether any shard passed mine as true; round counts from 0. */
bool crawl__run_any(struct crawl *r, int self, int round, bool mine);
/* intake.c: an admitted URL this shard owns, after its journey (see offer). */
void crawl__offer_owned(struct shard *c, const struct url *u, const char *from, int depth,
                        int redirects, enum offer_kind kind, struct link_how how);
/* intake.c: the crawl_take_fn of every shard. */
void crawl__take_owned(struct shard *c, enum link_kind kind, const struct url *u, const char *page,
                       int depth, int redirects, struct link_how how);
/* sitefiles.c: a sitemap URL this shard owns, queued unless it was before. */
void crawl__queue_sitemap_url(struct shard *c, const struct url *u);

/* logins.c: what the seeds' hosts alone are sent (doc/network.md, Logins) */
/* A seed as a URL, without the user:password@ it may hold (which crawl__logins_open keeps). */
core_rc crawl__seed_url(const char *seed, size_t max_len, struct url *out);
/* The seeds' hosts this shard owns, with their logins: made only when something is to be sent
 * to them alone (-H Authorization, Cookie or Proxy-Authorization, --user, --netrc, a seed's
 * userinfo). */
core_rc crawl__logins_open(struct shard *c);
void crawl__logins_close(struct shard *c);
/* What a request to host:port carries as one of the seeds' hosts, or NULL when it is none. */
const struct fetch_login *crawl__login_for(const struct shard *c, const char *host, unsigned port);

/* checkpoint.c: --seen and --state */
/* The counters of crawl_stats by name (as a checkpoint keeps them): *n of them. */
struct crawl_stats_counter {
  char name[32];
  uint64_t *at;
};
#define CRAWL_STATS_COUNTERS_MAX (16 + CRAWL_FATE_COUNT + CRAWL_CAUSE_COUNT)
void crawl__stats_counters(struct crawl_stats *s, struct crawl_stats_counter *out, size_t *n);
core_rc crawl__open_seen(struct shard *c);
void crawl__on_save_timer(void *arg);
void crawl__final_save(struct shard *c);
/* The run's cookie jar (doc/network.md, Cookies): *out NULL with --no-cookies; else filled from
 * --load-cookies, then from a continued --state crawl's DIR/cookies. CORE_ESYS or CORE_ENOMEM
 * with err saying why. */
core_rc crawl__cookies_open(const struct crawl_config *cfg, fetch_cookies **out, char *err,
                            size_t err_size);
/* A URL that failed: forgotten before the last save when the filter can remove. */
void crawl__remember_to_forget(struct shard *c, const char *url);
/* A page a limit kept from being fetched: kept in the save for the next run. */
void crawl__leave_for_next_run(struct shard *c, const struct frontier_item *item);
/* One line of a save (checkpoint.c tells the layout). */
enum saved_kind {
  SAVED_PAGE,
  SAVED_SITEMAP,
  SAVED_HELD,
  SAVED_LINK,
  SAVED_HOST,
  SAVED_STAT,
  SAVED_BROKEN,
  SAVED_TRANSIT
};
struct saved {
  enum saved_kind kind;
  int depth, attempts, redirects;
  unsigned flags; /* or a transit link's kind */
  struct link_how how;
  double wait;      /* seconds */
  long long value;  /* a counter, a host's pages started, a broken link's status */
  const char *from; /* NULL for none */
  const char *url;  /* or a host's origin, or a counter's name */
};
/* The next line of in, read into *line (a getline buffer, which out's strings point into); false
 * past the last. */
bool crawl__next_saved(FILE *in, char **line, size_t *cap, struct saved *out);
/* A continued --state crawl: -o FILE cut back to its length at the checkpoint continued from,
 * before anything is written to it. */
void crawl__cut_output(struct shard *c);
/* --state: puts the loaded checkpoint (c->save.resumable) back: queues, held links, hosts,
 * counters. */
void crawl__restore(struct shard *c);
/* Before crawl__restore: from which seed on this shard offers seeds (seed_next), as the checkpoint
 * says (a checkpoint of several shards gave each its value when it was split). */
void crawl__restore_seeds_fed(struct shard *c);
/* With several shards: hands each line of the first shard's loaded save to the shard that owns it
 * (each shard's own c->save.resumable), whatever the number of shards that wrote it. */
core_rc crawl__split_saved(struct shard *shards, int n);

/* archive.c: --warc */
core_rc crawl__open_warc(struct shard *c);
/* Another shard writes to first's --warc file too (under the run's lock). */
void crawl__share_warc(struct shard *first, struct shard *c);
/* Closes the file (only the shard that opened it: the others let go of it). */
void crawl__close_warc(struct shard *c);

/* speculate.c: fetches ahead of the depth gate */
struct spec {
  char *url;
  int depth; /* the held link's: its confirmed depth is never larger */
  frontier_host *host;
  struct request *rq;      /* while it is being fetched */
  bool cancelled;          /* settled otherwise while in flight: dropped when its request ends */
  bool done;               /* its outcome is kept in rec (type, location, error owned) */
  struct crawl_record rec; /* url borrowed from the entry, from and depth set at confirmation */
  char *redirect;          /* a redirect's target, offered at confirmation */
  struct link_how redirect_how; /* and how it was found (from which kind of address) */
  int redirects;
  struct held_page *held; /* its own links */
  struct spec *next;      /* hash chain */
};
struct spec *crawl__spec_find(struct shard *c, const char *url);
/* A link held back: fetched already, as a speculative page, when it may be. */
void crawl__spec_consider(struct shard *c, const struct url *u, const char *from, int depth,
                          bool follow);
/* A speculative page's outcome, kept for its confirmation instead of being reported. */
void crawl__spec_keep_record(struct shard *c, const struct crawl_record *rec);
void crawl__spec_keep_redirect(struct shard *c, const char *url, const char *target, int redirects,
                               struct link_how how);
/* Its request ends (fetched, failed or given back for a retry): from crawl__request_free. */
void crawl__spec_request_ended(struct shard *c, struct request *rq);
/* Its URL was settled otherwise (no fetch): the entry goes, and its queued page. */
void crawl__spec_cancel(struct shard *c, struct spec *e);
void crawl__spec_remove(struct shard *c, struct spec *e);
void crawl__spec_free_all(struct shard *c);

/* held.c: held links */
/* A held page for the links of from (of depth), not yet queued; NULL when memory runs out. */
struct held_page *crawl__held_new(struct shard *c, const char *from, int depth);
void crawl__held_add(struct shard *c, struct held_page *hp, const char *url, int depth,
                     struct link_how how);
/* seed.c: calls fn with each seed this shard owns and has not offered yet (a crawl stopped
 * while seeds were fed a window at a time), in the order given. */
void crawl__seeds_unfed_each(struct shard *c, void (*fn)(struct shard *, const char *, void *),
                             void *arg);
/* Queues a restored held page behind the others; its depth is pending until it is replayed. */
void crawl__held_queue(struct shard *c, struct held_page *hp);
/* Frees a held page (NULL is fine) and its links' count. */
void crawl__held_free(struct shard *c, struct held_page *hp);
/* Takes the next held page of the smallest depth, or NULL. */
struct held_page *crawl__held_take(struct shard *c);

/* ---- what one file of the engine asks of another (doc/design.md, The engine) ---- */

/* report.c: every settled fate passes through crawl__report (counted, written as a record unless
 * ITEM_QUIET); crawl__record and crawl__record_item make the record of a fate without a response.
 * crawl__check_output ends the crawl on a write error (quietly when the reader went away). */
void crawl__report(struct shard *c, unsigned flags, struct crawl_record *rec);
void crawl__record(struct shard *c, const struct frontier_item *item, const char *url,
                   const char *from, int depth, crawl_fate fate, crawl_cause cause,
                   const char *error);
void crawl__record_item(struct shard *c, const struct frontier_item *item, crawl_fate fate,
                        crawl_cause cause, const char *error);
void crawl__check_output(struct shard *c, core_rc rc);
/* Says once, at once, that the queue could not spill to disk. */
void crawl__warn_spill_refused(struct shard *c);

/* request.c: the fetch handler of a queued item's kind (a page, robots.txt, a sitemap). */
const struct fetch_handler *crawl__handler_for(frontier_kind kind);

/* intake.c */
extern const struct link_how crawl__seed_how; /* how a seed is found: VIA_SEED, followed */
/* Whether a URL found (not a seed) passes the scope and the user's filters. */
bool crawl__admitted(const struct shard *c, const struct url *u, enum offer_kind kind);
/* A URL found, this shard's or another's: another shard's goes to it, which decides. */
void crawl__offer(struct shard *c, const struct url *u, const char *from, int depth, int redirects,
                  enum offer_kind kind, struct link_how how);
/* An owned URL the seen filter has answered for (fresh: new to it): printed and queued, or given
 * its fate at once. */
void crawl__settle(struct shard *c, const struct url *u, bool fresh, const char *from, int depth,
                   int redirects, enum offer_kind kind, struct link_how how);
/* href resolved against base into *u (the caller frees it), or false with the reason counted. */
bool crawl__resolve_href(struct shard *c, const struct url *base, const char *href, size_t len,
                         const char *charset, const char *from, struct url *u);
/* The fate of a queued page settled without a request: robots when its host's robots.txt, at hand,
 * excludes it, else fate. */
crawl_fate crawl__unfetched_fate(const struct shard *c, const struct host_data *hd,
                                 const struct frontier_item *item, crawl_fate fate);
/* A page a limit keeps from being fetched (hd NULL: its host was never made): its record, and
 * left for a later run. Frees item. */
void crawl__settle_over_limit(struct shard *c, const struct host_data *hd,
                              struct frontier_item *item);
void crawl__query_counts_free(struct query_counts *q);

/* host.c */
void crawl__free_host_data(void *p); /* a frontier host's data, as the frontier frees it */
/* Whether u goes through a proxy that looks its host up: then the crawl does not. */
bool crawl__proxy_resolves(const struct shard *c, const struct url *u);
/* Starts the one lookup of fh's host for item (a RESOLVE item), which it takes. */
void crawl__start_lookup(struct shard *c, frontier_host *fh, struct frontier_item *item);

/* depthcut.c: a URL one level beyond --depth waits for its record (crawl__cut) until no page
 * within the depth is pending (crawl__settle_cut); a redirect within it may rescue it first. */
void crawl__cut(struct shard *c, const struct frontier_item *probe, const char *url,
                const char *from, int depth);
bool crawl__rescued_from_cut(struct shard *c, const struct url *u, int depth);
void crawl__settle_cut(struct shard *c);

/* held.c */
void crawl__held_at(struct held_page *hp, int depth); /* its page's depth turned out to be depth */
void crawl__held_seal(struct held_page *hp);          /* its links are all in: arrays shrink */
void crawl__append_held(struct shard *c, struct held_page *hp); /* kept, in depth order */
/* Offers the links of pages done ahead of their level once it has come (all: every one). */
void crawl__replay_held(struct shard *c, bool all);

/* page.c: the handler of page responses. */
extern const struct fetch_handler crawl__page_handler;

/* schedule.c */
const char *crawl__path_of(const char *url); /* the path and query of a printed URL */
void crawl__schedule(struct shard *c);       /* starts what may start now, or waits for it */
bool crawl__finished(const struct shard *c); /* nothing queued, in flight or held */

/* shard.c */
void crawl__own_progress(const struct shard *c, struct crawl_progress *p);
void crawl__shard_open(struct shard *c);  /* its loop, engine, frontier, scope; c->fatal on error */
void crawl__shard_close(struct shard *c); /* frees what crawl__shard_open made */
void *crawl__shard_main(void *arg);       /* a shard's whole crawl, on its own thread */

/* seed.c */
core_rc crawl__open_scope(struct shard *c); /* the scope, made by the first shard, read by all */
core_rc crawl__seed_all(struct shard *c);   /* the set of seeds this shard owns, to be fed */
bool crawl__seeds_waiting(const struct shard *c); /* seeds this shard owns not offered yet */
void crawl__feed_seeds(struct shard *c); /* offers seeds while fewer than a window are pending */
/* A link to a seed not offered yet makes it a seed now (true), as if it had come first. */
bool crawl__seed_found_early(struct shard *c, const struct url *u);
/* Settles what is queued or in flight at the end: pending (or limit) records, or leftovers. */
void crawl__settle_leftovers(struct shard *c, bool with_records);

#endif
