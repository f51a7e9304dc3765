/* crawl/depthcut.c: the depth cut: URLs one level beyond -d. What it offers the other files of the
 * engine. */
#ifndef CRAWL_DEPTHCUT_H
#define CRAWL_DEPTHCUT_H

#include "crawl/crawl-int.h"

/* A URL one level beyond --depth waits for its record (crawl__depthcut_add) until no page
 * within the depth is pending (crawl__depthcut_settle); a redirect within it may rescue it first.
 */
void crawl__depthcut_add(struct shard *c, const struct frontier_item *probe, const char *url,
                         const char *from, int depth);
bool crawl__depthcut_rescued(struct shard *c, const struct url *u, int depth);
void crawl__depthcut_settle(struct shard *c);
/* A checkpoint's "cut" lines: the URLs cut and still waiting for their record, which a run that
 * continues cuts again (crawl__depthcut_add). False when they cannot be read back (errno set). */
bool crawl__depthcut_save(struct shard *c, FILE *out);
/* Whether URLs cut wait for their record. */
bool crawl__depthcut_pending(const struct shard *c);
/* Lets go of the URLs cut (their records settled or saved). */
void crawl__depthcut_close(struct shard *c);

#endif
