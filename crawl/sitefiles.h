/* crawl/sitefiles.c: robots.txt and sitemaps. What it offers the other files of the engine. */
#ifndef CRAWL_SITEFILES_H
#define CRAWL_SITEFILES_H

#include "crawl/crawl-int.h"

extern const struct fetch_handler crawl__robots_handler;
extern const struct fetch_handler crawl__sitemap_handler;
void crawl__start_robots(struct shard *c, frontier_host *fh, struct frontier_item *item);

#endif
