/* crawl/page.c: the page handler. What it offers the other files of the engine. */
#ifndef CRAWL_PAGE_H
#define CRAWL_PAGE_H

#include "crawl/crawl-int.h"

/* At a transfer's end: whether the crawl stops at once, the request then left cut short
 * (page.c). */
bool crawl__cut_short(struct request *rq);
/* Ends rq through its handler as a transfer that failed with error before any response. */
void crawl__request_failed_to_start(struct request *rq, fetch_error error, const char *why);
/* The handler of page responses. */
extern const struct fetch_handler crawl__page_handler;

#endif
