/* crawl/report.c: fates and records, the summary's counts, notes and errors, and the shard's
 * writer on the sink they go through. What it offers the other files of the engine. */
#ifndef CRAWL_REPORT_H
#define CRAWL_REPORT_H

#include "crawl/crawl-int.h"

/* Every settled fate passes through crawl__report (counted, written as a record unless
 * ITEM_QUIET); crawl__report_record and crawl__report_item make the record of a fate without a
 * response. crawl__report_check_output ends the crawl on a write error (quietly when the reader
 * went away). */
void crawl__report(struct shard *c, unsigned flags, struct crawl_record *rec);
void crawl__report_record(struct shard *c, const struct frontier_item *item, const char *url,
                          const char *from, int depth, crawl_fate fate, crawl_cause cause,
                          const char *error);
void crawl__report_item(struct shard *c, const struct frontier_item *item, crawl_fate fate,
                        crawl_cause cause, const char *error);
void crawl__report_check_output(struct shard *c, core_rc rc);
/* The shard's writer on the sink (c->out): opened as shard i's (a failure is the sink's or
 * ENOMEM), or handed one made already (the engine's unit programs); let go of, the watch on its
 * pipe's reader with it, before the shard's loop is. */
core_rc crawl__report_open(struct shard *c, int i);
core_rc crawl__report_attach(struct shard *c, void *writer);
void crawl__report_close(struct shard *c);
void *crawl__report_writer(const struct shard *c);
/* The first shard watches a pipe's reader go away (the sink's watch_fd), which stops the crawl
 * at once, though nothing may be written for a long while (-A with a rare extension). */
core_rc crawl__report_watch_output(struct shard *c);
/* What the writer holds, written (sync: to the disk too); CORE_OK with no writer. */
core_rc crawl__report_flush(const struct shard *c, bool sync);
/* A URL printed (one line of standard output, or of -o). */
void crawl__report_url(struct shard *c, const char *url);
/* A settled record to the output (--jsonl) and, failed, to --report's. */
void crawl__report_write(struct shard *c, const struct crawl_record *rec);
/* Says once, at once, that the queue could not spill to disk. */
void crawl__report_spill_refused(struct shard *c);

#endif
