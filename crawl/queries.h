/* crawl/queries.c: --max-query-variants, a host's query strings counted by path. What it offers
 * the other files of the engine. */
#ifndef CRAWL_QUERIES_H
#define CRAWL_QUERIES_H

#include "crawl/crawl-int.h"

/* Whether u, a URL new to the crawl whose path (path_len bytes) has a query, found on from, a page
 * of its host, breaks --max-query-variants; *qp, its host's counts, is made when needed. *failed
 * is set when memory runs out. */
bool crawl__queries_trapped(struct shard *c, struct query_counts **qp, const struct url *u,
                            const char *from, size_t path_len, bool *failed);
/* The query strings a path of q's host may grow. */
long crawl__queries_most(const struct query_counts *q, const struct crawl_config *cfg);
void crawl__queries_free(struct query_counts *q);

#endif
