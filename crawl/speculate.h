/* crawl/speculate.c: fetching ahead of the depth gate. What it offers the other files of the
 * engine. */
#ifndef CRAWL_SPECULATE_H
#define CRAWL_SPECULATE_H

#include "crawl/crawl-int.h"

/* Fetches ahead of the depth gate */
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

#endif
