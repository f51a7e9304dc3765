/* crawl/referrers.c: the pages that link to each failed URL, for the linked_from of its --jsonl
 * record (doc/behaviour.md, Records). What it offers the other files of the engine. */
#ifndef CRAWL_REFERRERS_H
#define CRAWL_REFERRERS_H

#include "crawl/crawl-int.h"

/* With --jsonl: the run's link log, opened by the first shard after its checkpoint was read
 * (DIR/links with --state, cut back to keep bytes, the checkpoint's length, when the crawl
 * continues; UINT64_MAX: none was said; a temporary file otherwise) and shared with the others.
 * Without a file to keep it, records are written at once, without linked_from. Not opened for a
 * continued crawl that was complete, which asks nothing. */
void crawl__referrers_open(struct shard *c, uint64_t keep);
void crawl__referrers_share(struct shard *first, struct shard *c);
void crawl__referrers_close(struct shard *c);

/* A link (or a redirect's target) of rq's page: its page's links are logged together when the
 * request ends (crawl__referrers_page_done), each once. */
void crawl__referrers_link(struct request *rq, const char *url);
void crawl__referrers_page_done(struct request *rq);
/* A failed URL's record, kept in the log until every referrer is known; false when it is to be
 * written at once (no log, or the log was settled already). flags are its item's: with --seen,
 * the saves before the end keep the URL to fetch again (crawl__saved_record_waits). */
bool crawl__referrers_keep_failed(struct shard *c, const struct crawl_record *rec, unsigned flags);

/* Writes every shard's buffered part of the log to its file (the first shard, the others paused
 * or waiting); false when that fails, the error reported as fatal. durable: fdatasync'd too, for
 * a save. */
bool crawl__referrers_flush_all(struct shard *c, bool durable);
/* The log's length, written whole, which a --state checkpoint keeps; false: there is no log, or
 * its records were written. */
bool crawl__referrers_kept(const struct shard *c, uint64_t *bytes);

/* The first shard, every other one waiting: the kept records are written, each with up to
 * CRAWL_REFERRERS_SHOWN pages that link to it and the count of all. Records of failures after
 * this are written at once. */
void crawl__referrers_settle(struct shard *c);

/* Sets this shard's part of the link log up (before it opens). */
void crawl__referrers_prepare(struct shard *c);
/* Whether the shard logs the pages linking to each URL (--jsonl). */
bool crawl__referrers_logged(const struct shard *c);
#endif
