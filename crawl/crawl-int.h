/* Shared by the files of the crawl engine (doc/design.md, The engine): a shard's state and the
 * steps one file hands to another; what a link is, in link.h. */
#ifndef CRAWL_CRAWL_INT_H
#define CRAWL_CRAWL_INT_H

#include "crawl/crawl.h"
#include "crawl/link.h"
#include "fetch/fetch.h"
#include "frontier/frontier.h"
#include "parse/parse.h"
#include "warc/warc.h"

#include <pthread.h>
#include <stdio.h>

#define SAVE_EVERY 60.0              /* seconds between saves of --seen during a long crawl */
#define ROBOTS_MAX_AGE (24 * 3600.0) /* RFC 9309 2.4: a cached robots.txt serves 24 hours */
#define LOOKUPS_MAX 64               /* DNS lookups in flight at once */
#define SPEC_LEVELS (1 << 20)        /* levels below the gate speculative pages may run */
#define LEASE_WAIT 0.01 /* seconds a page waits for a lease of -n with --cluster (bridge.c) */

const char *crawl__report_via_name(unsigned via);
/* One letter for a link_how in a line: upper case when followed, the letter the via; "0" and "1"
 * of older lines read as followed or not, via unknown. */
char crawl__mail_how_code(struct link_how how);
bool crawl__mail_how_parse(char code, struct link_how *how);

struct spec;            /* speculate.h */
struct host_data;       /* host.h */
struct shard_hosts;     /* host.c */
struct shard_left;      /* saved.c */
struct shard_stash;     /* stash.c */
struct shard_referrers; /* referrers.c */
struct shard_archive;   /* archive.c */
struct shard_held;      /* held.c */
struct shard_logins;    /* logins.c */
struct shard_requests;  /* request.c */
struct shard_save;      /* checkpoint.c */
struct shard_resume;    /* restore.c */
struct shard_bounds;    /* budget.c */
struct shard_mail;      /* mail.c */
struct shard_out;       /* report.c */
struct shard_life;      /* life.c */
struct bridge;          /* bridge.c */
struct query_counts;    /* queries.c */
struct held_page;       /* held.h */
struct crawl;           /* mesh.c: what the shards of a crawl share */

struct request {
  struct shard *shard; /* the one that made it */
  struct spec *spec;   /* a speculative page's entry, until it is confirmed */
  frontier_host *host;
  struct frontier_item *item;
  struct url url;
  struct url base; /* <base href>, when the page has one */
  parse_html *html;
  size_t long_hold;    /* its share of the room long pages hold (crawl__request_hold_long) */
  uint64_t html_bytes; /* of its body, fed to html so far */
  bool streams;        /* html outgrew what it may hold: parsed as it comes */
  parse_css *css;      /* a style sheet's links */
  parse_js *js;        /* --js: a script's links */
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
  struct {                /* --jsonl: its links' hashes, logged when it ends (referrers.c) */
    uint64_t *hash;
    size_t count, cap;
  } linked;
  /* the links its HTML wrote and offered already: a hash each, by where it falls (page.c) */
  uint64_t written[256];
  const char *written_charset; /* what they were resolved with */
  struct {                     /* --check-fragments: its ids' hashes (fragments.c) */
    uint64_t *hash;
    size_t count, cap;
    bool lost; /* more than a page's share, or memory ran out: the page is not judged */
  } anchors;
  struct { /* --check-fragments: its links with a fragment, handed over when it is done */
    struct frag_link *links;
    size_t count, cap;
    struct core_buf texts;
  } fragments;
  struct request *prev, *next;
};

/* How far a shard (or the run) is from stopping; the larger wins when shards share theirs. */
enum shard_stop {
  STOP_NONE,      /* running */
  STOP_FINISHING, /* no new request: what is in flight finishes (a first signal, a limit) */
  STOP_NOW        /* at once: a fatal error, a second signal, the output gone */
};

/* What a later stage of the engine hands back to an earlier one, each given at set-up (run.c's
 * wire_hooks), so that no file calls one above it by name (doc/design.md, The engine's
 * pipeline). */
struct shard_hooks {
  /* request.c: the handler of each kind of request (by frontier_kind), page.c's and sitefiles.c's
   */
  const struct fetch_handler *handlers[FRONTIER_SITEMAP + 1];
  /* report.c: a speculative page's record, kept until it is confirmed (speculate.c) */
  void (*spec_record)(struct shard *c, const struct crawl_record *rec);
  /* report.c: a failed URL's record, kept until every page linking to it is known (referrers.c);
   * false when it is written at once */
  bool (*failed_record)(struct shard *c, const struct crawl_record *rec, unsigned flags);
  /* intake.c: a link to a seed not offered yet, offered as the seed (seed.c); false for none */
  bool (*seed_found)(struct shard *c, const struct url *u);
  /* intake.c: whether a seed seen before still owes its record, true once (seed.c); NULL: none */
  bool (*seed_owed)(struct shard *c, const struct url *u);
  /* speculate.c: a redirect a confirmed speculative page kept, offered now (intake.c) */
  void (*offer)(struct shard *c, const struct url *u, const char *from, int depth, int redirects,
                enum offer_kind kind, struct link_how how);
  /* intake.c: the requests in flight, after rq (NULL: the first), from request.c; NULL in a
   * program that makes no request */
  struct request *(*in_flight_next)(const struct shard *c, const struct request *rq);
};

struct shard {
  const struct crawl_config *cfg;
  struct crawl *run; /* shared with the other shards */
  int shard;         /* this one's index */
  struct crawl_stats *stats;
  event_loop *loop;
  frontier *fr;
  fetch_engine *engine;          /* its transfers and lookups (shard.c opens it) */
  const struct crawl_sink *sink; /* the run's: where records and words go */
  seen_filter *seen; /* checkpoint.c's: made or loaded there; with --seen or --state and several
                      * shards, the first's */
  struct shard_life *life; /* life.c's: how it goes and ends (run.c opens it before all else) */
  struct shard_hooks hooks;
  struct shard_requests *requests;   /* request.c's: those in flight */
  struct shard_seeds *seeds;         /* seed.c's; NULL until crawl__seed_all */
  struct shard_save *save;           /* checkpoint.c's */
  struct shard_resume *resume;       /* restore.c's: what a continued run goes on from */
  struct shard_spec *spec;           /* speculate.c's */
  struct shard_logins *logins;       /* logins.c's; NULL: no seed has a login */
  struct shard_left *left;           /* saved.c's; NULL until a page is left */
  struct shard_held *held;           /* held.c's */
  struct shard_cut *cut;             /* depthcut.c's; NULL until a URL is cut */
  struct shard_stash *stash;         /* stash.c's; NULL until a page is stashed */
  struct shard_hosts *hosts;         /* host.c's */
  struct shard_referrers *referrers; /* referrers.c's */
  struct shard_archive *archive;     /* archive.c's; NULL: no --warc */
  struct shard_progress *progress;   /* shard.c's: the status line's timer and estimate */
  struct shard_bounds *bounds;       /* budget.c's: its part of the run's bounds */
  struct shard_out *out;             /* report.c's: its writer on the sink */
  struct shard_mail *mail;           /* mail.c's: links for other shards; NULL: a crawl of one */
  struct bridge *bridge;             /* bridge.c's: --cluster, the first shard's link to Redis */
};

/* Where a link that reached its owner goes, given at attach (intake.c's crawl__intake_take_owned):
 * a link or a redirect target is offered, a sitemap queued, a held link considered for fetching
 * ahead. */
typedef void crawl_take_fn(struct shard *c, enum link_kind kind, const struct url *u,
                           const char *page, int depth, int redirects, struct link_how how);

#endif
