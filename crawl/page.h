/* crawl/page.c: the page handler. What it offers the other files of the engine. */
#ifndef CRAWL_PAGE_H
#define CRAWL_PAGE_H

#include "crawl/crawl-int.h"

/* The handler of page responses. */
extern const struct fetch_handler crawl__page_handler;

#endif
