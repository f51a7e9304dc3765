/* crawl/stash.c: what pages fetched ahead keep for their confirmation, in a temporary file until
 * then. What it offers the other files of the engine. */
#ifndef CRAWL_STASH_H
#define CRAWL_STASH_H

#include "crawl/crawl-int.h"

/* A speculative page's outcome and held links wait, untouched, until a real link confirms the page
 * (or never: the crawl ends first), and its record until its level comes. A polite crawl of pages
 * with 30 links each keeps tens of thousands of them at once (bench/README.md, Polite crawls),
 * some 30 MB in memory, which the file keeps instead.
 *
 * Puts note (note_len bytes, the caller's own form of what it keeps) and hp (NULL: none) in the
 * shard's stash file and frees hp, whose links are no longer counted as held (c->held.links, the
 * memory fetching ahead takes): the entry's place goes to *at. False when it stays in memory: an
 * entry too large for one segment of the file, or a file that cannot be made or written (then
 * none is tried again); hp is the caller's still. */
bool crawl__stash_put(struct shard *c, const void *note, size_t note_len, struct held_page *hp,
                      uint64_t *at);
/* The entry stashed at at: its note (valid until the next call of the stash) and its held page
 * (the caller's, NULL when none was put), as crawl__stash_put found it, its links counted as held
 * again. False with the shard's fatal error set when the file cannot be read back. Its place is
 * free again. */
bool crawl__stash_take(struct shard *c, uint64_t at, const char **note, size_t *note_len,
                       struct held_page **page);
/* The entry stashed at at is no longer wanted (its speculative page was dropped, or the crawl
 * ends): its place is free again. */
void crawl__stash_drop(struct shard *c, uint64_t at);
/* The stash's file, -1 before its first entry (its tests damage it). */
int crawl__stash_fd(const struct shard *c);
void crawl__stash_close(struct shard *c);

#endif
