/* crawl/speculate.c: fetching ahead of the depth gate. What it offers the other files of the
 * engine. */
#ifndef CRAWL_SPECULATE_H
#define CRAWL_SPECULATE_H

#include "crawl/crawl-int.h"

/* Fetches ahead of the depth gate */
/* A speculative page's outcome, kept for its confirmation: what its record needs, and a redirect's
 * target (the strings owned). The record's other fields are set when it is confirmed. */
struct spec_outcome {
  char *type, *location, *error;
  char *redirect; /* a redirect's target, offered at confirmation */
  uint64_t bytes;
  double ms, settled;
  int status;
  int redirects;
  struct link_how redirect_how; /* how the redirect's target was found */
  unsigned char fate, cause;    /* crawl_fate, crawl_cause */
};
/* An entry is made for every page fetched ahead, and a polite crawl of pages with dozens of links
 * keeps tens of thousands at once: so from its request's end to its confirmation it waits in the
 * stash (stash.c) with its outcome and links, and only its URL's hash and its place there stay in
 * memory (struct spec_stashed); crawl__speculate_find brings it back. In memory it has its URL in
 * its own allocation. */
struct spec {
  struct spec *next; /* hash chain */
  /* used only while its item is queued or in flight, when its host cannot be parked (a parked
   * host is one with neither: frontier_park_idle) */
  frontier_host *host;
  struct request *rq;     /* while it is being fetched */
  struct held_page *held; /* its own links, once fetched (crawl__speculate_take_links) */
  /* confirmed at a depth the gate has not reached: a redirect of the level above may still
   * reach it, and lower it (crawl__speculate_lower), so its record and its links wait together in
   * this held page, queued at its depth, until the level comes (crawl__speculate_settle) */
  struct held_page *waiting;
  char *from;                   /* the confirming link's page, while it waits */
  struct spec_outcome *outcome; /* NULL: none kept yet */
  unsigned flags;               /* its item flags, while it waits */
  bool cancelled; /* settled otherwise while in flight: dropped when its request ends */
  bool done;      /* its outcome is kept */
  bool accepted;  /* an accepted page that ended ahead of the gate (crawl__speculate_adopt) */
  char url[];
};
/* The entry of url, in memory (brought back from the stash when it was there), or NULL; NULL too
 * when the stash cannot be read back (the shard's fatal error is set then). */
struct spec *crawl__speculate_find(struct shard *c, const char *url);
/* A link held back: fetched already, as a speculative page, when it may be. */
void crawl__speculate_consider(struct shard *c, const struct url *u, const char *from, int depth,
                               bool follow);
/* A speculative page's outcome, kept for its confirmation instead of being reported. */
void crawl__speculate_keep_record(struct shard *c, const struct crawl_record *rec);
void crawl__speculate_keep_redirect(struct shard *c, const char *url, const char *target,
                                    int redirects, struct link_how how);
/* An accepted page whose request ends while the gate has not reached its depth: as a confirmed
 * speculative page, its record waits with its links for its level, where a redirect of the
 * level above may still lower it. Its outcome is kept from now on (rq->item becomes ITEM_SPEC
 * for the report); false when it need not wait, or cannot (a save keeps only records), or its
 * depth is not printed (no --jsonl: waiting pages cost some 300 bytes each, 8 MB at 100,000
 * pages fetched fast). */
bool crawl__speculate_adopt(struct shard *c, struct request *rq);
/* Its request ends (fetched, failed or given back for a retry): from crawl__request_free. */
void crawl__speculate_request_ended(struct shard *c, struct request *rq);
/* Its URL was settled otherwise (no fetch): the entry goes, and its queued page. */
void crawl__speculate_cancel(struct shard *c, struct spec *e);
void crawl__speculate_remove(struct shard *c, struct spec *e);
/* Its own links, now the caller's: NULL when it has none. */
struct held_page *crawl__speculate_take_links(struct shard *c, struct spec *e);
/* Confirmed and fetched: its record is reported at depth, from the page from, and a redirect's
 * target offered; its own links (crawl__speculate_take_links) are the caller's to place. Frees
 * nothing.
 */
void crawl__speculate_report(struct shard *c, struct spec *e, const char *from, int depth,
                             unsigned flags, bool offer_redirect);
/* Waits for its level with hp (its links, maybe none), which the caller queues at depth. */
bool crawl__speculate_wait(struct shard *c, struct spec *e, struct held_page *hp, const char *from,
                           unsigned flags);
/* Its level has come (hp is being replayed): reported, then the entry goes. */
void crawl__speculate_settle(struct shard *c, struct held_page *hp, bool offer_redirect);
/* A redirect of depth reached url: when url waits deeper, it moves up to depth, found by the
 * redirect from; true when it did. */
bool crawl__speculate_lower(struct shard *c, const char *url, const char *from, int depth,
                            struct link_how how);
void crawl__speculate_free_all(struct shard *c);

/* Whether this shard fetches ahead, set once the held links are set up (crawl__held_prepare). */
void crawl__speculate_prepare(struct shard *c);
/* Lets go of what crawl__speculate_prepare made (and of any entry left), at the shard's close. */
void crawl__speculate_close(struct shard *c);
#endif
