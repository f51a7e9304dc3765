/* crawl/sitefiles.c: robots.txt and sitemaps. What it offers the other files of the engine. */
#ifndef CRAWL_SITEFILES_H
#define CRAWL_SITEFILES_H

#include "crawl/crawl-int.h"

extern const struct fetch_handler crawl__robots_handler;
extern const struct fetch_handler crawl__sitemap_handler;
void crawl__start_robots(struct shard *c, frontier_host *fh, struct frontier_item *item);
/* Queues a fetch of the host's robots.txt, ahead of its pages, not before not_before. False (with
 * the crawl ended as fatal) when memory runs out. */
bool crawl__queue_robots(struct shard *c, frontier_host *fh, double not_before);
/* With --sitemaps: queues the host's sitemaps (robots.txt Sitemap lines and /sitemap.xml). */
void crawl__queue_sitemaps(struct shard *c, struct host_data *hd);
/* A sitemap URL this shard owns, queued unless it was before, or past --max-sitemaps for its host
 * or --sitemap-depth (depth: index levels above it; a note says what was left). */
void crawl__queue_sitemap_url(struct shard *c, const struct url *u, int depth);

#endif
