/* crawl/fragments.c: --check-fragments, a link's #fragment against its target page's ids. One
 * table for the run, shared by its shards (a lock inside); judged once every shard has ended. */
#ifndef CRAWL_FRAGMENTS_H
#define CRAWL_FRAGMENTS_H

#include "crawl/crawl-int.h"

struct crawl_fragments;
core_rc crawl__fragments_create(struct crawl_fragments **out);
void crawl__fragments_destroy(struct crawl_fragments *f);
/* The hash an anchor (an id, an <a>'s name) is kept by. */
uint64_t crawl__fragments_hash(const char *text, size_t len);
/* An HTML page fetched whole: its anchors' hashes (sorted here, in place). */
core_rc crawl__fragments_page(struct crawl_fragments *f, const char *url, uint64_t *anchors,
                              size_t count);
/* A link of page rq to target (its URL without the fragment), as its href was written (len
 * bytes): kept with rq when the href has a fragment worth judging. A fatal error when memory
 * runs out. */
void crawl__fragments_of_link(struct request *rq, const char *target, const char *href, size_t len,
                              struct link_how how);
/* rq is done: its links go to the run's table, in one go. */
void crawl__fragments_hand_over(struct request *rq);
/* Frees what rq kept (after crawl__fragments_hand_over, or instead of it). */
void crawl__fragments_forget(struct request *rq);
/* Each kept link whose target was fetched as HTML without the anchor it names: a failed record
 * (cause fragment) through crawl__report of shard c, with the pages linking to it. */
void crawl__fragments_judge(struct crawl_fragments *f, struct shard *c);

#endif
