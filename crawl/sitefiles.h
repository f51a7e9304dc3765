/* crawl/sitefiles.c: robots.txt and sitemaps. What it offers the other files of the engine. */
#ifndef CRAWL_SITEFILES_H
#define CRAWL_SITEFILES_H

#include "crawl/crawl-int.h"

extern const struct fetch_handler crawl__sitefiles_robots_handler;
extern const struct fetch_handler crawl__sitefiles_sitemap_handler;
void crawl__sitefiles_start_robots(struct shard *c, frontier_host *fh, struct frontier_item *item);

#endif
