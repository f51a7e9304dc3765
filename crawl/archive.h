/* crawl/archive.c: --warc. What it offers the other files of the engine. */
#ifndef CRAWL_ARCHIVE_H
#define CRAWL_ARCHIVE_H

#include "crawl/crawl-int.h"

/* Opens --warc (nothing without it), cut back to keep bytes when a --state crawl continues
 * (UINT64_MAX: kept whole); a failure is the shard's fatal error. */
core_rc crawl__archive_open(struct shard *c, uint64_t keep);
/* Another shard writes to first's --warc file too (under the run's lock). */
void crawl__archive_share(struct shard *first, struct shard *c);
/* Writes what the file holds to disk: its length to *bytes, which a checkpoint keeps. False with
 * no --warc, or when it cannot. */
bool crawl__archive_kept(struct shard *c, uint64_t *bytes);
/* Closes the file (only the shard that opened it: the others let go of it). */
void crawl__archive_close(struct shard *c);

#endif
