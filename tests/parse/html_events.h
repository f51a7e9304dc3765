/* What the HTML tests share: a page's events written as text ("L:link|B:base|N:nofollow|"), from
 * the page given whole or in chunks. */
#ifndef CRAWL_TESTS_HTML_EVENTS_H
#define CRAWL_TESTS_HTML_EVENTS_H

#include "parse/parse.h"

#include <stddef.h>

struct events {
  char text[8192];
  size_t len;
};

/* The parser's event callback: appends the event to arg, a struct events. */
void collect(void *arg, parse_event event, const char *value, size_t len);
/* The events of html (len bytes) given in chunks of chunk bytes, under the declared charset (or
 * NULL), into ev. */
void extract_n(const char *html, size_t len, size_t chunk, const char *charset, struct events *ev);
/* extract_n of a string. */
void extract(const char *html, size_t chunk, const char *charset, struct events *ev);
/* Fails the test unless the events of doc, given in chunks of every size, are want each time. */
void expect_in_any_chunking(const char *doc, const char *want);

#endif
