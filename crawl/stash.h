/* crawl/stash.c: the links of pages fetched ahead, kept in a temporary file until their page is
 * confirmed. What it offers the other files of the engine. */
#ifndef CRAWL_STASH_H
#define CRAWL_STASH_H

#include "crawl/crawl-int.h"

/* A speculative page's held links wait, untouched, until a real link confirms the page (or never:
 * the crawl ends first). A polite crawl of pages with 30 links each keeps half a million of them
 * at once (bench/README.md, Polite crawls), some 17 MB in memory, which the file keeps instead.
 *
 * Puts hp in the shard's stash file and frees it, and its links are no longer counted as held
 * (c->held.links, the memory fetching ahead takes): its place goes to *at. False when it stays in
 * memory: a page too large for one segment of the file, or a file that cannot be made or written
 * (then none is tried again); hp is the caller's still. */
bool crawl__stash_put(struct shard *c, struct held_page *hp, uint64_t *at);
/* The held page stashed at at, as crawl__stash_put found it, its links counted as held again; NULL
 * with the shard's fatal error set when the file cannot be read back. Its place is free again. */
struct held_page *crawl__stash_take(struct shard *c, uint64_t at);
/* The page stashed at at is no longer wanted (its speculative page was dropped, or the crawl
 * ends): its place is free again. */
void crawl__stash_drop(struct shard *c, uint64_t at);
void crawl__stash_close(struct shard *c);

#endif
