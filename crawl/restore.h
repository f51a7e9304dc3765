/* crawl/restore.c: continuing a kept crawl. What it offers the other files of the engine. */
#ifndef CRAWL_RESTORE_H
#define CRAWL_RESTORE_H

#include "crawl/crawl-int.h"

struct saved;

/* A shard's state of the run it continues (struct shard_resume, c->resume): made before the shard
 * opens, with every length kept whole (UINT64_MAX); let go at its close. The functions that read
 * it answer as for a run that continues nothing when it could not be made. */
core_rc crawl__restore_prepare(struct shard *c);
void crawl__restore_close(struct shard *c);
/* The file the last save is loaded into (checkpoint.c), made empty at the first call; NULL with
 * errno set when it cannot be made. */
FILE *crawl__restore_file_make(struct shard *c);
/* The last save as loaded (its lines, saved.c's layout); NULL when none was. */
FILE *crawl__restore_file(const struct shard *c);
/* The run continues a --state crawl from its checkpoint (checkpoint.c says so once it loaded). */
void crawl__restore_set_continued(struct shard *c);
bool crawl__restore_continued(const struct shard *c);
/* A --state crawl killed before its first checkpoint begins again: nothing of its files stays
 * (every length kept is 0). */
void crawl__restore_start_over(struct shard *c);
/* The crawl continued had ended with nothing left (its checkpoint says so, or --cluster's job
 * had ended with this node's part done): the run makes no request. */
void crawl__restore_set_complete(struct shard *c);
bool crawl__restore_complete(const struct shard *c);
/* The lengths of --warc, -o FILE and --jsonl's link log (DIR/links) at the checkpoint continued
 * from, which each is cut back to; UINT64_MAX: kept whole. */
uint64_t crawl__restore_warc_keep(const struct shard *c);
uint64_t crawl__restore_output_keep(const struct shard *c);
uint64_t crawl__restore_links_keep(const struct shard *c);
/* A saved line that waits, put back as it was: a held page (*hp, for its links), one of its links,
 * or a URL cut beyond this run's --depth (doc/behaviour.md, Resuming); whether s was one. Both a
 * --state run and a --seen run's leftovers take these alike. */
bool crawl__restore_waiting(struct shard *c, const struct saved *s, struct held_page **hp);
/* --state: puts the loaded checkpoint back: queues, held links, hosts, counters. */
void crawl__restore(struct shard *c);
/* Before crawl__restore: from which seed on this shard offers seeds, as the checkpoint says (a
 * checkpoint of several shards gave each its value when it was split). */
size_t crawl__restore_seeds_fed(struct shard *c);
/* With several shards: hands each line of the first shard's loaded save to the shard that owns it
 * (each shard's own file), whatever the number of shards that wrote it. */
core_rc crawl__restore_split(struct shard *shards, int n);

#endif
